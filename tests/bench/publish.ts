/**
 * npm run bench:publish — how long a committed write takes to reach the served page without a rebuild.
 *
 *   npm run bench:publish                      1,300 educators (about 54,000 pages), 20 changes
 *   npm run bench:publish -- --educators 200   a smaller catalogue
 *   --keep                                     keep the database and the built site (.tmp/bench-publish-…)
 *   --db <sqlite> --dist <dist> --port <n>     a catalogue and its full build kept by `npm run bench:build -- --keep`
 *                                              (built with PUBLIC_HOST=localhost:<n>): used in place, changed by the run
 *   --admin-saves <n>                          then n educator profile saves and n course saves through the admin
 *                                              API (default 10 each; 0: none)
 *   --skip-writes                              leave out the 20 direct writes (only the admin saves)
 *   --batch-ms <ms>                            the publisher's batching window (PUBLISH_BATCH_MS; default 2000)
 *
 * Seeds the demo catalogue into a fresh SQLite file (DATABASE_URL=postgres://… for PostgreSQL: that database
 * is reset), builds the whole site as `npm run build` does (scripts/build-site.mjs: every page on disk, so an
 * unpublished course's pages exist before the change), starts the server (tsx api/server.ts, publisher inside)
 * as its own process, then makes 20 changes one after another — 5 reviews, 5 prices, 5 new courses, 5
 * unpublished courses, each on another educator — writing straight to the tables as the admin app would. For
 * each: the time from the write's commit to the marketplace course page being served fresh (polled every 50 ms),
 * and the pages the publisher re-rendered and wrote for it (from its log).
 *
 * Then the admin's saves, as an educator's admin makes them (PATCH /api/admin/educators/{id}/profile, and the course
 * editor's PUT /api/admin/educators/{id}/courses/{courseId} when the server has it — otherwise the same transaction
 * that API makes: claim the revision, write, record the audit entry): each renames an educator or a course on yet
 * another educator, and the time is from sending the save to every affected page served fresh — every page of the
 * educator in the three contexts, its categories' listing pages and home, each one that showed the old name before
 * (polled every 50 ms) — with p50 and p95; and beside it the time until the save's publish had written everything
 * (the feed empty), which includes other educators' course pages when the save changed a category's carousel.
 * Figures only, no assertions.
 */
