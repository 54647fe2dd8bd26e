/**
 * Memberships on the server (docs/gifts-and-memberships.md "## Memberships"): starting one when the checkout's
 * membership flow completes, finding a learner's benefits for a course, spending a credit without ever
 * overselling, renewing (and retrying, and ending) memberships as their periods end, and cancelling at period end.
 * The rules themselves are src/domain/memberships.ts; the clock is api/memberships/clock.ts.
 */
import { sql } from 'kysely';
import type { Deps } from '../deps.ts';
import type { Q } from '../../db/queries/checkout.ts';
import { lockRow, sweepEachLocked } from '../../db/queries/locks.ts';
import type { Dialect } from '../../db/client.ts';
import type { MembershipCreditHoldsTable, MembershipPlansTable, MembershipsTable } from '../../db/schema/memberships.ts';
import type { Selectable } from 'kysely';
import { benefitsActive, coversCourse, nextRetryAt, periodOf, planTerms, renews } from '../../src/domain/memberships.ts';
import { issueInvoiceNumber } from '../documents/numbering.ts';
import { recurringNamed } from '../payments/registry.ts';
import { newId } from '../checkout/ids.ts';
import { loggerFor } from '../log.ts';
import { membershipClockOn, membershipNow } from './clock.ts';
import { queueMembershipMail, type MembershipMailKind } from './mail.ts';

/** A plan as the checkout and renewals use it (the admin's revision is not theirs to read). */
export type PlanRow = Omit<Selectable<MembershipPlansTable>, 'revision'>;
export type MembershipRow = Selectable<MembershipsTable>;

export async function loadPlan(q: Q, planId: string): Promise<PlanRow | undefined> {
  return q.selectFrom('membership_plans').selectAll().where('id', '=', planId).executeTakeFirst();
}

/**
 * Starts a membership inside the completing checkout's transaction: period 0 from `now`, the plan's credits,
 * the first payment with its receipt number. A pass never renews (no next attempt). Null when the learner already
 * has a running membership of the plan: the database's unique index refuses the second even when two checkouts
 * complete at the same moment (each saw no membership yet), and the caller gives the payment back.
 */
export async function startMembership(q: Q, deps: Pick<Deps, 'dialect'>, input: {
  plan: PlanRow; userId: string; checkoutId: string; now: number; amount: number; currency: string;
  paymentMethod: string | null; provider: string | null; paymentId: string | null; customerId: string | null;
}): Promise<MembershipRow | null> {
  const terms = planTerms(input.plan);
  const period = periodOf(input.now, terms, 0);
  const row: MembershipRow = {
    id: newId('mem'), plan_id: input.plan.id, educator_id: input.plan.educator_id, user_id: input.userId, checkout_id: input.checkoutId,
    status: 'active', payment_method: input.paymentMethod, provider: input.provider, provider_customer_id: input.customerId,
    provider_subscription_id: null, price: input.amount, currency: input.currency, anchor_at: input.now, period_index: 0,
    current_period_start: period.start, current_period_end: period.end, credits_left: terms.creditsPerPeriod,
    cancel_at_period_end: false, cancel_requested_at: null, ended_at: null, end_reason: null, renewal_attempts: 0,
    // A pass is looked at once more, when it runs out; a plan when its renewal falls due.
    next_attempt_at: period.end, claimed_at: null, created_at: input.now, updated_at: input.now,
  };
  const inserted = await q.insertInto('memberships').values(row).onConflict((oc) => oc.doNothing()).executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return null;
  await recordPayment(q, deps, row, { kind: 'join', index: 0, attempt: 1, start: period.start, end: period.end, ok: true, paymentId: input.paymentId, failure: null, now: input.now });
  return row;
}

async function recordPayment(q: Q, deps: Pick<Deps, 'dialect'>, m: MembershipRow, p: {
  kind: 'join' | 'renewal'; index: number; attempt: number; start: number; end: number; ok: boolean; paymentId: string | null; failure: string | null; now: number;
}): Promise<string> {
  const id = newId('mpay');
  await q.insertInto('membership_payments').values({
    id, membership_id: m.id, educator_id: m.educator_id, kind: p.kind, period_index: p.index, attempt: p.attempt, period_start: p.start,
    period_end: p.end, amount: Number(m.price), currency: m.currency, status: p.ok ? 'paid' : 'failed', provider: m.provider,
    provider_payment_id: p.paymentId, receipt_number: null, failure: p.failure, created_at: p.now,
  }).execute();
  if (p.ok && Number(m.price) > 0) {
    // A paid period gets its receipt number from the educator's gap-free sequence, in this same transaction.
    const doc = await issueInvoiceNumber(q, deps.dialect, { kind: 'membership_payment', outcomeId: id, educatorId: m.educator_id, issuedAt: p.now, now: p.now });
    await q.updateTable('membership_payments').set({ receipt_number: doc.invoice_number }).where('id', '=', id).execute();
  }
  return id;
}

