/**
 * Read models of the Money screen (api/admin/money.ts): the period's takings and refunds per payment provider, the
 * platform's fees, gift cards sold and members, each list newest first and keyset-paged by (created_at, id) —
 * the exports walk the same keys oldest first, a page at a time, so any size reads in flat memory.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { addFee, NO_FEES, type FeeFigures, type MemberState } from '../../src/domain/admin/money.ts';
import { parseReviewCursor } from '../../src/domain/admin/reviews.ts';

type Db = Kysely<Database>;
const num = (v: unknown): number => Number(v ?? 0) || 0;
const FEE_PAGE = 1000;

interface Grouped { provider: string; count: number; amount: number }

/** Money taken per provider in [from, to): checkout payments that went through, and memberships' paid renewals. */
export async function takenPerProvider(db: Db, educatorId: string, from: number, to: number): Promise<Grouped[]> {
  const [checkout, renewals] = await Promise.all([
    db.selectFrom('checkout_payments as cp').innerJoin('checkouts as c', 'c.id', 'cp.checkout_id')
      .select(['cp.provider']).select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('cp.amount').as('amount')])
      .where('c.educator_id', '=', educatorId).where('cp.status', 'in', ['succeeded', 'refunded'])
      .where('cp.created_at', '>=', from).where('cp.created_at', '<', to)
      .groupBy('cp.provider').execute(),
    // A membership's first payment is its checkout's (above); its renewals are charged by the recurring provider.
    db.selectFrom('membership_payments').select(['provider']).select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('amount').as('amount')])
      .where('educator_id', '=', educatorId).where('kind', '=', 'renewal').where('status', '=', 'paid').where('provider', 'is not', null)
      .where('created_at', '>=', from).where('created_at', '<', to)
      .groupBy('provider').execute(),
  ]);
  return [...checkout, ...renewals].map((r) => ({ provider: r.provider ?? '', count: num(r.count), amount: num(r.amount) }));
}

/** Refunds made in [from, to) per provider (failed ones gave nothing back), and the platform fees they returned. */
export async function refundedPerProvider(db: Db, educatorId: string, from: number, to: number): Promise<{ perProvider: Grouped[]; feesRefunded: number }> {
  const base = db.selectFrom('refunds').where('educator_id', '=', educatorId).where('status', '!=', 'failed').where('created_at', '>=', from).where('created_at', '<', to);
  const [rows, fees] = await Promise.all([
    base.select(['provider']).select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('amount').as('amount')])
      .where('provider', 'is not', null).where('amount', '>', 0).groupBy('provider').execute(),
    base.select((eb) => eb.fn.sum<number>('platform_fee_refunded').as('fees')).executeTakeFirst(),
  ]);
  return { perProvider: rows.map((r) => ({ provider: r.provider ?? '', count: num(r.count), amount: num(r.amount) })), feesRefunded: num(fees?.fees) };
}

/**
 * The platform fees on the sales completed in [from, to) that were paid (through a provider, or marked paid):
 * each checkout's cost summary, read a page at a time.
 */
export async function feesCharged(db: Db, educatorId: string, from: number, to: number): Promise<FeeFigures> {
  let figures = NO_FEES;
  let after: string | null = null;
  for (;;) {
    let q = db.selectFrom('checkouts as c').select(['c.id', 'c.cost_summary'])
      .where('c.educator_id', '=', educatorId).where('c.completed_at', '>=', from).where('c.completed_at', '<', to).where('c.total_cost', '>', 0)
      .where((eb) => eb.or([
        eb.exists(eb.selectFrom('checkout_payments as cp').select('cp.id').whereRef('cp.checkout_id', '=', 'c.id').where('cp.status', 'in', ['succeeded', 'refunded'])),
        eb.exists(eb.selectFrom('bookings as b').select('b.id').whereRef('b.checkout_id', '=', 'c.id').where('b.payment_state', '=', 'paid')),
        eb.exists(eb.selectFrom('orders as o').select('o.id').whereRef('o.checkout_id', '=', 'c.id').where('o.payment_state', '=', 'paid')),
      ]));
    if (after !== null) q = q.where('c.id', '>', after);
    const rows = await q.orderBy('c.id').limit(FEE_PAGE).execute();
    for (const r of rows) figures = addFee(figures, r.cost_summary as { platform_fee?: unknown; fees_absorbed?: unknown } | null);
    if (rows.length < FEE_PAGE) return figures;
    after = rows[rows.length - 1]!.id;
  }
}

