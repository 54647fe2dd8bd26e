/**
 * Publishing without a rebuild, through the real server (api/server.ts with its publisher) over a site built
 * as `npm run build` builds it (scripts/build-site.mjs) from a fresh catalogue: a posted review and each
 * admin-app change (npm run catalogue) reach every affected page in all three contexts and the sitemaps, no
 * request fails while pages are swapped, an unpublished course answers 404, a change to what a category's
 * carousel shows reaches the other educators' course pages of that category, a publish cut off in the middle is
 * finished by the next publisher, and the publisher writes byte for byte what the full build writes for the same
 * data — both on a page the build wrote, and over the whole site after every change: a fresh full build of the
 * changed data writes exactly the files the incremental publishes left.
 * SQLite by default; a throw-away PostgreSQL database when TEST_DATABASE_URL is set.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createThrowawayPgDatabase } from '../helpers/db.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDb, type Db } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { loadCatalogue } from '../../db/seed/load.ts';
import { parseCatalogueCommand, runCatalogueCommand } from '../../db/catalogue-cli.ts';
import { loadConfig } from '../../api/config.ts';
import { startServer } from '../../api/server.ts';
import { createPublisher, publisherJob } from '../../api/publish/publisher.ts';
import { createFeedSignal } from '../../api/publish/feed-signal.ts';
import { startWorker } from '../../api/background.ts';
import { createDirectoryTarget, type PageTarget } from '../../api/publish/page-target.ts';
import { topCards } from '../../db/queries/pages.ts';
import { loggerFor } from '../../api/log.ts';
import { freePort } from '../helpers/ports.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import type { TestServer } from '../helpers/server.ts';

const run = promisify(execFile);
const DAY = 86_400;
const NOW = Math.floor(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) / 1000);
/** Pages are rendered for a fixed moment, by the build and by the publisher alike, so their bytes can be compared. */
const PAGES_NOW = NOW + 3600;

let work: string;
let clientDir: string;
let databaseUrl: string;
let pgDatabase: string | null = null;
let db: Db;
let port: number;
let server: Awaited<ReturnType<typeof startServer>>;
/** Every page file as the full build wrote it. */
const built = new Map<string, string>();
/** The environment of the build and of the server. */
let env: NodeJS.ProcessEnv;
let educators: { id: string; slug: string; courses: { id: string; slug: string }[] }[];

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (entry !== '_astro' && entry !== 'images') walk(path, out);
    } else if (/\.(html|json|xml|txt)$/.test(entry)) out.push(path);
  }
  return out;
}

beforeAll(async () => {
  mkdirSync(join(process.cwd(), '.tmp'), { recursive: true });
  work = mkdtempSync(join(process.cwd(), '.tmp', 'publish-'));
  const pgAdminUrl = process.env.TEST_DATABASE_URL;
  databaseUrl = join(work, 'site.sqlite');
  if (pgAdminUrl) {
    const created = await createThrowawayPgDatabase(pgAdminUrl, 'publish');
    pgDatabase = created.name;
    databaseUrl = created.url;
  }
  db = openDb({ url: databaseUrl });
  await migrateToLatest(db);
  await loadCatalogue(db, { seed: 1, educators: 6, now: NOW });
  const rows = await db.selectFrom('educators as e').innerJoin('courses as c', 'c.educator_id', 'e.id')
    .select(['e.id', 'e.slug', 'c.id as courseId', 'c.slug as courseSlug'])
    .where('c.published', '=', true).orderBy('e.slug').orderBy('c.created_at').orderBy('c.id').execute();
  const bySlug = new Map<string, (typeof educators)[number]>();
  for (const r of rows) {
    const e = bySlug.get(r.slug) ?? { id: r.id, slug: r.slug, courses: [] };
    e.courses.push({ id: r.courseId, slug: r.courseSlug });
    bySlug.set(r.slug, e);
  }
  // Educators with marketplace, minisite and embed pages and at least three courses.
  educators = [...bySlug.values()].filter((e) => e.courses.length >= 3);

  port = await freePort();
  const distDir = join(work, 'dist');
  env = {
    ...process.env, DATABASE_URL: databaseUrl, ASTRO_OUT_DIR: distDir, PUBLIC_HOST: `localhost:${port}`,
    ASTRO_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', PAGES_NOW: String(PAGES_NOW),
  };
  await buildSite(env);
  clientDir = join(distDir, 'client');
  for (const file of walk(clientDir)) built.set(relative(clientDir, file), readFileSync(file, 'utf8'));

  // The server renders with the same settings as the build.
  process.env.DATABASE_URL = databaseUrl;
  process.env.PUBLIC_HOST = `localhost:${port}`;
  process.env.PAGES_NOW = String(PAGES_NOW);
  server = await startServer(loadConfig({
    ...env, PORT: String(port), BIND_HOST: '127.0.0.1', DIST_DIR: distDir, LOG_LEVEL: 'error', OUTBOX_DIR: join(work, 'outbox'),
    PUBLISH_BATCH_MS: '300', PUBLISH_LEASE_SECONDS: '3',
  }));
}, 600_000);