export interface MemberBenefits {
  membership: MembershipRow;
  plan: PlanRow;
  discountPercent: number;
  creditsLeft: number;
}

/**
 * The learner's best membership benefits for a course of an educator, at the memberships' clock: an active
 * membership inside its paid period whose plan covers the course. Several: the one with credits left first,
 * then the biggest percentage.
 */
/**
 * `now` may be a function: the memberships' clock is then read only for a learner who has a membership with the
 * educator (in test mode it is a row of its own, a statement most checkout actions need not run).
 */
export async function benefitsFor(
  q: Q, input: { userId: string; educatorId: string; courseId: string; now: number | (() => Promise<number>) },
): Promise<MemberBenefits | null> {
  const rows = await q.selectFrom('memberships').innerJoin('membership_plans as p', 'p.id', 'memberships.plan_id')
    .selectAll('memberships')
    .select(['p.interval', 'p.pass_months', 'p.price as plan_price', 'p.currency as plan_currency', 'p.discount_percent', 'p.credits_per_period', 'p.course_ids', 'p.name', 'p.description', 'p.position', 'p.listed', 'p.created_at as plan_created_at'])
    .where('memberships.user_id', '=', input.userId).where('memberships.educator_id', '=', input.educatorId).where('memberships.status', '=', 'active')
    .execute();
  if (rows.length === 0) return null;
  const now = typeof input.now === 'function' ? await input.now() : input.now;
  const usable = rows
    .filter((r) => benefitsActive({ status: r.status, current_period_end: Number(r.current_period_end), credits_left: Number(r.credits_left) }, now))
    .filter((r) => coversCourse({ courseIds: r.course_ids }, input.courseId))
    .map((r) => {
      const plan: PlanRow = {
        id: r.plan_id, educator_id: r.educator_id, name: r.name, description: r.description, interval: r.interval, pass_months: r.pass_months,
        price: Number(r.plan_price), currency: r.plan_currency, discount_percent: Number(r.discount_percent), credits_per_period: Number(r.credits_per_period),
        course_ids: r.course_ids, position: Number(r.position), listed: r.listed, created_at: Number(r.plan_created_at),
      };
      const membership: MembershipRow = {
        id: r.id, plan_id: r.plan_id, educator_id: r.educator_id, user_id: r.user_id, checkout_id: r.checkout_id, status: r.status,
        payment_method: r.payment_method, provider: r.provider, provider_customer_id: r.provider_customer_id, provider_subscription_id: r.provider_subscription_id,
        price: Number(r.price), currency: r.currency, anchor_at: Number(r.anchor_at), period_index: Number(r.period_index),
        current_period_start: Number(r.current_period_start), current_period_end: Number(r.current_period_end), credits_left: Number(r.credits_left),
        cancel_at_period_end: r.cancel_at_period_end, cancel_requested_at: r.cancel_requested_at, ended_at: r.ended_at, end_reason: r.end_reason,
        renewal_attempts: Number(r.renewal_attempts), next_attempt_at: r.next_attempt_at, claimed_at: r.claimed_at, created_at: Number(r.created_at), updated_at: Number(r.updated_at),
      };
      return { membership, plan, discountPercent: plan.discount_percent, creditsLeft: membership.credits_left };
    });
  // A credit held by a checkout whose hold lapsed is free again (the next hold or the sweeper gives it back).
  const withCredits = usable.filter((u) => Number(u.plan.credits_per_period) > 0).map((u) => u.membership.id);
  if (withCredits.length > 0) {
    const lapsed = await q.selectFrom('membership_credit_holds').select(['membership_id', 'period_index'])
      .where('membership_id', 'in', withCredits).where('status', '=', 'held').where('expires_at', '<=', now).execute();
    for (const hold of lapsed) {
      const u = usable.find((x) => x.membership.id === hold.membership_id && x.membership.period_index === Number(hold.period_index));
      if (u) u.creditsLeft += 1;
    }
  }
  usable.sort((a, b) => (Number(b.creditsLeft > 0) - Number(a.creditsLeft > 0)) || (b.discountPercent - a.discountPercent) || a.membership.id.localeCompare(b.membership.id));
  return usable[0] ?? null;
}