/** Gift cards sold: all of them, those sold in [from, to), and what is left on them (still valid / run out). */
export async function giftCardTotals(db: Db, educatorId: string, from: number, to: number, now: number) {
  const row = await db.selectFrom('gift_cards').where('educator_id', '=', educatorId)
    .select((eb) => [
      eb.fn.countAll<number>().as('sold'),
      eb.fn.sum<number>('amount').as('amount'),
      eb.fn.sum<number>(eb.case().when('expires_at', '>', now).then(eb.ref('balance')).else(0).end()).as('outstanding'),
      eb.fn.sum<number>(eb.case().when('expires_at', '<=', now).then(eb.ref('balance')).else(0).end()).as('expired'),
      eb.fn.sum<number>(eb.case().when(eb.and([eb('created_at', '>=', from), eb('created_at', '<', to)])).then(1).else(0).end()).as('soldInPeriod'),
      eb.fn.sum<number>(eb.case().when(eb.and([eb('created_at', '>=', from), eb('created_at', '<', to)])).then(eb.ref('amount')).else(0).end()).as('amountInPeriod'),
    ]).executeTakeFirst();
  const amount = num(row?.amount);
  const left = num(row?.outstanding) + num(row?.expired);
  return {
    sold: num(row?.sold), amount, redeemed: amount - left, outstanding: num(row?.outstanding), expiredUnused: num(row?.expired),
    soldInPeriod: num(row?.soldInPeriod), amountInPeriod: num(row?.amountInPeriod),
  };
}

/** Members by status, and the renewals of [from, to): paid and failed. */
export async function memberTotals(db: Db, educatorId: string, from: number, to: number) {
  const [byStatus, renewals] = await Promise.all([
    db.selectFrom('memberships').select(['status']).select((eb) => eb.fn.countAll<number>().as('n')).where('educator_id', '=', educatorId).groupBy('status').execute(),
    db.selectFrom('membership_payments').select(['status']).select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('amount').as('amount')])
      .where('educator_id', '=', educatorId).where('kind', '=', 'renewal').where('created_at', '>=', from).where('created_at', '<', to).groupBy('status').execute(),
  ]);
  const count = (s: string) => num(byStatus.find((r) => r.status === s)?.n);
  const paid = renewals.find((r) => r.status === 'paid');
  return {
    active: count('active'), pastDue: count('past_due'), ended: count('ended'),
    renewalsPaid: num(paid?.n), renewalsAmount: num(paid?.amount), renewalsFailed: num(renewals.find((r) => r.status === 'failed')?.n),
  };
}

export async function paymentAccounts(db: Db, educatorId: string) {
  return db.selectFrom('educator_payment_accounts').select(['provider', 'account_id', 'created_at']).where('educator_id', '=', educatorId).orderBy('provider').execute();
}

type Order = 'newest' | 'oldest';

function keyset(order: Order, cursor: string | null | undefined) {
  return cursor ? { ...parseReviewCursor(cursor), op: order === 'newest' ? '<' as const : '>' as const } : null;
}

