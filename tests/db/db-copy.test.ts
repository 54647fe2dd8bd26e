/**
 * npm run db:copy (db/copy.ts): a SQLite database of the product moves into an empty PostgreSQL database with every
 * row, and the copy serves what the original served. Two sources: the demo catalogue, and the checkout catalogue
 * with bookings, a gift card (bought, then spent on a booking) and a membership made through the real API.
 *
 * Needs PostgreSQL (the target): skipped unless TEST_DATABASE_URL is set. The source is always a SQLite file, and
 * each target is a throw-away database of its own (a copy migrates it and fills its public schema).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openDb, type Db } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { CopyRefused, copySqliteToPostgres, type CopyResult } from '../../db/copy.ts';
import { loadCatalogue } from '../../db/seed/load.ts';
import { loadEducatorCatalogue } from '../../db/queries/pages.ts';
import { searchCourses } from '../../db/queries/search.ts';
import { createThrowawayPgDatabase, dropThrowawayPgDatabases, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { DEFAULT_PASSWORD, logIn, makeEducatorAdmin, signUpAndLogin } from '../helpers/auth.ts';
import { CARDS, IDS, OFFERS, booker, client, contactPayload, payWithCard, seedCheckoutCatalogue, type Client } from '../api/checkout-fixtures.ts';
import { PLANS, join as joinPlan, seedPlans } from '../api/membership-fixtures.ts';
import { londonDate } from '../../src/domain/gifts.ts';

const run = promisify(execFile);
const adminUrl = process.env.TEST_DATABASE_URL;
const NOW = Math.floor(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) / 1000);

const work = mkdtempSync(join(tmpdir(), 'db-copy-'));
const targets: string[] = [];

/** A migrated SQLite database whatever TEST_DATABASE_URL says: the copy's source is always SQLite. */
async function sqliteDb(name: string): Promise<TestDb> {
  const url = join(work, `${name}.sqlite`);
  const db = openDb({ url });
  await migrateToLatest(db);
  return {
    db, url, dialect: 'sqlite', migrate: () => migrateToLatest(db), changeSchema: (w) => w(),
    close: () => db.destroy(),
  };
}

/** An empty PostgreSQL database, dropped after the file. */
async function emptyTarget(): Promise<string> {
  const created = await createThrowawayPgDatabase(adminUrl!, 'dbcopy');
  targets.push(created.name);
  return created.url;
}

/** The target as a TestDb a server can run on. */
function pgTestDb(url: string): TestDb {
  const db = openDb({ url });
  return { db, url, dialect: 'postgres', migrate: () => migrateToLatest(db), changeSchema: (w) => w(), close: () => db.destroy() };
}

function expectVerified(result: CopyResult): void {
  for (const t of result.tables) {
    expect(t.ok, `${t.table}: ${t.sourceRows}/${t.targetRows} rows, ${t.sourceChecksum} / ${t.targetChecksum}`).toBe(true);
  }
  expect(result.ok).toBe(true);
}

function rowsOf(result: CopyResult, table: string): number {
  return result.tables.find((t) => t.table === table)!.targetRows;
}

/** Rows of every product table on the target (to show a refused copy wrote nothing). */
async function targetRowCounts(url: string): Promise<Record<string, number>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1",
    );
    const counts: Record<string, number> = {};
    for (const { table_name } of rows) counts[table_name] = Number((await c.query(`select count(*) as n from "${table_name}"`)).rows[0].n);
    return counts;
  } finally {
    await c.end();
  }
}

afterAll(async () => {
  await dropThrowawayPgDatabases(adminUrl, targets);
  rmSync(work, { recursive: true, force: true });
});

