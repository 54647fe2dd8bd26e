/**
 * Refunds, exactly once (docs/admin.md "Refunds"). A refund is recorded before any money moves and given back in
 * three steps:
 *
 *   1. claim (in the transaction of the decision, the booking's row locked): a `refunds` row with the admin's
 *      request key (unique per educator: the same press of the button twice is one refund), the next sequence number
 *      of the booking (unique per booking: two refunds made on the booking as it was are one refund and a 409), the
 *      split between the payment method and a gift card, the platform's share, and the provider key `refund_{id}`.
 *      What a gift card paid goes back on the card in this transaction; the booking's `refunded_total` moves with it;
 *   2. send (after the commit): the provider is asked to refund with that key — Stripe's Idempotency-Key, PayPal's
 *      PayPal-Request-Id, the test provider's unique key — so asking again can only answer with the same refund;
 *   3. record the answer (a conditional update of the pending row).
 *
 * If the answer is lost (the process dies, the network drops) the row stays pending, and the refund reconciler
 * (`refundReconcilerJob`, one of api/jobs.ts) sends it again with the same key later: the provider answers with the
 * refund it made (or makes it, if it never got the first request), never a second one. A provider that keeps failing
 * marks the refund failed after REFUND_MAX_ATTEMPTS tries, for the educator to arrange.
 */
import { sql, type Transaction } from 'kysely';
import type { Deps } from '../deps.ts';
import type { Dialect } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import type { BookingRow } from '../../db/schema/checkout.ts';
import type { RefundKind, RefundRow } from '../../db/schema/admin-bookings.ts';
import type { BackgroundJob } from '../background.ts';
import { needsProvider, providerNamed } from '../payments/registry.ts';
import type { ProviderRefund } from '../payments/types.ts';
import { newId } from '../checkout/ids.ts';
import { loggerFor } from '../log.ts';
import { lockCard } from '../gifts/cards.ts';
import {
  NOTHING_REFUNDED, platformFeeRefund, refundLeft, splitRefund, type PaidParts, type RefundedParts,
} from '../../src/domain/admin/refunds.ts';

type Tx = Transaction<Database>;
type Q = Deps['db'] | Tx;

/** Tries of one refund with its provider before it is marked failed (for the educator to arrange). */
export const REFUND_MAX_ATTEMPTS = 5;

/** Kinds of refund that come with a cancellation (the booking_cancellations row follows their refund). */
const CANCELLING: readonly RefundKind[] = ['cancellation', 'decline', 'date-cancellation', 'learner-cancellation'];

/** The educator's booking, its row locked for the rest of the transaction on PostgreSQL (SQLite writes one at a time). */
export async function lockBooking(tx: Tx, dialect: Dialect, educatorId: string, bookingId: string): Promise<BookingRow | null> {
  let query = tx.selectFrom('bookings').selectAll().where('id', '=', bookingId).where('educator_id', '=', educatorId);
  if (dialect === 'postgres') query = query.forUpdate();
  return (await query.executeTakeFirst()) ?? null;
}

/** The provider that took a booking's payment (its checkout's payment row), or null. */
export async function providerOfBooking(q: Q, booking: Pick<BookingRow, 'checkout_id' | 'payment_id'>): Promise<string | null> {
  if (!booking.payment_id) return null;
  const stored = await q.selectFrom('checkout_payments').select('provider')
    .where('checkout_id', '=', booking.checkout_id).where('provider_payment_id', '=', booking.payment_id).executeTakeFirst();
  if (stored) return stored.provider;
  const checkout = await q.selectFrom('checkouts').select(['payment_provider', 'payment_id']).where('id', '=', booking.checkout_id).executeTakeFirst();
  return checkout && checkout.payment_id === booking.payment_id ? checkout.payment_provider : null;
}

interface StoredSummary {
  platform_fee?: number;
  fees_absorbed?: boolean;
  gift_card_amount?: number | null;
}

/** What a booking was paid with: through its provider, by gift card, and the platform's fee on it. */
export function paidPartsOf(booking: Pick<BookingRow, 'payment_state' | 'payment_method' | 'payment_id' | 'total_cost' | 'details'>, provider: string | null): PaidParts {
  const summary = ((booking.details as { costSummary?: StoredSummary } | null)?.costSummary ?? null);
  const paid = booking.payment_state === 'paid';
  const byProvider = paid && !!booking.payment_id && !!provider && needsProvider(booking.payment_method ?? '') ? Number(booking.total_cost) : 0;
  const giftCard = Math.max(0, Number(summary?.gift_card_amount ?? 0) || 0);
  const anyPaid = byProvider > 0 || giftCard > 0 || (paid && Number(booking.total_cost) > 0);
  return {
    provider: byProvider,
    giftCard,
    platformFee: anyPaid ? Math.max(0, Number(summary?.platform_fee ?? 0) || 0) : 0,
    feesAbsorbed: summary?.fees_absorbed !== false,
  };
}

