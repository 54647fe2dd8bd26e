/** Reads and writes of gift vouchers: settings, cards and their redemptions. Every function takes a query handle. */
import type { Q } from './checkout.ts';
import { GIFTS_OFF, giftVouchersOnSale, type GiftSettings } from '../../src/domain/gifts.ts';
import { PAYMENT_METHODS, type PaymentMethod, type PaymentOptions } from '../../src/domain/checkout/paymentMethods.ts';
import { loadPaymentOptions } from './checkout.ts';
import type { GiftCardRow } from '../schema/gifts.ts';

export async function loadGiftSettings(q: Q, educatorId: string): Promise<GiftSettings> {
  const row = await q.selectFrom('gift_voucher_settings').selectAll().where('educator_id', '=', educatorId).executeTakeFirst();
  if (!row) return GIFTS_OFF;
  return {
    enabled: Number(row.enabled) === 1,
    fixedAmounts: row.fixed_amounts ? row.fixed_amounts.split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0) : [],
    customMin: row.custom_min === null ? null : Number(row.custom_min),
    customMax: row.custom_max === null ? null : Number(row.custom_max),
    expiryMonths: Number(row.expiry_months),
    designColour: row.design_colour,
  };
}

/** Whether the educator's gift vouchers are on sale: switched on and payable (src/domain/gifts.ts giftVouchersOnSale). */
export async function giftVouchersSold(q: Q, educatorId: string, settings?: GiftSettings, available?: readonly PaymentMethod[]): Promise<boolean> {
  const s = settings ?? await loadGiftSettings(q, educatorId);
  if (!s.enabled) return false;
  return giftVouchersOnSale(true, await loadPaymentOptions(q, educatorId, null), available);
}

/**
 * The educators (of `ids`, or all) whose gift vouchers are on sale, for the published pages: switched on, and their
 * own payment options (none: card only) take a method the gift flow allows. Two statements, whatever the number.
 */
export async function educatorsSellingGifts(q: Q, ids: ReadonlyArray<string> | null): Promise<Set<string>> {
  if (ids && ids.length === 0) return new Set();
  let on = q.selectFrom('gift_voucher_settings').select('educator_id').where('enabled', '=', 1);
  if (ids) on = on.where('educator_id', 'in', [...ids]);
  const enabled = (await on.execute()).map((r) => r.educator_id);
  if (enabled.length === 0) return new Set();
  const rows = await q.selectFrom('payment_options as po')
    .leftJoin('payment_option_methods as m', 'm.payment_options_id', 'po.id')
    .select(['po.educator_id', 'm.method', 'm.enabled'])
    .where('po.course_id', 'is', null).where('po.educator_id', 'in', enabled)
    .execute();
  const options = new Map<string, PaymentOptions>();
  for (const r of rows) {
    const o = options.get(r.educator_id) ?? {};
    options.set(r.educator_id, o);
    if (r.method && (PAYMENT_METHODS as readonly string[]).includes(r.method)) o[r.method as PaymentMethod] = { enabled: !!r.enabled };
  }
  // An educator without options of their own takes card only (spec 7): the default set.
  return new Set(enabled.filter((id) => giftVouchersOnSale(true, options.get(id) ?? null)));
}

export async function saveGiftSettings(q: Q, educatorId: string, s: GiftSettings, now: number): Promise<void> {
  const values = {
    enabled: s.enabled ? 1 : 0,
    fixed_amounts: [...s.fixedAmounts].sort((a, b) => a - b).join(','),
    custom_min: s.customMin,
    custom_max: s.customMax,
    expiry_months: s.expiryMonths,
    design_colour: s.designColour,
    updated_at: now,
  };
  await q.insertInto('gift_voucher_settings').values({ educator_id: educatorId, ...values })
    .onConflict((oc) => oc.column('educator_id').doUpdateSet(values)).execute();
}

/** A card of the educator by its code (normalised), or undefined. */
export async function giftCardByCode(q: Q, educatorId: string, code: string): Promise<GiftCardRow | undefined> {
  return q.selectFrom('gift_cards').selectAll().where('code', '=', code).where('educator_id', '=', educatorId).executeTakeFirst();
}

/** The learner's gift cards: bought by them, or sent to their e-mail address. Newest first. */
export async function learnerGiftCards(q: Q, user: { id: string; email: string }): Promise<(GiftCardRow & { educator_name: string; educator_slug: string })[]> {
  return q.selectFrom('gift_cards')
    .innerJoin('educators', 'educators.id', 'gift_cards.educator_id')
    .selectAll('gift_cards')
    .select(['educators.name as educator_name', 'educators.slug as educator_slug'])
    .where((eb) => eb.or([eb('gift_cards.buyer_user_id', '=', user.id), eb('gift_cards.recipient_email', '=', user.email.toLowerCase())]))
    .orderBy('gift_cards.created_at', 'desc')
    .orderBy('gift_cards.id')
    .execute();
}