/** The full build, as `npm run build` runs it. */
async function buildSite(buildEnv: NodeJS.ProcessEnv): Promise<void> {
  await run(process.execPath, ['scripts/build-site.mjs'], { env: buildEnv, maxBuffer: 64 * 1024 * 1024 });
}

afterAll(async () => {
  await server?.close();
  await db?.destroy();
  if (pgDatabase && process.env.TEST_DATABASE_URL) {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${pgDatabase} with (force)`);
    await admin.end();
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Got { status: number; body: string }

/** GET through the server as a browser on `host` would (minisites: {slug}.localhost). */
function get(path: string, host = `localhost:${port}`): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host, accept: 'text/html,*/*' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const pageOf = {
  marketplace: (slug: string, path = '') => get(`/${slug}${path}`),
  minisite: (slug: string, path = '') => get(path || '/', `${slug}.localhost:${port}`),
  embed: (slug: string, path = '') => get(`/embed/${slug}${path}`),
};

async function sitemapText(host = `localhost:${port}`): Promise<string> {
  const index = (await get('/sitemap.xml', host)).body;
  const children = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  return (await Promise.all(children.map(async (path) => (await get(path, host)).body))).join('\n');
}

/**
 * Polls until `check` holds (bounded), while a second loop keeps reading `watched` pages: every one of those
 * reads must be a whole 200 page, before, during and after the swap.
 */
async function until(check: () => Promise<boolean>, watched: Array<() => Promise<Got>>, what: string): Promise<void> {
  let done = false;
  const failures: string[] = [];
  let reads = 0;
  const reader = (async () => {
    while (!done) {
      for (const read of watched) {
        const res = await read();
        reads++;
        if (res.status !== 200 || !/<\/html>\s*$/.test(res.body)) failures.push(`${res.status} ${res.body.slice(-40)}`);
      }
      await new Promise((ok) => setTimeout(ok, 20));
    }
  })();
  const deadline = Date.now() + 60_000;
  try {
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`not published within 60 s: ${what}`);
      await new Promise((ok) => setTimeout(ok, 100));
    }
  } finally {
    done = true;
    await reader;
  }
  expect(failures, `failed reads of ${reads} while publishing ${what}`).toEqual([]);
}

async function feedEmpty(): Promise<boolean> {
  const row = await db.selectFrom('page_changes').select('id').limit(1).executeTakeFirst();
  return !row;
}

describe('publishing', { timeout: 180_000 }, () => {
  it('writes byte for byte what the full build wrote for the same data', async () => {
    const e = educators[0]!;
    // Spoil the educator's pages, home and a category page, then make the feed name the educator.
    const files = [...built.keys()].filter((f) =>
      f.startsWith(`${e.slug}/`) || f.startsWith(`minisite/${e.slug}/`) || f.startsWith(`embed/${e.slug}/`) || f === 'index.html' || f.startsWith('courses/'));
    const pages = files.filter((f) => !f.endsWith('.xml'));
    expect(pages.length).toBeGreaterThan(20);
    for (const f of pages) writeFileSync(join(clientDir, f), 'stale');
    await db.updateTable('educators').set({ name: (eb) => eb.ref('name') }).where('id', '=', e.id).execute();
    await until(async () => (await feedEmpty()) && readFileSync(join(clientDir, `${e.slug}/index.html`), 'utf8') !== 'stale', [], 'a no-op change');
    const categoryPages = pages.filter((f) => f.startsWith('courses/'));
    for (const f of pages) {
      // Category pages of categories the educator has no course in are not its pages: left as they were.
      if (categoryPages.includes(f) && readFileSync(join(clientDir, f), 'utf8') === 'stale') {
        writeFileSync(join(clientDir, f), built.get(f)!);
        continue;
      }
      expect(readFileSync(join(clientDir, f), 'utf8') === built.get(f), f).toBe(true);
    }
  });

  it('shows a posted review on the course and reviews pages in all three contexts and in the sitemaps', async () => {
    const e = educators[1]!;
    const course = e.courses[0]!;
    const learner = await signUpAndLogin({ url: `http://127.0.0.1:${port}`, db } as unknown as TestServer, { firstName: 'Publish', lastName: 'Tester' });
    const before = await sitemapText();
    const message = `Freshly published review ${randomBytes(4).toString('hex')}`;
    const written = Math.floor(Date.now() / 1000);
    const res = await fetch(`http://127.0.0.1:${port}/api/reviews`, {
      method: 'POST',
      headers: { cookie: learner.cookie, 'content-type': 'application/json', host: `localhost:${port}` },
      body: JSON.stringify({ educatorSlug: e.slug, courseSlug: course.slug, rating: 5, message }),
    });
    expect(res.status).toBe(201);
    const pages = [
      () => pageOf.marketplace(e.slug, `/${course.slug}`), () => pageOf.minisite(e.slug, `/${course.slug}`), () => pageOf.embed(e.slug, `/${course.slug}`),
      () => pageOf.marketplace(e.slug, '/reviews'), () => pageOf.minisite(e.slug, '/reviews'), () => pageOf.embed(e.slug, '/reviews'),
    ];
    await until(async () => (await Promise.all(pages.map(async (p) => (await p()).body.includes(message)))).every(Boolean), pages, 'a review');
    await until(async () => (await sitemapText()) !== before, [], 'the sitemap lastmod');
    const lastmods = [...(await sitemapText()).matchAll(new RegExp(`<loc>[^<]*/${e.slug}/${course.slug}</loc><lastmod>([^<]+)</lastmod>`, 'g'))];
    expect(lastmods).toHaveLength(1);
    expect(Date.parse(lastmods[0]![1]!) / 1000).toBeGreaterThanOrEqual(written - 1);
  });

  it('publishes each admin-app change: a price, a date, a new name', async () => {
    const e = educators[2]!;
    const course = e.courses[0]!;
    const coursePages = [
      () => pageOf.marketplace(e.slug, `/${course.slug}`), () => pageOf.minisite(e.slug, `/${course.slug}`), () => pageOf.embed(e.slug, `/${course.slug}`),
    ];
    const all = async (pages: Array<() => Promise<Got>>, text: string) => (await Promise.all(pages.map(async (p) => (await p()).body.includes(text)))).every(Boolean);

    await runCatalogueCommand(db, parseCatalogueCommand(['set-price', `${e.slug}/${course.slug}`, '4321']));
    await until(() => all(coursePages, '£43.21'), coursePages, 'a price');

    const start = new Date((NOW + 40 * DAY + 10 * 3600) * 1000).toISOString();
    await runCatalogueCommand(db, parseCatalogueCommand(['add-date', course.id, start]));
    const occurrence = await db.selectFrom('occurrences').select('id').where('course_id', '=', course.id)
      .where('start_datetime', '=', NOW + 40 * DAY + 10 * 3600).executeTakeFirstOrThrow();
    await until(() => all(coursePages, occurrence.id), coursePages, 'a new date');

    const name = `Renamed School ${randomBytes(3).toString('hex')}`;
    await runCatalogueCommand(db, parseCatalogueCommand(['rename-educator', e.slug, name]));
    const educatorPages = [...coursePages, () => pageOf.marketplace(e.slug), () => pageOf.minisite(e.slug), () => pageOf.embed(e.slug), () => get('/')];
    await until(() => all(educatorPages, name), educatorPages, 'a new name');
  });

  it('an unpublished course answers 404 in every context and leaves the sitemaps', async () => {
    const e = educators[2]!;
    const course = e.courses[1]!;
    const marketplaceUrl = `/${e.slug}/${course.slug}`;
    expect((await pageOf.marketplace(e.slug, `/${course.slug}`)).status).toBe(200);
    expect(await sitemapText()).toContain(`${marketplaceUrl}</loc>`);
    await runCatalogueCommand(db, parseCatalogueCommand(['unpublish', course.id]));
    const gone = async () => (await Promise.all([
      pageOf.marketplace(e.slug, `/${course.slug}`), pageOf.minisite(e.slug, `/${course.slug}`), pageOf.embed(e.slug, `/${course.slug}`),
    ])).every((r) => r.status === 404);
    await until(gone, [() => pageOf.marketplace(e.slug)], 'an unpublished course');
    await until(async () => !(await sitemapText()).includes(`${marketplaceUrl}</loc>`), [], 'the sitemap entry removed');
    expect((await pageOf.marketplace(e.slug, '/courses')).body).not.toContain(`href="/${e.slug}/${course.slug}"`);
  });

  it('a change to what a category carousel shows re-renders that category\'s course pages of other educators', async () => {
    // The course at the head of a category's carousel, and a course of another educator moved into that category
    // by the admin app: its marketplace page then shows the category's carousel ("More in {category}").
    const { category_id: categoryId } = await db.selectFrom('courses').select('category_id').where('published', '=', true)
      .where('category_id', 'is not', null).orderBy('id').executeTakeFirstOrThrow();
    const [head] = await topCards(db, { categoryId: categoryId!, limit: 12, now: PAGES_NOW });
    expect(head, 'a category with a published course').toBeDefined();
    const other = await db.selectFrom('courses as c').innerJoin('educators as e', 'e.id', 'c.educator_id')
      .select(['c.id', 'c.slug', 'e.slug as educator']).where('c.published', '=', true)
      .where('c.educator_id', '<>', head!.educator_ref).where('e.id', 'not in', educators.slice(0, 4).map((x) => x.id))
      .orderBy('c.id').executeTakeFirstOrThrow();
    const otherPage = () => pageOf.marketplace(other.educator, `/${other.slug}`);
    await db.updateTable('courses').set({ category_id: categoryId! }).where('id', '=', other.id).execute();
    await until(async () => (await otherPage()).body.includes(`/${head!.educator.slug}/${head!.slug}`), [otherPage], 'a course moved into the category');

    // The admin app renames the head course: only its educator's rows are in the feed, yet the other educator's
    // page shows the new name in its carousel, as does the category's listing page.
    const name = `Carousel Course ${randomBytes(3).toString('hex')}`;
    await db.updateTable('courses').set({ name }).where('id', '=', head!._id).execute();
    const categorySlug = (await db.selectFrom('categories').select('slug').where('id', '=', categoryId!).executeTakeFirstOrThrow()).slug;
    const pages = [otherPage, () => get(`/courses/${categorySlug}`), () => pageOf.marketplace(head!.educator.slug, `/${head!.slug}`)];
    await until(async () => (await Promise.all(pages.map(async (p) => (await p()).body.includes(name)))).every(Boolean), pages, 'a carousel change');
    // The other educator's minisite and embed pages have no category carousel: they do not show it.
    expect((await pageOf.minisite(other.educator, `/${other.slug}`)).body).not.toContain(name);
    expect((await pageOf.embed(other.educator, `/${other.slug}`)).body).not.toContain(name);
  });

  it('a publish cut off in the middle is finished by the next publisher, once the lease has run out', async () => {
    // Only the two publishers of this test may take the feed.
    await server.workers.get('publisher')!.stop();
    const e = educators[3]!;
    const course = e.courses[0]!;
    const options = {
      db, dialect: (databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite') as 'postgres' | 'sqlite', distDir: join(clientDir, '..'),
      log: loggerFor({ LOG_LEVEL: 'silent' }), now: () => Math.floor(Date.now() / 1000), pagesNow: () => PAGES_NOW, batchMs: 0, leaseSeconds: 2,
    };
    const crashing = createPublisher({ ...options, onStep: (step) => { if (step.startsWith('educators')) throw new Error('killed mid-publish'); } });
    await runCatalogueCommand(db, parseCatalogueCommand(['set-price', course.id, '1234']));
    await expect(crashing.run()).rejects.toThrow('killed mid-publish');
    await crashing.close();
    // The rows stay, claimed by the dead publisher, until its lease runs out.
    const held = await db.selectFrom('page_changes').select(['claimed_by']).execute();
    expect(held.length).toBeGreaterThan(0);
    expect(held.every((r) => r.claimed_by === crashing.owner)).toBe(true);

    const next = createPublisher(options);
    const deadline = Date.now() + 30_000;
    while (!(await feedEmpty())) {
      if (Date.now() > deadline) throw new Error('the next publisher did not finish the publish');
      await next.run();
      await new Promise((ok) => setTimeout(ok, 200));
    }
    await next.close();
    for (const read of [pageOf.marketplace(e.slug, `/${course.slug}`), pageOf.minisite(e.slug, `/${course.slug}`), pageOf.embed(e.slug, `/${course.slug}`)]) {
      expect((await read).body).toContain('£12.34');
    }
  });

  it('an educator renamed at the head of a carousel: its category\'s listing page and home do not wait for the category\'s course pages, and those are written even after a failure', async () => {
    // Only the publishers of this test take the feed (the test above stopped the server's already).
    await server.workers.get('publisher')!.stop();
    const options = {
      db, dialect: (databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite') as 'postgres' | 'sqlite', distDir: join(clientDir, '..'),
      log: loggerFor({ LOG_LEVEL: 'silent' }), now: () => Math.floor(Date.now() / 1000), pagesNow: () => PAGES_NOW, batchMs: 0, leaseSeconds: 2,
    };
    const publishAll = async () => {
      const publisher = createPublisher(options);
      while (!(await feedEmpty())) await publisher.run();
      await publisher.close();
    };
    const { category_id: categoryId } = await db.selectFrom('courses').select('category_id').where('published', '=', true)
      .where('category_id', 'is not', null).orderBy('id').executeTakeFirstOrThrow();
    const category = await db.selectFrom('categories').select('slug').where('id', '=', categoryId!).executeTakeFirstOrThrow();
    const [head] = await topCards(db, { categoryId: categoryId!, limit: 12, now: PAGES_NOW });
    // Another educator's course, moved into that category (and published): its marketplace page shows the head's card.
    const other = await db.selectFrom('courses as c').innerJoin('educators as e', 'e.id', 'c.educator_id')
      .select(['c.id', 'c.slug', 'e.slug as educator']).where('c.published', '=', true)
      .where('c.educator_id', '<>', head!.educator_ref).orderBy('c.id').executeTakeFirstOrThrow();
    await db.updateTable('courses').set({ category_id: categoryId! }).where('id', '=', other.id).execute();
    await publishAll();
    const otherFile = `${other.educator}/${other.slug}/index.html`;
    // A card's text as React writes it.
    const card = (text: string) => `>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;')}<`;
    const oldName = card(head!.educator.name);
    expect((await pageOf.marketplace(other.educator, `/${other.slug}`)).body).toContain(oldName);

    // Renamed as the admin's profile save renames it: the educator's row alone, in one transaction.
    const name = `Renamed Head School ${randomBytes(3).toString('hex')}`;
    await db.transaction().execute((trx) => trx.updateTable('educators').set({ name }).where('id', '=', head!.educator_ref).execute());

    // The first publish fails on the other educator's page; what it wrote, and the failure, are recorded in order.
    const written: string[] = [];
    const directory = createDirectoryTarget(clientDir);
    let failOnce = true;
    const failing: PageTarget = {
      ...directory,
      async write(file, bytes, meta) {
        if (file === otherFile && failOnce) {
          failOnce = false;
          written.push('(the failure)');
          throw new Error('disk full');
        }
        const changed = await directory.write(file, bytes, meta);
        if (changed) written.push(file);
        return changed;
      },
    };
    const first = createPublisher({ ...options, target: failing });
    await first.run();
    await first.close();
    expect(failOnce, 'the publish reached the other educator\'s page').toBe(false);
    // The category's listing page was written before the category's other course pages were tried, and shows the name.
    const listing = written.indexOf(`courses/${category.slug}/index.html`);
    expect(listing, written.join(', ')).toBeGreaterThanOrEqual(0);
    expect(listing, written.join(', ')).toBeLessThan(written.indexOf('(the failure)'));
    const body = (await get(`/courses/${category.slug}/`)).body;
    expect(body).toContain(card(name));
    expect(body).not.toContain(oldName);
    expect((await get('/')).body).not.toContain(oldName);

    // The failed page is not left behind: the change is published again (after its back-off) until it is written.
    expect(await feedEmpty(), 'the change is kept to be published again').toBe(false);
    const next = createPublisher(options);
    const deadline = Date.now() + 60_000;
    while (!(await feedEmpty())) {
      if (Date.now() > deadline) throw new Error('the failed carousel page was not published again');
      await next.run();
      await new Promise((ok) => setTimeout(ok, 200));
    }
    await next.close();
    const page = (await pageOf.marketplace(other.educator, `/${other.slug}`)).body;
    expect(page).toContain(card(name));
    expect(page).not.toContain(oldName);
  });

  it('a save this process says has committed is published at once, without waiting out the batching window', async () => {
    // Only this test's publisher takes the feed (the tests above stopped the server's already).
    await server.workers.get('publisher')!.stop();
    const e = educators[3]!;
    const course = e.courses[1]!;
    let claimed = false;
    const saves = createFeedSignal();
    // A batching window of ten minutes and a poll of ten minutes: only the save's notice can start this publish.
    const publisher = createPublisher({
      db, dialect: (databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite') as 'postgres' | 'sqlite', distDir: join(clientDir, '..'),
      log: loggerFor({ LOG_LEVEL: 'silent' }), now: () => Math.floor(Date.now() / 1000), pagesNow: () => PAGES_NOW,
      batchMs: 600_000, onStep: (step) => { if (step === 'claimed') claimed = true; },
    });
    const job = publisherJob(publisher, 600_000, saves);
    let passes = 0;
    const worker = startWorker({ ...job, run: async (signal) => { const n = await job.run(signal); passes++; return n; } }, loggerFor({ LOG_LEVEL: 'silent' }));
    try {
      // Its first pass has found the feed empty: it sleeps until told.
      await vi.waitFor(() => expect(passes).toBeGreaterThan(0), { timeout: 30_000 });
      await runCatalogueCommand(db, parseCatalogueCommand(['set-price', course.id, '2468']));
      saves.committed();
      await until(async () => (await feedEmpty()) && (await pageOf.marketplace(e.slug, `/${course.slug}`)).body.includes('£24.68'), [], 'a notified save');
      expect(claimed).toBe(true);
    } finally {
      await worker.stop();
      await publisher.close();
    }
  });

  it('the publisher\'s twin routes are not reachable from outside', async () => {
    for (const path of ['/publish-render/course', '/publish-render/home']) expect((await get(path)).status).toBe(404);
  });

  it('after every change, a fresh full build of the data writes exactly the files the publishes left', async () => {
    // Runs last: every change of the tests above is published (the feed is empty) and nothing writes any more.
    expect(await feedEmpty()).toBe(true);
    const freshDist = join(work, 'fresh-dist');
    await buildSite({ ...env, ASTRO_OUT_DIR: freshDist });
    const freshClient = join(freshDist, 'client');
    const fresh = new Map(walk(freshClient).map((file) => [relative(freshClient, file), readFileSync(file, 'utf8')]));
    const served = new Map(walk(clientDir).map((file) => [relative(clientDir, file), readFileSync(file, 'utf8')]));
    expect([...served.keys()].sort()).toEqual([...fresh.keys()].sort());
    const differing = [...fresh.keys()].filter((file) => fresh.get(file) !== served.get(file));
    expect(differing).toEqual([]);
  });
});