import { spawn, execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { openDb, type Db } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { loadCatalogue, resetCatalogue } from '../../db/seed/load.ts';
import { todayAnchor } from '../../db/seed/generate.ts';
import { rebuildReviewAggregates } from '../../db/queries/review-aggregates.ts';
import { freePort } from '../helpers/ports.ts';
import { educatorPages } from '../../src/domain/publish-pages.ts';

const { values } = parseArgs({
  options: {
    educators: { type: 'string', default: '1300' },
    keep: { type: 'boolean', default: false },
    /** Reuse a seeded SQLite database instead of seeding one. */
    db: { type: 'string' },
    /** Reuse a full build of the same database, in place (the publishes change it). */
    dist: { type: 'string' },
    /** The port to serve on: the one in the PUBLIC_HOST the reused build was made with. */
    port: { type: 'string' },
    'admin-saves': { type: 'string', default: '10' },
    'skip-writes': { type: 'boolean', default: false },
    'batch-ms': { type: 'string' },
    /** Profile the server (node --cpu-prof) and print where its CPU time went. */
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const ADMIN_SAVES = Number(values['admin-saves']);
const EDUCATORS = Number(values.educators);
const run = promisify(execFile);

function countPages(dir: string): number {
  let n = 0;
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (entry !== '_astro' && entry !== 'images') n += countPages(path);
    } else if (entry.endsWith('.html')) n++;
  }
  return n;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

mkdirSync('.tmp', { recursive: true });
const work = mkdtempSync(join(process.cwd(), '.tmp', 'bench-publish-'));
const databaseUrl = values.db ?? (process.env.DATABASE_URL || join(work, 'bench.sqlite'));
const db: Db = openDb({ url: databaseUrl });
await migrateToLatest(db);
const now = todayAnchor();
let t = performance.now();
if (!values.db) {
  await resetCatalogue(db);
  await loadCatalogue(db, { seed: 1, educators: EDUCATORS, now });
  console.log(`seeded ${EDUCATORS} educators in ${((performance.now() - t) / 1000).toFixed(0)} s`);
}
await db.deleteFrom('page_changes').execute();
// The catalogue's pages, as the full build would write them (src/domain/publish-pages.ts) plus home, categories, 404.
const catalogueRows = await db.selectFrom('educators').leftJoin('courses', (j) => j.onRef('courses.educator_id', '=', 'educators.id').on('courses.published', '=', true))
  .select(['educators.id', 'educators.slug', 'educators.can_be_contacted', 'courses.slug as courseSlug']).execute();
const catalogueEducators = new Map<string, { slug: string; canBeContacted: boolean; courseSlugs: string[] }>();
for (const r of catalogueRows) {
  const e = catalogueEducators.get(r.id) ?? { slug: r.slug, canBeContacted: r.can_be_contacted !== false, courseSlugs: [] };
  if (r.courseSlug) e.courseSlugs.push(r.courseSlug);
  catalogueEducators.set(r.id, e);
}
const categoryCount = (await db.selectFrom('categories').select('id').execute()).length;
const cataloguePages = [...catalogueEducators.values()].reduce((n, e) => n + educatorPages(e).filter((p) => p.file.endsWith('.html')).length, 0) + categoryCount + 3;
console.log(`catalogue: ${catalogueEducators.size} educators, ${cataloguePages} HTML pages`);

const port = values.port ? Number(values.port) : await freePort();
const distDir = values.dist ?? join(work, 'dist');
const env = {
  ...process.env, DATABASE_URL: databaseUrl, ASTRO_OUT_DIR: distDir, PUBLIC_HOST: `localhost:${port}`,
  ASTRO_TELEMETRY_DISABLED: '1', NODE_ENV: 'production',
};
t = performance.now();
if (!values.dist) await run(process.execPath, ['scripts/build-site.mjs'], { env, maxBuffer: 256 * 1024 * 1024 });
const buildSeconds = (performance.now() - t) / 1000;
const pages = countPages(join(distDir, 'client'));
console.log(values.dist ? `full build reused from ${values.dist} (${pages} pages in it)` : `built ${pages} pages in ${buildSeconds.toFixed(0)} s`);

// The server, publisher inside, as its own process; its log lines say what each publish did.
const profileDir = join(work, 'cpu-prof');
const server = spawn(process.execPath, [...(values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []), '--import', 'tsx', 'api/server.ts'], {
  env: {
    ...env, PORT: String(port), BIND_HOST: '127.0.0.1', DIST_DIR: distDir, LOG_LEVEL: 'info', OUTBOX_DIR: join(work, 'outbox'),
    ...(values['batch-ms'] ? { PUBLISH_BATCH_MS: values['batch-ms'] } : {}),
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
// However the run ends, the server goes with it.
process.on('exit', () => server.kill('SIGTERM'));
const published: { rows: number; rendered: number; written: number; removed: number; ms: number }[] = [];
let buffer = '';
server.stdout!.setEncoding('utf8');
// BENCH_SERVER_LOG=<file>: the server's log lines kept there too (what a stale page's publish said).
const serverLog = process.env.BENCH_SERVER_LOG;
server.stdout!.on('data', (chunk: string) => {
  if (serverLog) appendFileSync(serverLog, chunk);
  buffer += chunk;
  let nl: number;
  while ((nl = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    try {
      const entry = JSON.parse(line);
      if (entry.msg === 'published') published.push(entry);
    } catch {
      /* not a log line */
    }
  }
});
const deadline = Date.now() + 120_000;
for (;;) {
  try {
    if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) break;
  } catch {
    /* not up yet */
  }
  if (Date.now() > deadline) throw new Error('server did not start');
  await new Promise((ok) => setTimeout(ok, 200));
}

async function page(path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { host: `localhost:${port}` } });
  return { status: res.status, body: await res.text() };
}

// 20 changes on 20 different educators with at least 3 published courses, spread over the catalogue.
const candidates = await db.selectFrom('educators as e').innerJoin('courses as c', 'c.educator_id', 'e.id')
  .select(['e.id', 'e.slug', (eb) => eb.fn.count<number>('c.id').as('n')])
  .where('c.published', '=', true).groupBy(['e.id', 'e.slug']).having((eb) => eb.fn.count('c.id'), '>=', 3)
  .orderBy('e.slug').execute();
const step = Math.max(1, Math.floor(candidates.length / 20));
const chosen = Array.from({ length: 20 }, (_, i) => candidates[(i * step) % candidates.length]!);

type Kind = 'review' | 'price' | 'new course' | 'unpublish';
const kinds: Kind[] = ['review', 'price', 'new course', 'unpublish'];
const results: { kind: Kind; educator: string; seconds: number; rendered: number; written: number; removed: number }[] = [];

console.log(`load at the start: ${await uptime()}`);
for (let i = 0; i < (values['skip-writes'] ? 0 : 20); i++) {
  const kind = kinds[Math.floor(i / 5)]!;
  const educator = chosen[i]!;
  const course = await db.selectFrom('courses').selectAll().where('educator_id', '=', educator.id).where('published', '=', true)
    .orderBy('created_at').orderBy('id').executeTakeFirstOrThrow();
  const path = `/${educator.slug}/${course.slug}`;
  const before = published.length;
  let fresh: () => Promise<boolean>;
  let target = path;
  if (kind === 'review') {
    const message = `Bench review ${i} ${Date.now()}`;
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('reviews').values({
        id: `rev_bench_${i}_${Date.now()}`, educator_id: educator.id, course_id: course.id, entity: 'course', rating: 5, breakdown: null,
        verified: false, source_key: 'marketplace', source_label: 'Marketplace', external_url: null, reviewer_id: null,
        reviewer_name: 'Bench Learner', public_message: message, response_message: null, response_created_at: null,
        created_at: Math.floor(Date.now() / 1000), archived_at: null,
      }).execute();
      await rebuildReviewAggregates(trx, { educatorId: educator.id });
    });
    fresh = async () => (await page(path)).body.includes(message);
  } else if (kind === 'price') {
    const pence = 1000 + i * 111;
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('offers').set({ price: pence }).where('course_id', '=', course.id).execute();
      await trx.updateTable('courses').set({ pricing_type: 'price-offers', minimum_price: null, maximum_price: null }).where('id', '=', course.id).execute();
    });
    const text = `£${(pence / 100).toFixed(2)}`;
    fresh = async () => (await page(path)).body.includes(text);
  } else if (kind === 'new course') {
    const id = `crs_bench_${i}_${Date.now()}`;
    const slug = `bench-course-${i}`;
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('courses').values({ ...course, id, slug, name: `Bench course ${i}`, created_at: Math.floor(Date.now() / 1000) }).execute();
      await trx.insertInto('offers').values({
        id: `ofr_bench_${i}`, course_id: id, occurrence_id: null, position: 0, name: 'Standard', description: null, price: 2500,
        spaces: 1, start_at: null, end_at: null,
      }).execute();
    });
    target = `/${educator.slug}/${slug}`;
    fresh = async () => (await page(target)).status === 200;
  } else {
    await db.updateTable('courses').set({ published: false }).where('id', '=', course.id).execute();
    fresh = async () => (await page(path)).status === 404;
  }
  const committed = performance.now();
  while (!(await fresh())) {
    if (performance.now() - committed > 300_000) throw new Error(`${kind} on ${target} not served within 300 s`);
    await new Promise((ok) => setTimeout(ok, 50));
  }
  const seconds = (performance.now() - committed) / 1000;
  // The publish that served it has logged by now or in a moment; wait until the feed is empty and the log is in.
  for (;;) {
    const left = await db.selectFrom('page_changes').select('id').limit(1).executeTakeFirst();
    if (!left && published.length > before) break;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  await new Promise((ok) => setTimeout(ok, 200));
  const mine = published.slice(before);
  const sum = (k: 'rendered' | 'written' | 'removed') => mine.reduce((a, p) => a + Number(p[k]), 0);
  results.push({ kind, educator: educator.slug, seconds, rendered: sum('rendered'), written: sum('written'), removed: sum('removed') });
  console.log(`${String(i + 1).padStart(2)} ${kind.padEnd(10)} ${target.padEnd(60)} ${seconds.toFixed(1).padStart(5)} s  rendered ${sum('rendered')}  written ${sum('written')}  removed ${sum('removed')}`);
}

