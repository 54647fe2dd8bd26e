/**
 * Gift cards: issuing one when its checkout is paid, and spending one at another checkout.
 *
 * Spending follows the spaces' hold (api/checkout/holds.ts): entering Payment holds the amount the card pays off
 * its balance with one guarded statement —
 *   update gift_cards set balance = balance - x where id = ? and balance >= x and expires_at > now
 * — so two checkouts can never spend the same pounds (PostgreSQL re-checks the WHERE clause after a concurrent
 * update commits; SQLite runs one transaction at a time; a check constraint keeps 0 ≤ balance ≤ amount). The hold
 * (a `gift_card_redemptions` row) lapses with the checkout's hold: a lapsed hold is given back by the next hold on
 * that card, or by the sweeper. Recording the outcome commits it (taking it again if it lapsed, or failing so the
 * payment is refunded); going back or abandoning releases it; cancelling the booking returns it to the card.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Dialect } from '../../db/client.ts';
import type { Q } from '../../db/queries/checkout.ts';
import { lockRow, sweepEachLocked } from '../../db/queries/locks.ts';
import type { GiftCardRow, GiftRedemptionRow } from '../../db/schema/gifts.ts';
import { giftCodeFromBytes } from '../../src/domain/gifts.ts';
import { newId, randomCode } from '../checkout/ids.ts';

/** GFT-XXXXXXXXXX: the gift card's reference (not its code, which is secret). */
export function newGiftReference(): string {
  return `GFT-${randomCode(10)}`;
}

/** A fresh, unused code (a collision in 2^79 is not expected, but is checked). */
export async function newGiftCode(q: Q): Promise<string> {
  for (;;) {
    const bytes = randomBytes(64);
    let i = 0;
    const code = giftCodeFromBytes(() => {
      if (i >= bytes.length) throw new Error('out of random bytes');
      return bytes[i++]!;
    });
    const taken = await q.selectFrom('gift_cards').select('id').where('code', '=', code).executeTakeFirst();
    if (!taken) return code;
  }
}

/** Serialises the writers of a card's balance (db/queries/locks.ts). */
export function lockCard(q: Q, dialect: Dialect, cardId: string): Promise<void> {
  return lockRow(q, dialect, 'gift_cards', cardId);
}

/** Gives a held redemption's amount back to its card, once (the status change is the guard). */
async function releaseRow(q: Q, row: Pick<GiftRedemptionRow, 'id' | 'gift_card_id' | 'amount'>, now: number, to: 'released' | 'returned', from: 'held' | 'committed' = 'held'): Promise<boolean> {
  const res = await q.updateTable('gift_card_redemptions').set({ status: to, updated_at: now })
    .where('id', '=', row.id).where('status', '=', from).executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) return false;
  await q.updateTable('gift_cards').set({ balance: sql<number>`balance + ${Number(row.amount)}` }).where('id', '=', row.gift_card_id).execute();
  return true;
}

/** Releases the card's lapsed holds (call with the card locked). */
async function sweepCard(q: Q, cardId: string, now: number): Promise<void> {
  const lapsed = await q.selectFrom('gift_card_redemptions').selectAll()
    .where('gift_card_id', '=', cardId).where('status', '=', 'held').where('expires_at', '<=', now).execute();
  for (const row of lapsed) await releaseRow(q, row, now, 'released');
}

/** The checkout's redemption row, if any. */
export async function redemptionOf(q: Q, checkoutId: string): Promise<GiftRedemptionRow | undefined> {
  return q.selectFrom('gift_card_redemptions').selectAll().where('checkout_id', '=', checkoutId).executeTakeFirst();
}

/**
 * What the card can pay for this checkout now: its balance, plus what this checkout already holds on it, plus holds
 * of others that lapsed (free again). Zero for an expired card or another educator's.
 */
export async function spendableBalance(q: Q, card: GiftCardRow, checkoutId: string, now: number): Promise<number> {
  if (Number(card.expires_at) <= now) return 0;
  const held = await q.selectFrom('gift_card_redemptions').select(['checkout_id', 'amount', 'expires_at'])
    .where('gift_card_id', '=', card.id).where('status', '=', 'held').execute();
  const back = held.filter((h) => h.checkout_id === checkoutId || Number(h.expires_at) <= now).reduce((t, h) => t + Number(h.amount), 0);
  return Number(card.balance) + back;
}

