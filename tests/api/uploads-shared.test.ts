/**
 * Educators' logos and covers on more than one machine (api/admin/uploads.ts, kept in the database): two servers
 * on one database, each with folders of its own (UPLOADS_DIR, DIST_DIR) as on two machines. An image uploaded
 * through one is served by the other on every host, byte for byte with the same validator, and the other's profile
 * save accepts it; a replaced logo gets a new address. Images an earlier version left in UPLOADS_DIR are read in at
 * start-up under their addresses. A backup restored into a new database serves them too, and (PostgreSQL) so does
 * a SQLite site moved with db:copy.
 * SQLite by default; PostgreSQL when TEST_DATABASE_URL is set.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createThrowawayPgDatabase, databaseUrlOf, type TestDb } from '../helpers/db.ts';
import { ADMIN_ENV, ADMIN_HOST, adminCall, adminFixture, adminUpload, getRaw, type AdminFixture } from '../helpers/admin.ts';
import { importUploadsDir } from '../../api/admin/uploads.ts';
import { restoreBackup, takeBackup } from '../../db/backup.ts';
import { copySqliteToPostgres } from '../../db/copy.ts';
import { openDb } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';

const pgAdminUrl = process.env.TEST_DATABASE_URL;
const HOSTS = ['localhost:4321', 'some-educator.localhost:4321', ADMIN_HOST];

let work: string;
let a: TestServer;
let b: TestServer;
let fx: AdminFixture;
const scratchDatabases: string[] = [];

const picture = (colour: string, width = 900, height = 600) =>
  sharp({ create: { width, height, channels: 3, background: colour } }).jpeg().toBuffer();

async function uploadTo(server: TestServer, kind: 'logo' | 'cover', file: Buffer): Promise<string> {
  const res = await adminUpload(server, fx.admin.cookie, `/api/admin/educators/${fx.educatorId}/images/${kind}`, file, { filename: 'pic.jpg', type: 'image/jpeg' });
  expect(res.status, res.text).toBe(201);
  return res.json().url;
}

async function saveProfile(server: TestServer, body: Record<string, unknown>) {
  const path = `/api/admin/educators/${fx.educatorId}/profile`;
  const { revision } = (await adminCall(server, fx.admin.cookie, 'GET', path)).json().profile;
  return adminCall(server, fx.admin.cookie, 'PATCH', path, { ...body, revision });
}

/** A server of its own (another "machine": its own folders) on a database. */
function machine(name: string, tdb: TestDb): Promise<TestServer> {
  return startTestServer({ ...ADMIN_ENV, UPLOADS_DIR: join(work, name, 'uploads'), DIST_DIR: join(work, name, 'dist') }, tdb);
}

beforeAll(async () => {
  mkdirSync(join(process.cwd(), '.tmp'), { recursive: true });
  work = mkdtempSync(join(process.cwd(), '.tmp', 'uploads-shared-'));
  a = await startTestServer({ ...ADMIN_ENV, UPLOADS_DIR: join(work, 'a', 'uploads'), DIST_DIR: join(work, 'a', 'dist') });
  b = await machine('b', a.testDb);
  fx = await adminFixture(a, 'up');
}, 60_000);

