/**
 * PostgreSQL's search replica (db/search-replica.ts, api/search/replica.ts): a SQLite file made from PostgreSQL's rows
 * and kept current by the feed of migration 0299 answers every search exactly as SQLite answers it on the same rows.
 *
 * The reference is a SQLite database of the demo catalogue copied into PostgreSQL with db:copy; every write after is
 * made on both, so a replica that missed or misread a row answers differently from the SQLite database.
 *
 * Needs PostgreSQL: skipped unless TEST_DATABASE_URL is set (.ci/run's PostgreSQL pass runs it).
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { openDb, rawHandlesOf, type Db } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { copySqliteToPostgres } from '../../db/copy.ts';
import { loadCatalogue } from '../../db/seed/load.ts';
import { searchCoursesJson, type CourseSearchParams } from '../../db/queries/search.ts';
import { createReplica, followFeed, pruneFeed, type Replica } from '../../db/search-replica.ts';
import { startReplicaSearch, type ReplicaSearch } from '../../api/search/replica.ts';
import { createLogger } from '../../api/log.ts';
import { createThrowawayPgDatabase, dropThrowawayPgDatabases } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { TEST_ENV, insertPublicFixtures } from '../api/public-fixtures.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const NOW = Math.floor(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) / 1000);
// Only where the tests run: a file whose tests are all skipped runs no afterAll to remove it.
const work = adminUrl ? mkdtempSync(join(tmpdir(), 'search-replica-')) : '';
const targets: string[] = [];

afterAll(async () => {
  await dropThrowawayPgDatabases(adminUrl, targets);
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A process id no process has now. */
function goneProcess(): number {
  for (let pid = 4_000_000; ; pid++) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
}

/** Words of the catalogue's own course and educator names, and searches of every kind with them. */
async function searchesOf(db: Db): Promise<CourseSearchParams[]> {
  const courses = await db.selectFrom('courses').select(['name', 'educator_id']).where('published', '=', true).orderBy('id').limit(40).execute();
  const categories = await db.selectFrom('categories').select('slug').orderBy('id').limit(2).execute();
  const words = Array.from(new Set(courses.flatMap((c) => c.name.toLowerCase().split(/[^a-z]+/).filter((w) => w.length > 3)))).slice(0, 6);
  const searches: CourseSearchParams[] = [{}, { query: words[0]!.slice(0, 3) }, { query: `${words[1]} ${words[2]}` }];
  for (const sort of ['relevance', 'newest', 'price_asc', 'price_desc'] as const) {
    searches.push({ sort }, { sort, query: words[3] }, { sort, query: words[4], delivery: ['online', 'in-person'] });
    searches.push({ sort, priceMin: 1000, priceMax: 20_000 }, { sort, educatorRefs: [courses[0]!.educator_id] });
    if (categories[0]) searches.push({ sort, categorySlug: categories[0].slug, query: words[5] });
  }
  searches.push({ query: courses[1]!.name }, { size: 50 }, { size: 10, page: 3, sort: 'newest' });
  return searches;
}

/** Every search answered by the replica and by the SQLite reference, side by side. */
async function answers(reference: Db, replica: Db, searches: CourseSearchParams[]): Promise<{ expected: string[]; actual: string[] }> {
  const expected: string[] = [];
  const actual: string[] = [];
  for (const params of searches) {
    expected.push(await searchCoursesJson(reference, params, { now: NOW, storeCards: true }));
    actual.push(await searchCoursesJson(replica, params, { now: NOW, storeCards: true }));
  }
  return { expected, actual };
}

