/**
 * npm run bench:checkout — complete booking checkouts against a running server, at 50 and 200 concurrent
 * learners. Prints completed checkouts per second, p50/p99 latency of submit-response, and the number of
 * oversold spaces (which must be 0). Figures only, no assertions on time.
 *
 * By default it starts the real server (API only; the compiled one when built, see server-process.ts) as a separate process on a fresh
 * SQLite file, so the load generator and the server do not share an event loop. BENCH_DATABASE_URL=postgres://…/postgres
 * runs it on a fresh PostgreSQL database instead (created and dropped). BENCH_ENGINES=sqlite,postgres runs both in
 * one run, their rounds taking turns, and prints PostgreSQL's figures over SQLite's pair by pair (see engines()).
 * Each checkout is:
 *   initialise (with the occurrence) → pricing options picked → contact details filled (the hold)
 *   → payment method selected (card) → the test provider confirms 4242… → payment was successful.
 * Each occurrence has fewer spaces than the checkouts aimed at it, so the last ones meet "sold out".
 * Env: BENCH_LEVELS=50,200  BENCH_CHECKOUTS_PER_LEARNER=3  BENCH_FILL=0.9 (spaces per attempted checkout)
 * BENCH_WARMUP_CHECKOUTS=1200 (untimed checkouts first, at the largest level's concurrency: a server that has just
 * started spends its first few thousand requests compiling its hot code — a fifth of its CPU in V8's optimising
 * compiler in the first seconds here — which a server in service has long done; 0 times the cold start).
 * BENCH_STATEMENT_PROFILE=<file>: each SQL text's calls (and time, SQLite) in the server, written at its exit
 * (statement-profile.mjs); each timed level's own counts go to <file>.<n> and its statements (SQLite) or round trips
 * (PostgreSQL) per completed checkout are printed with its figures.
 *
 * Beside the checkouts it prints the API requests per second they made, and the requests per second of a bare
 * `node:http` server (its own process) answering a small JSON body to the same client at the same concurrency:
 * the ceiling this machine, Node and this load generator put on any server, so the ratio can be read.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import http from 'node:http';
import { openDb, type Db } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { seedCheckoutCatalogue, IDS, OFFERS, contactPayload, CARDS } from '../api/checkout-fixtures.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import type { TestServer } from '../helpers/server.ts';
import { databaseCpuSeconds, freePort, percentile, scratchPostgresDatabase, startServerProcess, stopServerProcess, treeCpuSeconds, withBareServer } from './server-process.ts';

const LEVELS = (process.env.BENCH_LEVELS ?? '50,200').split(',').map(Number).filter((n) => n > 0);
const PER_LEARNER = Number(process.env.BENCH_CHECKOUTS_PER_LEARNER ?? 3);
const FILL = Number(process.env.BENCH_FILL ?? 0.9);
const WARMUP_CHECKOUTS = Number(process.env.BENCH_WARMUP_CHECKOUTS ?? 1200);

interface Learner { cookie: string; email: string }

/**
 * The load generator's HTTP client: node:http with a keep-alive agent (a connection per learner). The global
 * fetch (undici) held about 1 % of the requests for up to 4–5 s before sending them (the server's request log
 * showed them answered in ~1 ms, seconds after the client started them), which put the client's stall, not the
 * server's, into the p99.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
function post(url: string, headers: Record<string, string>, body: string | null, retried = false): Promise<{ status: number; json: any }> {
  return new Promise((ok, ko) => {
    const options = body === null ? { method: 'GET', agent, headers } : { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } };
    const req = http.request(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      res.on('error', ko);
    });
    // A kept-alive connection the server closed as idle (its keep-alive timeout: a learner can wait longer than that
    // for its turn on a loaded machine) fails the request written on it before any of it was read: sent again once,
    // on a new connection, as Node's documentation advises.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (!retried && req.reusedSocket && error.code === 'ECONNRESET') post(url, headers, body, true).then(ok, ko);
      else ko(error);
    });
    req.end(body ?? undefined);
  });
}

/** One engine under test: its database, its server process and its learners. */
interface Target {
  engine: Engine;
  db: Db;
  child: Awaited<ReturnType<typeof startServerProcess>>;
  base: string;
  /** PostgreSQL: the database's name, by which its backends' CPU is found. */
  databaseName: string | null;
  learners: Learner[];
  now: number;
  /** Rows name their engine (when the run has two). */
  tagged: boolean;
  close(): Promise<void>;
}

type Engine = 'sqlite' | 'postgres';