export interface RefundHistory {
  done: RefundedParts;
  /** Refund rows of the booking (all statuses): the next one's sequence number is this + 1. */
  count: number;
  rows: RefundRow[];
}

/**
 * The booking's refunds so far; failed ones gave nothing back. A learner's cancellation refunded before the refund
 * service existed (a booking_cancellations row with its refund, no `refunds` row) counts too — its provider refund,
 * and what went back on a gift card then — so nothing is ever given back twice.
 */
export async function refundHistory(q: Q, bookingId: string): Promise<RefundHistory> {
  const [rows, cancellation, returned] = await Promise.all([
    q.selectFrom('refunds').selectAll().where('booking_id', '=', bookingId).orderBy('seq').execute(),
    q.selectFrom('booking_cancellations').select(['refund_status', 'refund_amount']).where('booking_id', '=', bookingId).executeTakeFirst(),
    q.selectFrom('gift_card_redemptions').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('total'))
      .where('outcome_kind', '=', 'booking').where('outcome_id', '=', bookingId).where('status', '=', 'returned').executeTakeFirst(),
  ]);
  const live = rows.filter((r) => r.status !== 'failed');
  const done: RefundedParts = live.reduce((t, r) => ({
    provider: t.provider + Number(r.amount), giftCard: t.giftCard + Number(r.gift_card_amount), platformFee: t.platformFee + Number(r.platform_fee_refunded),
  }), { ...NOTHING_REFUNDED });
  const cancellingRow = rows.some((r) => CANCELLING.includes(r.kind));
  if (cancellation && !cancellingRow) {
    if (cancellation.refund_status === 'refunded' || cancellation.refund_status === 'pending') done.provider += Number(cancellation.refund_amount);
    done.giftCard = Math.max(done.giftCard, Number(returned?.total ?? 0));
  }
  return { done, count: rows.reduce((m, r) => Math.max(m, Number(r.seq)), 0), rows };
}

/**
 * Gives `amount` of what gift cards paid for the booking back to them, in the caller's transaction: the committed
 * spend shrinks by what goes back (a spend given back whole is `returned`), so a later cancellation by the learner
 * returns only what is still spent. Returns what went back.
 */
export async function returnGiftPart(q: Q, dialect: Dialect, bookingId: string, amount: number, now: number): Promise<number> {
  if (amount <= 0) return 0;
  const spent = await q.selectFrom('gift_card_redemptions').selectAll()
    .where('outcome_kind', '=', 'booking').where('outcome_id', '=', bookingId).where('status', '=', 'committed')
    .orderBy('created_at').execute();
  let left = amount;
  for (const row of spent) {
    if (left <= 0) break;
    const take = Math.min(left, Number(row.amount));
    if (take <= 0) continue;
    await lockCard(q, dialect, row.gift_card_id);
    const rest = Number(row.amount) - take;
    // A spend given back whole keeps its amount (always above 0) and is `returned`, as a learner's cancellation leaves it.
    const changed = await q.updateTable('gift_card_redemptions')
      .set(rest === 0 ? { status: 'returned', updated_at: now } : { amount: rest, updated_at: now })
      .where('id', '=', row.id).where('status', '=', 'committed').where('amount', '=', Number(row.amount))
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) continue;
    await q.updateTable('gift_cards').set({ balance: sql<number>`balance + ${take}` }).where('id', '=', row.gift_card_id).execute();
    left -= take;
  }
  return amount - left;
}

/**
 * A membership credit that paid for a space of this booking goes back to its membership when the booking is
 * cancelled by the educator — into the period it came from, while that period lasts (credits do not roll over).
 * Called once per booking: the cancellation's guarded status change is the guard (the learner's own cancellation
 * gives no credit back). Returns how many went back.
 */
