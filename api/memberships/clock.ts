/**
 * The memberships' clock. In PAYMENTS_MODE=test the test recurring provider has a clock of its own that tests
 * move forward (like a card provider's test clocks, which belong to its test customers and subscriptions, not to
 * the whole platform): renewals fall due, periods end and credits renew by it, while sessions, holds and course
 * dates keep the real time. In live mode it is the real clock.
 */
import type { Deps } from '../app.ts';
import type { Q } from '../../db/queries/checkout.ts';

const CLOCK_ID = 'memberships';

export async function membershipNow(deps: Pick<Deps, 'config' | 'now'>, q: Q): Promise<number> {
  if (deps.config.PAYMENTS_MODE !== 'test') return deps.now();
  const row = await q.selectFrom('test_clocks').select('offset_seconds').where('id', '=', CLOCK_ID).executeTakeFirst();
  return deps.now() + Number(row?.offset_seconds ?? 0);
}

/** Moves the test clock forward (test mode only; the route that calls it exists only then). */
export async function advanceTestClock(q: Q, seconds: number): Promise<void> {
  await q.insertInto('test_clocks').values({ id: CLOCK_ID, offset_seconds: 0 }).onConflict((oc) => oc.column('id').doNothing()).execute();
  const row = await q.selectFrom('test_clocks').select('offset_seconds').where('id', '=', CLOCK_ID).executeTakeFirstOrThrow();
  await q.updateTable('test_clocks').set({ offset_seconds: Number(row.offset_seconds) + seconds }).where('id', '=', CLOCK_ID).execute();
}
