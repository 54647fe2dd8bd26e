/**
 * npm run bench:publish — how long a committed write takes to reach the served page without a rebuild.
 *
 *   npm run bench:publish                      1,300 educators (about 54,000 pages), 20 changes
 *   npm run bench:publish -- --educators 200   a smaller catalogue
 *   --keep                                     keep the database and the built site (.tmp/bench-publish-…)
 *   --db <sqlite> --dist <dist> --port <n>     a catalogue and its full build kept by `npm run bench:build -- --keep`
 *                                              (built with PUBLIC_HOST=localhost:<n>): used in place, changed by the run
 *
 * Seeds the demo catalogue into a fresh SQLite file (DATABASE_URL=postgres://… for PostgreSQL: that database
 * is reset), builds the whole site as `npm run build` does (scripts/build-site.mjs: every page on disk, so an
 * unpublished course's pages exist before the change), starts the server (tsx api/server.ts, publisher inside)
 * as its own process, then makes 20 changes one after another — 5 reviews, 5 prices, 5 new courses, 5
 * unpublished courses, each on another educator — writing straight to the tables as the admin app would. For
 * each: the time from the write's commit to the marketplace course page being served fresh (polled every 50 ms),
 * and the pages the publisher re-rendered and wrote for it (from its log). Figures only, no assertions.
 */
import { spawn, execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
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
  },
});
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
const server = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
  env: { ...env, PORT: String(port), BIND_HOST: '127.0.0.1', DIST_DIR: distDir, LOG_LEVEL: 'info', OUTBOX_DIR: join(work, 'outbox') },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const published: { rows: number; rendered: number; written: number; removed: number; ms: number }[] = [];
let buffer = '';
server.stdout!.setEncoding('utf8');
server.stdout!.on('data', (chunk: string) => {
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

for (let i = 0; i < 20; i++) {
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

server.kill('SIGTERM');
await db.destroy();
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
if (!values.keep) rmSync(work, { recursive: true, force: true });
else console.log(`kept ${work}`);
