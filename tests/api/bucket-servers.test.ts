/**
 * TWO real server processes (node --import tsx api/server.ts), as on two machines: one database, one pages' bucket
 * (PUBLISH_TARGET=s3://…, a local S3 server started here) and no folder in common — each has its own DIST_DIR. Each
 * runs its own publisher; whichever takes an edit's change writes the bucket, and both then answer the same fresh
 * page, byte for byte and with the same validator, where before each answered from its own dist/client and the one
 * that did not publish kept the old page.
 * SQLite by default (a file both processes open); PostgreSQL when TEST_DATABASE_URL is set.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, databaseUrlOf, type TestDb } from '../helpers/db.ts';
import { startFakeS3, type FakeS3 } from '../helpers/fake-s3.ts';
import { writeFakeSite } from '../helpers/fake-site.ts';
import { freePort } from '../helpers/ports.ts';
import { loadCatalogue } from '../../db/seed/load.ts';

const NOW = Math.floor(Date.UTC(2026, 0, 15) / 1000);
const HOST = 'localhost:4321';

interface Proc {
  port: number;
  child: ChildProcessWithoutNullStreams;
  output: () => string;
}

let testDb: TestDb;
let s3: FakeS3;
let work: string;
const procs: Proc[] = [];
let edu: { id: string; slug: string; course: { id: string; slug: string } };

async function startProcess(name: string): Promise<Proc> {
  const port = await freePort();
  const distDir = join(work, name, 'dist');
  writeFakeSite(distDir);
  const { NODE_OPTIONS: _ignored, ...parentEnv } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
    env: {
      ...parentEnv, ...s3.env('pages/'), PORT: String(port), BIND_HOST: '127.0.0.1', PUBLIC_HOST: HOST, DATABASE_URL: databaseUrlOf(testDb),
      DIST_DIR: distDir, OUTBOX_DIR: join(work, name, 'outbox'), PAGES_NOW: String(NOW), PUBLISH_BATCH_MS: '200', PUBLISH_LEASE_SECONDS: '5',
      LOG_LEVEL: 'error',
    },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  for (let i = 0; i < 600; i++) {
    try {
      if ((await get({ port, child, output: () => out }, '/api/health')).status === 200) return { port, child, output: () => out };
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

function get(p: Proc, path: string, headers: Record<string, string> = {}): Promise<{ status: number; etag?: string; encoding?: string; body: string }> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port: p.port, path, headers: { host: HOST, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({
        status: res.statusCode ?? 0, etag: res.headers.etag, encoding: res.headers['content-encoding'] as string | undefined,
        body: Buffer.concat(chunks).toString('latin1'),
      }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

/**
 * Waits until every process answers `path` with a page containing `text`. This asserts freshness, not speed (the
 * publish benchmark measures that): on a loaded two-core machine two tsx processes can take over 30 s to publish.
 */
async function untilEveryProcessShows(path: string, text: string, headers: Record<string, string> = {}, seconds = 75): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const answers = await Promise.all(procs.map((p) => get(p, path, headers)));
    if (answers.every((a) => a.status === 200 && a.body.includes(text))) return;
    if (Date.now() > deadline) throw new Error(`not every process shows ${JSON.stringify(text)} at ${path}: ${answers.map((a) => `${a.status} ${a.body.slice(0, 200)}`).join(' | ')}\n${procs.map((p) => p.output()).join('\n')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  testDb = await createTestDb();
  await loadCatalogue(testDb.db, { seed: 1, educators: 2, now: NOW });
  const e = await testDb.db.selectFrom('educators').select(['id', 'slug']).orderBy('id').limit(1).executeTakeFirstOrThrow();
  const c = await testDb.db.selectFrom('courses').select(['id', 'slug']).where('educator_id', '=', e.id).where('published', '=', true).orderBy('id').limit(1).executeTakeFirstOrThrow();
  edu = { ...e, course: c };
  mkdirSync(join(process.cwd(), '.tmp'), { recursive: true });
  work = mkdtempSync(join(process.cwd(), '.tmp', 'bucket-servers-'));
  s3 = await startFakeS3();
  procs.push(...(await Promise.all([startProcess('a'), startProcess('b')])));
  // The catalogue's pages, published once by whichever process takes the change.
  await testDb.db.updateTable('educators').set({ slug: sql`slug` }).execute();
}, 120_000);

afterAll(async () => {
  await Promise.all(procs.map(stopProcess));
  await s3?.close();
  await testDb?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('two server processes on one bucket', { timeout: 240_000 }, () => {
  it('serve the same fresh page after an edit, whichever published it', async () => {
    const path = `/${edu.slug}/${edu.course.slug}`;
    await untilEveryProcessShows(path, ' in marketplace of ');
    for (let round = 1; round <= 2; round++) {
      const name = `Throwing on the wheel, edition ${round}`;
      await testDb.db.updateTable('courses').set({ name }).where('id', '=', edu.course.id).execute();
      await untilEveryProcessShows(path, name);
      for (const headers of [{}, { 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip' }] as Record<string, string>[]) {
        const [a, b] = await Promise.all(procs.map((p) => get(p, path, headers)));
        expect(a!.body).toBe(b!.body);
        expect(a!.etag).toBeTruthy();
        expect(a!.etag).toBe(b!.etag);
        expect(a!.encoding).toBe(b!.encoding);
        // What one process answers, the other confirms as current.
        expect((await get(procs[1]!, path, { ...headers, 'if-none-match': a!.etag! })).status).toBe(304);
      }
      // The minisite copy, on the educator's own host, too (written in the same pass, a moment later).
      await untilEveryProcessShows(`/${edu.course.slug}`, name, { host: `${edu.slug}.${HOST}` });
      const [ma, mb] = await Promise.all(procs.map((p) => get(p, `/${edu.course.slug}`, { host: `${edu.slug}.${HOST}` })));
      expect(ma!.body).toContain(name);
      expect(ma!.body).toBe(mb!.body);
    }
    expect(procs.every((p) => p.child.exitCode === null)).toBe(true);
  });
});