afterAll(async () => {
  await b?.close();
  await a?.close();
  if (work) rmSync(work, { recursive: true, force: true });
  if (pgAdminUrl && scratchDatabases.length) {
    const admin = new pg.Client({ connectionString: pgAdminUrl });
    await admin.connect();
    for (const name of scratchDatabases) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
});

describe('uploaded images on two machines sharing one database', () => {
  it('an image uploaded through one server is served by the other on every host, with the same bytes and validator', async () => {
    const url = await uploadTo(a, 'cover', await picture('#aa5500'));
    expect(url).toMatch(new RegExp(`^/images/uploads/educators/${fx.educatorId}/cover-[0-9a-f]{20}\\.webp$`));
    const fromA = await getRaw(a, url, { host: HOSTS[0]! });
    expect(fromA.status).toBe(200);
    for (const host of HOSTS) {
      const fromB = await getRaw(b, url, { host });
      expect(fromB.status, host).toBe(200);
      expect(fromB.headers['content-type']).toBe('image/webp');
      expect(fromB.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(fromB.headers['x-content-type-options']).toBe('nosniff');
      expect(fromB.body.equals(fromA.body)).toBe(true);
      expect(fromB.headers.etag).toBe(fromA.headers.etag);
    }
    // The validator is the bytes' digest, so either machine confirms the other's copy as current.
    expect(fromA.headers.etag).toBe(`"${createHash('sha256').update(fromA.body).digest('hex')}"`);
    const revalidated = await getRaw(b, url, { host: HOSTS[0]!, headers: { 'if-none-match': fromA.headers.etag! } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    const head = await getRaw(b, url, { host: HOSTS[0]!, method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(fromA.body.length));
    expect(head.body.length).toBe(0);
    // The other machine's save accepts the address: it is checked in the database, not on a disk.
    const saved = await saveProfile(b, { cover_url: url });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json().profile.cover_url).toBe(url);
  });

  it('a replaced logo gets a new address; the old one still answers (pages and caches may still name it)', async () => {
    const first = await uploadTo(a, 'logo', await picture('#113355', 400, 400));
    const second = await uploadTo(b, 'logo', await picture('#ffcc00', 400, 400));
    expect(second).not.toBe(first);
    // The same bytes again: the same address, one row.
    expect(await uploadTo(b, 'logo', await picture('#ffcc00', 400, 400))).toBe(second);
    const rows = await a.db.selectFrom('educator_images').select('path').where('educator_id', '=', fx.educatorId).where('kind', '=', 'logo').execute();
    expect(rows.map((r) => `/images/uploads/${r.path}`).sort()).toEqual([first, second].sort());
    expect((await saveProfile(a, { logo_url: second })).status).toBe(200);
    for (const server of [a, b]) {
      expect((await getRaw(server, first, { host: HOSTS[0]! })).status).toBe(200);
      expect((await getRaw(server, second, { host: HOSTS[0]! })).status).toBe(200);
    }
  });

  it('answers 404 for an address that is not an upload, or an upload that does not exist', async () => {
    for (const path of [
      `/images/uploads/educators/${fx.educatorId}/logo-00000000000000000000.webp`,
      `/images/uploads/educators/${fx.otherEducatorId}/logo-00000000000000000000.webp`,
      '/images/uploads/educators/nobody/logo-0.webp',
      '/images/uploads/../../package.json',
      `/images/uploads/educators/${fx.educatorId}/`,
    ]) {
      expect((await getRaw(b, path, { host: HOSTS[0]! })).status, path).toBe(404);
    }
  });
});

describe('images an earlier version kept in UPLOADS_DIR', () => {
  it('are read into the database at start-up under the same addresses, once; other files are left out', async () => {
    const folder = join(work, 'old', 'uploads', 'educators');
    const webp = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#228844' } }).webp().toBuffer();
    const name = `logo-${createHash('sha256').update(webp).digest('hex').slice(0, 20)}.webp`;
    mkdirSync(join(folder, fx.otherEducatorId), { recursive: true });
    mkdirSync(join(folder, 'edu_gone'), { recursive: true });
    writeFileSync(join(folder, fx.otherEducatorId, name), webp);
    // Not a WebP under a WebP name; not an upload's name; an educator that no longer exists.
    writeFileSync(join(folder, fx.otherEducatorId, 'cover-0123456789abcdef0123.webp'), Buffer.from('<svg/>'));
    writeFileSync(join(folder, fx.otherEducatorId, 'notes.txt'), 'hello');
    writeFileSync(join(folder, 'edu_gone', name), webp);

    const url = `/images/uploads/educators/${fx.otherEducatorId}/${name}`;
    expect((await getRaw(a, url, { host: HOSTS[0]! })).status).toBe(404);
    expect(await importUploadsDir(a.deps, join(work, 'old', 'uploads'))).toBe(1);
    expect(await importUploadsDir(a.deps, join(work, 'old', 'uploads'))).toBe(0);
    expect(await importUploadsDir(a.deps, join(work, 'no-such-folder'))).toBe(0);
    const served = await getRaw(b, url, { host: HOSTS[0]! });
    expect(served.status).toBe(200);
    expect(served.body.equals(webp)).toBe(true);
    expect((await getRaw(b, `/images/uploads/educators/${fx.otherEducatorId}/cover-0123456789abcdef0123.webp`, { host: HOSTS[0]! })).status).toBe(404);
  });
});

describe('backups and engine moves carry the images', () => {
  it('a backup restored into a new database serves every uploaded image', async () => {
    const url = await uploadTo(a, 'cover', await picture('#5500aa'));
    const original = await getRaw(a, url, { host: HOSTS[0]! });
    const taken = await takeBackup({ url: databaseUrlOf(a.testDb), dir: join(work, 'backups') });
    expect(taken.manifest.tables.educator_images).toBeGreaterThanOrEqual(1);
    let target = join(work, 'restored.sqlite');
    if (pgAdminUrl) {
      const scratch = await createThrowawayPgDatabase(pgAdminUrl, 'up_restore');
      scratchDatabases.push(scratch.name);
      target = scratch.url;
    }
    await restoreBackup(taken.path, { to: target });
    const db = openDb({ url: target, schema: taken.manifest.schema });
    const restored = await machine('restored', { db, url: target, dialect: pgAdminUrl ? 'postgres' : 'sqlite', migrate: () => migrateToLatest(db), changeSchema: (w) => w(), close: () => db.destroy() });
    try {
      const served = await getRaw(restored, url, { host: HOSTS[0]! });
      expect(served.status).toBe(200);
      expect(served.body.equals(original.body)).toBe(true);
    } finally {
      await restored.close();
      await db.destroy();
    }
  }, 120_000);

  // db:copy's source is a SQLite file and its target PostgreSQL: needs TEST_DATABASE_URL.
  it.skipIf(!pgAdminUrl)('a SQLite site moved to PostgreSQL with db:copy serves every uploaded image', async () => {
    const file = join(work, 'site.sqlite');
    const sourceDb = openDb({ url: file });
    await migrateToLatest(sourceDb);
    const source = await machine('sqlite-site', { db: sourceDb, url: file, dialect: 'sqlite', migrate: () => migrateToLatest(sourceDb), changeSchema: (w) => w(), close: () => sourceDb.destroy() });
    const scratch = await createThrowawayPgDatabase(pgAdminUrl!, 'up_copy');
    scratchDatabases.push(scratch.name);
    const targetDb = openDb({ url: scratch.url });
    let copied: TestServer | undefined;
    try {
      const own = await adminFixture(source, 'upc');
      const res = await adminUpload(source, own.admin.cookie, `/api/admin/educators/${own.educatorId}/images/logo`, await picture('#008080', 300, 300), { type: 'image/jpeg' });
      expect(res.status).toBe(201);
      const url: string = res.json().url;
      const original = await getRaw(source, url, { host: HOSTS[0]! });
      const result = await copySqliteToPostgres({ from: file, to: scratch.url });
      expect(result.ok).toBe(true);
      expect(result.tables.find((t) => t.table === 'educator_images')).toMatchObject({ sourceRows: 1, targetRows: 1, ok: true });
      copied = await machine('pg-site', { db: targetDb, url: scratch.url, dialect: 'postgres', migrate: () => migrateToLatest(targetDb), changeSchema: (w) => w(), close: () => targetDb.destroy() });
      const served = await getRaw(copied, url, { host: HOSTS[0]! });
      expect(served.status).toBe(200);
      expect(served.body.equals(original.body)).toBe(true);
      expect(served.headers.etag).toBe(original.headers.etag);
    } finally {
      await copied?.close();
      await source.close();
      await targetDb.destroy();
      await sourceDb.destroy();
    }
  }, 120_000);
});
