/**
 * From the admin's editor to the public pages, through the real server over a site built as `npm run build` builds it
 * (scripts/build-site.mjs): a course created through the admin API, with an image and two offers, is previewed as a
 * draft in the three contexts (its admins only, never indexed, nowhere public), then published; the publisher's pass
 * (run here, as tests/api/publish.test.ts runs it) writes its page in the three contexts, the marketplace's with
 * complete Course structured data and its offers (spec 2.13: structured data in the marketplace context only); an
 * unpublished course leaves them.
 * SQLite by default; a throw-away PostgreSQL database when TEST_DATABASE_URL is set.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThrowawayPgDatabase } from '../helpers/db.ts';
import { openDb, type Db } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { loadCatalogue } from '../../db/seed/load.ts';
import { loadConfig } from '../../api/config.ts';
import { startServer } from '../../api/server.ts';
import { createPublisher } from '../../api/publish/publisher.ts';
import { loggerFor } from '../../api/log.ts';
import { freePort } from '../helpers/ports.ts';
import { makeEducatorAdmin, signUpAndLogin } from '../helpers/auth.ts';
import { courseRichResultProblems } from '../helpers/course-rich-results.ts';
import type { TestServer } from '../helpers/server.ts';

const run = promisify(execFile);
const DAY = 86_400;
const NOW = Math.floor(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) / 1000);

let work: string;
let distDir: string;
let databaseUrl: string;
let pgDatabase: string | null = null;
let db: Db;
let port: number;
let server: Awaited<ReturnType<typeof startServer>>;
let educator: { id: string; slug: string };
let otherEducatorId: string;
let admin: { cookie: string };
let otherAdmin: { cookie: string };
let learner: { cookie: string };

beforeAll(async () => {
  mkdirSync(join(process.cwd(), '.tmp'), { recursive: true });
  work = mkdtempSync(join(process.cwd(), '.tmp', 'admin-publish-'));
  databaseUrl = join(work, 'site.sqlite');
  if (process.env.TEST_DATABASE_URL) {
    const created = await createThrowawayPgDatabase(process.env.TEST_DATABASE_URL, 'admpub');
    pgDatabase = created.name;
    databaseUrl = created.url;
  }
  db = openDb({ url: databaseUrl });
  await migrateToLatest(db);
  await loadCatalogue(db, { seed: 1, educators: 2, now: NOW });
  const educators = await db.selectFrom('educators').select(['id', 'slug']).orderBy('slug').execute();
  educator = educators[0]!;
  otherEducatorId = educators[1]!.id;

  port = await freePort();
  distDir = join(work, 'dist');
  const env = { ...process.env, DATABASE_URL: databaseUrl, ASTRO_OUT_DIR: distDir, PUBLIC_HOST: `localhost:${port}`, ASTRO_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' };
  await run(process.execPath, ['scripts/build-site.mjs'], { env, maxBuffer: 64 * 1024 * 1024 });
  process.env.DATABASE_URL = databaseUrl;
  process.env.PUBLIC_HOST = `localhost:${port}`;
  server = await startServer(loadConfig({
    ...env, PORT: String(port), BIND_HOST: '127.0.0.1', DIST_DIR: distDir, LOG_LEVEL: 'error', OUTBOX_DIR: join(work, 'outbox'),
    RATE_LIMIT_LOGIN_PER_IP: '100000',
  }));
  // This test runs the publisher's passes itself.
  await server.workers.get('publisher')!.stop();
  const asServer = { url: `http://127.0.0.1:${port}`, db } as unknown as TestServer;
  const a = await signUpAndLogin(asServer, { firstName: 'Ada', lastName: 'Admin' });
  await makeEducatorAdmin(db, a.user.id, educator.id);
  const o = await signUpAndLogin(asServer, { firstName: 'Olly', lastName: 'Other' });
  await makeEducatorAdmin(db, o.user.id, otherEducatorId);
  admin = a;
  otherAdmin = o;
  learner = await signUpAndLogin(asServer);
}, 600_000);

afterAll(async () => {
  await server?.close();
  await db?.destroy();
  if (pgDatabase && process.env.TEST_DATABASE_URL) {
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    await client.query(`drop database if exists ${pgDatabase} with (force)`);
    await client.end();
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Got { status: number; headers: Record<string, string | string[] | undefined>; body: string }

function http(method: string, path: string, options: { host?: string; cookie?: string | null; body?: Buffer | string; type?: string } = {}): Promise<Got> {
  const host = options.host ?? `localhost:${port}`;
  const headers: Record<string, string> = { host, accept: 'text/html,application/json,*/*' };
  if (options.cookie) headers.cookie = options.cookie;
  if (method !== 'GET') headers.origin = `http://${host}`;
  if (options.body !== undefined) headers['content-type'] = options.type ?? 'application/json';
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', fail);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

