/**
 * npm run bench:search — course search at 100,000 courses through the real server, on SQLite and PostgreSQL.
 *
 * Builds the catalogue of `npm run seed -- --educators 10000` once per engine and keeps it (SQLite:
 * .tmp/bench-search/catalogue-10000.sqlite; PostgreSQL: its own database `bench_search_10000`), so reruns
 * start at once; new migrations are applied to the kept catalogue. Then it starts the server as its own
 * process (the compiled one when `npm run build:server` has made it) and drives a fixed mix of searches
 * (SEARCH_MIX: common and rare words, two-word queries, no query with each sort, words with each sort,
 * category, delivery and price filters without and with words and sorts, deep pages, carousels) in a closed
 * loop — each connection sends its next request when the last answer has arrived — for BENCH_SECONDS after a
 * warm-up. It prints requests per second and latency
 * percentiles for the whole mix and for each kind of query. Figures only, no assertions on time.
 *
 * Env: BENCH_ENGINES=sqlite,postgres  BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres (an
 * admin connection; the catalogue gets its own database)  BENCH_EDUCATORS=10000  BENCH_CONNECTIONS=20
 * BENCH_SECONDS=20  BENCH_WARMUP_SECONDS=5  BENCH_PROFILE=<dir> (CPU profiles of the server)
 * BENCH_STATEMENT_PROFILE=<file> (each SQL text's calls and SQLite time in the server: statement-profile.mjs)
 * BENCH_REBUILD=1 (build the catalogue again)  BENCH_BARE_SECONDS=5 (the bare node:http reference printed first).
 * SERVER_PROCESSES=n is passed on to the server (api/server.ts).
 */
