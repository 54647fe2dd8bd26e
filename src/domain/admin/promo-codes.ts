/**
 * Promo codes as the admin edits them (docs/admin.md "Promo codes"): the vouchers the checkout applies with "Apply
 * promo code or gift card" (api/checkout/vouchers.ts checkVoucher; the discount is src/domain/checkout/costSummary.ts
 * voucherDiscount). The checkout's rules decide what is valid here too:
 * - a code is found case-insensitively among the educator's codes, so two codes may not differ only in case;
 * - a code that looks like a gift card code would hide the gift card it matches (promo codes are looked up first);
 * - a percentage is 1–100 (the checkout clamps to 100), a fixed amount is whole pence;
 * - `max_uses` counts uses and the holds of learners paying now (vouchers.uses), so it never goes below that;
 * - it is expired from `expires_at` on (expired when expires_at ≤ now): "valid until" a day means until that London
 *   day ends.
 * Pure: no I/O.
 */
import { z } from '../zod.ts';
import { looksLikeGiftCode } from '../gifts.ts';
import { addCalendarDays, zonedMidnight } from '../zone.ts';
import { formatPence } from '../money.ts';
import { REQUIRED, epochSeconds, refId, wholeNumber } from './catalogue-input.ts';
import { calendarDate } from './dates.ts';

export const PROMO_KINDS = ['percent', 'fixed'] as const;
export type PromoKind = (typeof PROMO_KINDS)[number];
export const MAX_FIXED_DISCOUNT = 10_000_000;

/** How a code is kept: trimmed, upper case (the checkout compares case-insensitively anyway). */
export function normalisePromoCode(code: string): string {
  return code.trim().toUpperCase();
}

const promoShape = {
  code: z
    .string({ error: REQUIRED })
    .trim()
    .min(3, 'must be at least 3 characters')
    .max(40, 'must be at most 40 characters')
    .regex(/^[A-Za-z0-9_-]+$/, 'may hold only letters, digits, - and _')
    .refine((v) => !looksLikeGiftCode(v), 'looks like a gift card code: choose another')
    .transform(normalisePromoCode),
  kind: z.enum(PROMO_KINDS, { error: 'must be percent or fixed' }),
  /** Percent (1–100) or pence. */
  amount: z.number({ error: 'must be a number' }).int('must be a whole number'),
  /** null: unlimited. */
  maxUses: wholeNumber(1, 1_000_000).nullable().default(null),
  /** The first instant it no longer applies (null: never expires). */
  expiresAt: epochSeconds.nullable().default(null),
  /** null: every course of the educator. */
  courseId: refId.nullable().default(null),
};

function checkAmount(v: { kind: PromoKind; amount: number }, ctx: z.RefinementCtx): void {
  if (v.kind === 'percent' && (v.amount < 1 || v.amount > 100)) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'must be between 1 and 100 (%)' });
  if (v.kind === 'fixed' && (v.amount < 1 || v.amount > MAX_FIXED_DISCOUNT)) ctx.addIssue({ code: 'custom', path: ['amount'], message: `must be between 1p and ${formatPence(MAX_FIXED_DISCOUNT, 'GBP')}` });
}

export const promoCodeInputSchema = z.object(promoShape).superRefine(checkAmount);
export type PromoCodeInput = z.output<typeof promoCodeInputSchema>;
export const promoCodeUpdateSchema = z.object({ revision: wholeNumber(1, Number.MAX_SAFE_INTEGER), ...promoShape }).superRefine(checkAmount);

/** Why `maxUses` is too low for a code used (or held) `uses` times; null when it is fine. */
export function maxUsesProblem(maxUses: number | null, uses: number): string | null {
  if (maxUses === null || maxUses >= uses) return null;
  return `must be at least ${uses} (it has been used or is held ${uses} ${uses === 1 ? 'time' : 'times'})`;
}

/** "Valid until" a London day: the instant that day ends. */
export function endOfLondonDay(day: string): number {
  return zonedMidnight(addCalendarDays(calendarDate(day), 1));
}

export type PromoStatus = 'active' | 'expired' | 'used up';

/** What the list says of a code now. */
export function promoStatus(v: { expiresAt: number | null; maxUses: number | null; uses: number }, now: number): PromoStatus {
  if (v.expiresAt !== null && v.expiresAt <= now) return 'expired';
  if (v.maxUses !== null && v.uses >= v.maxUses) return 'used up';
  return 'active';
}

/** "20% off" / "£5.00 off". */
export function promoDiscountText(v: { kind: PromoKind; amount: number; currency?: string }): string {
  return v.kind === 'percent' ? `${v.amount}% off` : `${formatPence(v.amount, v.currency ?? 'GBP')} off`;
}