const adminHost = () => `admin.localhost:${port}`;
const api = (method: string, path: string, body?: unknown, cookie = admin.cookie) =>
  http(method, `/api/admin/educators/${educator.id}${path}`, { host: adminHost(), cookie, body: body === undefined ? undefined : JSON.stringify(body) });
const jsonLd = (html: string) => [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);

async function publishPass(): Promise<void> {
  const publisher = createPublisher({
    db, dialect: databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite', distDir, log: loggerFor({ LOG_LEVEL: 'silent' }),
    now: () => Math.floor(Date.now() / 1000), batchMs: 0,
  });
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      await publisher.run();
      const left = await db.selectFrom('page_changes').select('id').limit(1).executeTakeFirst();
      if (!left) return;
      if (Date.now() > deadline) throw new Error('the publisher did not empty the change feed');
    }
  } finally {
    await publisher.close();
  }
}

async function uploadImage(): Promise<string> {
  const photo = await sharp({ create: { width: 2400, height: 1350, channels: 3, background: '#b5651d' } }).jpeg().toBuffer();
  const boundary = '----admin-publish-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="kiln.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    photo, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await http('POST', `/api/admin/educators/${educator.id}/course-images`, { host: adminHost(), cookie: admin.cookie, body, type: `multipart/form-data; boundary=${boundary}` });
  expect(res.status, res.body).toBe(201);
  return JSON.parse(res.body).url;
}

