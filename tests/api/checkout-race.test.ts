/**
 * Never oversell: 200 signed-in learners race for the last 10 spaces of an occurrence, through HTTP.
 * Exactly 10 holds, exactly 10 bookings, the occurrence never below 0 — on SQLite and on PostgreSQL.
 * Controls show the race is real: the same check-then-write without the guard sells more than 10.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { CARDS, IDS, OFFERS, client, contactPayload, payWithCard, seedCheckoutCatalogue, type Client } from './checkout-fixtures.ts';

const LEARNERS = 200;
const SPACES = 10;

let server: TestServer;
let learners: { api: Client; email: string }[] = [];

async function inBatches<T>(count: number, size: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += size) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, k) => make(start + k)))));
  }
  return out;
}

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_LOGIN_PER_IP: '100000', RATE_LIMIT_LOGIN_PER_EMAIL: '100000',
    // 200 learners from one test address: the guessing limits are for strangers, not for this race.
    RATE_LIMIT_VOUCHER_PER_IP: '100000', RATE_LIMIT_VOUCHER_PER_EDUCATOR: '100000', LOG_LEVEL: 'silent' });
  await seedCheckoutCatalogue(server.db, Math.floor(Date.now() / 1000));
  learners = await inBatches(LEARNERS, 25, async () => {
    const { cookie, user } = await signUpAndLogin(server);
    return { api: client(server, cookie), email: user.email };
  });
}, 180_000);
afterAll(async () => server?.close());

async function spacesLeft(id: string): Promise<number> {
  const row = await server.db.selectFrom('occurrences').select('available_spaces').where('id', '=', id).executeTakeFirstOrThrow();
  return Number(row.available_spaces);
}

describe(`${LEARNERS} learners race for the last ${SPACES} spaces`, () => {
  it('paid occurrence: exactly 10 reach Payment with a hold, exactly 10 bookings, never below zero', async () => {
    expect(await spacesLeft(IDS.raceOcc)).toBe(SPACES);
    // Everyone picks a space while 10 are shown as available.
    const ids = await inBatches(LEARNERS, 50, async (i) => {
      const { api } = learners[i];
      const init = await api.initialise('booking', { courseId: IDS.raceCourse, occurrenceId: IDS.raceOcc });
      const picked = await api.submit(init.body._id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.race, quantity: 1 }] });
      expect(picked.status).toBe(200);
      return init.body._id as string;
    });
    // All at once: reaching Payment takes a hold.
    const results = await Promise.all(learners.map(({ api, email }, i) => api.submit(ids[i], 'contact details filled', contactPayload(email))));
    const held = results.map((r, i) => ({ r, i })).filter(({ r }) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(held).toHaveLength(SPACES);
    expect(refused).toHaveLength(LEARNERS - SPACES);
    for (const r of refused) {
      expect(r.status).toBe(400);
      expect(r.body.title).toBe('Validation Error');
      expect(r.body.detail).toBe('Spaces are sold out');
    }
    for (const { r } of held) expect(r.body).toMatchObject({ currentStep: 'payment', hold: { spaces: 1, status: 'held' } });
    expect(await spacesLeft(IDS.raceOcc)).toBe(0);
    // Nothing half-written for the refused: no hold, still on Contact Info.
    const holds = await server.db.selectFrom('space_holds').selectAll().where('occurrence_id', '=', IDS.raceOcc).execute();
    expect(holds).toHaveLength(SPACES);

    // The 10 pay at once, and each confirms twice at the same time (double click, webhook and return).
    await Promise.all(held.map(async ({ r, i }) => {
      const { api } = learners[i];
      const selected = await api.submit(r.body._id, 'payment method selected', { paymentMethod: 'card' });
      expect(selected.status).toBe(200);
      const paid = await payWithCard(server, selected.body, CARDS.success);
      expect(paid.status).toBe(200);
      const [a, b] = await Promise.all([
        api.submit(r.body._id, 'payment was successful', {}),
        api.submit(r.body._id, 'payment was successful', {}),
      ]);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(a.body.bookingId).toBe(b.body.bookingId);
    }));
    const bookings = await server.db.selectFrom('bookings').selectAll().where('occurrence_id', '=', IDS.raceOcc).execute();
    expect(bookings).toHaveLength(SPACES);
    expect(new Set(bookings.map((b) => b.checkout_id)).size).toBe(SPACES);
    expect(bookings.reduce((sum, b) => sum + Number(b.spaces), 0)).toBe(SPACES);
    expect(await spacesLeft(IDS.raceOcc)).toBe(0);
    const committed = await server.db.selectFrom('space_holds').select('status').where('occurrence_id', '=', IDS.raceOcc).execute();
    expect(committed.every((h) => h.status === 'committed')).toBe(true);
  }, 180_000);

  it('free occurrence (no Payment step): exactly 3 bookings for 3 spaces', async () => {
    const free = IDS.freeOcc; // 3 spaces
    const ids = await inBatches(LEARNERS, 50, async (i) => {
      const init = await learners[i].api.initialise('booking', { courseId: IDS.freeCourse, occurrenceId: free });
      await learners[i].api.submit(init.body._id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.free, quantity: 1 }] });
      return init.body._id as string;
    });
    const results = await Promise.all(learners.map(({ api, email }, i) => api.submit(ids[i], 'contact details filled', contactPayload(email))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 400)).toHaveLength(LEARNERS - 3);
    const bookings = await server.db.selectFrom('bookings').select('id').where('occurrence_id', '=', free).execute();
    expect(bookings).toHaveLength(3);
    expect(await spacesLeft(free)).toBe(0);
  }, 120_000);

  it('a voucher is never used more than its limit', async () => {
    const racers = learners.slice(0, 40);
    const ids = await Promise.all(racers.map(async ({ api }) => {
      const init = await api.initialise('order', { courseId: IDS.onDemand });
      const picked = await api.submit(init.body._id, 'order pricing options picked', { selectedOffers: [{ offerId: OFFERS.onDemand, quantity: 1 }], appliedPromoCode: 'ONCE' });
      expect(picked.status).toBe(200);
      return init.body._id as string;
    }));
    const results = await Promise.all(racers.map(({ api, email }, i) => api.submit(ids[i], 'order contact details filled', contactPayload(email))));
    // ONCE is 100% off: the one who gets it completes without Payment; the others are refused.
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0].body.outcome).toMatchObject({ kind: 'order', paymentState: 'free' });
    for (const r of results.filter((x) => x.status !== 200)) expect(r.body.detail).toBe('Promo code This code has been used the maximum number of times.');
    const voucher = await server.db.selectFrom('vouchers').select('uses').where('id', '=', 'vch_once').executeTakeFirstOrThrow();
    expect(Number(voucher.uses)).toBe(1);
  }, 60_000);
});

describe('controls: the race without the guard', () => {
  async function reset(id: string) {
    await server.db.updateTable('occurrences').set({ available_spaces: SPACES }).where('id', '=', id).execute();
  }
  const yieldNow = () => new Promise<void>((ok) => setImmediate(ok));

  it('read, check, write as separate statements (how concurrent requests interleave at each await) oversells', async () => {
    await reset(IDS.classOcc2);
    let sold = 0;
    await Promise.all(Array.from({ length: LEARNERS }, async () => {
      const row = await server.db.selectFrom('occurrences').select('available_spaces').where('id', '=', IDS.classOcc2).executeTakeFirstOrThrow();
      const left = Number(row.available_spaces);
      if (left < 1) return;
      await yieldNow();
      await server.db.updateTable('occurrences').set({ available_spaces: left - 1 }).where('id', '=', IDS.classOcc2).execute();
      sold++;
    }));
    expect(sold).toBeGreaterThan(SPACES);
  });

  it('the guarded conditional update sells exactly 10 under the same load', async () => {
    await reset(IDS.classOcc2);
    let sold = 0;
    await Promise.all(Array.from({ length: LEARNERS }, async () => {
      await yieldNow();
      const res = await server.db.updateTable('occurrences').set({ available_spaces: sql<number>`available_spaces - 1` })
        .where('id', '=', IDS.classOcc2).where('available_spaces', '>=', 1).executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) sold++;
    }));
    expect(sold).toBe(SPACES);
    expect(await spacesLeft(IDS.classOcc2)).toBe(0);
  });

  it('read-check-write inside a transaction: serialised on SQLite (one connection behind a mutex), oversells on PostgreSQL without a lock', async () => {
    await reset(IDS.classOcc2);
    let sold = 0;
    await Promise.all(Array.from({ length: 60 }, () => server.db.transaction().execute(async (tx) => {
      const row = await tx.selectFrom('occurrences').select('available_spaces').where('id', '=', IDS.classOcc2).executeTakeFirstOrThrow();
      const left = Number(row.available_spaces);
      if (left < 1) return;
      await yieldNow();
      await tx.updateTable('occurrences').set({ available_spaces: left - 1 }).where('id', '=', IDS.classOcc2).execute();
      sold++;
    })));
    if (server.testDb.dialect === 'sqlite') expect(sold).toBe(SPACES);
    else expect(sold).toBeGreaterThan(SPACES);
  });
});
