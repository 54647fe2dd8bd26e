/**
 * Backups are only as good as their restore: learners book through the API while a backup is taken, the backup
 * is restored into a new database, and every booking committed before the backup began is there, exactly as it
 * was, in a database that passes its integrity check and is at the code's migration level. Also: restores refuse
 * a non-empty target and a changed file, and the server's schedule takes, keeps and prunes backups without
 * holding up requests. On SQLite, and on PostgreSQL (pg_dump, restored into a scratch database) with
 * TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { createThrowawayPgDatabase, databaseUrlOf } from '../helpers/db.ts';
import { IDS, OFFERS, client, contactPayload, seedCheckoutCatalogue, type Client } from '../api/checkout-fixtures.ts';
import { checkSqliteFile, listBackups, manifestPathOf, restoreBackup, RestoreRefused, takeBackup, verifyBackup, type Backup } from '../../db/backup.ts';
import { openDb, type Db } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { migrations } from '../../db/migrations/index.ts';
import { backupJob } from '../../api/backup/job.ts';
import { backgroundJobs } from '../../api/jobs.ts';
import { loadConfig } from '../../api/config.ts';

const pgAdminUrl = process.env.TEST_DATABASE_URL;
const engine = pgAdminUrl ? 'postgres' : 'sqlite';
/** Stretches a SQLite copy over a second or so, so that bookings are written while it runs. */
const SLOW = { pagesPerStep: 5, pauseMs: 20 };

let server: TestServer;
let api: Client;
let email: string;
let dir: string;
const scratchDatabases: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'silent', RATE_LIMIT_LOGIN_PER_IP: '100000' });
  await seedCheckoutCatalogue(server.db, Math.floor(Date.now() / 1000));
  // Room for every booking the test makes.
  await server.db.updateTable('occurrences').set({ spaces: 100_000, available_spaces: 100_000 }).where('id', '=', IDS.freeOcc).execute();
  const learner = await signUpAndLogin(server);
  api = client(server, learner.cookie);
  email = learner.user.email;
  dir = await mkdtemp(join(tmpdir(), 'mkt-backup-'));
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  if (pgAdminUrl && scratchDatabases.length) {
    const admin = new pg.Client({ connectionString: pgAdminUrl });
    await admin.connect();
    for (const name of scratchDatabases) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
});

/** A free booking through the API, start to confirmation: its checkout id once it is committed. */
async function book(): Promise<string> {
  const init = await api.initialise('booking', { courseId: IDS.freeCourse, occurrenceId: IDS.freeOcc });
  expect(init.status).toBe(201);
  const id = init.body._id as string;
  await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.free, quantity: 1 }] });
  const done = await api.submit(id, 'contact details filled', contactPayload(email));
  expect(done.status).toBe(200);
  expect(done.body.outcome).toMatchObject({ kind: 'booking', status: 'confirmed' });
  return id;
}

/** A new, empty database to restore into: a file name, or a scratch PostgreSQL database. */
async function newDatabase(name: string): Promise<string> {
  if (!pgAdminUrl) return join(dir, `${name}.sqlite`);
  const scratch = await createThrowawayPgDatabase(pgAdminUrl, 'bk_restore');
  scratchDatabases.push(scratch.name);
  return scratch.url;
}

function openRestored(url: string, backup: Backup): Db {
  return openDb({ url, schema: backup.manifest.schema });
}

const bookingsOf = (db: Db) => db.selectFrom('bookings').selectAll().where('occurrence_id', '=', IDS.freeOcc).orderBy('checkout_id').execute();

let taken: Backup;