function lockMembership(q: Q, dialect: Dialect, membershipId: string): Promise<void> {
  return lockRow(q, dialect, 'memberships', membershipId);
}

type CreditHoldRow = Selectable<MembershipCreditHoldsTable>;

/**
 * Gives a held credit back to its period, once (the status change is the guard). Only to the period it was taken
 * from: a renewal since then has already given the new period all its credits.
 */
async function giveBackCredit(q: Q, hold: Pick<CreditHoldRow, 'id' | 'membership_id' | 'period_index'>, now: number): Promise<boolean> {
  const res = await q.updateTable('membership_credit_holds').set({ status: 'released', updated_at: now })
    .where('id', '=', hold.id).where('status', '=', 'held').executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) return false;
  await q.updateTable('memberships').set({ credits_left: sql<number>`credits_left + 1`, updated_at: now })
    .where('id', '=', hold.membership_id).where('period_index', '=', Number(hold.period_index)).execute();
  return true;
}

/** Gives back the membership's lapsed credit holds (call with the membership locked). */
async function sweepMembership(q: Q, membershipId: string, now: number): Promise<void> {
  const lapsed = await q.selectFrom('membership_credit_holds').selectAll()
    .where('membership_id', '=', membershipId).where('status', '=', 'held').where('expires_at', '<=', now).execute();
  for (const hold of lapsed) await giveBackCredit(q, hold, now);
}

/**
 * Holds one credit of the membership's current period for a checkout at Payment, until `expiresAt` (renewed with the
 * spaces' hold): one guarded update (credits_left > 0, active, inside the period), as a voucher's use or a gift card's
 * amount is held, so a credit spent elsewhere meanwhile is found before any money moves. False when none is left.
 */
export async function holdCredit(
  q: Q, dialect: Dialect, input: { membershipId: string; checkoutId: string; now: number; expiresAt: number },
): Promise<boolean> {
  const { membershipId, checkoutId, now } = input;
  await lockMembership(q, dialect, membershipId);
  await sweepMembership(q, membershipId, now);
  const existing = await q.selectFrom('membership_credit_holds').selectAll().where('checkout_id', '=', checkoutId).executeTakeFirst();
  if (existing?.status === 'committed') return false;
  if (existing?.status === 'held') {
    if (existing.membership_id === membershipId) {
      await q.updateTable('membership_credit_holds').set({ expires_at: input.expiresAt, updated_at: now }).where('id', '=', existing.id).execute();
      return true;
    }
    await lockMembership(q, dialect, existing.membership_id);
    await giveBackCredit(q, existing, now);
  }
  const taken = await q.updateTable('memberships')
    .set({ credits_left: sql<number>`credits_left - 1`, updated_at: now })
    .where('id', '=', membershipId).where('credits_left', '>', 0).where('status', '=', 'active').where('current_period_end', '>', now)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) return false;
  const m = await q.selectFrom('memberships').select('period_index').where('id', '=', membershipId).executeTakeFirstOrThrow();
  const values = { membership_id: membershipId, period_index: Number(m.period_index), status: 'held' as const, expires_at: input.expiresAt, updated_at: now };
  if (existing) await q.updateTable('membership_credit_holds').set(values).where('id', '=', existing.id).execute();
  else await q.insertInto('membership_credit_holds').values({ id: newId('mch'), checkout_id: checkoutId, created_at: now, ...values }).execute();
  return true;
}

/** Gives back the credit the checkout holds (go back, abandon, a closed checkout). */
export async function releaseCredit(q: Q, dialect: Dialect, checkoutId: string, now: number): Promise<void> {
  const hold = await q.selectFrom('membership_credit_holds').selectAll().where('checkout_id', '=', checkoutId).where('status', '=', 'held').executeTakeFirst();
  if (!hold) return;
  await lockMembership(q, dialect, hold.membership_id);
  await giveBackCredit(q, hold, now);
}

/** The sweeper's part: every lapsed credit hold, membership by membership. */
export async function sweepLapsedCreditHolds(db: Q, dialect: Dialect, now: number): Promise<number> {
  const rows = await db.selectFrom('membership_credit_holds').select('membership_id').distinct()
    .where('status', '=', 'held').where('expires_at', '<=', now).execute();
  return sweepEachLocked(db, dialect, 'memberships', rows.map((r) => r.membership_id), (tx, id) => sweepMembership(tx, id, now));
}