export async function returnMembershipCredits(q: Q, bookingId: string, now: number): Promise<number> {
  const uses = await q.selectFrom('membership_credit_uses').select(['id', 'membership_id', 'period_index']).where('booking_id', '=', bookingId).execute();
  let returned = 0;
  for (const use of uses) {
    const res = await q.updateTable('memberships').set({ credits_left: sql<number>`credits_left + 1`, updated_at: now })
      .where('id', '=', use.membership_id).where('period_index', '=', Number(use.period_index))
      .where('status', 'in', ['active', 'past_due']).where('current_period_end', '>', now)
      .executeTakeFirst();
    returned += Number(res.numUpdatedRows);
  }
  return returned;
}

export interface ClaimInput {
  booking: BookingRow;
  provider: string | null;
  paid: PaidParts;
  history: RefundHistory;
  /** What goes back in all (pence): the payment method first, then the gift card. */
  amount: number;
  kind: RefundKind;
  requestKey: string;
  userId: string | null;
  reason: string | null;
  now: number;
  creditsReturned?: number;
}

/**
 * Step 1: records the refund (pending while the provider has its part to give back) and gives the gift card its part,
 * in the caller's transaction, the booking locked. Returns the row.
 */
export async function claimRefund(tx: Tx, dialect: Dialect, input: ClaimInput): Promise<RefundRow> {
  const { booking, paid, history, now } = input;
  const cancellation = CANCELLING.includes(input.kind);
  const split = splitRefund(input.amount, refundLeft(paid, history.done));
  const fee = platformFeeRefund(paid, history.done, split.provider + split.giftCard, { cancellation });
  const giftBack = await returnGiftPart(tx, dialect, booking.id, split.giftCard, now);
  const id = newId('rfd');
  const pending = split.provider > 0;
  const row: RefundRow = {
    id, educator_id: booking.educator_id, booking_id: booking.id, seq: history.count + 1, request_key: input.requestKey, kind: input.kind,
    amount: split.provider, gift_card_amount: giftBack, credits_returned: input.creditsReturned ?? 0, platform_fee_refunded: fee,
    currency: booking.currency || 'GBP', provider: pending ? input.provider : null, provider_payment_id: pending ? booking.payment_id : null,
    provider_key: `refund_${id}`, provider_refund_id: null, status: pending ? 'pending' : 'succeeded', attempts: 0, last_error: null,
    reason: input.reason, created_by: input.userId, created_at: now, checked_at: null, completed_at: pending ? null : now,
  };
  await tx.insertInto('refunds').values(row).execute();
  const total = split.provider + giftBack;
  if (total > 0) {
    await tx.updateTable('bookings').set({ refunded_total: sql<number>`refunded_total + ${total}` }).where('id', '=', booking.id).execute();
  }
  return row;
}

export interface SendHooks {
  /** Runs after the provider answered, before the answer is recorded (tests: a process that dies there). */
  afterProvider?: () => void | Promise<void>;
}

/**
 * Steps 2 and 3: asks the refund's provider (with its key) and records the answer. Safe to call any number of times,
 * from any process: a refund no longer pending is returned as it is, and the provider answers a repeated key with the
 * refund it made. Returns the row as it stands afterwards.
 */
export async function sendRefund(deps: Deps, refundId: string, hooks: SendHooks = {}): Promise<RefundRow | null> {
  const row = await deps.db.selectFrom('refunds').selectAll().where('id', '=', refundId).executeTakeFirst();
  if (!row || row.status !== 'pending') return row ?? null;
  let answer: ProviderRefund | null = null;
  let failure: string | null = null;
  try {
    const provider = row.provider ? providerNamed(deps, row.provider) : null;
    if (!provider || !row.provider_payment_id) throw new Error(`payment provider ${row.provider ?? '(none)'} is not available`);
    answer = await provider.refund(row.provider_payment_id, {
      amount: Number(row.amount), currency: row.currency, idempotencyKey: row.provider_key,
      metadata: { booking_id: row.booking_id, refund_id: row.id },
    });
  } catch (error) {
    failure = describeError(error);
    loggerFor(deps.config).error('refund not made yet', { refundId, error: failure });
  }
  await hooks.afterProvider?.();
  return recordAnswer(deps, row, answer, failure);
}

function describeError(error: unknown): string {
  const problem = (error as { problem?: { detail?: string; title?: string } } | null)?.problem;
  const text = problem?.detail ?? problem?.title ?? (error instanceof Error ? error.message : String(error));
  return text.slice(0, 500);
}

