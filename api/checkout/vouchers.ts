/**
 * Vouchers (promo codes and gift cards): percent or fixed, with an expiry and a maximum number of uses,
 * for one course or every course of an educator. Validation here; the use itself is held and committed
 * with the spaces (holds.ts), so a voucher is never used more than its limit.
 */
import type { Selectable } from 'kysely';
import type { VouchersTable } from '../../db/schema.ts';
import type { Q } from '../../db/queries/checkout.ts';
import type { VoucherFailure } from '../../src/domain/checkout/problems.ts';
import { lapsedVoucherUses } from '../../db/queries/holds.ts';
import type { GiftCardRow } from '../../db/schema/gifts.ts';
import { giftCardByCode } from '../../db/queries/gifts.ts';
import { looksLikeGiftCode, normaliseGiftCode } from '../../src/domain/gifts.ts';
import { spendableBalance } from '../gifts/cards.ts';

export type VoucherRow = Selectable<VouchersTable>;

export type VoucherCheck = { ok: true; voucher: VoucherRow } | { ok: false; reason: VoucherFailure };

/**
 * Finds a voucher of the educator by its id or its code (codes compare case-insensitively) and checks it:
 * it exists, belongs to this course (or to every course), has not expired, has uses left (net of lapsed holds).
 * `ownHold` counts a use this checkout already holds, so renewing its own hold is not "used up".
 */
export async function checkVoucher(
  q: Q,
  input: { educatorId: string; courseId: string; codeOrId: string; now: number; ownHold?: boolean },
): Promise<VoucherCheck> {
  const value = input.codeOrId.trim();
  if (!value) return { ok: false, reason: 'unknown' };
  let voucher = await q.selectFrom('vouchers').selectAll().where('educator_id', '=', input.educatorId).where('id', '=', value).executeTakeFirst();
  if (!voucher) {
    const candidates = await q.selectFrom('vouchers').selectAll().where('educator_id', '=', input.educatorId).execute();
    voucher = candidates.find((v) => v.code.toLowerCase() === value.toLowerCase());
  }
  if (!voucher) return { ok: false, reason: 'unknown' };
  if (voucher.course_id && voucher.course_id !== input.courseId) return { ok: false, reason: 'wrongCourse' };
  if (voucher.expires_at !== null && Number(voucher.expires_at) <= input.now) return { ok: false, reason: 'expired' };
  if (voucher.max_uses !== null) {
    // Uses held by checkouts whose hold lapsed are free again (the same count the hold's guard uses).
    const uses = Number(voucher.uses) - (input.ownHold ? 1 : 0) - (await lapsedVoucherUses(q, voucher.id, input.now));
    if (uses >= Number(voucher.max_uses)) return { ok: false, reason: 'usedUp' };
  }
  return { ok: true, voucher };
}

export type GiftCardCheck = { ok: true; card: GiftCardRow; spendable: number } | { ok: false; reason: VoucherFailure };

/**
 * A gift card of the educator by its code (spaces and dashes ignored): null when no card has that code (the
 * caller answers as for an unknown promo code); expired, or with nothing left to spend, are the voucher problems.
 */
export async function checkGiftCard(q: Q, input: { educatorId: string; code: string; checkoutId: string | null; now: number }): Promise<GiftCardCheck | null> {
  if (!looksLikeGiftCode(input.code)) return null;
  const card = await giftCardByCode(q, input.educatorId, normaliseGiftCode(input.code));
  if (!card) return null;
  if (Number(card.expires_at) <= input.now) return { ok: false, reason: 'giftExpired' };
  const spendable = await spendableBalance(q, card, input.checkoutId ?? '', input.now);
  if (spendable <= 0) return { ok: false, reason: 'giftUsedUp' };
  return { ok: true, card, spendable };
}