const adminResults = ADMIN_SAVES > 0 ? await adminSaves() : [];
console.log(`load at the end: ${await uptime()}`);

server.kill('SIGTERM');
// (A profile is written as it exits.)
await Promise.race([new Promise((ok) => server.once('exit', ok)), new Promise((ok) => setTimeout(ok, 15_000))]);
await db.destroy();
if (results.length) summary();
if (adminResults.length) adminSummary();
if (values['cpu-prof']) profileSummary();
if (!values.keep) rmSync(work, { recursive: true, force: true });
else console.log(`kept ${work}`);

async function uptime(): Promise<string> {
  try {
    return (await run('uptime')).stdout.trim();
  } catch {
    return 'uptime not available';
  }
}

// ---------------------------------------------------------------------------------------------
// The admin's saves: through the admin API, timed from the save to every affected page served fresh.

interface AdminResult {
  kind: 'profile' | 'course'; educator: string; via: 'api' | 'direct'; seconds: number;
  /** Until the save's publish had written everything (the feed empty): other educators' pages of a changed carousel too. */
  allSeconds: number; requestMs: number; pages: number; rendered: number;
  written: number; publishMs: number; cpu: number | null; stale: string[];
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Whether a page shows the name as a whole text (`>Name<`), not inside another name ('Intensive Portrait Painting'). */
function shows(body: string, name: string): boolean {
  const escaped = escapeHtml(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`>\\s*${escaped}\\s*<`).test(body);
}

/** A page of the built site as a request: the marketplace and embed on the main host, a minisite on its own. */
function requestOf(file: string): { host: string; path: string } {
  const path = `/${file.replace(/index\.html$/, '')}`;
  const minisite = /^\/minisite\/([^/]+)(\/.*)$/.exec(path);
  return minisite ? { host: `${minisite[1]}.localhost:${port}`, path: minisite[2]! } : { host: `localhost:${port}`, path };
}

/** A request with its own Host header (fetch sends the URL's host whatever it is given). */
function hostRequest(method: string, host: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((ok, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: { host, ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

async function fetchPage(target: { host: string; path: string }): Promise<string> {
  return (await hostRequest('GET', target.host, target.path)).text;
}

/**
 * The pages of an educator (three contexts), its categories' listing pages and home that show `text` now — and, for a
 * course, that hold the course (another educator's course may have the same name in a carousel).
 */
async function pagesShowing(educatorId: string, text: string, courseId?: string): Promise<{ host: string; path: string }[]> {
  const educator = await db.selectFrom('educators').select(['slug', 'can_be_contacted']).where('id', '=', educatorId).executeTakeFirstOrThrow();
  const courses = await db.selectFrom('courses').select(['slug', 'category_id']).where('educator_id', '=', educatorId).where('published', '=', true).execute();
  const categoryIds = [...new Set(courses.map((c) => c.category_id).filter((c): c is string => !!c))];
  const categories = categoryIds.length ? await db.selectFrom('categories').select('slug').where('id', 'in', categoryIds).execute() : [];
  const own = educatorPages({ slug: educator.slug, canBeContacted: educator.can_be_contacted !== false, courseSlugs: courses.map((c) => c.slug) })
    .filter((p) => p.file.endsWith('.html')).map((p) => requestOf(p.file));
  const shared = [...categories.map((c) => ({ host: `localhost:${port}`, path: `/courses/${c.slug}/` })), { host: `localhost:${port}`, path: '/' }];
  const targets = [...own, ...shared];
  const bodies = await Promise.all(targets.map(fetchPage));
  // A listing or home shows the text for this educator only when it holds one of its course cards: another
  // educator of the same name (the catalogue has several "Granite Emergency Skills") would keep the old text there.
  const holdsOwnCard = (i: number) => i < own.length || bodies[i]!.includes(`/${educator.slug}/`);
  return targets.filter((_, i) => shows(bodies[i]!, text) && holdsOwnCard(i) && (!courseId || bodies[i]!.includes(courseId)));
}

async function adminSaves(): Promise<AdminResult[]> {
  const adminHost = `admin.localhost:${port}`;
  const { createUser } = await import('../../api/auth/users.ts');
  const { hashPassword } = await import('../../api/auth/crypto.ts');
  const { claimRevision, recordChange } = await import('../../api/admin/audit.ts');
  const password = 'bench admin password';
  const email = `bench-admin-${Date.now()}@example.com`;
  const { user } = await createUser(db, { email, firstName: 'Bench', lastName: 'Admin', passwordHash: await hashPassword(password), emailConfirmed: true }, Math.floor(Date.now() / 1000));
  // Educators not touched above: the same spread, shifted by half a step.
  const picked = Array.from({ length: 2 * ADMIN_SAVES }, (_, i) => candidates[(i * step + Math.max(1, Math.floor(step / 2))) % candidates.length]!);
  for (const e of picked) {
    await db.insertInto('educator_admins').values({ user_id: user.id, educator_id: e.id, created_at: Math.floor(Date.now() / 1000) })
      .onConflict((oc) => oc.columns(['user_id', 'educator_id']).doNothing()).execute();
  }
  const login = await hostRequest('POST', adminHost, '/api/auth/login', { origin: `http://${adminHost}`, 'content-type': 'application/json' }, JSON.stringify({ email, password }));
  if (login.status !== 200) throw new Error(`admin login failed: ${login.status} ${login.text}`);
  const setCookie = login.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []).map((c) => c.split(';')[0]).join('; ');
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await hostRequest(method, adminHost, `/api/admin${path}`, { origin: `http://${adminHost}`, cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body === undefined ? undefined : JSON.stringify(body));
    return { ok: res.status >= 200 && res.status < 300, status: res.status, text: async () => res.text, json: async () => JSON.parse(res.text) as unknown };
  };

  const out: AdminResult[] = [];
  /** How long a save's pages are polled before those still stale are reported as never refreshed. */
  const STALE_AFTER_MS = 180_000;
  console.log('');
  console.log('admin saves (save sent → every affected page fresh):');
  for (let i = 0; i < 2 * ADMIN_SAVES; i++) {
    const kind: AdminResult['kind'] = i < ADMIN_SAVES ? 'profile' : 'course';
    const educator = picked[i]!;
    const stamp = `${i} ${Date.now().toString(36)}`;
    // Let the previous save's publish finish first.
    while (await db.selectFrom('page_changes').select('id').limit(1).executeTakeFirst()) await new Promise((ok) => setTimeout(ok, 100));
    const before = published.length;
    let targets: { host: string; path: string }[];
    let fresh: string;
    let via: AdminResult['via'] = 'api';
    let started: number;
    let requestMs: number;
    if (kind === 'profile') {
      const opened = await (await api('GET', `/educators/${educator.id}/profile`)).json() as { profile: { name: string; revision: number } };
      fresh = `Bench Educator ${stamp}`;
      targets = await pagesShowing(educator.id, opened.profile.name);
      started = performance.now();
      const res = await api('PATCH', `/educators/${educator.id}/profile`, { revision: opened.profile.revision, name: fresh });
      requestMs = performance.now() - started;
      if (!res.ok) throw new Error(`profile save refused: ${res.status} ${await res.text()}`);
    } else {
      const course = await db.selectFrom('courses').selectAll().where('educator_id', '=', educator.id).where('published', '=', true)
        .orderBy('created_at').orderBy('id').executeTakeFirstOrThrow();
      fresh = `Bench Course ${stamp}`;
      targets = await pagesShowing(educator.id, course.name, course.id);
      const opened = await api('GET', `/educators/${educator.id}/courses/${course.id}`);
      started = performance.now();
      let saved = false;
      if (opened.ok) {
        const data = await opened.json() as { course: Record<string, unknown> & { revision: number } };
        const res = await api('PUT', `/educators/${educator.id}/courses/${course.id}`, { ...data.course, name: fresh, revision: data.course.revision });
        saved = res.ok;
        if (!saved && i === ADMIN_SAVES) console.log(`  (the course editor's API refused the bench's save: ${res.status}; saving as it does instead)`);
      }
      if (!saved) {
        via = 'direct';
        started = performance.now();
        await db.transaction().execute(async (trx) => {
          const revision = await claimRevision(trx, { table: 'courses', id: course.id, expected: Number(course.revision), educatorId: educator.id, entity: 'course' });
          await trx.updateTable('courses').set({ name: fresh }).where('id', '=', course.id).execute();
          await recordChange(trx, { educatorId: educator.id, userId: user.id, entity: 'course', entityId: course.id, action: 'update', revision, changes: { name: [course.name, fresh] }, at: Math.floor(Date.now() / 1000) });
        });
      }
      requestMs = performance.now() - started;
    }
    const cpuBefore = serverCpuSeconds();
    let waiting = [...targets];
    let lastFresh = started;
    // A page still stale after STALE_AFTER_MS is reported as never refreshed (the time is the last page that was).
    while (waiting.length && performance.now() - started < STALE_AFTER_MS) {
      const bodies = await Promise.all(waiting.map(fetchPage));
      const left = waiting.filter((_, k) => !shows(bodies[k]!, fresh));
      if (left.length < waiting.length) lastFresh = performance.now();
      waiting = left;
      if (waiting.length) await new Promise((ok) => setTimeout(ok, 50));
    }
    const seconds = (lastFresh - started) / 1000;
    const stale = waiting.map((w) => `${w.host}${w.path}`);
    const cpuAfter = serverCpuSeconds();
    const cpu = cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null;
    for (;;) {
      const left = await db.selectFrom('page_changes').select('id').limit(1).executeTakeFirst();
      if (!left && published.length > before) break;
      await new Promise((ok) => setTimeout(ok, 100));
    }
    const allSeconds = (performance.now() - started) / 1000;
    await new Promise((ok) => setTimeout(ok, 200));
    const mine = published.slice(before);
    const sum = (k: 'rendered' | 'written' | 'ms') => mine.reduce((a, p) => a + Number(p[k]), 0);
    out.push({ kind, educator: educator.slug, via, seconds, allSeconds, requestMs, pages: targets.length, rendered: sum('rendered'), written: sum('written'), publishMs: sum('ms'), cpu, stale });
    console.log(`${String(i + 1).padStart(2)} ${kind.padEnd(8)} ${via.padEnd(6)} ${educator.slug.padEnd(48)} ${seconds.toFixed(1).padStart(5)} s (all written ${allSeconds.toFixed(1)} s)  save ${requestMs.toFixed(0).padStart(4)} ms  pages ${String(targets.length).padStart(3)}  publish ${sum('ms')} ms (rendered ${sum('rendered')}, written ${sum('written')})  server CPU ${cpu === null ? '?' : `${cpu.toFixed(1)} s`}${stale.length ? `  NEVER FRESH (${STALE_AFTER_MS / 1000} s): ${stale.join(', ')}` : ''}`);
  }
  return out;
}

/** The server's CPU time in seconds (user + system), from /proc (Linux); null elsewhere. */
function serverCpuSeconds(): number | null {
  try {
    const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Where the server's CPU went (node --cpu-prof): self time by part of the code, and the heaviest functions. */
function profileSummary(): void {
  const files = existsSync(profileDir) ? readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile')) : [];
  if (!files.length) return console.log('no CPU profile written');
  const profile = JSON.parse(readFileSync(join(profileDir, files[0]!), 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples: number[]; timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const part = (url: string, name: string): string => {
    if (name === '(idle)') return 'idle (waiting: I/O, timers, the batching window)';
    if (name === '(garbage collector)') return 'garbage collection';
    if (name === '(program)') return 'V8 and native code outside JavaScript (zlib, SQLite, fs)';
    if (/node_modules\/(react|react-dom)\//.test(url)) return 'React (rendering islands to HTML)';
    if (/node_modules\/astro\//.test(url) || /dist\/server\//.test(url) || /\.astro/.test(url)) return 'Astro and the built pages (rendering)';
    if (/node_modules\/(kysely|better-sqlite3|pg)\//.test(url) || /db\//.test(url)) return 'database (kysely, driver, queries)';
    if (/api\/publish|api\/static/.test(url)) return 'publisher (page list, writes)';
    if (/node:zlib|zlib/.test(url)) return 'compression (zlib)';
    if (/api\/log\.ts|api\/http\/request-log/.test(url) || name === 'writev' || name === 'writeUtf8String') return 'logging (a line per request)';
    if (/api\/(http|auth|routes|admin|app\.ts)|node_modules\/(hono|@hono)\//.test(url)) return 'HTTP serving (the API, the static files the bench polls)';
    if (/^node:/.test(url)) return 'Node built-ins';
    if (/node_modules\/(tsx|esbuild)/.test(url)) return 'tsx loader';
    return 'other';
  };
  const parts = new Map<string, number>();
  const fns = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    const p = part(n.callFrame.url, n.callFrame.functionName);
    parts.set(p, (parts.get(p) ?? 0) + us);
    total += us;
    if (!p.startsWith('idle')) {
      const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*node_modules\//, '').replace(process.cwd(), '')}:${n.callFrame.lineNumber + 1}`;
      fns.set(key, (fns.get(key) ?? 0) + us);
    }
  }
  console.log('');
  console.log(`server CPU profile (${files[0]}), ${(total / 1e6).toFixed(1)} s sampled:`);
  for (const [p, us] of [...parts].sort((a, b) => b[1] - a[1])) console.log(`  ${(us / 1e6).toFixed(1).padStart(6)} s  ${((100 * us) / total).toFixed(0).padStart(3)} %  ${p}`);
  const others = new Map<string, number>();
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    if (part(n.callFrame.url, n.callFrame.functionName) === 'other') others.set(n.callFrame.url || n.callFrame.functionName, (others.get(n.callFrame.url || n.callFrame.functionName) ?? 0) + us);
  }
  console.log(`"other" mostly: ${[...others].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([u, us]) => `${u.replace(/^.*node_modules\//, '').replace(`file://${process.cwd()}/`, '')} ${(us / 1e6).toFixed(2)} s`).join('; ')}`);
  console.log('heaviest functions (self time):');
  for (const [f, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${(us / 1e6).toFixed(2).padStart(6)} s  ${f}`);
}

function adminSummary(): void {
  console.log('');
  console.log(`admin saves: PUBLISH_BATCH_MS=${values['batch-ms'] ?? '2000 (default)'}`);
  console.log('| save | via | n | p50 s | p95 s | max s | all written p50 / p95 / max s | save request p50 ms | pages checked (min–max) | publish ms p50 (render + write) | server CPU s p50 | pages never fresh |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const kind of ['profile', 'course', 'all'] as const) {
    const mine = adminResults.filter((r) => kind === 'all' || r.kind === kind);
    if (!mine.length) continue;
    const s = mine.map((r) => r.seconds).sort((a, b) => a - b);
    const all = mine.map((r) => r.allSeconds).sort((a, b) => a - b);
    const req = mine.map((r) => r.requestMs).sort((a, b) => a - b);
    const pub = mine.map((r) => r.publishMs).sort((a, b) => a - b);
    const via = [...new Set(mine.map((r) => r.via))].join(', ');
    const cpu = mine.map((r) => r.cpu).filter((c): c is number => c !== null).sort((a, b) => a - b);
    console.log(`| ${kind} | ${via} | ${mine.length} | ${percentile(s, 50).toFixed(1)} | ${percentile(s, 95).toFixed(1)} | ${s[s.length - 1]!.toFixed(1)} | ${percentile(all, 50).toFixed(1)} / ${percentile(all, 95).toFixed(1)} / ${all[all.length - 1]!.toFixed(1)} | ${percentile(req, 50).toFixed(0)} | ${Math.min(...mine.map((r) => r.pages))}–${Math.max(...mine.map((r) => r.pages))} | ${percentile(pub, 50)} | ${cpu.length ? percentile(cpu, 50).toFixed(1) : '?'} | ${mine.reduce((n, r) => n + r.stale.length, 0)} |`);
  }
}

function summary(): void {
const secs = results.map((r) => r.seconds).sort((a, b) => a - b);
const rendered = results.map((r) => r.rendered).sort((a, b) => a - b);
console.log('');
console.log(`catalogue: ${catalogueEducators.size} educators, ${cataloguePages} pages; ${values.dist ? `full build reused from ${values.dist}` : `full build ${buildSeconds.toFixed(0)} s, ${pages} pages`}; ${databaseUrl.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'}`);
console.log('| change | n | p50 s | max s | pages rendered per change (min–max) | files written (min–max) |');
console.log('|---|---|---|---|---|---|');
for (const kind of kinds) {
  const mine = results.filter((r) => r.kind === kind);
  const s = mine.map((r) => r.seconds).sort((a, b) => a - b);
  const rr = mine.map((r) => r.rendered);
  const ww = mine.map((r) => r.written);
  console.log(`| ${kind} | ${mine.length} | ${percentile(s, 50).toFixed(1)} | ${s[s.length - 1]!.toFixed(1)} | ${Math.min(...rr)}–${Math.max(...rr)} | ${Math.min(...ww)}–${Math.max(...ww)} |`);
}
console.log(`| all | ${results.length} | ${percentile(secs, 50).toFixed(1)} | ${secs[secs.length - 1]!.toFixed(1)} | ${rendered[0]}–${rendered[rendered.length - 1]} (p50 ${percentile(rendered, 50)}) | |`);
}