/** Writes of every kind search reads, made the same way on both databases. */
async function write(db: Db, step: number): Promise<void> {
  const courses = await db.selectFrom('courses').select(['id', 'educator_id']).orderBy('id').execute();
  const [a, b, c, d] = [courses[step * 4]!, courses[step * 4 + 1]!, courses[step * 4 + 2]!, courses[step * 4 + 3]!];
  await db.transaction().execute(async (tx) => {
    await tx.updateTable('courses').set({ name: `Zanzibar lantern making ${step}` }).where('id', '=', a.id).execute();
    await tx.updateTable('courses').set({ published: false }).where('id', '=', b.id).execute();
    await tx.updateTable('educators').set({ name: `Quokka Academy ${step}` }).where('id', '=', c.educator_id).execute();
    await tx.updateTable('courses').set({ pricing_type: 'price-range', minimum_price: 100 + step, maximum_price: 90_000 }).where('id', '=', d.id).execute();
    // A date selling out, and one removed.
    const dates = await tx.selectFrom('occurrences').select('id').where('course_id', 'in', [a.id, c.id, d.id]).orderBy('id').execute();
    if (dates[0]) await tx.updateTable('occurrences').set({ available_spaces: 0 }).where('id', '=', dates[0].id).execute();
    if (dates[1]) await tx.deleteFrom('occurrences').where('id', '=', dates[1].id).execute();
    await tx.deleteFrom('review_aggregates').where('subject_type', '=', 'course').where('subject_id', '=', d.id).execute();
  });
}