// The target engine is PostgreSQL: without a server to copy into there is nothing to test.
// The copy's target is PostgreSQL: this runs in every PostgreSQL pass (.ci/run runs one), and is skipped on SQLite alone.
describe.skipIf(!adminUrl)('db:copy of the demo catalogue', () => {
  let source: TestDb;
  let targetUrl: string;
  let target: Db;
  let result: CopyResult;

  beforeAll(async () => {
    source = await sqliteDb('demo');
    await loadCatalogue(source.db, { seed: 1, educators: 6, now: NOW });
    targetUrl = await emptyTarget();
    result = await copySqliteToPostgres({ from: source.url, to: targetUrl, batchRows: 50 });
    target = openDb({ url: targetUrl });
  }, 120_000);
  afterAll(async () => {
    await target?.destroy();
    await source?.close();
  });

  it('copies every table with equal counts and checksums, and rebuilds the search read model', () => {
    expectVerified(result);
    for (const table of ['educators', 'courses', 'occurrences', 'offers', 'reviews', 'review_aggregates', 'membership_plans']) {
      expect(rowsOf(result, table), table).toBeGreaterThan(0);
    }
    // Batches of 50 rows: the larger tables went in several.
    expect(rowsOf(result, 'occurrences')).toBeGreaterThan(50);
    expect(rowsOf(result, 'course_search')).toBe(rowsOf(result, 'courses'));
    expect(rowsOf(result, 'search_cards')).toBe(rowsOf(result, 'courses'));
  });

  it('serves the same educator pages and search answers as the original', async () => {
    const educators = await source.db.selectFrom('educators').select('id').orderBy('id').execute();
    expect(educators.length).toBe(6);
    for (const { id } of educators) {
      expect(await loadEducatorCatalogue(target, [id], NOW), id).toEqual(await loadEducatorCatalogue(source.db, [id], NOW));
    }
    // Each engine has its own full-text search (stemming differs): listings without a word must agree row for
    // row, and a word from a course's name must find that course on the copy.
    for (const sort of ['newest', 'price_asc', 'price_desc'] as const) {
      const [a, b] = await Promise.all([
        searchCourses(source.db, { sort, size: 48 }, { now: NOW }),
        searchCourses(target, { sort, size: 48 }, { now: NOW }),
      ]);
      expect(b.total, sort).toBe(a.total);
      expect(b.results.map((c) => c._id), sort).toEqual(a.results.map((c) => c._id));
    }
    const course = await source.db.selectFrom('courses').select(['id', 'name']).where('published', '=', true).orderBy('id').executeTakeFirstOrThrow();
    const found = await searchCourses(target, { query: course.name, size: 48 }, { now: NOW });
    expect(found.results.map((c) => c._id)).toContain(course.id);
  });

  it('refuses a second copy into the now non-empty target, through the command and the library, and writes nothing', async () => {
    const before = await targetRowCounts(targetUrl);
    const cli = await run('npx', ['tsx', 'db/copy-cli.ts', '--from', source.url, '--to', targetUrl]).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/Refused: The target is not empty \(rows in .*courses/);
    await expect(copySqliteToPostgres({ from: source.url, to: targetUrl })).rejects.toThrow(CopyRefused);
    expect(await targetRowCounts(targetUrl)).toEqual(before);
  }, 60_000);

  it('refuses a database that already holds another application\'s rows, before adding any table of its own', async () => {
    const url = await emptyTarget();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query('create table customers (id integer primary key)');
      await c.query('insert into customers values (1)');
      await expect(copySqliteToPostgres({ from: source.url, to: url })).rejects.toThrow(/not empty \(rows in customers\)/);
      expect((await c.query("select to_regclass('courses') is null as absent")).rows[0].absent).toBe(true);
    } finally {
      await c.end();
    }
  });

  it('refuses a source behind this version\'s migrations', async () => {
    const behind = await sqliteDb('behind');
    await behind.db.deleteFrom('kysely_migration' as never).where('name' as never, '=', '0180_membership_credit_holds' as never).execute();
    await behind.close();
    await expect(copySqliteToPostgres({ from: behind.url, to: targetUrl })).rejects.toThrow(/source is missing migrations 0180_membership_credit_holds/);
  });

  it('refuses a target at a later migration level than the source', async () => {
    const url = await emptyTarget();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query('create table kysely_migration (name varchar(255) primary key, timestamp varchar(255) not null)');
    await c.query("insert into kysely_migration values ('9999_from_the_future', '2099-01-01T00:00:00.000Z')");
    await c.end();
    await expect(copySqliteToPostgres({ from: source.url, to: url })).rejects.toThrow(/later migration level than the source \(9999_from_the_future\)/);
  });
});

