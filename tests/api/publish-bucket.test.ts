/**
 * Pages published to an S3-compatible bucket (PUBLISH_TARGET=s3://bucket/prefix; api/publish/s3-target.ts), against
 * a local S3 server started here (tests/helpers/fake-s3.ts), and read back by the Node server
 * (api/http/bucket-static.ts):
 * - every file of a publish is an object under the prefix with the Content-Type and Cache-Control the static
 *   server sends, its brotli and gzip encodings beside it with their Content-Encoding, all three made from the
 *   same bytes; the bucket ends up with exactly the files and bytes the folder target writes for the same changes;
 * - the encodings are written before the page and removed before it; an unchanged page is not written again;
 * - a failure between a page's objects (injected into the SDK client) leaves the page as it was and its change in
 *   the feed, and the next publish completes it — also when the content went back to the old one meanwhile — and a
 *   publish stopped part-way (its rows left claimed) is completed by the next publisher once the lease runs out;
 * - the server answers pages from the bucket as it does from disk (encodings, validators, 304, HEAD, the minisite
 *   host, the 404 page), and the build's own assets from disk;
 * - the settings are validated, and production refuses unsafe ones.
 * SQLite by default; PostgreSQL when TEST_DATABASE_URL is set.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join, relative } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, databaseUrlOf, type TestDb } from '../helpers/db.ts';
import { startFakeS3, type FakeS3 } from '../helpers/fake-s3.ts';
import { writeFakeSite } from '../helpers/fake-site.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { loadCatalogue } from '../../db/seed/load.ts';
import { createPublisher } from '../../api/publish/publisher.ts';
import { createDirectoryTarget, type PageTarget } from '../../api/publish/page-target.ts';
import { createS3Target } from '../../api/publish/s3-target.ts';
import { pageTargetFor } from '../../api/publish/targets.ts';
import { loggerFor } from '../../api/log.ts';
import { loadConfig, loadPageTargetSettings, parseBucketUrl } from '../../api/config.ts';
import { candidateFiles } from '../../api/http/bucket-static.ts';

const NOW = Math.floor(Date.UTC(2026, 0, 15) / 1000);
const PREFIX = 'site/';
const HTML = 'text/html; charset=utf-8';
const REVALIDATE = 'public, max-age=0, must-revalidate';

let t: TestDb;
let s3: FakeS3;
let work: string;
let distDir: string;
let edu: { id: string; slug: string; name: string; course: { id: string; slug: string; name: string } };
let other: { id: string; slug: string };

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function bucketTarget(): PageTarget {
  return createS3Target(s3.pages(PREFIX));
}

function publisher(target: PageTarget, leaseSeconds = 30) {
  return createPublisher({
    db: t.db, dialect: t.dialect, distDir, target, log: loggerFor({ LOG_LEVEL: 'silent' }),
    now: () => Math.floor(Date.now() / 1000), pagesNow: () => NOW, batchMs: 0, leaseSeconds,
  });
}

/** One pass of a fresh publisher over the feed as it is. */
async function publishOnce(target: PageTarget = bucketTarget()) {
  const p = publisher(target);
  try {
    await p.run();
    return p.lastReport;
  } finally {
    await p.close();
  }
}

/** The feed's rows, made due (a failed render's back-off, a crashed publisher's lease, both over). */
async function makeRowsDue(): Promise<void> {
  await t.db.updateTable('page_changes').set({ claimed_by: null, claimed_until: null }).execute();
}

/** Records the SDK commands sent (name and key), in order, while `work` runs. */
async function commandsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const client = s3.pages(PREFIX).client;
  client.middlewareStack.add((next, context) => async (args) => {
    const input = args.input as { Key?: string; Delete?: { Objects?: { Key?: string }[] } };
    const keys = input.Key ? [input.Key] : (input.Delete?.Objects ?? []).map((o) => o.Key);
    seen.push(`${context.commandName} ${keys.join(' ')}`);
    return next(args);
  }, { step: 'initialize', name: 'recordCommands' });
  try {
    await work();
  } finally {
    client.middlewareStack.remove('recordCommands');
  }
  return seen;
}

/** Makes every PUT of `key` fail (as a dropped connection would) while `work` runs. */
async function failingPutsOf(key: string, work: () => Promise<unknown>): Promise<void> {
  const client = s3.pages(PREFIX).client;
  client.middlewareStack.add((next, context) => async (args) => {
    if (context.commandName === 'PutObjectCommand' && (args.input as { Key?: string }).Key === key) throw new Error(`injected failure writing ${key}`);
    return next(args);
  }, { step: 'initialize', name: 'failPuts' });
  try {
    await work();
  } finally {
    client.middlewareStack.remove('failPuts');
  }
}

