/** Reads and writes of gift vouchers: settings, cards and their redemptions. Every function takes a query handle. */
import type { Q } from './checkout.ts';
import { GIFTS_OFF, type GiftSettings } from '../../src/domain/gifts.ts';
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
