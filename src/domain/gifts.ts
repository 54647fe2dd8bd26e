/**
 * Gift vouchers: the rules the educator's settings, the gift checkout and redemption share (docs/gifts-and-memberships.md
 * "## Gift vouchers"). Pure: no I/O, `now` is a parameter, money is integer pence, times epoch seconds.
 */
import { z } from './zod.ts';
import { validateEmail } from './email.ts';
import type { ProblemProperty } from './problems.ts';
import { addCalendarMonths, isoDate, localDate, zonedWallClock } from './zone.ts';
import { MAX_GIFT_MESSAGE, type GiftDetails } from './gift-limits.ts';
import { visiblePaymentMethods, type PaymentMethod, type PaymentOptions } from './checkout/paymentMethods.ts';
import { computeCostSummary, type CostSummary } from './checkout/costSummary.ts';

/** UK practice (and the Gift Card Regulations consulted on): a gift card lasts at least 12 months. */
export const MIN_EXPIRY_MONTHS = 12;
export const MAX_EXPIRY_MONTHS = 60;
/** The amounts an educator may offer: £5 to £1,000 (a card that never needs a second look for fraud). */
export const MIN_GIFT_AMOUNT = 500;
export const MAX_GIFT_AMOUNT = 100_000;
export const MAX_FIXED_AMOUNTS = 8;
/** How far ahead a buyer may schedule the recipient's e-mail: a calendar year (London dates). */
export const MAX_SEND_AHEAD_MONTHS = 12;
/** The hour (London) a scheduled gift e-mail goes out on its send date. */
export const SEND_HOUR = 9;
export { MAX_GIFT_MESSAGE };

const pence = z.number().int().min(MIN_GIFT_AMOUNT).max(MAX_GIFT_AMOUNT);

/** An educator's gift voucher settings as stored and as the settings API takes them. */
export const giftSettingsSchema = z
  .object({
    /** The spec's `vouchers_app_installed`: gift vouchers are on sale. */
    enabled: z.boolean(),
    fixedAmounts: z.array(pence).max(MAX_FIXED_AMOUNTS).default([]),
    customMin: pence.nullable().default(null),
    customMax: pence.nullable().default(null),
    expiryMonths: z.number().int().min(MIN_EXPIRY_MONTHS).max(MAX_EXPIRY_MONTHS).default(MIN_EXPIRY_MONTHS),
    designColour: z.string().regex(/^#[0-9a-fA-F]{6}$/).nullable().default(null),
  })
  .superRefine((s, ctx) => {
    if ((s.customMin === null) !== (s.customMax === null)) {
      ctx.addIssue({ code: 'custom', path: ['customMax'], message: 'a custom amount needs both a minimum and a maximum' });
    }
    if (s.customMin !== null && s.customMax !== null && s.customMin > s.customMax) {
      ctx.addIssue({ code: 'custom', path: ['customMin'], message: 'must not be above the maximum' });
    }
    if (s.enabled && s.fixedAmounts.length === 0 && s.customMin === null) {
      ctx.addIssue({ code: 'custom', path: ['fixedAmounts'], message: 'gift vouchers need fixed amounts or a custom range' });
    }
    if (new Set(s.fixedAmounts).size !== s.fixedAmounts.length) {
      ctx.addIssue({ code: 'custom', path: ['fixedAmounts'], message: 'must not repeat an amount' });
    }
  });
export type GiftSettings = z.output<typeof giftSettingsSchema>;

export const GIFTS_OFF: GiftSettings = { enabled: false, fixedAmounts: [], customMin: null, customMax: null, expiryMonths: MIN_EXPIRY_MONTHS, designColour: null };

/**
 * Gift vouchers are on sale only where they can be paid for: switched on, and the educator takes a method the gift
 * flow allows (card or wallet; never invoice or in person, because the code is issued when it is paid). The tab, the
 * gift page, the settings' answer and the gift checkout all ask this. `available`: the methods a provider takes in
 * this deployment, where that is known (the server); the published pages know only the educator's options.
 */
export function giftVouchersOnSale(enabled: boolean, options: PaymentOptions | null | undefined, available?: readonly PaymentMethod[]): boolean {
  if (!enabled) return false;
  return visiblePaymentMethods('giftVoucher', options).some((m) => !available || available.includes(m));
}

/** The gift checkout's one line: "Gift voucher £x" (no VAT: a multi-purpose voucher's VAT is due when it is spent). */
export const GIFT_VOUCHER_LINE = 'Gift voucher';

export function giftVoucherExtras(amount: number): { label: string; cost: number; quantity: number }[] {
  return [{ label: GIFT_VOUCHER_LINE, cost: amount, quantity: 1 }];
}

/**
 * The gift checkout's cost summary for an amount: the line and the platform fee as for any paid order. The Amount
 * step shows it as the buyer chooses, before Continue; the checkout then records the same (its selection's extras
 * go through the same computeCostSummary).
 */
export function giftVoucherCostSummary(amount: number, feesAbsorbed: boolean, currency = 'GBP'): CostSummary {
  return computeCostSummary({ offers: [], addOns: [], extras: giftVoucherExtras(amount), voucher: null, vat: null, feesAbsorbed, currency });
}

/** Whether the buyer may choose this amount: one of the fixed amounts, or inside the custom range. */
export function giftAmountAllowed(settings: GiftSettings, amount: number): boolean {
  if (!Number.isInteger(amount) || amount <= 0) return false;
  if (settings.fixedAmounts.includes(amount)) return true;
  return settings.customMin !== null && settings.customMax !== null && amount >= settings.customMin && amount <= settings.customMax;
}

// Dates here are London's, through the time-zone module (src/domain/zone.ts) like every other date rule.

/** The end of the London day `months` calendar months after `issuedAt` (a card bought on 31 Jan lasts to 31 Jan, or the month's last day). */
export function giftExpiry(issuedAt: number, months: number): number {
  return zonedWallClock(addCalendarMonths(localDate(issuedAt), months), 86_399);
}

/** Today's date in London as YYYY-MM-DD. */
export function londonDate(now: number): string {
  return isoDate(localDate(now));
}

/** When the recipient's e-mail goes: at once for today, else at SEND_HOUR London time on the send date. */
export function giftSendAt(sendDate: string, now: number): number {
  if (sendDate <= londonDate(now)) return now;
  const [year, month, day] = sendDate.split('-').map(Number) as [number, number, number];
  return zonedWallClock({ year, month, day }, SEND_HOUR * 3600);
}

export type { GiftDetails };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function realDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
}

