/**
 * TWO real server processes (node --import tsx api/server.ts) on ONE database — a SQLite file, or PostgreSQL when
 * TEST_DATABASE_URL is set — each running its own background jobs (api/jobs.ts). Across them at once:
 * - learners race for the last spaces of an occurrence, paying on one process and confirming on the other:
 *   exactly as many bookings as spaces, never below zero, no 5xx;
 * - wrong passwords for one address on both processes: exactly the limit's worth are checked, then 429 on both, no 5xx;
 * - every e-mail those requests queued is sent exactly once, by one process or the other (a local SMTP server
 *   counts them by Message-ID);
 * - holds that lapsed while no process ran are released by the processes' hold sweepers exactly once;
 * - on SQLite each process answers searches on as many threads as it has cores to itself (none on PostgreSQL).
 * On SQLite the processes' writes take turns on the file's write lock (README, DATABASE_URL); tests/api/sqlite-busy.test.ts
 * covers a lock held for long.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createTestDb, databaseUrlOf, type TestDb } from '../helpers/db.ts';
import { signUpAndLogin, uniqueEmail } from '../helpers/auth.ts';
import { freePort } from '../helpers/ports.ts';
import { headerOf, startFakeSmtp, type FakeSmtp } from '../helpers/fake-smtp.ts';
import { defaultSearchThreads } from '../../api/search/threads.ts';
import { CARDS, IDS, booker, OFFERS, client, contactPayload, payWithCard, seedCheckoutCatalogue } from './checkout-fixtures.ts';

const SPACES = 5;
const LEARNERS = 12;
const LAPSED = 3;
const LOGIN_LIMIT = 5;
const METRICS_TOKEN = 'multi-process-metrics-token';

interface Proc {
  url: string;
  child: ChildProcessWithoutNullStreams;
  output: () => string;
}

let testDb: TestDb;
let local: TestServer;
let smtp: FakeSmtp;
let work: string;
const procs: Proc[] = [];

async function startProcess(env: Record<string, string>): Promise<Proc> {
  const port = await freePort();
  const { NODE_OPTIONS: _ignored, ...parentEnv } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
    env: { ...parentEnv, PORT: String(port), BIND_HOST: '127.0.0.1', PUBLIC_HOST: `127.0.0.1:${port}`, ...env },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child, output: () => out };
    } catch {
      /* not listening yet */
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server process did not start:\n${out}`);
}

async function stopProcess(p: Proc): Promise<void> {
  if (p.child.exitCode !== null) return;
  const exited = new Promise<void>((ok) => p.child.once('exit', () => ok()));
  p.child.kill('SIGTERM');
  await exited;
}

/** Every response's status, to find a 5xx anywhere. */
const statuses: number[] = [];
function record<T extends { status: number }>(r: T): T {
  statuses.push(r.status);
  return r;
}

beforeAll(async () => {
  testDb = await createTestDb();
  work = mkdtempSync(join(tmpdir(), 'multi-process-'));
  smtp = await startFakeSmtp('accept');
  // An in-process server on the same database (no background jobs) prepares what must exist before the processes start.
  local = await startTestServer({ LOG_LEVEL: 'silent', RATE_LIMIT_LOGIN_PER_IP: '100000', RATE_LIMIT_LOGIN_PER_EMAIL: '100000' }, testDb);
  const now = Math.floor(Date.now() / 1000);
  await seedCheckoutCatalogue(testDb.db, now);
  await testDb.db.updateTable('occurrences').set({ available_spaces: SPACES }).where('id', '=', IDS.raceOcc).execute();
  // Holds that lapse while no process runs: learners reach Payment, then their hold's time passes.
  for (let i = 0; i < LAPSED; i++) {
    const { cookie, user } = await signUpAndLogin(local);
    const api = client(local, cookie);
    const init = await api.initialise('booking', { courseId: IDS.classCourse, occurrenceId: IDS.classOcc2 });
    await api.submit(init.body._id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.occ2, quantity: 1 }] });
    const held = await api.submit(init.body._id, 'contact details filled', contactPayload(user.email, { bookerFormResponse: booker(user.email, { phone: '07700900123' }) }));
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    expect(held.body.hold).toMatchObject({ status: 'held', spaces: 1 });
  }
  await testDb.db.updateTable('space_holds').set({ expires_at: now - 60 }).where('occurrence_id', '=', IDS.classOcc2).execute();

  const env = {
    DATABASE_URL: databaseUrlOf(testDb), DIST_DIR: join(work, 'no-site'), OUTBOX_DIR: join(work, 'outbox'), SMTP_URL: smtp.url,
    LOG_LEVEL: 'error', RATE_LIMIT_LOGIN_PER_IP: '100000', RATE_LIMIT_LOGIN_PER_EMAIL: String(LOGIN_LIMIT), RATE_LIMIT_MAIL_PER_IP: '100000',
    METRICS_TOKEN,
  };
  procs.push(...(await Promise.all([startProcess(env), startProcess(env)])));
}, 120_000);

afterAll(async () => {
  await Promise.all(procs.map(stopProcess));
  await local?.close();
  await smtp?.close();
  await testDb?.close();
  rmSync(work, { recursive: true, force: true });
});

describe(`two server processes on one ${process.env.TEST_DATABASE_URL ? 'PostgreSQL database' : 'SQLite file'}`, () => {
  it('each process, SEARCH_THREADS unset, starts one search thread per core (on PostgreSQL, on its search replica, once made)', async () => {
    for (const p of procs) {
      const metrics = async () => {
        const res = await fetch(`${p.url}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
        expect(res.status).toBe(200);
        return res.text();
      };
      await expect.poll(async () => Number(/^marketplace_search_threads (\d+)$/m.exec(await metrics())?.[1]), { timeout: 20_000 })
        .toBe(defaultSearchThreads(availableParallelism(), 1));
      if (testDb.dialect === 'postgres') await expect.poll(async () => /^marketplace_search_replica_ready (\d)$/m.exec(await metrics())?.[1], { timeout: 20_000 }).toBe('1');
    }
  });

  it('lapsed holds are released once by the two processes\' hold sweepers', async () => {
    await expect.poll(async () => (await testDb.db.selectFrom('space_holds').select('status').where('occurrence_id', '=', IDS.classOcc2).execute())
      .every((h) => h.status === 'released'), { timeout: 20_000 }).toBe(true);
    const occ = await testDb.db.selectFrom('occurrences').select(['available_spaces', 'spaces']).where('id', '=', IDS.classOcc2).executeTakeFirstOrThrow();
    // Each hold's space came back once: back to the capacity, not above it.
    expect(Number(occ.available_spaces)).toBe(Number(occ.spaces));
  });

  it(`${LEARNERS} learners on both processes race for the last ${SPACES} spaces: ${SPACES} bookings, none oversold, no 5xx`, async () => {
    const [a, b] = procs;
    const learners = await Promise.all(Array.from({ length: LEARNERS }, async (_, i) => {
      const { cookie, user } = await signUpAndLogin(local);
      // Each learner starts on one process and confirms on the other.
      return { here: client({ url: (i % 2 ? a : b).url } as TestServer, cookie), there: client({ url: (i % 2 ? b : a).url } as TestServer, cookie), here_url: (i % 2 ? a : b).url, email: user.email };
    }));
    const ids = await Promise.all(learners.map(async ({ here }) => {
      const init = record(await here.initialise('booking', { courseId: IDS.raceCourse, occurrenceId: IDS.raceOcc }));
      record(await here.submit(init.body._id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.race, quantity: 1 }] }));
      return init.body._id as string;
    }));
    const reached = await Promise.all(learners.map(({ here, email }, i) => here.submit(ids[i], 'contact details filled', contactPayload(email)).then(record)));
    const holders = reached.map((r, i) => ({ r, i })).filter(({ r }) => r.status === 200);
    expect(holders).toHaveLength(SPACES);
    for (const r of reached.filter((x) => x.status !== 200)) expect(r.body.detail).toBe('Spaces are sold out');

    await Promise.all(holders.map(async ({ r, i }) => {
      const { here, there, here_url } = learners[i];
      const selected = record(await here.submit(r.body._id, 'payment method selected', { paymentMethod: 'card' }));
      expect(selected.status).toBe(200);
      expect(record(await payWithCard({ url: here_url } as TestServer, selected.body, CARDS.success)).status).toBe(200);
      // Confirmed on both processes at once (the browser's return and a second tab).
      const [x, y] = await Promise.all([here.submit(r.body._id, 'payment was successful', {}), there.submit(r.body._id, 'payment was successful', {})]);
      record(x);
      record(y);
      expect(x.status).toBe(200);
      expect(y.status).toBe(200);
    }));
    const bookings = await testDb.db.selectFrom('bookings').select('id').where('occurrence_id', '=', IDS.raceOcc).execute();
    expect(bookings).toHaveLength(SPACES);
    const occ = await testDb.db.selectFrom('occurrences').select('available_spaces').where('id', '=', IDS.raceOcc).executeTakeFirstOrThrow();
    expect(Number(occ.available_spaces)).toBe(0);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });

  it('failed logins for one address on both processes share one limit: exactly that many checked, then 429 on both, no 5xx', async () => {
    const { user } = await signUpAndLogin(local, { password: 'the right password' });
    const login = (p: Proc, password: string) => fetch(`${p.url}/api/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json', origin: p.url }, body: JSON.stringify({ email: user.email, password }),
    }).then(record);
    const wrong = await Promise.all(Array.from({ length: 2 * LOGIN_LIMIT + 2 }, (_, i) => login(procs[i % 2], `wrong ${i}`)));
    for (const r of wrong) expect([401, 429]).toContain(r.status);
    // The limit is one atomic step in the database: exactly LOGIN_LIMIT attempts were checked, however they were spread.
    expect(wrong.filter((r) => r.status === 401)).toHaveLength(LOGIN_LIMIT);
    // The failures counted on one process count on the other: both refuse now, the right password too.
    for (const p of procs) expect((await login(p, 'wrong again')).status).toBe(429);
    for (const p of procs) expect((await login(p, 'the right password')).status).toBe(429);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });

  it('every queued e-mail is sent exactly once between the two processes', async () => {
    // More mail from both processes at once, on top of the booking e-mails above.
    const asked = await Promise.all(Array.from({ length: 12 }, (_, i) => fetch(`${procs[i % 2].url}/api/auth/magic-link`, {
      method: 'POST', headers: { 'content-type': 'application/json', origin: procs[i % 2].url }, body: JSON.stringify({ email: uniqueEmail('multi') }),
    }).then(record)));
    expect(asked.map((r) => r.status)).toEqual(Array(12).fill(202));
    await expect.poll(async () => (await testDb.db.selectFrom('outbox_messages').select('id').where('status', '!=', 'sent').execute()).length,
      { timeout: 30_000, interval: 200 }).toBe(0);
    const rows = await testDb.db.selectFrom('outbox_messages').select(['id', 'attempts']).execute();
    expect(rows.length).toBeGreaterThanOrEqual(12 + 2 * SPACES);
    expect(rows.every((r) => Number(r.attempts) === 1)).toBe(true);
    const received = smtp.messages.map((m) => headerOf(m, 'Message-ID'));
    expect(received).toHaveLength(rows.length);
    expect(new Set(received)).toEqual(new Set(rows.map((r) => `<${r.id}@localhost>`)));
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });
});
