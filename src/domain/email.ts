/**
 * E-mail address validation (spec 5 "Email address"). Errors are 400
 * invalid-email-address problems. Rules run in the spec's order; the first
 * failing rule gives the message.
 */
import { ProblemError, problems, type Problem } from './problems.ts';

/** Exact messages from spec 5. */
export const EMAIL_ILLEGAL_START = 'Email address cannot start with illegal character.';
export const EMAIL_ENDS_WITH_PERIOD = 'Email address cannot end with a period.';
export const EMAIL_DOMAIN_ILLEGAL_START = 'Email domain cannot start with illegal character.';
export const EMAIL_INVALID_DOMAIN = 'Invalid email domain.';

/** Messages the spec does not give (chosen here). */
export const EMAIL_NOT_A_STRING = 'Email address must be a string.';
export const EMAIL_TOO_SHORT = 'Email address must be at least 3 characters long.';
export const EMAIL_MISSING_AT = 'Email address must contain an @ symbol.';
export const EMAIL_MULTIPLE_AT = 'Email address must contain exactly one @ symbol.';
export const EMAIL_EMPTY_LOCAL_PART = 'Email address must have a name before the @ symbol.';
export const EMAIL_ILLEGAL_CHARACTER = 'Email address cannot contain spaces, tabs, line breaks or curly quotes.';

/** Characters an address must not contain: closing curly quote, tab, newline (CR or LF), space. */
const ILLEGAL_CHARACTERS = /[\u2019\t\n\r ]/;
/** Characters that would make the domain parse as something other than a bare host. */
const NON_HOST_CHARACTERS = /[/?#:@\\[\]%]/;

/** Spec 5: the domain contains a dot, has no empty labels and parses as a host. */
export function isValidEmailDomain(domain: string): boolean {
  if (!domain.includes('.')) return false;
  if (domain.split('.').some((label) => label.length === 0)) return false;
  if (NON_HOST_CHARACTERS.test(domain)) return false;
  try {
    const url = new URL(`http://${domain}`);
    return url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** Spec 5: the message of the first e-mail rule that fails, or null when valid. */
export function validateEmail(input: unknown): string | null {
  if (typeof input !== 'string') return EMAIL_NOT_A_STRING;
  if (input.length < 3) return EMAIL_TOO_SHORT;
  if (!input.includes('@')) return EMAIL_MISSING_AT;
  const parts = input.split('@');
  if (parts.length !== 2) return EMAIL_MULTIPLE_AT;
  const [local, domain] = parts as [string, string];
  if (local.length === 0) return EMAIL_EMPTY_LOCAL_PART;
  if (input.startsWith('.') || input.startsWith('<')) return EMAIL_ILLEGAL_START;
  if (input.endsWith('.')) return EMAIL_ENDS_WITH_PERIOD;
  if (ILLEGAL_CHARACTERS.test(input)) return EMAIL_ILLEGAL_CHARACTER;
  if (domain.startsWith('-')) return EMAIL_DOMAIN_ILLEGAL_START;
  if (!isValidEmailDomain(domain)) return EMAIL_INVALID_DOMAIN;
  return null;
}

/** The invalid-email-address problem for the input, or null when valid. */
export function emailProblem(input: unknown): Problem | null {
  const message = validateEmail(input);
  return message === null ? null : problems.invalidEmail(message);
}

/** Throws a ProblemError (invalid-email-address, 400) unless the address is valid. */
export function assertEmail(input: unknown): asserts input is string {
  const problem = emailProblem(input);
  if (problem) throw new ProblemError(problem);
}