/**
 * Spends one credit of the membership's current period for a checkout, in the transaction that records the booking:
 * the credit its Payment step holds is committed; without one (no Payment step, or a hold that lapsed and was given
 * back) one conditional update (credits_left > 0, still active and inside the period) takes it, so concurrent
 * bookings can never spend more credits than the period has, on SQLite or PostgreSQL. False when none is left.
 */
export async function spendCredit(q: Q, input: { membershipId: string; checkoutId: string; bookingId: string | null; value: number; now: number }): Promise<boolean> {
  const committed = await q.updateTable('membership_credit_holds').set({ status: 'committed', updated_at: input.now })
    .where('checkout_id', '=', input.checkoutId).where('membership_id', '=', input.membershipId).where('status', '=', 'held')
    .executeTakeFirst();
  let periodIndex: number;
  if (Number(committed.numUpdatedRows) === 1) {
    const hold = await q.selectFrom('membership_credit_holds').select('period_index').where('checkout_id', '=', input.checkoutId).executeTakeFirstOrThrow();
    periodIndex = Number(hold.period_index);
  } else {
    const result = await q.updateTable('memberships')
      .set({ credits_left: sql<number>`credits_left - 1`, updated_at: input.now })
      .where('id', '=', input.membershipId).where('credits_left', '>', 0).where('status', '=', 'active').where('current_period_end', '>', input.now)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    const m = await q.selectFrom('memberships').select('period_index').where('id', '=', input.membershipId).executeTakeFirstOrThrow();
    periodIndex = Number(m.period_index);
  }
  await q.insertInto('membership_credit_uses').values({
    id: newId('mcu'), membership_id: input.membershipId, period_index: periodIndex, checkout_id: input.checkoutId,
    booking_id: input.bookingId, value: input.value, created_at: input.now,
  }).execute();
  return true;
}

/** Spec-style answer of a cancellation: it takes effect at the end of the paid period. */
export async function cancelMembership(deps: Deps, userId: string, membershipId: string): Promise<MembershipRow | null> {
  const now = await membershipNow(deps, deps.db, userId);
  return deps.db.transaction().execute(async (tx) => {
    const result = await tx.updateTable('memberships')
      .set({ cancel_at_period_end: true, cancel_requested_at: now, updated_at: now })
      .where('id', '=', membershipId).where('user_id', '=', userId).where('status', 'in', ['active', 'past_due']).where('cancel_at_period_end', '=', false)
      .executeTakeFirst();
    const row = await tx.selectFrom('memberships').selectAll().where('id', '=', membershipId).where('user_id', '=', userId).executeTakeFirst();
    if (!row) return null;
    // Only the request that made the change tells the learner, in the change's own transaction.
    if (Number(result.numUpdatedRows) === 1) await queueMembershipMail(tx, deps, 'cancelled', row.id);
    return row;
  });
}

/** A claim older than this is taken to belong to a crashed run and may be claimed again. */
const CLAIM_SECONDS = 300;

/**
 * One pass of the renewal job: every membership whose next attempt is due at the memberships' clock is claimed
 * (a conditional update, so two workers never handle one at once), charged outside any transaction with an
 * idempotency key per period and attempt, and recorded. Returns how many it handled.
 */
export async function renewDue(deps: Deps, limit = 50): Promise<number> {
  const real = deps.now();
  // In test mode each membership is due by its learner's clock (api/memberships/clock.ts).
  const due = deps.config.PAYMENTS_MODE === 'test'
    ? await deps.db.selectFrom('memberships').leftJoin('test_clocks as tc', (join) => join.on(membershipClockOn()))
      .select(['memberships.id', sql<number>`${real} + coalesce(tc.offset_seconds, 0)`.as('now')])
      .where('memberships.status', 'in', ['active', 'past_due'])
      .where(sql<boolean>`memberships.next_attempt_at <= ${real} + coalesce(tc.offset_seconds, 0)`)
      .orderBy('memberships.next_attempt_at').limit(limit).execute()
    : await deps.db.selectFrom('memberships').select(['id', sql<number>`${real}`.as('now')])
      .where('status', 'in', ['active', 'past_due']).where('next_attempt_at', '<=', real)
      .orderBy('next_attempt_at').limit(limit).execute();
  let handled = 0;
  for (const { id, now: at } of due) {
    const now = Number(at);
    const claim = await deps.db.updateTable('memberships').set({ claimed_at: now })
      .where('id', '=', id).where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', now - CLAIM_SECONDS)]))
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) continue;
    try {
      await renewOne(deps, id, now);
      handled += 1;
    } catch (error) {
      loggerFor(deps.config).error('membership renewal failed', { membershipId: id, error });
      await deps.db.updateTable('memberships').set({ claimed_at: null }).where('id', '=', id).execute();
    }
  }
  return handled;
}