// PostgreSQL only, on purpose: a search replica follows a PostgreSQL database (on SQLite, search reads its own file).
describe.skipIf(!adminUrl)('the search replica of a PostgreSQL database', () => {
  let reference: Db;
  let target: Db;
  let pool: pg.Pool;
  let replica: Replica;
  let searches: CourseSearchParams[];

  beforeAll(async () => {
    const file = join(work, 'reference.sqlite');
    reference = openDb({ url: file });
    await migrateToLatest(reference);
    await loadCatalogue(reference, { seed: 3, educators: 8, now: NOW });
    const created = await createThrowawayPgDatabase(adminUrl!, 'replica');
    targets.push(created.name);
    await copySqliteToPostgres({ from: file, to: created.url });
    target = openDb({ url: created.url });
    pool = rawHandlesOf(target)!.pgPool!;
    replica = await createReplica(pool, join(work, 'replica.sqlite'));
    searches = await searchesOf(reference);
  }, 120_000);
  afterAll(async () => {
    await replica?.close();
    await target?.destroy();
    await reference?.destroy();
  });

  it('answers every kind of search as SQLite answers it on the same rows, cards and totals included', async () => {
    const counts = await replica.db.selectFrom('course_search').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(counts.n)).toBeGreaterThan(20);
    const { expected, actual } = await answers(reference, replica.db, searches);
    expect(actual).toEqual(expected);
    // Not a vacuous comparison: most searches find courses.
    expect(expected.filter((a) => a.startsWith('{"results":[{')).length).toBeGreaterThan(searches.length / 2);
  });

  it('follows every kind of write to what search reads, in one look at the feed', async () => {
    for (const step of [0, 1]) {
      await write(reference, step);
      await write(target, step);
      const applied = await followFeed(pool, replica);
      expect(applied.rows).toBeGreaterThan(4);
      const { expected, actual } = await answers(reference, replica.db, [...searches, { query: 'zanzibar' }, { query: 'quokka' }]);
      expect(actual).toEqual(expected);
      expect(expected.at(-2)).toContain(`Zanzibar lantern making ${step}`);
      expect(expected.at(-1)).toContain('Quokka Academy');
    }
    // Nothing new: a look writes nothing.
    expect((await followFeed(pool, replica)).rows).toBe(0);
  });

  it('a booking that leaves spaces on both sides writes nothing to the feed; a date selling out does', async () => {
    const date = await target.selectFrom('occurrences').select(['id']).where('available_spaces', '>', 2).orderBy('id').executeTakeFirstOrThrow();
    const feedRows = async () => Number((await sql<{ n: number }>`select count(*) as n from search_replica_changes`.execute(target)).rows[0]!.n);
    const before = await feedRows();
    await target.updateTable('occurrences').set({ available_spaces: sql`available_spaces - 1` }).where('id', '=', date.id).execute();
    expect(await feedRows()).toBe(before);
    await target.updateTable('occurrences').set({ available_spaces: 0 }).where('id', '=', date.id).execute();
    expect(await feedRows()).toBe(before + 1);
    await followFeed(pool, replica);
    const copied = await replica.db.selectFrom('occurrences').select('available_spaces').where('id', '=', date.id).executeTakeFirstOrThrow();
    expect(copied.available_spaces).toBe(0);
  });

  it('a write committed while an older transaction runs is read at the next look; the older one once it commits', async () => {
    const [first, second] = await target.selectFrom('courses').select('id').where('published', '=', true).orderBy('id', 'desc').limit(2).execute();
    const running = await pool.connect();
    try {
      await running.query('begin');
      // The first transaction takes its id, then the second writes and commits: its id is the higher.
      await running.query('select pg_current_xact_id()');
      await target.updateTable('courses').set({ name: 'Pangolin pottery' }).where('id', '=', second!.id).execute();
      await running.query("update courses set name = 'Ocelot weaving' where id = $1", [first!.id]);
      await followFeed(pool, replica);
      const names = async () => (await replica.db.selectFrom('courses').select('name').where('id', 'in', [first!.id, second!.id]).orderBy('id', 'desc').execute()).map((r) => r.name);
      // The committed one at once, though the horizon stays below the one running.
      const seen = await names();
      expect(seen).not.toContain('Ocelot weaving');
      expect(seen[1]).toBe('Pangolin pottery');
      expect(replica.appliedAbove.length).toBeGreaterThan(0);
      await running.query('commit');
      expect((await followFeed(pool, replica)).rows).toBeGreaterThan(0);
      expect(await names()).toEqual(['Ocelot weaving', 'Pangolin pottery']);
      const found = await searchCoursesJson(replica.db, { query: 'ocelot' }, { now: NOW });
      expect(found).toContain('Ocelot weaving');
    } finally {
      running.release();
    }
  });

  it('tells when PostgreSQL is another database than the replica was made from (its transaction ids are behind)', async () => {
    const horizon = replica.horizon;
    replica.horizon = String(BigInt(horizon) + 1_000_000_000n);
    try {
      expect(await followFeed(pool, replica)).toEqual({ rows: 0, behind: true });
    } finally {
      replica.horizon = horizon;
    }
  });

  it('prunes the feed by age', async () => {
    await sql`insert into search_replica_changes (table_name, row_key, changed_at) values ('courses', 'old', 1000), ('courses', 'new', ${NOW})`.execute(target);
    expect(await pruneFeed(target, 2000)).toBe(1);
    const left = await sql<{ row_key: string }>`select row_key from search_replica_changes where row_key in ('old', 'new')`.execute(target);
    expect(left.rows.map((r) => r.row_key)).toEqual(['new']);
  });
});

