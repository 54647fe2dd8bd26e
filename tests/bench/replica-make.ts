/**
 * Making PostgreSQL's search replica (db/search-replica.ts) of bench:search's catalogue (100,026 courses; build it with
 * `npm run bench:search` first): how long it takes, how large the file is, and how long the event loop of the process
 * stalls meanwhile (a 10 ms timer beside it, its lateness summed over stalls of 100 ms or more), made two ways:
 *   on the loop    createReplica called on this thread, as the server did before the replica had a thread
 *   on its thread  startReplicaSearch (api/search/replica.ts), until it answers, as the server makes it now
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5433/postgres npm run bench:replica-make
 * Env: BENCH_EDUCATORS=10000 (the catalogue's database is bench_search_<n>), BENCH_WAYS=loop,thread.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, rawHandlesOf } from '../../db/client.ts';
import { createReplica } from '../../db/search-replica.ts';
import { startReplicaSearch } from '../../api/search/replica.ts';
import { createLogger } from '../../api/log.ts';
import { pgDatabaseUrl } from '../helpers/pg-admin.ts';

const PG_ADMIN = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EDUCATORS = Number(process.env.BENCH_EDUCATORS ?? 10_000);
const WAYS = (process.env.BENCH_WAYS ?? 'loop,thread').split(',');

/** Watches the event loop while `work` runs: the longest stall and the sum of stalls of 100 ms or more. */
async function watchingTheLoop<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number; longest: number; stalled: number }> {
  let last = performance.now();
  let longest = 0;
  let stalled = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - last - 10;
    longest = Math.max(longest, late);
    if (late >= 100) stalled += late;
    last = now;
  }, 10);
  const started = performance.now();
  try {
    const value = await work();
    return { value, seconds: (performance.now() - started) / 1000, longest: longest / 1000, stalled: stalled / 1000 };
  } finally {
    clearInterval(timer);
  }
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(', ');
const db = openDb({ url: pgDatabaseUrl(PG_ADMIN, `bench_search_${EDUCATORS}`), poolSize: 4 });
const dir = mkdtempSync(join(tmpdir(), 'bench-replica-'));
try {
  const courses = await db.selectFrom('courses').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  console.log(`catalogue bench_search_${EDUCATORS}: ${courses.n} courses · load average ${load()}`);
  for (const way of WAYS) {
    if (way === 'loop') {
      const file = join(dir, 'on-the-loop.sqlite');
      const run = await watchingTheLoop(() => createReplica(rawHandlesOf(db)!.pgPool!, file));
      const size = statSync(file).size + (statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0);
      await run.value.close();
      console.log(`on the loop:    made in ${run.seconds.toFixed(1)} s, ${(size / 2 ** 20).toFixed(0)} MB; the loop's longest stall ${run.longest.toFixed(2)} s, stalls ≥ 100 ms ${run.stalled.toFixed(1)} s in all · load ${load()}`);
    } else {
      const search = startReplicaSearch({ db, dir, threads: 1, pollMs: 200, busyWaitMs: 2000, log: createLogger('error') });
      const run = await watchingTheLoop(async () => {
        while (!search.ready) await new Promise((ok) => setTimeout(ok, 50));
      });
      await search.close();
      console.log(`on its thread:  answering after ${run.seconds.toFixed(1)} s; the loop's longest stall ${run.longest.toFixed(2)} s, stalls ≥ 100 ms ${run.stalled.toFixed(1)} s in all · load ${load()}`);
    }
  }
} finally {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
}