describe(`backup and restore (${engine})`, () => {
  it('a backup taken while learners book holds every booking committed before it began, and restores into a new database', async () => {
    const before = await Promise.all(Array.from({ length: 8 }, () => book()));
    // Learners keep booking, six at a time, all through the backup.
    const committed: { id: string; at: number }[] = [];
    let stop = false;
    const writers = Array.from({ length: 6 }, async () => {
      while (!stop) committed.push({ id: await book(), at: performance.now() });
    });
    while (committed.length < 6) await new Promise((ok) => setTimeout(ok, 10));
    const committedBeforeBackup = [...before, ...committed.map((c) => c.id)];
    const started = performance.now();
    let snapshotAt = 0;
    try {
      taken = await takeBackup({ url: databaseUrlOf(server.testDb), dir, pace: SLOW, onSnapshot: () => (snapshotAt = performance.now()) });
    } finally {
      stop = true;
      await Promise.all(writers);
    }
    const ended = performance.now();
    expect(snapshotAt).toBeGreaterThanOrEqual(started);
    // The load was real: bookings were committed while the backup ran.
    expect(committed.filter((c) => c.at > started && c.at < ended).length).toBeGreaterThan(0);

    const { manifest } = taken;
    expect(manifest.engine).toBe(engine);
    expect(manifest.integrity).toBe(engine === 'sqlite' ? 'ok' : 'listed');
    expect(manifest.migrations).toEqual(Object.keys(migrations).sort());
    expect(manifest.tables.bookings).toBeGreaterThanOrEqual(committedBeforeBackup.length);
    expect(JSON.parse(await readFile(manifestPathOf(taken.path), 'utf8'))).toEqual(manifest);

    const target = await newDatabase('restored');
    const report = await restoreBackup(taken.path, { to: target });
    expect(report.migrations).toEqual({ unknown: [], pending: [] });
    const restored = openRestored(target, taken);
    try {
      const rows = await bookingsOf(restored);
      const restoredIds = new Set(rows.map((r) => r.checkout_id));
      // Every booking committed before the backup began is there…
      const missing = committedBeforeBackup.filter((id) => !restoredIds.has(id));
      expect(missing).toEqual([]);
      // …exactly as it is in the source (money, times, details), and nothing is there that was never committed.
      const source = await bookingsOf(server.db);
      const sourceById = new Map(source.map((r) => [r.checkout_id, r]));
      for (const row of rows) expect(row).toEqual(sourceById.get(row.checkout_id));
      const { count } = await restored.selectFrom('bookings').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
      expect(Number(count)).toBe(manifest.tables.bookings);
      // At the code's migration level: nothing left to apply.
      expect(await migrateToLatest(restored)).toEqual([]);
    } finally {
      await restored.destroy();
    }
    if (engine === 'sqlite') expect((await checkSqliteFile(target)).integrity).toEqual(['ok']);
  }, 120_000);

  it('refuses a target that is not empty unless forced, and a backup file that changed since it was written', async () => {
    expect(taken).toBeDefined();
    const target = await newDatabase('refused');
    await restoreBackup(taken.path, { to: target });
    await expect(restoreBackup(taken.path, { to: target })).rejects.toThrow(RestoreRefused);
    await expect(restoreBackup(taken.path, { to: target })).rejects.toThrow(/not empty|already has/);
    const forced = await restoreBackup(taken.path, { to: target, force: true });
    expect(forced.rows).toBeGreaterThan(0);

    // One byte changed: the sha256 no longer matches the manifest, and nothing is restored.
    const changed = join(dir, `changed-${taken.manifest.file}`);
    await copyFile(taken.path, changed);
    await copyFile(manifestPathOf(taken.path), manifestPathOf(changed));
    const bytes = await readFile(changed);
    bytes[bytes.length >> 1] ^= 0xff;
    await writeFile(changed, bytes);
    await expect(verifyBackup(changed)).rejects.toThrow(/sha256/);
    const fresh = await newDatabase('changed');
    await expect(restoreBackup(changed, { to: fresh })).rejects.toThrow(/sha256/);
    if (engine === 'sqlite') {
      // A SQLite backup does not go to PostgreSQL by restore (that is db:copy's work).
      await expect(restoreBackup(taken.path, { to: 'postgres://nobody@127.0.0.1:1/none' })).rejects.toThrow(RestoreRefused);
    }
  }, 60_000);

  it('the server takes backups on schedule, keeps BACKUP_KEEP of them, and answers requests while one runs', async () => {
    const scheduled = join(dir, 'scheduled');
    const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: databaseUrlOf(server.testDb), BACKUP_DIR: scheduled, BACKUP_EVERY: '1h', BACKUP_KEEP: '2' });
    expect(config.BACKUP_EVERY).toBe(3600);
    const deps = { ...server.deps, config };
    expect(backgroundJobs(deps).map((j) => j.name)).toContain('backup');
    expect(backgroundJobs(server.deps).map((j) => j.name)).not.toContain('backup');
    const job = backupJob(deps);
    const signal = new AbortController().signal;
    const now = Math.floor(Date.now() / 1000);
    server.setNow(now);
    try {
      // Requests are answered while the backup runs (its copy and checks are off the request thread).
      let running = true;
      const pass = backupJob(deps, { pace: SLOW }).run(signal).finally(() => (running = false));
      const latencies: number[] = [];
      while (running) {
        const t = performance.now();
        const res = await fetch(`${server.url}/api/health`);
        expect(res.status).toBe(200);
        latencies.push(performance.now() - t);
      }
      await pass;
      if (engine === 'sqlite') expect(latencies.length).toBeGreaterThan(3);
      // A copy on the request thread would hold a request for the whole copy (seconds at this pace).
      expect(Math.max(...latencies)).toBeLessThan(1000);
      expect(await listBackups(scheduled)).toHaveLength(1);

      // Not due yet: nothing new.
      await job.run(signal);
      expect(await listBackups(scheduled)).toHaveLength(1);

      // Past an hour on, then past two: a backup each time, the oldest removed beyond BACKUP_KEEP.
      const first = (await listBackups(scheduled))[0].path;
      server.setNow(now + 3700);
      await job.run(signal);
      expect(await listBackups(scheduled)).toHaveLength(2);
      server.setNow(now + 7400);
      await job.run(signal);
      const kept = await listBackups(scheduled);
      expect(kept).toHaveLength(2);
      expect(kept.map((b) => b.path)).not.toContain(first);
      for (const backup of kept) await verifyBackup(backup.path);
    } finally {
      server.setNow(null);
    }
  }, 60_000);
});

describe('backup settings', () => {
  it('BACKUP_EVERY takes seconds or a unit, at least a minute; BACKUP_DIR empty means no schedule', () => {
    expect(loadConfig({}).BACKUP_DIR).toBe('');
    expect(loadConfig({ BACKUP_EVERY: '6h' }).BACKUP_EVERY).toBe(21_600);
    expect(loadConfig({ BACKUP_EVERY: '90' }).BACKUP_EVERY).toBe(90);
    expect(loadConfig({ BACKUP_EVERY: '2d' }).BACKUP_EVERY).toBe(172_800);
    expect(() => loadConfig({ BACKUP_EVERY: '30s' })).toThrow(/BACKUP_EVERY/);
    expect(() => loadConfig({ BACKUP_EVERY: 'often' })).toThrow(/BACKUP_EVERY/);
    expect(() => loadConfig({ BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP/);
  });
});