// PostgreSQL only, on purpose: a search replica follows a PostgreSQL database (on SQLite, search reads its own file).
describe.skipIf(!adminUrl)('searches answered from the replica on its threads', () => {
  let target: Db;
  let search: ReplicaSearch;

  beforeAll(async () => {
    const file = join(work, 'threads-source.sqlite');
    const source = openDb({ url: file });
    await migrateToLatest(source);
    await loadCatalogue(source, { seed: 4, educators: 4, now: NOW });
    await source.destroy();
    const created = await createThrowawayPgDatabase(adminUrl!, 'replicat');
    targets.push(created.name);
    await copySqliteToPostgres({ from: file, to: created.url });
    target = openDb({ url: created.url });
    // A replica left by a process that is gone, and one of a process still running (this one).
    writeFileSync(join(work, `search-replica-${goneProcess()}-0123abcd-1.sqlite`), '');
    writeFileSync(join(work, `search-replica-${process.pid}-4567abcd-1.sqlite-wal`), '');
    search = startReplicaSearch({ db: target, dir: work, threads: 1, pollMs: 50, busyWaitMs: 1000, log: createLogger('error') });
  }, 120_000);
  afterAll(async () => {
    await search?.close();
    await target?.destroy();
  });

  it('removes the replica files of processes that are gone, and only those', () => {
    const left = readdirSync(work).filter((name) => name.startsWith('search-replica-'));
    expect(left.filter((name) => name.endsWith('0123abcd-1.sqlite'))).toEqual([]);
    expect(left).toContain(`search-replica-${process.pid}-4567abcd-1.sqlite-wal`);
  });

  it('answers from the replica once it is made, and a write is searchable after the next look', async () => {
    expect(search.ready).toBe(false);
    expect(await search.search({}, NOW)).toBeUndefined();
    await search.caughtUp();
    await expect.poll(() => search.ready, { timeout: 20_000 }).toBe(true);
    expect(search.made).toBe(1);
    const course = await target.selectFrom('courses').select('id').where('published', '=', true).orderBy('id').executeTakeFirstOrThrow();
    await target.updateTable('courses').set({ name: 'Axolotl drawing' }).where('id', '=', course.id).execute();
    await search.caughtUp();
    const body = await search.search({ query: 'axolotl' }, NOW);
    expect(JSON.parse(body!)).toMatchObject({ total: 1, results: [{ _id: course.id, name: 'Axolotl drawing' }] });
    expect(search.answered).toBeGreaterThan(0);
  });

  it('a replica thread that dies is started again, makes a new replica in files of its own, and the old files go', async () => {
    const files = () => readdirSync(work).filter((name) => name.startsWith(`search-replica-${process.pid}-`) && name.endsWith('.sqlite')).sort();
    const before = files().filter((name) => !name.includes('4567abcd'));
    expect(before).toHaveLength(1);
    await search.thread!.terminate();
    // Meanwhile the searches are still answered from the replica made before.
    expect(await search.search({ query: 'axolotl' }, NOW)).toContain('Axolotl drawing');
    await expect.poll(() => search.made, { timeout: 30_000 }).toBe(2);
    await expect.poll(() => search.ready, { timeout: 20_000 }).toBe(true);
    expect(await search.search({ query: 'axolotl' }, NOW)).toContain('Axolotl drawing');
    await expect.poll(() => files().filter((name) => !name.includes('4567abcd')), { timeout: 10_000 }).toHaveLength(1);
    expect(files()).not.toContain(before[0]);
  }, 60_000);
});

// PostgreSQL only, on purpose: a search replica follows a PostgreSQL database (on SQLite, search reads its own file).
describe.skipIf(!adminUrl)('the search API on PostgreSQL, answered from the replica', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ ...TEST_ENV, SEARCH_THREADS: '1', SEARCH_REPLICA_POLL_MS: '50', SEARCH_REPLICA_DIR: work });
    await insertPublicFixtures(server.db);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('readiness says who answers; once the replica does, a search and a write searched after the next look come from it', async () => {
    const searchCheck = async () => ((await (await fetch(`${server.url}/api/ready`)).json()) as { checks: Array<{ name: string; ok: boolean; detail: string }> })
      .checks.find((check) => check.name === 'search');
    await expect.poll(async () => (await searchCheck())?.detail, { timeout: 20_000 }).toMatch(/^answered by the search replica/);
    expect((await searchCheck())?.ok).toBe(true);
    const replica = server.deps.searchThreads as ReplicaSearch;
    const course = await server.db.selectFrom('courses').select(['id', 'name']).where('published', '=', true).orderBy('id').executeTakeFirstOrThrow();
    await server.db.updateTable('courses').set({ name: 'Capybara clay' }).where('id', '=', course.id).execute();
    await replica.caughtUp();
    const before = replica.answered;
    const res = await fetch(`${server.url}/api/courses/search?query=capybara`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ total: 1, results: [{ _id: course.id, name: 'Capybara clay' }] });
    expect(replica.answered).toBe(before + 1);
  });
});