async function recordAnswer(deps: Deps, row: RefundRow, answer: ProviderRefund | null, failure: string | null): Promise<RefundRow | null> {
  const now = deps.now();
  return deps.db.transaction().execute(async (tx) => {
    const current = await tx.selectFrom('refunds').selectAll().where('id', '=', row.id).executeTakeFirst();
    if (!current || current.status !== 'pending') return current ?? null;
    const attempts = Number(current.attempts) + 1;
    let status: RefundRow['status'] = 'pending';
    if (answer && answer.status !== 'pending') status = answer.status;
    else if (!answer && attempts >= REFUND_MAX_ATTEMPTS) status = 'failed';
    const changed = await tx.updateTable('refunds').set({
      status, attempts, provider_refund_id: answer?.id ?? current.provider_refund_id, last_error: answer ? null : failure,
      completed_at: status === 'pending' ? null : now,
    }).where('id', '=', row.id).where('status', '=', 'pending').executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) return current;
    if (status === 'failed') {
      // Nothing went back through the provider: the booking's refunded total no longer counts it.
      await tx.updateTable('bookings').set({ refunded_total: sql<number>`refunded_total - ${Number(current.amount)}` }).where('id', '=', current.booking_id).execute();
    }
    if (CANCELLING.includes(current.kind)) {
      await tx.updateTable('booking_cancellations').set({
        refund_status: status === 'succeeded' ? 'refunded' : status === 'failed' ? 'failed' : 'pending',
        refunded_at: status === 'succeeded' ? now : null,
        refund_error: status === 'failed' ? (failure ?? 'The provider refused the refund.') : null,
      }).where('booking_id', '=', current.booking_id).execute();
    }
    if (status === 'succeeded') await markPaymentRefunded(tx, current.booking_id, now);
    return (await tx.selectFrom('refunds').selectAll().where('id', '=', row.id).executeTakeFirst()) ?? null;
  });
}

/** The checkout's payment record says refunded once everything it took has gone back. */
async function markPaymentRefunded(tx: Tx, bookingId: string, now: number): Promise<void> {
  const booking = await tx.selectFrom('bookings').select(['checkout_id', 'payment_id', 'total_cost']).where('id', '=', bookingId).executeTakeFirst();
  if (!booking?.payment_id) return;
  const back = await tx.selectFrom('refunds').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('total'))
    .where('booking_id', '=', bookingId).where('status', '=', 'succeeded').executeTakeFirstOrThrow();
  if (Number(back.total) < Number(booking.total_cost)) return;
  await tx.updateTable('checkout_payments').set({ status: 'refunded', updated_at: now })
    .where('checkout_id', '=', booking.checkout_id).where('provider_payment_id', '=', booking.payment_id).execute();
}

export interface RefundReconcilerOptions {
  /** A refund younger than this is left to the request that made it (seconds). */
  graceSeconds?: number;
  /** How long after a try the same refund is tried again (seconds). */
  recheckSeconds?: number;
  batch?: number;
}

/**
 * One pass of the refund reconciler: claims pending refunds (a conditional update of checked_at, so two processes
 * never send one at once) and sends each again with its key. Returns how many it sent.
 */
export async function reconcileRefunds(deps: Deps, options: RefundReconcilerOptions = {}): Promise<{ checked: number; results: (RefundRow | null)[] }> {
  const now = deps.now();
  const grace = options.graceSeconds ?? 60;
  const recheck = options.recheckSeconds ?? 120;
  const due = await deps.db.selectFrom('refunds').select(['id', 'checked_at'])
    .where('status', '=', 'pending').where('created_at', '<=', now - grace)
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<=', now - recheck)]))
    .orderBy('created_at').limit(options.batch ?? 20).execute();
  const results: (RefundRow | null)[] = [];
  for (const refund of due) {
    const claim = await deps.db.updateTable('refunds').set({ checked_at: now })
      .where('id', '=', refund.id).where('status', '=', 'pending')
      .where((eb) => (refund.checked_at === null ? eb('checked_at', 'is', null) : eb('checked_at', '=', refund.checked_at)))
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) === 0) continue;
    results.push(await sendRefund(deps, refund.id));
  }
  return { checked: results.length, results };
}

/** The refund reconciler as a background job (api/jobs.ts). */
export function refundReconcilerJob(deps: Deps, options: RefundReconcilerOptions = {}): BackgroundJob {
  return {
    name: 'refund-reconciler',
    idleMs: 30_000,
    busyMs: 1_000,
    maxBackoffMs: 10 * 60_000,
    run: async () => (await reconcileRefunds(deps, options)).checked,
  };
}