// The copy's target is PostgreSQL: this runs in every PostgreSQL pass (.ci/run runs one), and is skipped on SQLite alone.
describe.skipIf(!adminUrl)('db:copy of a site with bookings, gift cards and memberships', () => {
  let source: TestDb;
  let server: TestServer;
  let targetUrl: string;
  let targetDb: TestDb;
  let copied: TestServer;
  let result: CopyResult;
  const learners: Array<{ cookie: string; email: string }> = [];
  let now: number;

  /** Books the class's first date, one standard place, paying by card what a code leaves to pay. */
  async function bookClass(s: TestServer, api: Client, email: string, code: string | null = null): Promise<void> {
    let res = await api.initialise('booking', { courseId: IDS.classCourse });
    expect(res.status).toBe(201);
    const id = res.body._id;
    res = await api.submit(id, 'occurrence picked', { occurrence_id: IDS.classOcc });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    res = await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.standard, quantity: 1 }], selectedAddons: [], appliedPromoCode: code });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    res = await api.submit(id, 'contact details filled', contactPayload(email, { bookerFormResponse: booker(email, { phone: '07700 900123' }) }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    res = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await payWithCard(s, res.body, CARDS.success)).status).toBe(200);
    res = await api.submit(id, 'payment was successful', {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe('completed');
  }

  async function buyGift(api: Client, amount: number): Promise<string> {
    let res = await api.initialise('gift-voucher', { educatorId: IDS.educator });
    expect(res.status).toBe(201);
    const id = res.body._id;
    res = await api.submit(id, 'gift amount picked', { amount });
    expect(res.status).toBe(200);
    res = await api.submit(id, 'gift details filled', {
      buyerName: 'Ada Buyer', buyerEmail: 'ada@example.com', recipientName: 'Grace Friend', recipientEmail: 'grace@example.com',
      message: 'Happy birthday!', sendDate: londonDate(now),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    res = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    expect(res.status).toBe(200);
    expect((await payWithCard(server, res.body, CARDS.success)).status).toBe(200);
    res = await api.submit(id, 'payment was successful', {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.outcome.id as string;
  }

  beforeAll(async () => {
    const env = { RATE_LIMIT_LOGIN_PER_IP: '100000', LOG_LEVEL: 'silent' };
    source = await sqliteDb('site');
    server = await startTestServer(env, source);
    now = Math.floor(Date.now() / 1000);
    await seedCheckoutCatalogue(server.db, now);
    await seedPlans(server);
    const admin = await signUpAndLogin(server);
    await makeEducatorAdmin(server.db, admin.user.id, IDS.educator);
    const settings = { enabled: true, fixedAmounts: [2500, 5000], customMin: 1000, customMax: 20000, expiryMonths: 12, designColour: '#7a3e9d' };
    expect((await client(server, admin.cookie).put(`/educators/${IDS.educator}/gift-vouchers`, settings)).status).toBe(200);

    // A booking paid by card; a gift card bought, then spent on another booking; a membership.
    for (let i = 0; i < 2; i++) {
      const { cookie, user } = await signUpAndLogin(server);
      learners.push({ cookie, email: user.email });
    }
    await bookClass(server, client(server, learners[0].cookie), learners[0].email);
    const giftCardId = await buyGift(client(server, learners[1].cookie), 2500);
    const { code } = await server.db.selectFrom('gift_cards').select('code').where('id', '=', giftCardId).executeTakeFirstOrThrow();
    await bookClass(server, client(server, learners[1].cookie), learners[1].email, code);
    const member = await joinPlan(server, PLANS.monthly);
    learners.push({ cookie: await logIn(server, member.email, DEFAULT_PASSWORD), email: member.email });

    targetUrl = await emptyTarget();
    // The server is still running: the copy reads one snapshot of the file.
    result = await copySqliteToPostgres({ from: source.url, to: targetUrl });
    targetDb = pgTestDb(targetUrl);
    copied = await startTestServer(env, targetDb);
  }, 180_000);
  afterAll(async () => {
    await copied?.close();
    await targetDb?.close();
    await server?.close();
    await source?.close();
  });

  it('copies every table with equal counts and checksums, money and times exact', async () => {
    expectVerified(result);
    for (const table of ['bookings', 'checkouts', 'checkout_payments', 'gift_cards', 'gift_card_redemptions', 'memberships', 'membership_payments', 'users', 'sessions', 'page_changes']) {
      expect(rowsOf(result, table), table).toBeGreaterThan(0);
    }
    const pick = (db: Db) => db.selectFrom('gift_cards').select(['id', 'amount', 'balance', 'expires_at', 'created_at']).orderBy('id').execute();
    const cards = await pick(targetDb.db);
    expect(cards).toEqual(await pick(source.db));
    expect(cards[0].balance).toBe(0);
    const bookings = (db: Db) => db.selectFrom('bookings').select(['id', 'total_cost', 'created_at', 'start_datetime', 'lines', 'contact_details']).orderBy('id').execute();
    expect(await bookings(targetDb.db)).toEqual(await bookings(source.db));
  });

  it('serves the same educator page model and the same bookings, gift cards and memberships to each learner', async () => {
    expect(await loadEducatorCatalogue(targetDb.db, [IDS.educator], now)).toEqual(await loadEducatorCatalogue(source.db, [IDS.educator], now));
    expect(learners).toHaveLength(3);
    for (const { cookie } of learners) {
      // The learner's session was copied too: the same cookie signs in on the new database.
      for (const path of ['/bookings/mine', '/account/gift-cards', '/memberships', '/account']) {
        const [before, after] = await Promise.all([client(server, cookie).get(path), client(copied, cookie).get(path)]);
        expect(after.status, path).toBe(200);
        expect(after.body, path).toEqual(before.body);
      }
    }
    const mine = await client(copied, learners[0].cookie).get('/bookings/mine');
    expect(mine.body.bookings.map((b: { course_id: string }) => b.course_id)).toEqual([IDS.classCourse]);
  });

  it('takes new rows after the copy: a new booking, and change-feed ids continuing after the copied ones', async () => {
    const copiedMax = Number((await targetDb.db.selectFrom('page_changes').select((eb) => eb.fn.max('id').as('max')).executeTakeFirstOrThrow()).max);
    expect(copiedMax).toBeGreaterThan(0);
    const { cookie, user } = await signUpAndLogin(copied);
    await bookClass(copied, client(copied, cookie), user.email);
    const ids = (await targetDb.db.selectFrom('page_changes').select('id').where('id', '>', copiedMax).execute()).map((r) => Number(r.id));
    expect(ids.length).toBeGreaterThan(0);
    const mine = await client(copied, cookie).get('/bookings/mine');
    expect(mine.body.bookings.map((b: { course_id: string }) => b.course_id)).toEqual([IDS.classCourse]);
  }, 60_000);
});
