/**
 * The memberships' clock. In PAYMENTS_MODE=test the test recurring provider has clocks of its own that tests move
 * forward — one per learner, like a card provider's test clocks, which belong to a test customer and their
 * subscriptions, never to the whole platform: renewals of that learner's memberships fall due, periods end and
 * credits renew by it, while sessions, holds, course dates and every other learner keep the real time. In live mode
 * it is the real clock.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Deps } from '../deps.ts';
import type { Q } from '../../db/queries/checkout.ts';

/** A learner's clock's row in test_clocks. */
const CLOCK_PREFIX = 'memberships:user:';

function clockId(userId: string): string {
  return `${CLOCK_PREFIX}${userId}`;
}

/** The learner's memberships' time (the real time for nobody in particular, and in live mode). */
export async function membershipNow(deps: Pick<Deps, 'config' | 'now'>, q: Q, userId: string | null): Promise<number> {
  if (deps.config.PAYMENTS_MODE !== 'test' || !userId) return deps.now();
  const row = await q.selectFrom('test_clocks').select('offset_seconds').where('id', '=', clockId(userId)).executeTakeFirst();
  return deps.now() + Number(row?.offset_seconds ?? 0);
}

/** Moves the learner's test clock forward (test mode only; the route that calls it exists only then). */
export async function advanceTestClock(q: Q, userId: string, seconds: number): Promise<void> {
  const id = clockId(userId);
  await q.insertInto('test_clocks').values({ id, offset_seconds: 0 }).onConflict((oc) => oc.column('id').doNothing()).execute();
  await q.updateTable('test_clocks').set({ offset_seconds: sql<number>`offset_seconds + ${seconds}` }).where('id', '=', id).execute();
}

/** The join of test_clocks (as `tc`) to memberships: each membership's row of its learner's clock, in test mode. */
export function membershipClockOn(): Expression<SqlBool> {
  return sql<SqlBool>`tc.id = ${CLOCK_PREFIX} || memberships.user_id`;
}