/** Gift cards, newest first (the screen) or oldest first (the export), with what has been spent of each. */
export async function giftCardsPage(db: Db, educatorId: string, opts: { order: Order; cursor?: string | null; limit: number }) {
  let q = db.selectFrom('gift_cards as g')
    .select(['g.id', 'g.code', 'g.amount', 'g.balance', 'g.currency', 'g.created_at', 'g.expires_at', 'g.buyer_name', 'g.buyer_email', 'g.recipient_name', 'g.recipient_email', 'g.recipient_sent_at', 'g.send_at'])
    .select((eb) => eb.selectFrom('gift_card_redemptions as r').select((e) => e.fn.countAll<number>().as('n'))
      .whereRef('r.gift_card_id', '=', 'g.id').where('r.status', '=', 'committed').as('redemptions'))
    .where('g.educator_id', '=', educatorId);
  const at = keyset(opts.order, opts.cursor);
  if (at) q = q.where((eb) => eb.or([eb('g.created_at', at.op, at.createdAt), eb.and([eb('g.created_at', '=', at.createdAt), eb('g.id', at.op, at.id)])]));
  const dir = opts.order === 'newest' ? 'desc' : 'asc';
  const rows = await q.orderBy('g.created_at', dir).orderBy('g.id', dir).limit(opts.limit).execute();
  return rows.map((g) => ({
    id: g.id, code: g.code, amount: num(g.amount), balance: num(g.balance), redeemed: num(g.amount) - num(g.balance), redemptions: num(g.redemptions),
    currency: g.currency, createdAt: num(g.created_at), expiresAt: num(g.expires_at), buyerName: g.buyer_name, buyerEmail: g.buyer_email,
    recipientName: g.recipient_name, recipientEmail: g.recipient_email, sentAt: g.recipient_sent_at === null ? null : num(g.send_at),
  }));
}

/** Memberships (with the learner, the plan and the last failed payment), newest first or oldest first, by state. */
export async function membersPage(db: Db, educatorId: string, opts: { order: Order; state: MemberState; cursor?: string | null; limit: number }) {
  let q = db.selectFrom('memberships as m')
    .innerJoin('membership_plans as p', 'p.id', 'm.plan_id')
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.id', 'm.status', 'm.end_reason', 'm.price', 'm.currency', 'm.created_at', 'm.current_period_end', 'm.cancel_at_period_end', 'm.renewal_attempts',
      'm.next_attempt_at', 'p.name as plan_name', 'p.interval', 'u.first_name', 'u.last_name', 'u.email'])
    .select((eb) => [
      eb.selectFrom('membership_payments as f').select('f.created_at').whereRef('f.membership_id', '=', 'm.id').where('f.status', '=', 'failed')
        .orderBy('f.created_at', 'desc').limit(1).as('failed_at'),
      eb.selectFrom('membership_payments as f').select('f.failure').whereRef('f.membership_id', '=', 'm.id').where('f.status', '=', 'failed')
        .orderBy('f.created_at', 'desc').limit(1).as('failure'),
    ])
    .where('m.educator_id', '=', educatorId);
  if (opts.state === 'chase') q = q.where((eb) => eb.or([eb('m.status', '=', 'past_due'), eb.and([eb('m.status', '=', 'ended'), eb('m.end_reason', '=', 'payment_failed')])]));
  else if (opts.state !== 'all') q = q.where('m.status', '=', opts.state);
  const at = keyset(opts.order, opts.cursor);
  if (at) q = q.where((eb) => eb.or([eb('m.created_at', at.op, at.createdAt), eb.and([eb('m.created_at', '=', at.createdAt), eb('m.id', at.op, at.id)])]));
  const dir = opts.order === 'newest' ? 'desc' : 'asc';
  const rows = await q.orderBy('m.created_at', dir).orderBy('m.id', dir).limit(opts.limit).execute();
  return rows.map((m) => ({
    id: m.id, status: m.status, endReason: m.end_reason, planName: m.plan_name, interval: m.interval, price: num(m.price), currency: m.currency,
    createdAt: num(m.created_at), periodEnd: num(m.current_period_end), renews: m.status !== 'ended' && !m.cancel_at_period_end && m.interval !== 'pass',
    renewalAttempts: num(m.renewal_attempts), nextAttemptAt: m.next_attempt_at === null ? null : num(m.next_attempt_at),
    firstName: m.first_name ?? '', lastName: m.last_name ?? '', email: m.email ?? '',
    lastFailedAt: m.failed_at === null || m.failed_at === undefined ? null : num(m.failed_at), failure: m.failure ?? null,
  }));
}