function decode(coding: string | undefined, body: Buffer): Buffer {
  return coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body;
}

/** A page's three objects agree: both encodings decode to the page's bytes and all three name its digest. */
async function expectConsistent(file: string): Promise<string> {
  const page = await s3.get(PREFIX + file);
  const br = await s3.get(`${PREFIX}${file}.br`);
  const gz = await s3.get(`${PREFIX}${file}.gz`);
  expect(page && br && gz, file).toBeTruthy();
  expect(decode('br', br!.body).equals(page!.body)).toBe(true);
  expect(decode('gzip', gz!.body).equals(page!.body)).toBe(true);
  expect([page!.sha256, br!.sha256, gz!.sha256]).toEqual(Array(3).fill(sha256(page!.body)));
  return page!.body.toString('utf8');
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
  await loadCatalogue(t.db, { seed: 1, educators: 3, now: NOW });
  const e = await t.db.selectFrom('educators').select(['id', 'slug', 'name']).orderBy('id').limit(1).executeTakeFirstOrThrow();
  const c = await t.db.selectFrom('courses').select(['id', 'slug', 'name']).where('educator_id', '=', e.id).where('published', '=', true).orderBy('id').limit(1).executeTakeFirstOrThrow();
  edu = { ...e, course: c };
  other = await t.db.selectFrom('educators').select(['id', 'slug']).where('id', '<>', e.id).orderBy('id').limit(1).executeTakeFirstOrThrow();
  mkdirSync(join(process.cwd(), '.tmp'), { recursive: true });
  work = mkdtempSync(join(process.cwd(), '.tmp', 'publish-bucket-'));
  distDir = join(work, 'dist');
  writeFakeSite(distDir);
  s3 = await startFakeS3();
  // The whole catalogue, once: every educator's pages, the home, categories, search and sitemaps.
  await t.db.updateTable('educators').set({ slug: sql`slug` }).execute();
  await t.db.updateTable('categories').set({ slug: sql`slug` }).execute();
  await publishOnce();
}, 120_000);

