/**
 * SQLite under lock: another process holding the write lock must not freeze this one. Reads (health, search) and
 * static pages keep answering while a write waits; a write that still finds the database locked after the short
 * wait answers 503 problem+json with Retry-After; two processes writing one file take turns instead of failing.
 * SQLite only (on PostgreSQL there is no file lock to hold).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { uniqueEmail } from '../helpers/auth.ts';
import { openDb, type Db } from '../../db/client.ts';
import { DatabaseBusyError } from '../../db/sqlite-driver.ts';
import { queueMail } from '../../api/mail/index.ts';
import { insertPublicFixtures } from './public-fixtures.ts';

const onPostgres = !!process.env.TEST_DATABASE_URL;

let testDb: TestDb;
let dist: string;
const handles: Db[] = [];
const servers: TestServer[] = [];

/** Another handle on the test file, as a second process would have; `busyWaitMs` is how long it waits for a lock. */
function handle(busyWaitMs: number): TestDb {
  const db = openDb({ url: testDb.url, busyWaitMs });
  handles.push(db);
  return { ...testDb, db, close: async () => {} };
}

async function server(busyWaitMs: number): Promise<TestServer> {
  const s = await startTestServer({ LOG_LEVEL: 'silent', DIST_DIR: dist, OUTBOX_DIR: join(dist, 'outbox'), RATE_LIMIT_MAIL_PER_IP: '100000' }, handle(busyWaitMs));
  servers.push(s);
  return s;
}

/** A separate Node process that takes the database's write lock and keeps it until told to let go. */
async function holdWriteLock(file: string): Promise<{ release(): Promise<void> }> {
  const sqlitePath = createRequire(import.meta.url).resolve('better-sqlite3');
  const code = `
    const Database = require(${JSON.stringify(sqlitePath)});
    const db = new Database(${JSON.stringify(file)});
    db.exec('begin immediate');
    db.prepare("insert into outbox_messages (id, to_address, from_address, subject, text_body, created_at) values ('msg_lock_holder', 'x@example.com', '', 'lock', 'x', 0)").run();
    process.stdout.write('locked\\n');
    process.stdin.once('data', () => { db.exec('rollback'); db.close(); process.exit(0); });
  `;
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['-e', code]);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  await new Promise<void>((ok, fail) => {
    child.stdout.once('data', (d) => (String(d).includes('locked') ? ok() : fail(new Error(String(d)))));
    child.once('exit', (code) => fail(new Error(`lock holder exited (${code}): ${stderr}`)));
  });
  return {
    release: () => new Promise<void>((ok) => {
      child.once('exit', () => ok());
      child.stdin.write('go\n');
    }),
  };
}

