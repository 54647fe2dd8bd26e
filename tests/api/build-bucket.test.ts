/**
 * The full build's steps for a bucket (api/publish/bucket-build.ts, full-build.ts with PUBLISH_TARGET=s3://…),
 * against a local S3 server, over a stand-in for what `astro build` leaves (no build needed):
 * - astro build's files are uploaded with the encodings the build made (not compressed again), and encodings are
 *   made for text files too small to have had any; types and Cache-Control as the static server sends them;
 * - the workers' site builder writes each educator's pages to the bucket, the same bytes it writes to a folder;
 * - what the build did not write is removed from the bucket, except fingerprinted assets (old pages still load
 *   them) and what a publisher wrote after the build started; an unchanged file is not uploaded again.
 * SQLite by default; PostgreSQL when TEST_DATABASE_URL is set.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { startFakeS3, type FakeS3 } from '../helpers/fake-s3.ts';
import { writeFakeSite } from '../helpers/fake-site.ts';
import { loadCatalogue } from '../../db/seed/load.ts';
import { compressedSiblings } from '../../src/lib/site-files.ts';
import { createS3Target } from '../../api/publish/s3-target.ts';
import { bucketClock, pruneBucket, uploadBuiltFiles } from '../../api/publish/bucket-build.ts';
import { createSiteBuilder } from '../../api/publish/site-build.ts';

const NOW = Math.floor(Date.UTC(2026, 0, 15) / 1000);
const PREFIX = 'build/';

let t: TestDb;
let s3: FakeS3;
let work: string;
let distDir: string;
let clientDir: string;

function put(file: string, data: string | Buffer, siblings = true): void {
  const path = join(clientDir, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
  if (siblings) {
    // As astro build's precompress step leaves them: made here with a mark, to tell them from a fresh compression.
    const { br, gz } = compressedSiblings(Buffer.from(data), { brotliQuality: 3 });
    writeFileSync(`${path}.br`, br);
    writeFileSync(`${path}.gz`, gz);
  }
}

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) filesUnder(path, out);
    else out.push(path);
  }
  return out;
}

beforeAll(async () => {
  t = await createTestDb();
  await loadCatalogue(t.db, { seed: 1, educators: 2, now: NOW });
  mkdirSync(join(process.cwd(), '.tmp'), { recursive: true });
  work = mkdtempSync(join(process.cwd(), '.tmp', 'build-bucket-'));
  distDir = join(work, 'dist');
  clientDir = join(distDir, 'client');
  writeFakeSite(distDir);
  put('index.html', `<!doctype html><title>Home</title>${'<p>Courses near you.</p>'.repeat(40)}`);
  put('_astro/page.d41d8c.js', `export const page = ${JSON.stringify('y'.repeat(600))};`);
  put('robots.txt', 'User-agent: *\nAllow: /\n', false);
  put('images/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), false);
  s3 = await startFakeS3();
}, 60_000);

afterAll(async () => {
  await s3?.close();
  await t?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('a full build to a bucket', { timeout: 120_000 }, () => {
  it('uploads, writes every educator\'s pages, then removes what it did not write', async () => {
    const bucket = s3.pages(PREFIX);
    const target = createS3Target(bucket);
    // Left from before: a removed educator's page, an old build's script, and a page outside the prefix.
    await target.write('gone-educator/index.html', Buffer.from('<p>gone</p>'));
    await target.write('_astro/old.aaaaaa.js', Buffer.from('export {};'));
    await createS3Target(s3.pages('elsewhere/')).write('gone-educator/index.html', Buffer.from('<p>not ours</p>'));
    // The bucket's clock counts in seconds: the leftovers are from a second before the build.
    await new Promise((r) => setTimeout(r, 1100));

    const startedAt = await bucketClock(bucket);
    const written = new Set(await uploadBuiltFiles(clientDir, target, (f) => !f.endsWith('.html')));
    const ids = (await t.db.selectFrom('educators').select('id').orderBy('slug').execute()).map((r) => r.id);
    const builder = await createSiteBuilder({ db: t.db, distDir, now: NOW, target, listFiles: true });
    const report = await builder.renderChunk(ids);
    await builder.close();
    for (const name of report.names!) written.add(name);
    for (const name of await uploadBuiltFiles(clientDir, target, (f) => f.endsWith('.html'))) written.add(name);
    // A publisher writes a new educator's page while the build runs.
    await target.write('new-educator/index.html', Buffer.from('<p>new</p>'));
    const removed = await pruneBucket(bucket, target, written, startedAt);

    expect(removed).toEqual(['gone-educator/index.html']);
    const keys = await s3.keys(PREFIX);
    expect(keys.filter((k) => k.includes('gone-educator'))).toEqual([]);
    expect(keys).toContain(`${PREFIX}_astro/old.aaaaaa.js`);
    expect(keys).toContain(`${PREFIX}new-educator/index.html`);
    expect(await s3.keys('elsewhere/')).toHaveLength(3);
    for (const name of written) expect(keys, name).toContain(PREFIX + name);

    // astro build's files: its own encodings, types, cache headers; encodings made for the small text file.
    const script = await s3.get(`${PREFIX}_astro/page.d41d8c.js`);
    expect(script).toMatchObject({ contentType: 'text/javascript; charset=utf-8', cacheControl: 'public, max-age=31536000, immutable' });
    expect((await s3.get(`${PREFIX}_astro/page.d41d8c.js.br`))!.body.equals(readFileSync(join(clientDir, '_astro/page.d41d8c.js.br')))).toBe(true);
    expect((await s3.get(`${PREFIX}index.html.gz`))!.body.equals(readFileSync(join(clientDir, 'index.html.gz')))).toBe(true);
    expect(brotliDecompressSync((await s3.get(`${PREFIX}robots.txt.br`))!.body).toString()).toBe('User-agent: *\nAllow: /\n');
    expect(await s3.get(`${PREFIX}images/logo.png`)).toMatchObject({ contentType: 'image/png', cacheControl: 'public, max-age=0, must-revalidate' });
    expect(await s3.get(`${PREFIX}images/logo.png.br`)).toBeNull();

    // The educators' pages: what the same builder writes into a fresh folder, byte for byte.
    const folderDist = join(work, 'folder-dist');
    writeFakeSite(folderDist);
    const folderBuilder = await createSiteBuilder({ db: t.db, distDir: folderDist, now: NOW });
    const folderReport = await folderBuilder.renderChunk(ids);
    await folderBuilder.close();
    expect(folderReport.files).toBe(report.files);
    const folderClient = join(folderDist, 'client');
    const pages = filesUnder(folderClient).map((f) => relative(folderClient, f)).filter((f) => !/\.(br|gz)$/.test(f) && !f.startsWith('_astro/') && f !== '404.html');
    expect(pages.sort()).toEqual([...report.names!].sort());
    for (const file of pages) expect((await s3.get(PREFIX + file))!.body.equals(readFileSync(join(folderClient, file))), file).toBe(true);
  });

  it('uploads nothing again when nothing changed', async () => {
    const target = createS3Target(s3.pages(PREFIX));
    const before = await s3.head(`${PREFIX}index.html`);
    await new Promise((r) => setTimeout(r, 1100));
    await uploadBuiltFiles(clientDir, target, () => true);
    expect((await s3.head(`${PREFIX}index.html`))!.lastModified).toEqual(before!.lastModified);
  });
});
