/**
 * Holds taken and renewed without the occurrence's lock (api/checkout/holds.ts): a first hold is one guarded
 * update, a renewal of a live hold one guarded update of the hold's row. What keeps them safe: capacity is still
 * one conditional update, and a sweep releases a hold only if it is still expired once its row is locked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestDb } from '../helpers/db.ts';
import { HOLD_RENEWED_RECENTLY_SECONDS, acquireHold, currentHold, lockOccurrence, sweepExpired } from '../../api/checkout/holds.ts';
import { DAY, IDS, seededCheckoutDb } from './checkout-fixtures.ts';

let tdb: TestDb;
const now = Math.floor(Date.now() / 1000);

beforeAll(async () => {
  tdb = await seededCheckoutDb(now);
});
afterAll(async () => tdb?.close());

async function newCheckout(id: string): Promise<void> {
  await tdb.db.insertInto('checkouts').values({
    id, flow: 'booking', origin: 'marketplace', course_id: IDS.raceCourse, educator_id: IDS.educator, occurrence_id: IDS.raceOcc, user_id: null,
    student_id: null, current_step: 'payment', step_state: {}, utms: null, booked_on_url: null, status: 'open', booking_id: null, order_id: null,
    request_id: null, application_id: null, outcome_kind: null, outcome_id: null, total_cost: null, currency: 'GBP', cost_summary: null,
    payment_provider: null, payment_id: null, version: 0, created_at: now, updated_at: now, completed_at: null,
  }).execute();
}

async function spacesLeft(): Promise<number> {
  const row = await tdb.db.selectFrom('occurrences').select('available_spaces').where('id', '=', IDS.raceOcc).executeTakeFirstOrThrow();
  return Number(row.available_spaces);
}

const hold = (checkoutId: string, at: number, spaces = 1) => tdb.db.transaction().execute((tx) => acquireHold(tx, tdb.dialect, {
  checkoutId, now: at, ttlSeconds: 600, maxSeconds: 1800, occurrenceId: IDS.raceOcc, spaces, voucherId: null,
}));

describe('holds', () => {
  it('a first hold takes the spaces; renewing it moves only its expiry; the cap still ends it', async () => {
    const before = await spacesLeft();
    await newCheckout('chk_renew');
    const first = await hold('chk_renew', now);
    expect(first.ok).toBe(true);
    expect(await spacesLeft()).toBe(before - 1);
    const renewed = await hold('chk_renew', now + 300);
    expect(renewed.ok && renewed.hold.expires_at).toBe(now + 900);
    expect(await spacesLeft()).toBe(before - 1);
    expect((await currentHold(tdb.db, 'chk_renew'))?.expires_at).toBe(now + 900);
    // 30 minutes after the first hold, renewing is refused (the hold has lapsed).
    expect(await hold('chk_renew', now + 1800)).toEqual({ ok: false, failure: { kind: 'lapsed' } });
  });

  it('a hold taken or renewed less than a minute ago is kept as it is; from a minute on, renewing moves its expiry', async () => {
    await newCheckout('chk_recent');
    expect((await hold('chk_recent', now)).ok).toBe(true);
    // 59 s after it was taken: kept, its expiry unchanged.
    const kept = await hold('chk_recent', now + HOLD_RENEWED_RECENTLY_SECONDS - 1);
    expect(kept.ok && [kept.hold.expires_at, kept.hold.updated_at]).toEqual([now + 600, now]);
    expect((await currentHold(tdb.db, 'chk_recent'))?.expires_at).toBe(now + 600);
    // 60 s after: renewed.
    const renewed = await hold('chk_recent', now + HOLD_RENEWED_RECENTLY_SECONDS);
    expect(renewed.ok && renewed.hold.expires_at).toBe(now + HOLD_RENEWED_RECENTLY_SECONDS + 600);
    expect((await currentHold(tdb.db, 'chk_recent'))?.expires_at).toBe(now + HOLD_RENEWED_RECENTLY_SECONDS + 600);
    expect(HOLD_RENEWED_RECENTLY_SECONDS).toBe(60);
  });

  it('a first hold of more spaces than are left sweeps lapsed holds, then takes them or says how many there are', async () => {
    await tdb.db.updateTable('occurrences').set({ available_spaces: 1 }).where('id', '=', IDS.raceOcc).execute();
    await newCheckout('chk_lapsing');
    expect((await hold('chk_lapsing', now)).ok).toBe(true);
    expect(await spacesLeft()).toBe(0);
    await newCheckout('chk_late');
    // Before the first hold expires there is nothing left…
    expect(await hold('chk_late', now + 60)).toEqual({ ok: false, failure: { kind: 'spaces', available: 0 } });
    // …after it, the sweep gives its space back and the second learner gets it.
    const late = await hold('chk_late', now + 601);
    expect(late.ok).toBe(true);
    expect((await currentHold(tdb.db, 'chk_lapsing'))?.status).toBe('released');
    expect(await spacesLeft()).toBe(0);
    await tdb.db.updateTable('occurrences').set({ available_spaces: 10 }).where('id', '=', IDS.raceOcc).execute();
  });

  // Two transactions interleaved by hand: only PostgreSQL runs them at once (SQLite runs one transaction at a time).
  it.skipIf(process.env.TEST_DATABASE_URL === undefined)('a sweep that saw a hold expired does not release it once its checkout renewed it (PostgreSQL)', async () => {
    await newCheckout('chk_race');
    const taken = await hold('chk_race', now + DAY);
    expect(taken.ok).toBe(true);
    const expiresAt = now + DAY + 600;
    const spaces = await spacesLeft();
    let renewedUncommitted!: () => void;
    const renewalWaiting = new Promise<void>((ok) => (renewedUncommitted = ok));
    let commit!: () => void;
    const mayCommit = new Promise<void>((ok) => (commit = ok));
    // The learner renews a second before the expiry and holds the hold's row until told to commit.
    const renewal = tdb.db.transaction().execute(async (tx) => {
      const result = await acquireHold(tx, tdb.dialect, {
        checkoutId: 'chk_race', now: expiresAt - 1, ttlSeconds: 600, maxSeconds: 1800, occurrenceId: IDS.raceOcc, spaces: 1, voucherId: null,
      });
      renewedUncommitted();
      await mayCommit;
      return result;
    });
    await renewalWaiting;
    // A sweep a second after the expiry: the occurrence's lock is free (the renewal never took it); it still sees the
    // old expiry, selects the hold, and waits for its row.
    const sweeper = tdb.db.transaction().execute(async (tx) => {
      await lockOccurrence(tx, tdb.dialect, IDS.raceOcc);
      return sweepExpired(tx, tdb.dialect, expiresAt + 1, { occurrenceId: IDS.raceOcc });
    });
    for (let i = 0; i < 200; i++) {
      const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_locks where not granted`.execute(tdb.db);
      if (waiting.rows[0]!.n > 0) break;
      await new Promise((ok) => setTimeout(ok, 10));
    }
    commit();
    expect((await renewal).ok).toBe(true);
    // Other checkouts' lapsed holds of this test file are released by the same sweep; this one is not.
    const released = await sweeper;
    const after = await currentHold(tdb.db, 'chk_race');
    expect(after?.status).toBe('held');
    expect(after?.expires_at).toBe(expiresAt - 1 + 600);
    expect(await spacesLeft()).toBe(spaces + released);
  });
});