describe('from the admin\u2019s editor to the public pages', { timeout: 180_000 }, () => {
  let courseId: string;
  const slug = 'evening-kiln-workshop';
  const name = 'Evening Kiln Workshop';
  const pages = () => ({
    marketplace: () => http('GET', `/${educator.slug}/${slug}`),
    minisite: () => http('GET', `/${slug}`, { host: `${educator.slug}.localhost:${port}` }),
    embed: () => http('GET', `/embed/${educator.slug}/${slug}`),
  });

  it('creates a draft with an image and two offers, nowhere on the public site', async () => {
    const image = await uploadImage();
    const res = await api('POST', '/courses', {
      name, slug, type: 'class', delivery_modes: ['in-person'], spaces: 8, level: 'Beginner', pricing_type: 'price-offers', course_duration: 180,
      description: '<p>Load, fire and unpack a kiln of your own pots.</p>', img_urls: [image],
      address: { line1: '1 Kiln Lane', city: 'Bristol', postcode: 'BS1 1AA' },
      offers: [{ name: 'Standard', price: 4500 }, { name: 'Pair', price: 8000, spaces: 2 }],
    });
    expect(res.status, res.body).toBe(201);
    courseId = JSON.parse(res.body).course.id;
    // A date, as the dates screen would add it.
    const start = NOW + 21 * DAY + 18 * 3600;
    await db.insertInto('occurrences').values({
      id: `occ_${courseId}`, course_id: courseId, visibility: 'public', start_datetime: start, end_datetime: start + 3 * 3600, timezone: 'Europe/London',
      delivery: 'in-person', address: { line1: '1 Kiln Lane', city: 'Bristol', postcode: 'BS1 1AA' }, spaces: null, available_spaces: null, parent_ref: null, individually_bookable: true,
    }).execute();
    await publishPass();
    for (const [context, read] of Object.entries(pages())) expect((await read()).status, context).toBe(404);
  });

  it('previews the draft in each context, for its educator\u2019s admins only, never indexed', async () => {
    const path = (context: string, educatorContext = educator.id) => `/courses/${courseId}/preview?educator-context=${educatorContext}&context=${context}`;
    for (const context of ['marketplace', 'minisite', 'embed']) {
      const res = await http('GET', path(context), { host: adminHost(), cookie: admin.cookie });
      expect(res.status, context).toBe(200);
      expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(res.headers['cache-control']).toContain('no-store');
      expect(res.body).toContain(`<h1 class="course-title">${name}</h1>`);
      expect(res.body).toContain('£45');
      // Structured data only where the publisher writes it (spec 2.13).
      expect(jsonLd(res.body).some((d) => d['@type'] === 'Course'), context).toBe(context === 'marketplace');
    }
    expect((await http('GET', path('marketplace'), { host: adminHost() })).status).toBe(302);
    expect((await http('GET', path('marketplace'), { host: adminHost(), cookie: learner.cookie })).status).toBe(403);
    // Another educator's admin: refused their way in, and the course is not theirs through their own context.
    expect((await http('GET', path('marketplace'), { host: adminHost(), cookie: otherAdmin.cookie })).status).toBe(403);
    expect((await http('GET', path('marketplace', otherEducatorId), { host: adminHost(), cookie: otherAdmin.cookie })).status).toBe(404);
    expect((await http('GET', path('elsewhere'), { host: adminHost(), cookie: admin.cookie })).status).toBe(400);
    // Not a page of the public site.
    expect((await http('GET', `/courses/${courseId}/preview?context=marketplace`)).status).toBe(404);
  });

  it('publishes it: the publisher writes its page in the three contexts, the marketplace\u2019s with Course structured data and its offers', async () => {
    const published = await api('POST', `/courses/${courseId}/publish`, { revision: 1 });
    expect(published.status, published.body).toBe(200);
    const status = JSON.parse((await api('GET', `/publish-status?courseId=${courseId}`)).body);
    expect(status.live).toBe(false);
    await publishPass();
    const live = JSON.parse((await api('GET', `/publish-status?courseId=${courseId}`)).body);
    expect(live).toMatchObject({ live: true, pages: { marketplace: `http://localhost:${port}/${educator.slug}/${slug}` } });

    const read = pages();
    const marketplace = await read.marketplace();
    expect(marketplace.status).toBe(200);
    expect(marketplace.body).toContain(`<h1 class="course-title">${name}</h1>`);
    const data = jsonLd(marketplace.body).filter((d) => d['@type'] === 'Course');
    expect(data).toHaveLength(1);
    const course = data[0]!;
    expect(courseRichResultProblems(course)).toEqual([]);
    expect(course).toMatchObject({ name, description: 'Load, fire and unpack a kiln of your own pots.' });
    expect((course.image as string[])[0]).toMatch(new RegExp(`^http://localhost:${port}/api/course-images/img_[A-Za-z0-9_-]+\\.webp$`));
    const offers = ([] as Array<Record<string, unknown>>).concat(course.offers as Record<string, unknown>);
    expect(offers.length).toBeGreaterThan(0);
    expect(offers.every((o) => o.priceCurrency === 'GBP' && o.category === 'Paid')).toBe(true);
    expect(offers.map((o) => String(o.price ?? o.lowPrice))).toContain('45.00');
    // The image it names is served.
    const imagePath = new URL((course.image as string[])[0]!).pathname;
    const img = await http('GET', imagePath);
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/webp');

    for (const context of ['minisite', 'embed'] as const) {
      const page = await read[context]();
      expect(page.status, context).toBe(200);
      expect(page.body).toContain(`<h1 class="course-title">${name}</h1>`);
      expect(jsonLd(page.body).some((d) => d['@type'] === 'Course'), context).toBe(false);
    }
  });

  it('unpublishing takes the pages down in the three contexts', async () => {
    const res = await api('POST', `/courses/${courseId}/unpublish`, { revision: 2 });
    expect(res.status, res.body).toBe(200);
    await publishPass();
    for (const [context, read] of Object.entries(pages())) expect((await read()).status, context).toBe(404);
  });
});