/** The Recipient step's problems (spec 8 validation properties), under `payload.{field}`. */
export function validateGiftDetails(details: GiftDetails, now: number): ProblemProperty[] {
  const out: ProblemProperty[] = [];
  const need = (key: keyof GiftDetails, name: string) => {
    if (!details[key].trim()) out.push({ key: `payload.${key}`, name, message: 'is required' });
  };
  need('buyerName', 'Your name');
  need('recipientName', "Recipient's name");
  for (const [key, name] of [['buyerEmail', 'Your email'], ['recipientEmail', "Recipient's email"]] as const) {
    if (!details[key].trim()) out.push({ key: `payload.${key}`, name, message: 'is required' });
    else if (validateEmail(details[key].trim()) !== null) out.push({ key: `payload.${key}`, name, message: 'is not a valid email address' });
  }
  if (details.message.length > MAX_GIFT_MESSAGE) out.push({ key: 'payload.message', name: 'Message', message: `must be at most ${MAX_GIFT_MESSAGE} characters` });
  const today = londonDate(now);
  const last = isoDate(addCalendarMonths(localDate(now), MAX_SEND_AHEAD_MONTHS));
  if (!realDate(details.sendDate)) out.push({ key: 'payload.sendDate', name: 'Send date', message: 'is not a valid date' });
  else if (details.sendDate < today) out.push({ key: 'payload.sendDate', name: 'Send date', message: 'must be today or later' });
  else if (details.sendDate > last) out.push({ key: 'payload.sendDate', name: 'Send date', message: 'must be within a year' });
  return out;
}

/**
 * Gift card codes: 16 characters from 31 that cannot be misread (no 0/O, 1/I/L), shown in groups of four.
 * 31^16 ≈ 2^79: with attempts rate-limited, guessing one is out of reach.
 */
export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const CODE_LENGTH = 16;

/** A code from random bytes (rejection sampling keeps every character equally likely). */
export function giftCodeFromBytes(next: () => number): string {
  let out = '';
  while (out.length < CODE_LENGTH) {
    const b = next();
    if (b < 248) out += CODE_ALPHABET[b % 31];
  }
  return out;
}

/** How a code is stored and compared: upper case, no spaces or dashes. */
export function normaliseGiftCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, '');
}

export function looksLikeGiftCode(input: string): boolean {
  const code = normaliseGiftCode(input);
  return code.length === CODE_LENGTH && [...code].every((c) => CODE_ALPHABET.includes(c));
}

/** XXXX-XXXX-XXXX-XXXX. */
export function formatGiftCode(code: string): string {
  return normaliseGiftCode(code).match(/.{1,4}/g)?.join('-') ?? code;
}

/** What a gift card pays of a total: up to its balance. */
export function giftCardApplies(balance: number, total: number): number {
  return Math.max(0, Math.min(balance, total));
}