afterAll(async () => {
  await s3?.close();
  await t?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

beforeEach(async () => {
  await t.db.deleteFrom('page_changes').execute();
});

describe('publishing to a bucket', () => {
  it('stores every file with its encodings, content type and cache headers, under the prefix only', async () => {
    const keys = await s3.keys();
    expect(keys.length).toBeGreaterThan(50);
    expect(keys.every((k) => k.startsWith(PREFIX))).toBe(true);
    const course = `${edu.slug}/${edu.course.slug}/index.html`;
    const page = await s3.get(PREFIX + course);
    expect(page).toMatchObject({ contentType: HTML, cacheControl: REVALIDATE, contentEncoding: undefined });
    expect(page!.body.toString()).toContain(edu.course.name);
    expect(await s3.get(`${PREFIX}${course}.br`)).toMatchObject({ contentType: HTML, cacheControl: REVALIDATE, contentEncoding: 'br' });
    expect(await s3.get(`${PREFIX}${course}.gz`)).toMatchObject({ contentType: HTML, cacheControl: REVALIDATE, contentEncoding: 'gzip' });
    await expectConsistent(course);
    // Every kind of file the publisher writes, each with its type, and encodings whatever its size (robots.txt is
    // small): an edge rule picks `{file}.br` by the name alone.
    const types: Record<string, string> = {
      [`minisite/${edu.slug}/robots.txt`]: 'text/plain; charset=utf-8',
      [`minisite/${edu.slug}/sitemap.xml`]: 'application/xml; charset=utf-8',
      'sitemap.xml': 'application/xml; charset=utf-8',
      'index.html': HTML,
      [`embed/${edu.slug}/index.html`]: HTML,
    };
    for (const [file, type] of Object.entries(types)) {
      expect((await s3.get(PREFIX + file))?.contentType, file).toBe(type);
      await expectConsistent(file);
    }
    expect((await s3.get(`${PREFIX}minisite/${edu.slug}/robots.txt`))!.body.length).toBeLessThan(256);
    // Every encoding has its page, every text file both encodings.
    const set = new Set(keys);
    for (const key of keys) {
      if (/\.(br|gz)$/.test(key)) expect(set.has(key.replace(/\.(br|gz)$/, '')), key).toBe(true);
      else expect(set.has(`${key}.br`) && set.has(`${key}.gz`), key).toBe(true);
    }
  });

  // Two full publishes of one educator, one per target: more than the default 30 s on a loaded machine.
  it('holds exactly the files and bytes the folder target writes for the same changes', { timeout: 120_000 }, async () => {
    await t.db.updateTable('educators').set({ name: `${edu.name} Studio` }).where('id', '=', edu.id).execute();
    const rows = await t.db.selectFrom('page_changes').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    const folder = join(work, 'folder-target');
    // The folder starts from what the bucket held before the change.
    const before = bucketTarget();
    const dir = createDirectoryTarget(folder);
    for (const file of await before.list('')) await dir.write(file, (await before.read(file))!);
    await publishOnce(dir);
    // The same rows again, for the bucket.
    await t.db.insertInto('page_changes').values(rows.map(({ id: _id, ...r }) => ({ ...r, claimed_by: null, claimed_until: null, attempts: 0 }))).execute();
    await publishOnce();
    const onDisk = filesUnder(folder).filter((f) => !/\.(br|gz)$/.test(f)).map((f) => relative(folder, f)).sort();
    const inBucket = (await bucketTarget().list('')).sort();
    expect(inBucket).toEqual(onDisk);
    for (const file of onDisk) expect((await s3.get(PREFIX + file))!.body.equals(readFileSync(join(folder, file))), file).toBe(true);
    expect((await s3.get(`${PREFIX}${edu.slug}/index.html`))!.body.toString()).toContain(`${edu.name} Studio`);
  });

  it('writes the encodings before the page, removes them before it, and leaves an unchanged page alone', async () => {
    await t.db.updateTable('courses').set({ name: `${edu.course.name} (renamed)` }).where('id', '=', edu.course.id).execute();
    const course = `${PREFIX}${edu.slug}/${edu.course.slug}/index.html`;
    const sent = await commandsDuring(() => publishOnce());
    const puts = sent.filter((c) => c.startsWith('PutObjectCommand') && c.includes(` ${course}`));
    expect(puts.map((c) => c.split(' ')[1])).toHaveLength(3);
    expect(puts[2]).toBe(`PutObjectCommand ${course}`);
    expect(await expectConsistent(`${edu.slug}/${edu.course.slug}/index.html`)).toContain('(renamed)');

    // Published again with nothing changed: rendered, compared, not written.
    await t.db.updateTable('courses').set({ name: `${edu.course.name} (renamed)` }).where('id', '=', edu.course.id).execute();
    let report: Awaited<ReturnType<typeof publishOnce>> = null;
    const unchanged = await commandsDuring(async () => {
      report = await publishOnce();
    });
    expect(report!.rendered).toBeGreaterThan(0);
    // Its three objects looked at (once per render of it), none written.
    const ofCourse = unchanged.filter((c) => c.includes(course));
    expect(ofCourse).toEqual(expect.arrayContaining([`HeadObjectCommand ${course}`, `HeadObjectCommand ${course}.br`, `HeadObjectCommand ${course}.gz`]));
    expect(ofCourse.filter((c) => !c.startsWith('HeadObjectCommand'))).toEqual([]);

    // Unpublished: the encodings go first, then the page.
    await t.db.updateTable('courses').set({ published: false }).where('id', '=', edu.course.id).execute();
    const mine = new Set([course, `${course}.br`, `${course}.gz`]);
    const removal = (await commandsDuring(() => publishOnce())).filter((c) => c.split(' ').slice(1).some((k) => mine.has(k)));
    expect(removal.filter((c) => c.startsWith('Delete'))).toEqual([`DeleteObjectsCommand ${course}.br ${course}.gz`, `DeleteObjectCommand ${course}`]);
    expect(await s3.keys(`${PREFIX}${edu.slug}/${edu.course.slug}/`)).toEqual([]);
    await t.db.updateTable('courses').set({ published: true, name: edu.course.name }).where('id', '=', edu.course.id).execute();
    await publishOnce();
    expect(await expectConsistent(`${edu.slug}/${edu.course.slug}/index.html`)).toContain(edu.course.name);
  });

  it('a failure between a page\'s objects leaves the page as it was and its change in the feed; the next publish completes it', async () => {
    const file = `${edu.slug}/${edu.course.slug}/index.html`;
    const old = await expectConsistent(file);
    await t.db.updateTable('courses').set({ name: 'Wheel throwing for beginners' }).where('id', '=', edu.course.id).execute();
    const rows = (await t.db.selectFrom('page_changes').select('id').execute()).map((r) => r.id);
    let report: Awaited<ReturnType<typeof publishOnce>> = null;
    await failingPutsOf(PREFIX + file, async () => {
      report = await publishOnce();
    });
    expect(report!.failed).toBeGreaterThan(0);
    // The page is the old one, whole; only its encodings may be new.
    const page = await s3.get(PREFIX + file);
    expect(page!.body.toString()).toBe(old);
    expect(decode('br', (await s3.get(`${PREFIX}${file}.br`))!.body).toString()).toContain('Wheel throwing for beginners');
    // Its rows are still there, waiting for their retry.
    const left = (await t.db.selectFrom('page_changes').select('id').execute()).map((r) => r.id);
    expect(left.sort()).toEqual(rows.sort());

    await makeRowsDue();
    await publishOnce();
    expect(await expectConsistent(file)).toContain('Wheel throwing for beginners');
    expect(await t.db.selectFrom('page_changes').select('id').execute()).toEqual([]);
  });

  it('repairs the encodings of a failed write even when the content went back to the published one', async () => {
    const file = `${edu.slug}/${edu.course.slug}/index.html`;
    const published = await expectConsistent(file);
    const name = (await t.db.selectFrom('courses').select('name').where('id', '=', edu.course.id).executeTakeFirstOrThrow()).name;
    await t.db.updateTable('courses').set({ name: 'A name that never reached the page' }).where('id', '=', edu.course.id).execute();
    await failingPutsOf(PREFIX + file, () => publishOnce());
    // Back to the name the page shows: the page's own bytes are current, its encodings are not.
    await t.db.updateTable('courses').set({ name }).where('id', '=', edu.course.id).execute();
    await makeRowsDue();
    await publishOnce();
    expect(await expectConsistent(file)).toBe(published);
  });

  it('a publisher killed between a page\'s objects leaves no half-written page; the next one completes it once the lease runs out', async () => {
    const file = `${edu.slug}/${edu.course.slug}/index.html`;
    const old = await expectConsistent(file);
    await t.db.updateTable('courses').set({ name: 'Raku firing, one evening' }).where('id', '=', edu.course.id).execute();
    const rows = (await t.db.selectFrom('page_changes').select('id').execute()).map((r) => r.id).sort();
    // `npm run publish -- --once`, killed (SIGKILL) as it is about to store the page itself: its encodings are in.
    const { NODE_OPTIONS: _ignored, ...parentEnv } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', './tests/helpers/dies-at-object.ts', 'api/publish/cli.ts', '--once'], {
      env: {
        ...parentEnv, ...s3.env(PREFIX), DATABASE_URL: databaseUrlOf(t), DIST_DIR: distDir, PAGES_NOW: String(NOW), PUBLISH_BATCH_MS: '0',
        PUBLISH_LEASE_SECONDS: '2', LOG_LEVEL: 'silent', DIE_AT_KEY: PREFIX + file,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const signal = await new Promise<NodeJS.Signals | null>((ok) => child.on('exit', (_code, sig) => ok(sig)));
    expect(signal, output).toBe('SIGKILL');
    // The page is the old one, whole; its encodings are the new one's; every row is still claimed by the dead process.
    expect((await s3.get(PREFIX + file))!.body.toString()).toBe(old);
    expect(decode('br', (await s3.get(`${PREFIX}${file}.br`))!.body).toString()).toContain('Raku firing, one evening');
    const claimed = await t.db.selectFrom('page_changes').select(['id', 'claimed_by']).execute();
    expect(claimed.map((r) => r.id).sort()).toEqual(rows);
    expect(claimed.every((r) => r.claimed_by !== null)).toBe(true);
    // Not before the lease has run out (2 s), then another publisher completes the page.
    expect((await publishOnce())?.rows ?? 0).toBe(0);
    await new Promise((r) => setTimeout(r, 3000));
    const report = await publishOnce();
    expect(report?.rows).toBe(rows.length);
    expect(await expectConsistent(file)).toContain('Raku firing, one evening');
    expect(await t.db.selectFrom('page_changes').select('id').execute()).toEqual([]);
  });

  it('lists a file whose encodings outlived it, so that removing it again finishes the job', async () => {
    const target = bucketTarget();
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `${PREFIX}orphan/page/index.html.br`, Body: 'x' }));
    expect(await target.list('orphan/')).toEqual(['orphan/page/index.html']);
    await target.remove('orphan/page/index.html');
    expect(await s3.keys(`${PREFIX}orphan/`)).toEqual([]);
  });
});

