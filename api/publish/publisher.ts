/**
 * The publisher: keeps the pre-rendered site fresh without a full build (DESIGN 10). One pass:
 *
 * 1. claim the change feed's rows (db/migrations/0030_page_changes.ts) under a lease — on PostgreSQL with
 *    FOR UPDATE SKIP LOCKED — leaving out educators another publisher holds, so two processes never render
 *    one educator at once (the later one could otherwise overwrite fresher pages with older ones);
 * 2. wait a moment first if the newest rows are very recent, so one edit's many writes become one batch;
 * 3. render every page of the affected educators in all three contexts with the build's own views
 *    (api/publish/educator.ts, the full build's own rendering), their minisite sitemaps and robots.txt, the home
 *    page, the affected categories' listing pages, the course pages of a category whose carousel changed, and the
 *    marketplace sitemap index with the children that list those educators (never the whole catalogue's);
 * 4. write each changed file beside its final name and rename it over (api/static/files.ts), and remove the
 *    files that no longer belong (an unpublished course, a removed educator, an old slug): those answer 404;
 * 5. delete the rows only then. A failed render keeps the old page; its rows are released to be retried after
 *    a back-off. A crash leaves the rows claimed until the lease runs out, then any publisher takes them again.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/client.ts';
import {
  CATEGORY_CAROUSEL_SOURCE, carouselDigest, loadCategoryPageModel, loadEducatorCatalogue, loadHomeModel, recordCarousel, topCards,
  type EducatorModel, type PublicCatalogue,
} from '../../db/queries/pages.ts';
import { marketplaceSitemapUpdate } from '../../db/queries/sitemaps.ts';
import { removeSiteFile, writeSiteFile, type CompressOptions } from '../static/files.ts';
import type { BackgroundJob } from '../background.ts';
import type { Logger } from '../log.ts';
import { createRenderer, type Renderer, type TwinRoute } from './render.ts';
import { safeEducatorFolders, siteFilePath, UnsafeSitePathError } from './safe-paths.ts';
import { pagesOf, renderEducatorPage } from './educator.ts';

export interface PublisherOptions {
  db: Db;
  dialect: Dialect;
  /** The built site (DIST_DIR): dist/server/entry.mjs renders, dist/client is written. */
  distDir: string;
  log: Logger;
  /** Epoch seconds. */
  now(): number;
  /** The moment pages are rendered for; PAGES_NOW pins it in tests (src/lib/paths.ts pagesNow). */
  pagesNow?(): number;
  /** Rows younger than this wait for their siblings before a pass claims them (ms). */
  batchMs?: number;
  leaseSeconds?: number;
  /** Rows claimed per pass. */
  maxRows?: number;
  /** Educators loaded and rendered together. */
  educatorsPerChunk?: number;
  /** Called between steps; tests use it to stop a publish in the middle. */
  onStep?(step: string): Promise<void> | void;
}

export interface PublishReport {
  rows: number;
  educators: number;
  /** Pages and files rendered (HTML, JSON, XML, text). */
  rendered: number;
  /** Files whose bytes changed and were swapped in. */
  written: number;
  removed: number;
  failed: number;
}

interface ClaimedRow {
  id: number;
  educator_id: string | null;
  educator_slug: string | null;
  course_id: string | null;
  category_id: string | null;
}

const MAX_BACKOFF_SECONDS = 300;
/** Brotli quality of the marketplace's child sitemaps. */
const SITEMAP_BROTLI_QUALITY = 5;
/** The advisory lock key that serialises claims on PostgreSQL. */
const PUBLISH_CLAIM_LOCK = 7_305_011;