/**
 * BENCH_ENGINES=sqlite,postgres: both engines in one run, each on its own server and database, their rounds taking
 * turns (ABBA: SQLite then PostgreSQL for the first level, PostgreSQL then SQLite for the next, …), one server
 * loaded at a time, and after each pair of rounds PostgreSQL's checkouts/s and submit p99 beside SQLite's. Run one
 * after the other, the two engines met a machine whose speed moves by a third within minutes. Without it: the
 * engine BENCH_DATABASE_URL says (PostgreSQL when set), as before.
 */
function engines(): Engine[] {
  const listed = process.env.BENCH_ENGINES?.split(',').map((e) => e.trim()).filter(Boolean);
  if (!listed || listed.length === 0) return [process.env.BENCH_DATABASE_URL ? 'postgres' : 'sqlite'];
  for (const engine of listed) if (engine !== 'sqlite' && engine !== 'postgres') throw new Error(`BENCH_ENGINES: unknown engine ${engine}`);
  return [...new Set(listed as Engine[])];
}

/** PostgreSQL's admin connection: BENCH_DATABASE_URL, else this machine's local server. */
const PG_ADMIN = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function openTarget(engine: Engine, tmp: string, tagged: boolean): Promise<Target> {
  let databaseUrl = join(tmp, `bench-${engine}.sqlite`);
  let databaseName: string | null = null;
  let dropDatabase = async () => {};
  if (engine === 'postgres') {
    const scratch = await scratchPostgresDatabase(PG_ADMIN, 'bench_checkout');
    databaseName = scratch.name;
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
  }
  const db: Db = openDb({ url: databaseUrl });
  await migrateToLatest(db);
  const now = Math.floor(Date.now() / 1000);
  await seedCheckoutCatalogue(db, now);
  const port = await freePort();
  const profileDir = process.env.BENCH_PROFILE ? join(process.env.BENCH_PROFILE, engine) : undefined;
  const child = await startServerProcess({
    databaseUrl, port, profileDir,
    env: { RATE_LIMIT_LOGIN_PER_IP: '1000000', RATE_LIMIT_LOGIN_PER_EMAIL: '1000000' },
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    engine, db, child, base, databaseName, learners: [], now, tagged,
    async close() {
      await stopServerProcess(child);
      await db.destroy();
      await dropDatabase();
    },
  };
}

/** What a timed round measured, for the comparison of engines. */
interface RoundFigures { engine: Engine; checkoutsPerSecond: number; submitP99: number }

const ENGINE_NAMES: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

async function run(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'bench-checkout-'));
  const targets: Target[] = [];
  try {
    const chosen = engines();
    for (const engine of chosen) targets.push(await openTarget(engine, tmp, chosen.length > 1));
    const maxLearners = Math.max(...LEVELS);
    for (const target of targets) {
      process.stdout.write(`Signing up ${maxLearners} learners (${ENGINE_NAMES[target.engine]})… `);
      const server = { url: target.base, db: target.db } as unknown as TestServer;
      for (let i = 0; i < maxLearners; i += 20) {
        const batch = await Promise.all(Array.from({ length: Math.min(20, maxLearners - i) }, () => signUpAndLogin(server)));
        target.learners.push(...batch.map((b) => ({ cookie: b.cookie, email: b.user.email })));
      }
      console.log('done.');
    }
    console.log(`Database: ${targets.map((t) => `${t.engine} (server: separate process on ${t.base})`).join(', ')} · ${PER_LEARNER} checkouts per learner\n`);
    console.log('learners  attempted  completed  sold-out  errors  seconds  checkouts/s  API req/s  submit p50  submit p99  spaces  oversold');

    // An untimed warm-up per server (room for every checkout), then each level, the engines taking turns.
    if (WARMUP_CHECKOUTS > 0) {
      for (const target of targets) await round(target, 0, maxLearners, true);
    }
    const pairs: RoundFigures[][] = [];
    for (const [i, level] of LEVELS.entries()) {
      const order = i % 2 === 0 ? targets : [...targets].reverse();
      const pair: RoundFigures[] = [];
      for (const target of order) pair.push((await round(target, i + 1, level, false))!);
      if (pair.length === 2) {
        pairs.push(pair);
        console.log(`          ${compare(pair)}`);
      }
    }
    if (pairs.length > 1) summarise(pairs);
    for (const level of LEVELS) await bareJson(level);
  } finally {
    for (const target of targets) await target.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** PostgreSQL's figures over SQLite's in one pair of rounds. */
function ratios(pair: readonly RoundFigures[]): { throughput: number; p99: number } {
  const sqlite = pair.find((r) => r.engine === 'sqlite')!;
  const postgres = pair.find((r) => r.engine === 'postgres')!;
  return { throughput: postgres.checkoutsPerSecond / sqlite.checkoutsPerSecond, p99: postgres.submitP99 / sqlite.submitP99 };
}

function compare(pair: readonly RoundFigures[]): string {
  const { throughput, p99 } = ratios(pair);
  return `PostgreSQL ÷ SQLite in this pair: checkouts/s ${(throughput * 100).toFixed(0)} %, submit p99 ${p99.toFixed(2)}×`;
}

function summarise(pairs: readonly RoundFigures[][]): void {
  const mean = (engine: Engine) => pairs.reduce((sum, pair) => sum + pair.find((r) => r.engine === engine)!.checkoutsPerSecond, 0) / pairs.length;
  const each = pairs.map(ratios);
  const throughputs = each.map((r) => r.throughput * 100);
  console.log(
    `\nPostgreSQL ÷ SQLite over ${pairs.length} pairs: checkouts/s ${((mean('postgres') / mean('sqlite')) * 100).toFixed(0)} % of the means ` +
    `(${mean('postgres').toFixed(1)} ÷ ${mean('sqlite').toFixed(1)}), ${Math.min(...throughputs).toFixed(0)}–${Math.max(...throughputs).toFixed(0)} % pair by pair, ` +
    `at least 80 % in ${throughputs.filter((t) => t >= 80).length}; submit p99 ${Math.min(...each.map((r) => r.p99)).toFixed(2)}–${Math.max(...each.map((r) => r.p99)).toFixed(2)}×, ` +
    `within 1.5× in ${each.filter((r) => r.p99 <= 1.5).length}\n`,
  );
}

/** One round of `level` learners against one engine's server, printed; its figures when timed. */
async function round(target: Target, index: number, level: number, warmUp: boolean): Promise<RoundFigures | null> {
  const { db, base, child, databaseName, learners, now } = target;
  const perLearner = warmUp ? Math.ceil(WARMUP_CHECKOUTS / level) : PER_LEARNER;
  const attempts = level * perLearner;
  const capacity = warmUp ? attempts : Math.floor(attempts * FILL);
  const occurrenceId = `occ_bench_${index}_${level}`;
  await db.insertInto('occurrences').values({
    id: occurrenceId, course_id: IDS.raceCourse, visibility: 'public', start_datetime: now + 30 * 86400, end_datetime: now + 30 * 86400 + 7200,
    timezone: 'Europe/London', delivery: 'in-person', address: null, spaces: capacity, available_spaces: capacity, parent_ref: null, individually_bookable: true,
  }).execute();
  const latencies: number[] = [];
  const byAction = new Map<string, number[]>();
  let completed = 0;
  let soldOut = 0;
  let errors = 0;
  let requests = 0;

  const call = async (learner: Learner, path: string, body: unknown, measure: boolean, action = '') => {
    const t0 = performance.now();
    const res = await post(`${base}/api${path}`, { origin: base, cookie: learner.cookie, 'content-type': 'application/json' }, JSON.stringify(body));
    const json = res.json;
    requests++;
    // Every call's latency is listed by what it did; only submit-response's make the headline percentiles.
    const ms = performance.now() - t0;
    if (measure) latencies.push(ms);
    const values = byAction.get(action) ?? [];
    values.push(ms);
    byAction.set(action, values);
    return { status: res.status, body: json };
  };
  const submit = (learner: Learner, id: string, action: string, payload: unknown = {}) =>
    call(learner, `/checkout/${id}/submit-response`, { action, payload }, true, action);

  const checkout = async (learner: Learner): Promise<void> => {
    const init = await call(learner, '/checkout/initialise/booking', { checkoutId: null, courseId: IDS.raceCourse, occurrenceId, origin: 'marketplace', bookedOnURL: null, utms: {} }, false, '(initialise)');
    if (init.status !== 201) { errors++; return; }
    const id = init.body._id;
    const picked = await submit(learner, id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.race, quantity: 1 }], selectedAddons: [] });
    if (picked.status !== 200) { if (picked.body.detail === 'Spaces are sold out') soldOut++; else errors++; return; }
    const contact = await submit(learner, id, 'contact details filled', contactPayload(learner.email));
    if (contact.status !== 200) { if (contact.body.detail === 'Spaces are sold out') soldOut++; else errors++; return; }
    const method = await submit(learner, id, 'payment method selected', { paymentMethod: 'card' });
    if (method.status !== 200) { errors++; return; }
    const payment = method.body.stepState.payment.state;
    const confirmed = await call(learner, `/test-payments/${payment.paymentId}/confirm`, { card_number: CARDS.success, client_secret: payment.clientSecret }, false, '(test card payment confirmed)');
    if (confirmed.status !== 200) { errors++; return; }
    const done = await submit(learner, id, 'payment was successful', {});
    if (done.status === 200 && done.body.bookingId) completed++;
    else errors++;
  };

  // Every learner's connection is opened before the clock starts. A Node server whose event loop is saturated
  // accepts new connections slowly (about one per turn of its loop, here one per ~40 ms: see
  // docs/benchmarks.md), so 180 connections opened at once by a closed loop left some learners waiting seconds
  // for their first answer while the others ran with less competition — flattering the p99 of the rest.
  await Promise.all(learners.slice(0, level).map((learner) => post(`${base}/api/health`, { cookie: learner.cookie }, null)));

  const profile = warmUp ? null : await statementSnapshot(child.pid);
  const cpuBefore = treeCpuSeconds(child.pid);
  const dbCpuBefore = databaseName ? databaseCpuSeconds(databaseName) : null;
  const t0 = performance.now();
  await Promise.all(learners.slice(0, level).map(async (learner) => {
    for (let k = 0; k < perLearner; k++) await checkout(learner);
  }));
  const seconds = (performance.now() - t0) / 1000;
  if (warmUp) {
    await untilQuiet(target);
    console.log(`${'(warm-up)'.padStart(8)}  ${String(attempts).padStart(9)}  ${String(completed).padStart(9)}  ${String(soldOut).padStart(8)}  ${String(errors).padStart(6)}  ${seconds.toFixed(2).padStart(7)}  (untimed: the ${ENGINE_NAMES[target.engine]} server compiling its hot code)`);
    return null;
  }
  const cpuAfter = treeCpuSeconds(child.pid);
  const dbCpuAfter = databaseName ? databaseCpuSeconds(databaseName) : null;
  const booked = await db.selectFrom('bookings').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('spaces'), eb.lit(0)).as('spaces')).where('occurrence_id', '=', occurrenceId).executeTakeFirstOrThrow();
  const left = await db.selectFrom('occurrences').select('available_spaces').where('id', '=', occurrenceId).executeTakeFirstOrThrow();
  const bookedSpaces = Number(booked.spaces);
  const oversold = Math.max(0, bookedSpaces - capacity) + Math.max(0, -Number(left.available_spaces));
  latencies.sort((a, b) => a - b);
  console.log(
    `${String(level).padStart(8)}  ${String(attempts).padStart(9)}  ${String(completed).padStart(9)}  ${String(soldOut).padStart(8)}  ${String(errors).padStart(6)}  ` +
    `${seconds.toFixed(2).padStart(7)}  ${(completed / seconds).toFixed(1).padStart(11)}  ${(requests / seconds).toFixed(0).padStart(9)}  ${`${percentile(latencies, 50).toFixed(1)} ms`.padStart(10)}  ` +
    `${`${percentile(latencies, 99).toFixed(1)} ms`.padStart(10)}  ${`${bookedSpaces}/${capacity}`.padStart(6)}  ${String(oversold).padStart(8)}${target.tagged ? `  ${ENGINE_NAMES[target.engine]}` : ''}`,
  );
  if (cpuBefore !== null && cpuAfter !== null) {
    // The server's own CPU (all its threads and processes) per completed checkout: what one core of the server could sustain
    // if the load generator did not share the machine with it.
    const msPerCheckout = ((cpuAfter - cpuBefore) * 1000) / Math.max(1, completed);
    console.log(`          server CPU: ${(cpuAfter - cpuBefore).toFixed(2)} s, ${msPerCheckout.toFixed(1)} ms per completed checkout (${(1000 / msPerCheckout).toFixed(0)} checkouts/s per core), ${((cpuAfter - cpuBefore) / seconds * 100).toFixed(0)} % of a core`);
  }
  if (dbCpuBefore !== null && dbCpuAfter !== null) {
    const msPerCheckout = ((dbCpuAfter - dbCpuBefore) * 1000) / Math.max(1, completed);
    console.log(`          PostgreSQL backends' CPU: ${(dbCpuAfter - dbCpuBefore).toFixed(2)} s, ${msPerCheckout.toFixed(1)} ms per completed checkout, ${((dbCpuAfter - dbCpuBefore) / seconds * 100).toFixed(0)} % of a core`);
  }
  if (profile) {
    const counts = await profile.end();
    console.log(`          statements (${profile.file}): ${counts.map(({ engine, what, n }) => `${engine} ${(n / Math.max(1, completed)).toFixed(1)} ${what} per completed checkout`).join(', ')}`);
  }
  for (const [action, values] of byAction) {
    values.sort((a, b) => a - b);
    console.log(`          ${action.startsWith('(') ? action : `submit "${action}"`}: ${values.length} answers, p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms, max ${values[values.length - 1].toFixed(1)} ms`);
  }
  const after = await untilQuiet(target);
  if (after) console.log(`          after the round: ${after.seconds.toFixed(1)} s until quiet, ${after.cpu.toFixed(2)} s more CPU (the server and its database), ${(after.cpu * 1000 / Math.max(1, completed)).toFixed(1)} ms per completed checkout`);
  return { engine: target.engine, checkoutsPerSecond: completed / seconds, submitP99: percentile(latencies, 99) };
}

