/**
 * Search threads (SQLite, api/search/threads.ts): the search API answered by threads beside the event loop must
 * answer byte for byte what the loop answers, see every write committed before the request at once, and, when a
 * thread stops, leave its searches to the loop (never an error) until it is started again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { searchCoursesJson, type CourseSearchParams } from '../../db/queries/search.ts';
import { defaultSearchThreads, type SearchThreads } from '../../api/search/threads.ts';
import { NOW, TEST_ENV, insertPublicFixtures } from './public-fixtures.ts';

const postgres = Boolean(process.env.TEST_DATABASE_URL);

async function whenAnswering(threads: SearchThreads, count: number): Promise<void> {
  const until = Date.now() + 20_000;
  for (;;) {
    const workers = threads.workers.length;
    if (workers === count && (await threads.search({ query: '' }, NOW)) !== undefined) return;
    if (Date.now() > until) throw new Error(`search threads not answering (${workers} running)`);
    await new Promise((ok) => setTimeout(ok, 50));
  }
}

describe('search threads unless SEARCH_THREADS says: one per core a server process has to itself, 1 to 4', () => {
  it.each([
    [1, 1, 1], [2, 1, 2], [3, 1, 3], [4, 1, 4], [5, 1, 4], [64, 1, 4],
    [2, 2, 1], [3, 2, 1], [4, 2, 2], [8, 2, 4], [2, 4, 1], [1, 64, 1],
  ])('%i cores, %i processes: %i', (cores, processes, threads) => {
    expect(defaultSearchThreads(cores, processes)).toBe(threads);
  });
});

// Search threads exist on SQLite only: PostgreSQL's statements already run in its own processes, and a server on it
// starts none (tests/api/multi-process.test.ts checks that on PostgreSQL). CI runs this file on both engines.
describe.skipIf(postgres)('search threads (SQLite)', () => {
  let server: TestServer;
  let threads: SearchThreads;
  beforeAll(async () => {
    server = await startTestServer({ ...TEST_ENV, SEARCH_THREADS: '2' });
    server.setNow(NOW);
    await insertPublicFixtures(server.db);
    threads = server.deps.searchThreads!;
    await whenAnswering(threads, 2);
  }, 30_000);
  afterAll(async () => server?.close());

  const api = async (qs: string) => {
    const res = await fetch(`${server.url}/api/courses/search?${qs}`);
    expect(res.status).toBe(200);
    return res.text();
  };

  const searches: Array<[string, CourseSearchParams]> = [
    ['size=50', { query: '', size: 50 }],
    ['query=pottery&size=5&page=2', { query: 'pottery', size: 5, page: 2 }],
    ['query=pott&sort=price_desc', { query: 'pott', sort: 'price_desc' }],
    ['educator_ref=edu_clay&size=11', { query: '', educatorRefs: ['edu_clay'], size: 11 }],
    ['delivery=online&sort=newest', { query: '', delivery: ['online'], sort: 'newest' }],
    ['query=nothingmatches', { query: 'nothingmatches' }],
  ];

  const gauge = async (name: string) => {
    const text = await server.deps.metrics!.registry.getSingleMetricAsString(`marketplace_${name}`);
    return Number(/\n[a-z_]+ (\d+)$/.exec(text)?.[1]);
  };

  it('answer what the event loop answers, byte for byte, each search on a thread', async () => {
    for (const [qs, params] of searches) {
      const before = threads.answered;
      const answer = await api(qs);
      expect(threads.answered).toBe(before + 1);
      expect(answer).toBe(await searchCoursesJson(server.db, { query: '', ...params }, { now: NOW }));
    }
    // What an operator sees of them.
    expect(await gauge('search_threads')).toBe(2);
    expect(await gauge('search_thread_answers')).toBe(threads.answered);
  });

  const storedCard = async (courseId: string) =>
    (await sql<{ card: string | null }>`select card from search_cards where course_id = ${courseId}`.execute(server.db)).rows[0]?.card;

  it('see a write committed before the search at once, and the cards they compute are stored before the answer', async () => {
    const first = JSON.parse(await api('query=wheel&size=50')) as { results: Array<{ _id: string; name: string }> };
    expect(first.results.map((r) => r._id)).toContain('crs_wheel');
    expect(await storedCard('crs_wheel')).toContain('"_id":"crs_wheel"');
    await server.db.updateTable('courses').set({ name: 'Kiln Firing for Everyone' }).where('id', '=', 'crs_wheel').execute();
    // The rename made the stored card stale (migration 0041); the thread computes it again and the server stores it.
    expect(await storedCard('crs_wheel')).toBeNull();
    const before = threads.answered;
    const renamed = JSON.parse(await api('query=kiln&size=50')) as { results: Array<{ _id: string; name: string }> };
    expect(threads.answered).toBe(before + 1);
    expect(renamed.results.find((r) => r._id === 'crs_wheel')?.name).toBe('Kiln Firing for Everyone');
    expect(await storedCard('crs_wheel')).toContain('Kiln Firing for Everyone');
  });

  it('a thread that stops leaves its searches to the loop, and is started again', async () => {
    const [one, two] = threads.workers;
    // A search sent to threads being stopped is left to its caller.
    const stopped = Promise.all([one!.terminate(), two!.terminate()]);
    const inFlight = threads.search({ query: 'pottery' }, NOW);
    await stopped;
    expect(await inFlight).toBeUndefined();
    // No thread: the API answers all the same, from the loop.
    const before = threads.answered;
    expect(await api('size=50')).toBe(await searchCoursesJson(server.db, { query: '', size: 50 }, { now: NOW }));
    expect(threads.answered).toBe(before);
    expect(await gauge('search_threads')).toBe(0);
    // Both are started again (after a second) and answer.
    await whenAnswering(threads, 2);
    expect(threads.workers).not.toContain(one);
    const again = threads.answered;
    await api('size=50');
    expect(threads.answered).toBe(again + 1);
  }, 30_000);
});