export type GiftHoldResult = { ok: true } | { ok: false; available: number };

/**
 * Holds `amount` of the card for the checkout until `expiresAt` (replacing what the checkout held before). Returns
 * the balance there is when the card cannot pay it (spent meanwhile, or expired).
 */
export async function holdGiftCard(
  q: Q, dialect: Dialect, input: { cardId: string; checkoutId: string; amount: number; now: number; expiresAt: number },
): Promise<GiftHoldResult> {
  const { cardId, checkoutId, amount, now } = input;
  await lockCard(q, dialect, cardId);
  await sweepCard(q, cardId, now);
  const existing = await redemptionOf(q, checkoutId);
  if (existing?.status === 'held') {
    if (existing.gift_card_id === cardId && Number(existing.amount) === amount) {
      await q.updateTable('gift_card_redemptions').set({ expires_at: input.expiresAt, updated_at: now }).where('id', '=', existing.id).execute();
      return { ok: true };
    }
    if (existing.gift_card_id !== cardId) await lockCard(q, dialect, existing.gift_card_id);
    await releaseRow(q, existing, now, 'released');
  }
  if (existing?.status === 'committed') return { ok: false, available: 0 };
  const res = await q.updateTable('gift_cards').set({ balance: sql<number>`balance - ${amount}` })
    .where('id', '=', cardId).where('balance', '>=', amount).where('expires_at', '>', now).executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) {
    const card = await q.selectFrom('gift_cards').select(['balance', 'expires_at']).where('id', '=', cardId).executeTakeFirst();
    return { ok: false, available: card && Number(card.expires_at) > now ? Number(card.balance) : 0 };
  }
  const values = { gift_card_id: cardId, amount, status: 'held' as const, expires_at: input.expiresAt, outcome_kind: null, outcome_id: null, updated_at: now };
  if (existing) await q.updateTable('gift_card_redemptions').set(values).where('id', '=', existing.id).execute();
  else await q.insertInto('gift_card_redemptions').values({ id: newId('gred'), checkout_id: checkoutId, created_at: now, ...values }).execute();
  return { ok: true };
}

/** Gives back what the checkout holds (go back, abandon, a new selection). */
export async function releaseGiftCard(q: Q, dialect: Dialect, checkoutId: string, now: number): Promise<void> {
  const existing = await redemptionOf(q, checkoutId);
  if (!existing || existing.status !== 'held') return;
  await lockCard(q, dialect, existing.gift_card_id);
  await releaseRow(q, existing, now, 'released');
}

/** Makes the checkout's hold a spend of the outcome. False when there is no held redemption of this card and amount. */
export async function commitGiftCard(q: Q, input: { checkoutId: string; cardId: string; amount: number; now: number; outcome: { kind: string; id: string } }): Promise<boolean> {
  const res = await q.updateTable('gift_card_redemptions')
    .set({ status: 'committed', outcome_kind: input.outcome.kind, outcome_id: input.outcome.id, updated_at: input.now })
    .where('checkout_id', '=', input.checkoutId).where('gift_card_id', '=', input.cardId).where('amount', '=', input.amount)
    .where('status', '=', 'held').executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** A cancelled outcome gives what its gift card paid back to the card (once). Returns the amount returned. */
export async function returnGiftCardSpend(q: Q, dialect: Dialect, outcome: { kind: string; id: string }, now: number): Promise<number> {
  const spent = await q.selectFrom('gift_card_redemptions').selectAll()
    .where('outcome_kind', '=', outcome.kind).where('outcome_id', '=', outcome.id).where('status', '=', 'committed').execute();
  let returned = 0;
  for (const row of spent) {
    await lockCard(q, dialect, row.gift_card_id);
    if (await releaseRow(q, row, now, 'returned', 'committed')) returned += Number(row.amount);
  }
  return returned;
}

/** The sweeper's part: every lapsed gift card hold, card by card. */
export async function sweepLapsedGiftHolds(db: Q, dialect: Dialect, now: number): Promise<number> {
  const cards = await db.selectFrom('gift_card_redemptions').select('gift_card_id').distinct()
    .where('status', '=', 'held').where('expires_at', '<=', now).execute();
  return sweepEachLocked(db, dialect, 'gift_cards', cards.map((c) => c.gift_card_id), (tx, id) => sweepCard(tx, id, now));
}
