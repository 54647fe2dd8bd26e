/**
 * A checkout acted on from the copy its server process last left (api/checkout/engine/known.ts; PostgreSQL keeps
 * copies, SQLite reads the row every time). The copy is only ever a faster way to the same answer:
 * - what changed since — the educator moving the date, another server process acting on the checkout — is what
 *   the next action decides on (both engines: the answers are the same whether or not a copy is kept);
 * - on PostgreSQL the action's transaction begins without a read of its own: one round trip fewer than on a server
 *   process that has no copy (counted on the wire, tests/helpers/pg-round-trips.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { countRoundTrips, type RoundTrips } from '../helpers/pg-round-trips.ts';
import { sql } from 'kysely';
import { openDb, type Db } from '../../db/client.ts';
import { CARDS, client, contactPayload, payWithCard, raceOccurrences, seedCheckoutCatalogue, OFFERS } from './checkout-fixtures.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const now = () => Math.floor(Date.now() / 1000);
const ENV = { RATE_LIMIT_LOGIN_PER_IP: '100000', LOG_LEVEL: 'silent' };

describe('what changed between two actions is what the next one decides on', () => {
  let server: TestServer;
  let newDate: (spaces: number) => Promise<string>;
  beforeAll(async () => {
    server = await startTestServer(ENV);
    await seedCheckoutCatalogue(server.db, now());
    newDate = raceOccurrences(server.db, 'occ_known', now);
  });
  afterAll(async () => server?.close());

  it('the educator moves the date while the learner books it: the booking is for the new time', async () => {
    const occurrenceId = await newDate(5);
    const { cookie, user } = await signUpAndLogin(server);
    const api = client(server, cookie);
    const init = await api.initialise('booking', { courseId: 'crs_race', occurrenceId });
    const id = init.body._id as string;
    expect((await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.race, quantity: 1 }] })).status).toBe(200);
    const before = await server.db.selectFrom('occurrences').select(['start_datetime', 'end_datetime']).where('id', '=', occurrenceId).executeTakeFirstOrThrow();
    const moved = { start_datetime: Number(before.start_datetime) + 2 * 3600, end_datetime: Number(before.end_datetime) + 2 * 3600 };
    await server.db.updateTable('occurrences').set(moved).where('id', '=', occurrenceId).execute();

    const atPayment = await api.submit(id, 'contact details filled', contactPayload(user.email));
    expect(atPayment.status, JSON.stringify(atPayment.body)).toBe(200);
    const method = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    expect(method.status, JSON.stringify(method.body)).toBe(200);
    expect((await payWithCard(server, method.body, CARDS.success)).status).toBe(200);
    expect((await api.submit(id, 'payment was successful', {})).status).toBe(200);
    const booking = await server.db.selectFrom('bookings').select(['start_datetime', 'end_datetime']).where('checkout_id', '=', id).executeTakeFirstOrThrow();
    expect({ start_datetime: Number(booking.start_datetime), end_datetime: Number(booking.end_datetime) }).toEqual(moved);
  });
});

describe.skipIf(!pgUrl)('two server processes on one PostgreSQL database (set TEST_DATABASE_URL to run)', () => {
  let first: TestServer;
  let second: TestServer;
  let secondDb: Db;
  let trips: RoundTrips;
  let newDate: (spaces: number) => Promise<string>;

  beforeAll(async () => {
    first = await startTestServer(ENV);
    await seedCheckoutCatalogue(first.db, now());
    newDate = raceOccurrences(first.db, 'occ_known_pg', now);
    // The second process: its own connections (counted) and its own copies, on the same database.
    trips = countRoundTrips();
    secondDb = openDb({ url: first.testDb.url, schema: first.testDb.schema });
    second = await startTestServer(ENV, { ...first.testDb, db: secondDb });
  });
  afterAll(async () => {
    trips?.uninstall();
    await second?.close();
    await secondDb?.destroy();
    await first?.close();
  });

  /** A learner whose session both processes know, on a checkout of a fresh date at the contact step. */
  async function atContact(on: TestServer) {
    const { cookie, user } = await signUpAndLogin(first);
    const id = (await client(on, cookie).initialise('booking', { courseId: 'crs_race', occurrenceId: await newDate(5) })).body._id as string;
    const picked = await client(on, cookie).submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.race, quantity: 1 }] });
    expect(picked.body.currentStep).toBe('contactDetails');
    return { id, email: user.email, at: (server: TestServer) => client(server, cookie) };
  }

  it('a checkout the other process abandoned is not moved on from this process\u2019s copy', async () => {
    const learner = await atContact(second);
    expect((await learner.at(first).post(`/checkout/${learner.id}/abandon`)).status).toBe(200);
    const refused = await learner.at(second).submit(learner.id, 'contact details filled', contactPayload(learner.email));
    expect(refused.status).toBe(400);
    const row = await first.db.selectFrom('checkouts').select(['status', 'current_step']).where('id', '=', learner.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'abandoned', current_step: 'contactDetails' });
    expect(await first.db.selectFrom('space_holds').select('id').where('checkout_id', '=', learner.id).execute()).toEqual([]);
  });

  it('a step the other process went back from is decided where the checkout stands', async () => {
    const learner = await atContact(second);
    const back = await learner.at(first).submit(learner.id, 'go back');
    expect(back.body.currentStep).toBe('spaces');
    // This process's copy stands at Contact: its action is refused there, as on the row.
    expect((await learner.at(second).submit(learner.id, 'contact details filled', contactPayload(learner.email))).status).toBe(400);
    const again = await learner.at(second).submit(learner.id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.race, quantity: 2 }] });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ currentStep: 'contactDetails', totalCost: 2000 });
  });

  it('an action on this process\u2019s own copy (kept through a refusal) costs one round trip fewer than the same action on a checkout it has no copy of', async () => {
    const copied = await atContact(second);
    const uncopied = await atContact(first);
    const tripsOf = async (learner: typeof copied) => {
      const before = trips.count();
      const res = await learner.at(second).submit(learner.id, 'contact details filled', contactPayload(learner.email));
      expect(res.body.currentStep, JSON.stringify(res.body)).toBe('payment');
      return trips.count() - before;
    };
    // This process has not seen the second learner yet: its session is read once first (a GET keeps no copy). And
    // it has not used the booker's form: a first Contact step reads it into the catalogue's cache.
    expect((await uncopied.at(second).get(`/checkout/${uncopied.id}`)).status).toBe(200);
    await tripsOf(await atContact(second));
    // A refused action changes nothing: the copy it was refused on is kept.
    const refused = await copied.at(second).submit(copied.id, 'contact details filled', contactPayload(copied.email, { termsAccepted: false }));
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    const withCopy = await tripsOf(copied);
    const withoutCopy = await tripsOf(uncopied);
    expect(withCopy).toBe(withoutCopy - 1);
    // The Contact step: its statements with the check of the copy, the cap's read and the spaces taken right
    // behind it; the hold, the row and COMMIT.
    expect(withCopy).toBe(2);
  });
  it('the checkout\u2019s start and its steps before payment commit without waiting for the disk; the payment method and the payment\u2019s outcome wait for it', async () => {
    const relaxed = (texts: string[]) => texts.filter((t) => /synchronous_commit/.test(t));
    const sentBy = async <R extends { status: number; body: unknown }>(action: () => Promise<R>) => {
      const before = trips.texts().length;
      const res = await action();
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      return { res, texts: trips.texts().slice(before) };
    };
    const { cookie, user } = await signUpAndLogin(first);
    const api = client(second, cookie);
    const occurrenceId = await newDate(5);
    const { res: init, texts: initialised } = await sentBy(() => api.initialise('booking', { courseId: 'crs_race', occurrenceId }));
    const id = (init.body as { _id: string })._id;
    // The new checkout's insert, with its COMMIT.
    expect(initialised.slice(-3).map((t) => t.split(' ')[0])).toEqual(['insert', 'set', 'commit']);
    const pricing = await sentBy(() => api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.race, quantity: 1 }] }));
    const contact = await sentBy(() => api.submit(id, 'contact details filled', contactPayload(user.email)));
    // Written with the COMMIT (one round trip with it), in the transaction that took the spaces.
    expect(relaxed(pricing.texts)).toEqual(['set local synchronous_commit = off']);
    expect(relaxed(contact.texts)).toEqual(['set local synchronous_commit = off']);
    expect(contact.texts.slice(-2)).toEqual(['set local synchronous_commit = off', 'commit']);
    const method = await sentBy(() => api.submit(id, 'payment method selected', { paymentMethod: 'card' }));
    const paid = await sentBy(() => payWithCard(second, method.res.body, CARDS.success));
    const confirmed = await sentBy(() => api.submit(id, 'payment was successful', {}));
    expect(relaxed([...method.texts, ...paid.texts, ...confirmed.texts])).toEqual([]);
    expect((await first.db.selectFrom('checkouts').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('completed');
    // Only for its own transaction: the pooled connections commit as configured afterwards.
    const setting = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(secondDb);
    expect(setting.rows[0].synchronous_commit).toBe('on');
  });

  it('the confirmation right after the provider\u2019s notice completed the checkout is made from the booking as recorded; a later one reads it as it stands', async () => {
    const learner = await atContact(second);
    const api = learner.at(second);
    expect((await api.submit(learner.id, 'contact details filled', contactPayload(learner.email))).status).toBe(200);
    const method = await api.submit(learner.id, 'payment method selected', { paymentMethod: 'card' });
    // The card's confirmation on this process: its notice completes the checkout, before the browser says so.
    expect((await payWithCard(second, method.body, CARDS.success)).status).toBe(200);
    const confirm = async () => {
      const before = trips.count();
      const res = await api.submit(learner.id, 'payment was successful', {});
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { trips: trips.count() - before, status: res.body.outcome?.status };
    };
    expect(await confirm()).toEqual({ trips: 0, status: 'confirmed' });
    // The educator cancels it meanwhile: the next look shows it.
    await first.db.updateTable('bookings').set({ status: 'cancelled' }).where('checkout_id', '=', learner.id).execute();
    expect(await confirm()).toEqual({ trips: 1, status: 'cancelled' });
  });
});