/**
 * Waits for the server (and its PostgreSQL backends) to finish what a round left it: the e-mails a round queues are
 * sent by the outbox's worker, which a saturated server runs behind, and PostgreSQL's autovacuum follows the writes.
 * Left running, that work fell into the next round, on whichever engine ran it: with the engines taking turns, the
 * second round of every pair was the slower, whichever engine it was. Quiet: under 5 % of a core for a second, at
 * most 30 s. Null when /proc cannot tell.
 */
async function untilQuiet(target: Target): Promise<{ seconds: number; cpu: number } | null> {
  const cpu = () => {
    const server = treeCpuSeconds(target.child.pid);
    if (server === null) return null;
    return server + (target.databaseName ? databaseCpuSeconds(target.databaseName) ?? 0 : 0);
  };
  const first = cpu();
  if (first === null) return null;
  const t0 = performance.now();
  let last = first;
  let calm = 0;
  while (calm < 4 && performance.now() - t0 < 30_000) {
    await new Promise((r) => setTimeout(r, 250));
    const now = cpu() ?? last;
    calm = now - last < 0.25 * 0.05 ? calm + 1 : 0;
    last = now;
  }
  return { seconds: (performance.now() - t0) / 1000, cpu: last - first };
}

let snapshots = 0;
/**
 * With BENCH_STATEMENT_PROFILE, the server's statement counts from now to `end()` (statement-profile.mjs writes
 * and clears them on SIGUSR2): the first signal clears what came before, the second writes this stretch's file.
 */