describe('the server reads pages from the bucket', () => {
  let server: TestServer;

  function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
    return new Promise((ok, fail) => {
      const req = request({ host: '127.0.0.1', port: server.port, path, method, headers: { host: 'localhost:4321', ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', fail);
      });
      req.on('error', fail);
      req.end();
    });
  }

  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_HOST: 'localhost:4321', DIST_DIR: distDir, ...s3.env(PREFIX) }, t);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a page with the encoding asked for, its type, cache headers and the bucket\'s validators', async () => {
    const file = `${edu.slug}/${edu.course.slug}/index.html`;
    const page = (await s3.get(PREFIX + file))!;
    const br = await raw(`/${edu.slug}/${edu.course.slug}`, { 'accept-encoding': 'gzip, br' });
    expect(br.status).toBe(200);
    expect(br.headers).toMatchObject({ 'content-type': HTML, 'content-encoding': 'br', vary: 'Accept-Encoding', 'cache-control': REVALIDATE });
    expect(decode('br', br.body).equals(page.body)).toBe(true);
    expect(br.headers.etag).toBe((await s3.get(`${PREFIX}${file}.br`))!.etag);
    expect(br.headers['content-security-policy']).toContain("script-src 'self'");
    const gz = await raw(`/${edu.slug}/${edu.course.slug}/`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decode('gzip', gz.body).equals(page.body)).toBe(true);
    const plain = await raw(`/${edu.slug}/${edu.course.slug}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(page.body)).toBe(true);
    expect(plain.headers.etag).toBe(page.etag);
    expect(plain.headers.etag).not.toBe(br.headers.etag);

    const again = await raw(`/${edu.slug}/${edu.course.slug}`, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect((await raw(`/${edu.slug}/${edu.course.slug}`, { 'accept-encoding': 'br', 'if-none-match': `"other", ${br.headers.etag}` })).status).toBe(304);
    expect((await raw(`/${edu.slug}/${edu.course.slug}`, { 'accept-encoding': 'br', 'if-none-match': '"other"' })).status).toBe(200);
    const head = await raw(`/${edu.slug}/${edu.course.slug}`, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(br.headers['content-length']);
  });

  it('serves the minisite from its folder on the educator\'s host only, the 404 page and assets from disk', async () => {
    const mini = await raw('/', { host: `${edu.slug}.localhost:4321` });
    expect(mini.status).toBe(200);
    expect(mini.body.equals((await s3.get(`${PREFIX}minisite/${edu.slug}/index.html`))!.body)).toBe(true);
    expect((await raw(`/minisite/${edu.slug}/`)).status).toBe(404);
    const missing = await raw('/no-such-educator/no-such-course');
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toContain('No page here.');
    const asset = await raw('/_astro/site.abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(await s3.get(`${PREFIX}_astro/site.abc123.js`)).toBeNull();
  });

  it('knows an educator\'s enquiry data by the bucket (the embed enquiry shell answers 404 without it)', async () => {
    const contactable = await t.db.selectFrom('educators').select('slug').where('can_be_contacted', '=', true).limit(1).executeTakeFirst();
    if (contactable) expect(await s3.get(`${PREFIX}embed/${contactable.slug}/enquiry.json`)).not.toBeNull();
    // The shell itself is astro build's (not in this bucket): what matters is the unknown educator's 404.
    expect((await raw('/embed/enquiry?educator=nobody-here')).status).toBe(404);
  });

  it('shows a published edit on the next request', async () => {
    await t.db.updateTable('educators').set({ name: 'Thrown Today' }).where('id', '=', other.id).execute();
    await publishOnce();
    expect((await raw(`/${other.slug}`)).body.toString()).toContain('Thrown Today');
  });
});

describe('the bucket\'s settings', () => {
  const site = { PUBLISH_TARGET: 's3://pages-bucket/site', S3_ENDPOINT: 'https://s3.example.net' };
  const production = {
    PUBLIC_PROTOCOL: 'https', PUBLIC_HOST: 'courses.example.com', APP_SECRET: 'q7Vd0fJ3kX9pL2mR8sT4wY6zB1nC5hE0aG', SMTP_URL: 'smtps://u:p@smtp.example.com',
    MAIL_FROM: 'Courses <no-reply@courses.example.com>',
  };
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return '';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('reads s3://bucket/prefix and refuses anything else', () => {
    expect(parseBucketUrl('s3://pages-bucket')).toEqual({ bucket: 'pages-bucket', prefix: '' });
    expect(parseBucketUrl('s3://pages-bucket/')).toEqual({ bucket: 'pages-bucket', prefix: '' });
    expect(parseBucketUrl('s3://pages-bucket/a/b/')).toEqual({ bucket: 'pages-bucket', prefix: 'a/b/' });
    for (const bad of ['pages-bucket', 's3://Pages', 's3://ab', 's3://pages-bucket/../x', 's3://pages-bucket/a//b', 'https://pages-bucket/x', 's3://192.168.1.1/x']) {
      expect(parseBucketUrl(bad), bad).toBeNull();
      expect(refusal({ PUBLISH_TARGET: bad }), bad).toContain('PUBLISH_TARGET');
    }
    expect(refusal({ ...site, S3_ENDPOINT: 'https://key:secret@s3.example.net' })).toContain('S3_ENDPOINT');
    expect(refusal({ ...site, S3_ENDPOINT: 'ftp://s3.example.net' })).toContain('S3_ENDPOINT');
    expect(refusal({ ...site, S3_FORCE_PATH_STYLE: 'maybe' })).toContain('S3_FORCE_PATH_STYLE');
    expect(refusal(site)).toBe('');
    expect(loadConfig(site).PUBLISH_TARGET).toBe('s3://pages-bucket/site');
    expect(loadConfig({}).PUBLISH_TARGET).toBe('');
  });

  it('refuses what cannot work anywhere: half a key pair, a dotted bucket by host name over https', () => {
    expect(refusal({ ...site, AWS_ACCESS_KEY_ID: 'AKIAEXAMPLEKEY' })).toContain('AWS_SECRET_ACCESS_KEY');
    expect(refusal({ ...site, AWS_SECRET_ACCESS_KEY: 'secret' })).toContain('AWS_ACCESS_KEY_ID');
    expect(refusal({ ...site, PUBLISH_TARGET: 's3://pages.example.com/site' })).toContain('S3_FORCE_PATH_STYLE');
    expect(refusal({ ...site, PUBLISH_TARGET: 's3://pages.example.com/site', S3_FORCE_PATH_STYLE: 'true' })).toBe('');
    // The full build reads these settings alone, and refuses them alike.
    expect(() => loadPageTargetSettings({ ...site, AWS_ACCESS_KEY_ID: 'AKIAEXAMPLEKEY' })).toThrow(/AWS_SECRET_ACCESS_KEY/);
  });

  it('production refuses an http endpoint and the public keys of a local stand-in', () => {
    expect(refusal({ ...production, ...site })).toBe('');
    expect(refusal({ ...production, ...site, S3_ENDPOINT: 'http://10.0.0.5:9000', S3_FORCE_PATH_STYLE: 'true' })).toMatch(/S3_ENDPOINT: is plain http under https/);
    expect(refusal({ ...production, ...site, AWS_ACCESS_KEY_ID: 'minioadmin', AWS_SECRET_ACCESS_KEY: 'minioadmin' })).toMatch(/AWS_ACCESS_KEY_ID: is the published default key/);
    expect(refusal({ ...site, S3_ENDPOINT: 'http://127.0.0.1:9000', AWS_ACCESS_KEY_ID: 'minioadmin', AWS_SECRET_ACCESS_KEY: 'minioadmin' })).toBe('');
    expect(() => loadPageTargetSettings({ ...site, PUBLIC_PROTOCOL: 'https', S3_ENDPOINT: 'http://10.0.0.5:9000' })).toThrow(/plain http/);
  });

  it('chooses the folder or the bucket from the settings, and maps URL paths to files as the disk server does', () => {
    expect(pageTargetFor(loadConfig({}), distDir).kind).toBe('directory');
    expect(pageTargetFor(loadConfig(s3.env(PREFIX)), distDir).description).toBe(`s3://site/${PREFIX}`);
    expect(candidateFiles('/')).toEqual(['index.html']);
    expect(candidateFiles('/a/b')).toEqual(['a/b/index.html', 'a/b.html']);
    expect(candidateFiles('/a/b/')).toEqual(['a/b/index.html']);
    expect(candidateFiles('/sitemap.xml')).toEqual(['sitemap.xml']);
    expect(candidateFiles('/a/%2e%2e/%2e%2e/x')).toEqual(['x/index.html', 'x.html']);
    expect(candidateFiles('/%00')).toEqual([]);
    expect(candidateFiles('/%zz')).toEqual([]);
  });
});