async function renewOne(deps: Deps, id: string, now: number): Promise<void> {
  const m = await deps.db.selectFrom('memberships').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const plan = await loadPlan(deps.db, m.plan_id);
  const end = (reason: 'cancelled' | 'pass_expired' | 'payment_failed', mail: MembershipMailKind | null) => deps.db.transaction().execute(async (tx) => {
    await tx.updateTable('memberships').set({
      status: 'ended', end_reason: reason, ended_at: Number(m.current_period_end), next_attempt_at: null, claimed_at: null, credits_left: 0, updated_at: now,
    }).where('id', '=', id).execute();
    if (mail) await queueMembershipMail(tx, deps, mail, id);
  });
  if (m.cancel_at_period_end) return end('cancelled', null);
  if (!plan || !renews(planTerms(plan))) return end('pass_expired', null);
  const recurring = m.provider ? recurringNamed(deps, m.provider) : null;
  const index = Number(m.period_index) + 1;
  const attempt = Number(m.renewal_attempts) + 1;
  const charge = recurring && m.provider_customer_id
    ? await recurring.chargeRenewal({
      customerId: m.provider_customer_id, amount: Number(m.price), currency: m.currency,
      idempotencyKey: `membership_${m.id}_period_${index}_attempt_${attempt}`, metadata: { membership_id: m.id, period_index: String(index) },
    })
    : { ok: false, paymentId: null, failure: 'No payment method on file' };
  const period = periodOf(Number(m.anchor_at), planTerms(plan), index);
  // The e-mail is queued in the transaction that records the renewal (or its failure): both or neither.
  await deps.db.transaction().execute(async (tx) => {
    if (charge.ok) {
      const updated: MembershipRow = {
        ...m, status: 'active', period_index: index, current_period_start: period.start, current_period_end: period.end,
        credits_left: Number(plan.credits_per_period), renewal_attempts: 0, next_attempt_at: period.end, claimed_at: null, updated_at: now,
      };
      await tx.updateTable('memberships').set({
        status: updated.status, period_index: index, current_period_start: period.start, current_period_end: period.end,
        credits_left: updated.credits_left, renewal_attempts: 0, next_attempt_at: period.end, claimed_at: null, updated_at: now,
      }).where('id', '=', id).execute();
      await recordPayment(tx, deps, updated, { kind: 'renewal', index, attempt, start: period.start, end: period.end, ok: true, paymentId: charge.paymentId, failure: null, now });
      await queueMembershipMail(tx, deps, 'renewed', id);
    } else {
      const retry = nextRetryAt(Number(m.current_period_end), attempt);
      await tx.updateTable('memberships').set({
        status: retry === null ? 'ended' : 'past_due', renewal_attempts: attempt, next_attempt_at: retry, claimed_at: null, updated_at: now,
        ...(retry === null ? { end_reason: 'payment_failed', ended_at: now, credits_left: 0 } : {}),
      }).where('id', '=', id).execute();
      await recordPayment(tx, deps, m, { kind: 'renewal', index, attempt, start: period.start, end: period.end, ok: false, paymentId: charge.paymentId, failure: charge.failure, now });
      await queueMembershipMail(tx, deps, 'renewal-failed', id);
    }
  });
}

/** The learner's memberships for /profile, newest first, with their plan and payments. */
export async function membershipsOf(deps: Deps, userId: string) {
  const now = await membershipNow(deps, deps.db, userId);
  const rows = await deps.db.selectFrom('memberships').innerJoin('membership_plans as p', 'p.id', 'memberships.plan_id')
    .innerJoin('educators as e', 'e.id', 'memberships.educator_id')
    .selectAll('memberships').select(['p.name as plan_name', 'p.interval', 'p.pass_months', 'e.name as educator_name', 'e.slug as educator_slug'])
    .where('memberships.user_id', '=', userId).orderBy('memberships.created_at', 'desc').orderBy('memberships.id').execute();
  const payments = rows.length
    ? await deps.db.selectFrom('membership_payments').selectAll().where('membership_id', 'in', rows.map((r) => r.id)).orderBy('created_at').orderBy('id').execute()
    : [];
  return { now, rows, payments };
}