function magicLink(s: TestServer, email = uniqueEmail('busy')) {
  return fetch(`${s.url}/api/auth/magic-link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
}

beforeAll(async () => {
  if (onPostgres) return;
  testDb = await createTestDb();
  dist = mkdtempSync(join(tmpdir(), 'busy-dist-'));
  mkdirSync(join(dist, 'client'), { recursive: true });
  writeFileSync(join(dist, 'client', 'index.html'), '<!doctype html><title>Home</title><p>Static home page');
});
afterAll(async () => {
  if (onPostgres) return;
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(handles.map((h) => h.destroy()));
  await testDb.close();
  rmSync(dist, { recursive: true, force: true });
});

describe.skipIf(onPostgres)('SQLite under another process\'s write lock (SQLite only: PostgreSQL has no file lock)', () => {
  it('health, static pages and search answer while a write waits; a write still locked after the short wait answers 503 with Retry-After', async () => {
    // `patient` waits for locks far longer than this test runs, `hasty` for 300 ms: both on the same file.
    const patient = await server(120_000);
    const hasty = await server(300);
    const lock = await holdWriteLock(testDb.url);
    let waiting: Promise<Response>;
    try {
      let writeAnswered = false;
      waiting = magicLink(patient).then((res) => {
        writeAnswered = true;
        return res;
      });
      // While that write waits for the lock, the same process keeps answering.
      const health = await fetch(`${patient.url}/api/health`);
      expect(health.status).toBe(200);
      const page = await fetch(`${patient.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Static home page');
      const search = await fetch(`${patient.url}/api/courses/search?query=pottery`);
      expect(search.status).toBe(200);
      expect(writeAnswered).toBe(false);

      const res = await magicLink(hasty);
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.headers.get('retry-after')).toBe('2');
      const body = await res.json();
      expect(body).toMatchObject({ title: 'Service Busy', status: 503, retryAfter: 2 });
      expect(body.type).toMatch(/\/generic\/service-busy$/);

      // A transaction meets the lock at BEGIN IMMEDIATE, before it has done anything.
      await expect(hasty.db.transaction().execute(async (tx) => {
        await queueMail(tx, { to: 'never@example.com', subject: 'never', text: 'x' }, { now: 0 });
      })).rejects.toBeInstanceOf(DatabaseBusyError);
      expect(writeAnswered).toBe(false);
    } finally {
      await lock.release();
    }
    // The lock gone, the waiting write goes through, and new ones do.
    expect((await waiting).status).toBe(202);
    expect((await magicLink(hasty)).status).toBe(202);
    // Nothing half-done was left behind by the refused writes.
    expect(await hasty.db.selectFrom('outbox_messages').selectAll().where('to_address', 'in', ['never@example.com', 'x@example.com']).execute()).toEqual([]);
  });

  it('a search does not wait for another process\'s write lock, nor behind this process\'s writes waiting for it', async () => {
    // The server waits for a lock far longer than this test runs; searches must not wait at all.
    const s = await server(120_000);
    await insertPublicFixtures(s.db);
    await sql`update search_cards set card = null`.execute(s.db);
    const lock = await holdWriteLock(testDb.url);
    // A write of this process waits for the same lock all along (as under load: a checkout, a sign-up).
    let writeAnswered = false;
    const waiting = magicLink(s).then((res) => {
      writeAnswered = true;
      return res;
    });
    try {
      // Each search computes cards none has stored yet (it would store them): the answer still comes at once.
      for (const query of ['pottery', 'course', '']) {
        const started = Date.now();
        const res = await fetch(`${s.url}/api/courses/search?query=${query}`);
        expect(res.status).toBe(200);
        expect((await res.json()).results.length).toBeGreaterThan(0);
        // Generous (a search here takes tens of ms): the point is that it does not wait for the lock.
        expect(Date.now() - started).toBeLessThan(1000);
      }
      expect(writeAnswered).toBe(false);
    } finally {
      await lock.release();
    }
    expect((await waiting).status).toBe(202);
    // Once the lock is gone the next search stores the cards it computes.
    expect((await fetch(`${s.url}/api/courses/search?query=`)).status).toBe(200);
    const stored = await sql<{ n: number }>`select count(*) as n from search_cards where card is not null`.execute(s.db);
    expect(Number(stored.rows[0]!.n)).toBeGreaterThan(0);
  }, 30_000);

  it('two handles on one file (as two processes): transactions that await in the middle take turns, none fails', async () => {
    const a = handle(5000).db;
    const b = handle(5000).db;
    const tick = () => new Promise<void>((ok) => setTimeout(ok, 1));
    const write = (db: Db, i: number) => db.transaction().execute(async (tx) => {
      const id = await queueMail(tx, { to: `turns-${i}@example.com`, subject: 'first', text: 'x' }, { now: 0 });
      await tick();
      await tx.updateTable('outbox_messages').set({ subject: 'second' }).where('id', '=', id).execute();
    });
    await Promise.all(Array.from({ length: 20 }, (_, i) => write(i % 2 ? a : b, i)));
    const rows = await a.selectFrom('outbox_messages').select(['subject']).where('to_address', 'like', 'turns-%').execute();
    expect(rows).toHaveLength(20);
    expect(rows.every((r) => r.subject === 'second')).toBe(true);
  });

  it('two servers on one file: parallel sign-ups on both all succeed (no 5xx)', async () => {
    const [s1, s2] = [await server(5000), await server(5000)];
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => magicLink(i % 2 ? s1 : s2).then((r) => r.status)));
    expect(results).toEqual(Array(16).fill(202));
  });
});