export function createPublisher(options: PublisherOptions) {
  const { db, dialect, log } = options;
  const clientDir = resolve(options.distDir, 'client');
  const owner = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const batchMs = options.batchMs ?? 2000;
  const leaseSeconds = options.leaseSeconds ?? 30;
  const maxRows = options.maxRows ?? 5000;
  const perChunk = options.educatorsPerChunk ?? 16;
  let renderer: Renderer | null = null;
  let lastReport: PublishReport | null = null;
  let warnedNoBuild = false;

  async function getRenderer(): Promise<Renderer> {
    renderer ??= await createRenderer(options.distDir);
    return renderer;
  }

  /** The free rows, oldest first, leaving out educators another publisher holds. */
  async function claim(): Promise<ClaimedRow[]> {
    const now = options.now();
    const until = now + leaseSeconds;
    const lock = dialect === 'postgres' ? sql`for update skip locked` : sql``;
    // Claims take turns (SQLite's writer lock does this by itself), so "educators another publisher holds"
    // is read after the previous claim has committed.
    const result = await db.transaction().execute(async (trx) => {
      if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${PUBLISH_CLAIM_LOCK})`.execute(trx);
      return sql<ClaimedRow>`
      update page_changes set claimed_by = ${owner}, claimed_until = ${until}, attempts = attempts + 1
      where id in (
        select p.id from page_changes p
        where (p.claimed_until is null or p.claimed_until < ${now})
          and (p.educator_id is null or p.educator_id not in (
            select h.educator_id from page_changes h
            where h.claimed_until >= ${now} and h.claimed_by <> ${owner} and h.educator_id is not null))
        order by p.id
        limit ${maxRows}
        ${lock}
      )
      returning id, educator_id, educator_slug, course_id, category_id`.execute(trx);
    });
    return result.rows.map((r) => ({ ...r, id: Number(r.id) }));
  }

  /** Keeps the lease while a long pass runs. */
  async function renew(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await db.updateTable('page_changes').set({ claimed_until: options.now() + leaseSeconds })
      .where('claimed_by', '=', owner).where('id', 'in', ids).execute();
  }

  async function finish(ids: number[]): Promise<void> {
    for (let i = 0; i < ids.length; i += 500) {
      await db.deleteFrom('page_changes').where('claimed_by', '=', owner).where('id', 'in', ids.slice(i, i + 500)).execute();
    }
  }

  /** Gives rows back to be tried again after a back-off that grows with their attempts (5 s, 10 s, … 5 min). */
  async function release(ids: number[]): Promise<void> {
    const now = options.now();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await db.selectFrom('page_changes').select(['id', 'attempts']).where('id', 'in', ids.slice(i, i + 500)).execute();
      for (const row of rows) {
        const wait = Math.min(MAX_BACKOFF_SECONDS, 5 * 2 ** Math.min(10, Math.max(0, Number(row.attempts) - 1)));
        await db.updateTable('page_changes').set({ claimed_by: null, claimed_until: now + wait })
          .where('id', '=', row.id).where('claimed_by', '=', owner).execute();
      }
    }
  }

  /** Writes a file when its bytes differ from what is served; true when written. */
  async function put(file: string, data: string, compress?: CompressOptions, folders?: readonly string[]): Promise<boolean> {
    const path = siteFilePath(clientDir, file, folders);
    const current = await readFile(path, 'utf8').catch(() => null);
    if (current === data) return false;
    await writeSiteFile(path, data, compress);
    return true;
  }

  /** Every servable file under a folder, relative to dist/client (compressed siblings and temporaries left out). */
  async function filesUnder(folder: string): Promise<string[]> {
    const out: string[] = [];
    const walk = async (dir: string) => {
      const entries = await readdir(join(clientDir, dir), { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const rel = `${dir}/${entry.name}`;
        if (entry.isDirectory()) await walk(rel);
        else if (!/\.(br|gz|tmp)$/.test(entry.name)) out.push(rel);
      }
    };
    await walk(folder);
    return out;
  }

  async function publishEducator(
    r: Renderer, model: EducatorModel, data: PublicCatalogue, now: number, report: PublishReport, onlyCourses?: Set<string>,
  ): Promise<Set<string>> {
    const pages = pagesOf(model);
    const keep = new Set<string>();
    const courseBySlug = new Map(model.courses.map((c) => [c.course.slug, c]));
    for (const page of pages) {
      keep.add(page.file);
      if (onlyCourses && !(page.kind === 'course' && page.context === 'marketplace' && onlyCourses.has(page.courseSlug!))) continue;
      const rendered = await renderEducatorPage(r, db, page, model, data, now, courseBySlug);
      for (const [file, body] of rendered) {
        keep.add(file);
        report.rendered++;
        if (await put(file, body)) report.written++;
      }
    }
    return keep;
  }

  /** Removes what no longer belongs in an educator's folders (never walks a folder a bad slug would name). */
  async function prune(slug: string, keep: Set<string>, report: PublishReport): Promise<void> {
    const folders = safeEducatorFolders(slug);
    for (const folder of folders) {
      for (const file of await filesUnder(folder)) {
        if (keep.has(file)) continue;
        // The marketplace folder of an educator never holds another educator's pages, but it may be the
        // parent of a category listing only if the slug is reserved — excluded by educatorFolders.
        await removeSiteFile(siteFilePath(clientDir, file, folders));
        report.removed++;
      }
    }
  }

  /** Cards of each category's carousel, for the course pages (cardsByCategory). */
  async function carouselSources(categoryIds: Iterable<string>, now: number) {
    const out = new Map<string, Awaited<ReturnType<typeof topCards>>>();
    for (const id of categoryIds) out.set(id, await topCards(db, { categoryId: id, limit: CATEGORY_CAROUSEL_SOURCE, now }));
    return out;
  }

  async function publish(rows: ClaimedRow[], signal: AbortSignal): Promise<PublishReport> {
    const report: PublishReport = { rows: rows.length, educators: 0, rendered: 0, written: 0, removed: 0, failed: 0 };
    const r = await getRenderer();
    const now = options.pagesNow?.() ?? options.now();
    const ids = rows.map((row) => row.id);
    const renewal = setInterval(() => void renew(ids).catch(() => undefined), Math.max(1000, (leaseSeconds * 1000) / 3));
    renewal.unref();
    try {
      const educatorIds = [...new Set(rows.flatMap((row) => (row.educator_id ? [row.educator_id] : [])))];
      const slugs = new Set(rows.flatMap((row) => (row.educator_slug ? [row.educator_slug] : [])));
      const failedEducators = new Set<string>();
      const categoryIds = new Set(rows.flatMap((row) => (row.category_id ? [row.category_id] : [])));
      const categories = await db.selectFrom('categories').select(['id', 'slug', 'name']).orderBy('name').execute();
      const categorySlug = new Map(categories.map((c) => [c.id, c.slug]));
      const categoryRenamed = rows.some((row) => row.category_id && !row.educator_id);

      // The affected educators, a few at a time (memory follows the chunk, not the catalogue).
      const currentSlugs = new Set<string>();
      const carousels = new Map<string, Awaited<ReturnType<typeof topCards>>>();
      for (let i = 0; i < educatorIds.length; i += perChunk) {
        if (signal.aborted) throw new Error('publish stopped');
        const chunk = educatorIds.slice(i, i + perChunk);
        const data = await loadEducatorCatalogue(db, chunk, now);
        for (const model of data.educators) {
          for (const c of model.courses) if (c.course.category_id) categoryIds.add(c.course.category_id);
        }
        const needed = [...new Set(data.educators.flatMap((m) => m.courses.flatMap((c) => (c.course.category_id ? [c.course.category_id] : []))))]
          .filter((id) => !carousels.has(id));
        for (const [id, cards] of await carouselSources(needed, now)) carousels.set(id, cards);
        for (const [id, cards] of carousels) {
          const slug = categorySlug.get(id);
          if (slug) data.cardsByCategory.set(slug, cards);
        }
        for (const model of data.educators) {
          currentSlugs.add(model.educator.slug);
          try {
            const keep = await publishEducator(r, model, data, now, report);
            await prune(model.educator.slug, keep, report);
            report.educators++;
          } catch (error) {
            failedEducators.add(model.educator.id);
            report.failed++;
            log.error('publish: rendering an educator failed; its pages stay as they were', { educator: model.educator.slug, error });
          }
        }
        await options.onStep?.(`educators ${i + chunk.length}/${educatorIds.length}`);
      }
      // Removed educators and old slugs: nothing of theirs stays. A slug that is no safe path segment (written
      // before the database refused such slugs) names no folder of the site: nothing is walked for it.
      for (const slug of slugs) {
        if (currentSlugs.has(slug)) continue;
        try {
          await prune(slug, new Set(), report);
        } catch (error) {
          if (!(error instanceof UnsafeSitePathError)) throw error;
          log.error('publish: refused to prune the folders of an unsafe slug', { educator: slug, error });
        }
      }

      // Category carousels that changed: every marketplace course page of that category shows it.
      for (const id of categoryIds) {
        const cards = carousels.get(id) ?? (await carouselSources([id], now)).get(id)!;
        const before = await recordCarousel(db, id, carouselDigest(cards));
        if (before === null || before === carouselDigest(cards)) continue;
        await fanOutCategory(r, id, cards, categories, now, report, failedEducators, signal);
      }

      // Listing pages whose cards may have changed, and the sitemaps.
      await renderPage(r, 'home', 'index.html', await loadHomeModel(db, now), report);
      for (const id of categoryRenamed ? categories.map((c) => c.id) : categoryIds) {
        const model = await loadCategoryPageModel(db, id, now);
        const slug = categorySlug.get(id);
        if (model) await renderPage(r, 'category', `courses/${model.category.slug}/index.html`, model, report, ['courses']);
        else if (slug) await removeSiteFile(siteFilePath(clientDir, `courses/${slug}/index.html`, ['courses']));
      }
      if (categoryRenamed) await renderPage(r, 'search', 'search/index.html', categories, report);
      await publishMarketplaceSitemaps(educatorIds, report);
      await options.onStep?.('pages written');

      // Rows of educators that failed are tried again later; the rest are done.
      const failedIds = rows.filter((row) => row.educator_id && failedEducators.has(row.educator_id)).map((row) => row.id);
      const failed = new Set(failedIds);
      await finish(ids.filter((id) => !failed.has(id)));
      if (failedIds.length) await release(failedIds);
      return report;
    } finally {
      clearInterval(renewal);
    }
  }

  async function fanOutCategory(
    r: Renderer, categoryId: string, cards: Awaited<ReturnType<typeof topCards>>, categories: { id: string; slug: string }[],
    now: number, report: PublishReport, failedEducators: Set<string>, signal: AbortSignal,
  ): Promise<void> {
    const courses = await db.selectFrom('courses').select(['educator_id', 'slug']).where('published', '=', true).where('category_id', '=', categoryId).execute();
    const byEducator = new Map<string, Set<string>>();
    for (const c of courses) {
      const set = byEducator.get(c.educator_id) ?? new Set<string>();
      set.add(c.slug);
      byEducator.set(c.educator_id, set);
    }
    const educatorIds = [...byEducator.keys()];
    const slug = categories.find((c) => c.id === categoryId)?.slug;
    for (let i = 0; i < educatorIds.length; i += perChunk) {
      if (signal.aborted) throw new Error('publish stopped');
      const data = await loadEducatorCatalogue(db, educatorIds.slice(i, i + perChunk), now);
      if (slug) data.cardsByCategory.set(slug, cards);
      for (const model of data.educators) {
        try {
          await publishEducator(r, model, data, now, report, byEducator.get(model.educator.id));
        } catch (error) {
          failedEducators.add(model.educator.id);
          report.failed++;
          log.error('publish: rendering a category carousel failed', { educator: model.educator.slug, error });
        }
      }
    }
  }

  async function renderPage(r: Renderer, route: TwinRoute, file: string, props: unknown, report: PublishReport, folders?: readonly string[]): Promise<void> {
    siteFilePath(clientDir, file, folders);
    const html = await r.render(route, { context: 'marketplace', props });
    report.rendered++;
    if (await put(file, html, undefined, folders)) report.written++;
  }

  /** The marketplace sitemaps: the index and the children the educators' change touches (db/queries/sitemaps.ts). */
  async function publishMarketplaceSitemaps(educatorIds: Iterable<string>, report: PublishReport): Promise<void> {
    const currentIndex = await readFile(join(clientDir, 'sitemap.xml'), 'utf8').catch(() => null);
    const { index, children, named } = await marketplaceSitemapUpdate(db, educatorIds, currentIndex);
    for (const [name, xml] of children) {
      report.rendered++;
      // A child holds thousands of URLs (~0.5 MB): brotli 11 would spend a second on what crawlers fetch rarely.
      if (await put(name, xml, { brotliQuality: SITEMAP_BROTLI_QUALITY })) report.written++;
    }
    report.rendered++;
    if (await put('sitemap.xml', index)) report.written++;
    // Children the index no longer names are gone (after the index stopped naming them).
    for (const entry of await readdir(clientDir).catch(() => [] as string[])) {
      if (/^sitemap-[\d-]+\.xml$/.test(entry) && !named.has(entry)) {
        await removeSiteFile(join(clientDir, entry));
        report.removed++;
      }
    }
  }

  /** Whether the oldest free row is older than the batching window (seconds resolution, so at least 1 s). */
  async function dueRows(): Promise<'none' | 'wait' | 'due'> {
    const now = options.now();
    const row = await db.selectFrom('page_changes').select(['created_at'])
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .orderBy('id', 'desc').limit(1).executeTakeFirst();
    if (!row) return 'none';
    return Number(row.created_at) * 1000 + batchMs <= Date.now() ? 'due' : 'wait';
  }

  return {
    owner,
    get lastReport() {
      return lastReport;
    },
    /** One pass; returns how many feed rows it published. */
    async run(signal: AbortSignal = new AbortController().signal): Promise<number> {
      // Without a built site there is nothing to render with: the feed waits for one.
      if (!existsSync(resolve(options.distDir, 'server/entry.mjs'))) {
        if (!warnedNoBuild) log.info(`publisher idle: no built site in ${options.distDir}`);
        warnedNoBuild = true;
        return 0;
      }
      const due = await dueRows();
      if (due === 'none') return 0;
      if (due === 'wait') {
        // Let the rest of an edit's writes arrive, then take them all in one batch.
        await new Promise<void>((ok) => {
          const stop = () => {
            clearTimeout(timer);
            ok();
          };
          const timer = setTimeout(() => {
            signal.removeEventListener('abort', stop);
            ok();
          }, batchMs);
          signal.addEventListener('abort', stop, { once: true });
        });
        if (signal.aborted) return 0;
      }
      const rows = await claim();
      if (rows.length === 0) return 0;
      await options.onStep?.('claimed');
      const started = performance.now();
      const report = await publish(rows, signal);
      lastReport = report;
      log.info('published', { ...report, ms: Math.round(performance.now() - started) });
      return rows.length;
    },
    async close(): Promise<void> {
      await renderer?.close();
      renderer = null;
    },
  };
}

export type Publisher = ReturnType<typeof createPublisher>;

/** The publisher as a background job (api/jobs.ts): idle until the feed has rows. */
export function publisherJob(publisher: Publisher, idleMs = 1000): BackgroundJob {
  return {
    name: 'publisher',
    idleMs,
    busyMs: 0,
    maxBackoffMs: 30_000,
    run: (signal) => publisher.run(signal),
  };
}