import { mkdirSync, rmSync, existsSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { openDb, type Db } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { loadCatalogue, resetCatalogue } from '../../db/seed/load.ts';
import { optimizeSearchIndex } from '../../db/queries/search.ts';
import { SEARCH_MIX } from './search-mix.ts';
import { databaseCpuSeconds, freePort, percentile, serverCommand, startServerProcess, stopServerProcess, treeCpuSeconds, withBareServer } from './server-process.ts';

const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim()).filter(Boolean);
const PG_ADMIN = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EDUCATORS = Number(process.env.BENCH_EDUCATORS ?? 10_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const BARE_SECONDS = Number(process.env.BENCH_BARE_SECONDS ?? 5);
const SEED = 1;

function mixPaths(educators: string[]): Array<{ kind: string; path: string }> {
  // Interleave the kinds so that every stretch of the run sees all of them.
  const longest = Math.max(...SEARCH_MIX.map((m) => m.paths.length));
  const list: Array<{ kind: string; path: string }> = [];
  let e = 0;
  for (let i = 0; i < longest * educators.length; i++) {
    for (const { kind, paths } of SEARCH_MIX) {
      const query = paths[i % paths.length].replace('{educator}', () => educators[e++ % educators.length]);
      const withSize = /(^|&)size=/.test(query) ? query : `${query}${query ? '&' : ''}size=24`;
      list.push({ kind, path: `/api/courses/search?${withSize}` });
    }
  }
  return list;
}

interface Catalogue {
  url: string;
  label: string;
}

async function catalogueReady(db: Db): Promise<boolean> {
  try {
    const rows = await db.selectFrom('catalogue_meta').select(['key', 'value']).execute();
    const meta = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    return meta.educators === String(EDUCATORS) && meta.seed === String(SEED) && meta.bench_complete === '1';
  } catch {
    return false;
  }
}

/** The kept catalogue, built when missing (or with BENCH_REBUILD=1). */
async function prepareCatalogue(engine: string): Promise<Catalogue> {
  let url: string;
  if (engine === 'postgres') {
    const name = `bench_search_${EDUCATORS}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    try {
      const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (exists.rowCount && process.env.BENCH_REBUILD) await admin.query(`drop database ${name} with (force)`);
      if (!exists.rowCount || process.env.BENCH_REBUILD) await admin.query(`create database ${name}`);
    } finally {
      await admin.end();
    }
    const target = new URL(PG_ADMIN);
    target.pathname = `/${name}`;
    url = target.toString();
  } else {
    const dir = '.tmp/bench-search';
    mkdirSync(dir, { recursive: true });
    url = join(dir, `catalogue-${EDUCATORS}.sqlite`);
    if (process.env.BENCH_REBUILD) for (const suffix of ['', '-wal', '-shm']) rmSync(`${url}${suffix}`, { force: true });
  }
  const db = openDb({ url });
  try {
    const applied = await migrateToLatest(db);
    if (await catalogueReady(db)) {
      if (applied.length > 0) await optimizeSearchIndex(db);
      console.log(`${engine}: kept catalogue of ${EDUCATORS} educators (${url.replace(/\/\/[^@]*@/, '//')})${applied.length ? `, migrated: ${applied.join(', ')}` : ''}`);
    } else {
      console.log(`${engine}: building the catalogue of ${EDUCATORS} educators once (kept for reruns)…`);
      await resetCatalogue(db);
      const t0 = performance.now();
      const result = await loadCatalogue(db, { seed: SEED, educators: EDUCATORS });
      await db.insertInto('catalogue_meta').values({ key: 'bench_complete', value: '1' }).execute();
      console.log(`${engine}: ${result.counts.courses} courses, ${result.rows} rows in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
    return { url, label: engine };
  } finally {
    await db.destroy();
  }
}

async function demoEducators(url: string): Promise<string[]> {
  const db = openDb({ url });
  try {
    const { rows } = await sql<{ id: string }>`select id from educators order by id limit 20 offset 100`.execute(db);
    return rows.map((r) => r.id);
  } finally {
    await db.destroy();
  }
}

interface Sample {
  kind: string;
  ms: number;
}

/** CONNECTIONS loops, each sending its next request when the previous answer is complete. */
async function closedLoop(base: URL, paths: Array<{ kind: string; path: string }>, seconds: number): Promise<{ samples: Sample[]; errors: number; elapsed: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const samples: Sample[] = [];
  let errors = 0;
  let next = 0;
  const stopAt = performance.now() + seconds * 1000;
  const once = (path: string) =>
    new Promise<number>((resolve) => {
      const req = request({ host: base.hostname, port: base.port, path, agent, method: 'GET' }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', () => resolve(0));
      req.end();
    });
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < stopAt) {
        const item = paths[next++ % paths.length];
        const start = performance.now();
        const status = await once(item.path);
        const ms = performance.now() - start;
        if (status === 200) samples.push({ kind: item.kind, ms });
        else errors++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  agent.destroy();
  return { samples, errors, elapsed };
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const f = (v: number) => v.toFixed(1).padStart(7);
  return `${f(percentile(sorted, 50))} ${f(percentile(sorted, 95))} ${f(percentile(sorted, 99))} ${f(sorted[sorted.length - 1] ?? 0)}`;
}

async function benchEngine(catalogue: Catalogue): Promise<void> {
  const educators = await demoEducators(catalogue.url);
  const paths = mixPaths(educators);
  const port = await freePort();
  const profileDir = process.env.BENCH_PROFILE ? join(process.env.BENCH_PROFILE, catalogue.label) : undefined;
  const child = await startServerProcess({ databaseUrl: catalogue.url, port, profileDir });
  const base = new URL(`http://127.0.0.1:${port}`);
  try {
    // Every query once, checking the answers, then the warm-up.
    for (const { path } of paths.slice(0, SEARCH_MIX.length * 6)) {
      const res = await fetch(new URL(path, base));
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
    await closedLoop(base, paths, WARMUP_SECONDS);
    const loadBefore = loadavg();
    const database = catalogue.label === 'postgres' ? new URL(catalogue.url).pathname.slice(1) : null;
    const dbCpuBefore = database ? databaseCpuSeconds(database) : null;
    const cpuBefore = treeCpuSeconds(child.pid);
    const { samples, errors, elapsed } = await closedLoop(base, paths, SECONDS);
    const cpuAfter = treeCpuSeconds(child.pid);
    const dbCpuAfter = database ? databaseCpuSeconds(database) : null;
    const loadAfter = loadavg();
    const cpu = cpuBefore !== null && cpuAfter !== null && samples.length > 0
      ? `  server CPU ${((1000 * (cpuAfter - cpuBefore)) / samples.length).toFixed(2)} ms per request (${(((cpuAfter - cpuBefore) / elapsed) * 100).toFixed(0)}% of a core)`
      : '';
    const dbCpu = dbCpuBefore !== null && dbCpuAfter !== null && samples.length > 0
      ? `  PostgreSQL CPU ${((1000 * (dbCpuAfter - dbCpuBefore)) / samples.length).toFixed(2)} ms per request (${(((dbCpuAfter - dbCpuBefore) / elapsed) * 100).toFixed(0)}% of a core)`
      : '';
    const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(', ');
    const processes = Number(process.env.SERVER_PROCESSES || 1);
    console.log(`\n${catalogue.label} · server: ${serverCommand().label}${processes > 1 ? ` × ${processes} processes` : ''} · ${CONNECTIONS} connections · ${SECONDS} s · load average ${load(loadBefore)} → ${load(loadAfter)}`);
    console.log(`  requests ${samples.length}  errors ${errors}  req/s ${(samples.length / elapsed).toFixed(0)}${cpu}${dbCpu}`);
    console.log(`  ${'kind'.padEnd(22)} ${'count'.padStart(6)} ${'p50 ms'.padStart(7)} ${'p95 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)}`);
    console.log(`  ${'all'.padEnd(22)} ${String(samples.length).padStart(6)} ${summary(samples.map((s) => s.ms))}`);
    for (const { kind } of SEARCH_MIX) {
      const ms = samples.filter((s) => s.kind === kind).map((s) => s.ms);
      console.log(`  ${kind.padEnd(22)} ${String(ms.length).padStart(6)} ${summary(ms)}`);
    }
  } finally {
    await stopServerProcess(child);
  }
  if (profileDir && existsSync(profileDir)) console.log(`  CPU profile of the server in ${profileDir}`);
}

/**
 * The machine's speed at the time: a bare node:http server in its own process answering every request with
 * the same 15 KB of JSON (about a page of search results), driven by the same closed loop. This machine's
 * speed swings by half within the hour, so runs are compared by this figure, printed beside them.
 */
async function bareReference(): Promise<void> {
  const prelude = `const body = JSON.stringify({ results: Array.from({ length: 24 }, (_, i) => ({ _id: 'crs_' + i, text: 'x'.repeat(600) })) });`;
  const handler = `res.writeHead(200, { 'content-type': 'application/json' }); res.end(body);`;
  await withBareServer(prelude, handler, async (port) => {
    const base = new URL(`http://127.0.0.1:${port}`);
    await closedLoop(base, [{ kind: 'bare', path: '/' }], 1);
    const { samples, elapsed } = await closedLoop(base, [{ kind: 'bare', path: '/' }], BARE_SECONDS);
    console.log(`\nbare node:http, 15 KB of JSON · ${CONNECTIONS} connections · ${BARE_SECONDS} s: req/s ${(samples.length / elapsed).toFixed(0)}  p50/p95/p99/max ms ${summary(samples.map((x) => x.ms))}`);
  });
}

await bareReference();
for (const engine of ENGINES) {
  let catalogue: Catalogue;
  try {
    catalogue = await prepareCatalogue(engine);
  } catch (error) {
    console.log(`${engine}: skipped (${(error as Error).message})`);
    continue;
  }
  await benchEngine(catalogue);
}