async function statementSnapshot(pid: number | undefined) {
  const base = process.env.BENCH_STATEMENT_PROFILE;
  if (!base || pid === undefined) return null;
  const take = async () => {
    const file = `${base}.${++snapshots}`;
    process.kill(pid, 'SIGUSR2');
    for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 50));
    return file;
  };
  await take();
  return {
    file: `${base}.${snapshots + 1}`,
    async end() {
      const text = readFileSync(await take(), 'utf8');
      const sqlite = /^SQLite: \d+ ms inside statements, (\d+) calls/m.exec(text);
      const trips = /^PostgreSQL: (\d+) round trips/m.exec(text);
      return [
        ...(sqlite ? [{ engine: 'SQLite', what: 'statements', n: Number(sqlite[1]) }] : []),
        ...(trips ? [{ engine: 'PostgreSQL', what: 'round trips', n: Number(trips[1]) }] : []),
      ];
    },
  };
}

/**
 * A bare node:http server in its own process answering every POST with a small JSON body, driven by the same
 * client, in the same closed loop (no think time), at the same concurrency, for the same number of requests
 * as a level's checkouts make (about six each).
 */
async function bareJson(concurrency: number): Promise<void> {
  const handler = `req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"ok":true,"stepState":{}}'); });`;
  await withBareServer('', handler, async (port) => {
    const total = concurrency * PER_LEARNER * 6;
    let sent = 0;
    const body = JSON.stringify({ action: 'contact details filled', payload: { firstName: 'Ada' } });
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (sent < total) {
        sent++;
        await post(`http://127.0.0.1:${port}/api/checkout/x/submit-response`, { 'content-type': 'application/json' }, body);
      }
    }));
    const seconds = (performance.now() - t0) / 1000;
    console.log(`bare node:http JSON answer, ${concurrency} concurrent, ${total} requests: ${(total / seconds).toFixed(0)} req/s`);
  });
}

await run();
