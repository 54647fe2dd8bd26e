/**
 * The publisher: keeps the pre-rendered site fresh without a full build (DESIGN 10). One pass:
 *
 * 1. claim the change feed's rows (db/migrations/0030_page_changes.ts) under a lease (feed.ts), leaving out
 *    educators another publisher holds, so two processes never render one educator at once;
 * 2. wait a moment first if the newest rows are very recent, so one edit's many writes become one batch — unless
 *    told that a save has committed (`notify`: an admin save is one transaction, there is nothing to wait for);
 * 3. render every page of the affected educators in all three contexts with the build's own views
 *    (api/publish/educator.ts, the full build's own rendering), their minisite sitemaps and robots.txt, the home
 *    page, the affected categories' listing pages, the marketplace sitemap index with the children that list those
 *    educators (never the whole catalogue's), and last the course pages of a category whose carousel changed;
 * 4. write each changed file through the pages' target (siteFiles below, over api/publish/page-target.ts: the site's
 *    folder, where each file is written beside its final name and renamed over, or a bucket, where its encodings are
 *    stored before it), and remove the files that no longer belong (an unpublished course, a removed educator, an old
 *    slug): those answer 404;
 * 5. delete the rows only then, once every file of the pass is written. A failed render keeps the old page; its rows are released to be retried after
 *    a back-off. A crash leaves the rows claimed until the lease runs out, then any publisher takes them again.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Db, Dialect } from '../../db/client.ts';
import {
  carouselDigest, listCategories, loadCategoryPageModel, loadEducatorCatalogue, loadHomeModel, recordCarousel,
  type CategoryModel, type EducatorModel, type PublicCatalogue,
} from '../../db/queries/pages.ts';
import type { CourseCard } from '../../db/queries/course-cards.ts';
import { marketplaceSitemapUpdate } from '../../src/lib/sitemaps.ts';
import { createDirectoryTarget, PAGE_BROTLI_QUALITY, type PageTarget } from './page-target.ts';
import type { BackgroundJob } from '../background.ts';
import type { Logger } from '../log.ts';
import { createRenderer, type Renderer, type TwinRoute } from './render.ts';
import { safeEducatorFolders, siteKey, UnsafeSitePathError } from './safe-paths.ts';
import { pagesOf, renderEducatorPage } from './educator.ts';
import { carouselCache, publishedCarousel } from './carousels.ts';
import { changeFeed, type ClaimedRow } from './feed.ts';
import type { FeedSignal } from './feed-signal.ts';

export interface PublisherOptions {
  db: Db;
  dialect: Dialect;
  /** The built site (DIST_DIR): dist/server/entry.mjs renders, dist/client is written unless `target` says otherwise. */
  distDir: string;
  /** Where pages are written (api/publish/targets.ts pageTargetFor); the site's folder, dist/client, by default. */
  target?: PageTarget;
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

/** The published site's files, as the publisher changes them: every read and write goes through the pages' target. */
function siteFiles(target: PageTarget) {
  /** Every published file under a folder (compressed siblings and temporaries left out). */
  async function filesUnder(folder: string): Promise<string[]> {
    return target.list(`${folder}/`);
  }

  return {
    /**
     * Writes a file when its bytes differ from what is published; true when written. Compressed at the full build's
     * quality: an admin waits for these, and brotli 11 cost 40–140 ms of CPU a page against ~1.5 ms at 5 for ~10 %
     * fewer bytes (docs/benchmarks.md, "Admin saves"); the build writes every page at 5 already.
     */
    async put(file: string, data: string, folders?: readonly string[]): Promise<boolean> {
      return target.write(siteKey(file, folders), Buffer.from(data), { brotliQuality: PAGE_BROTLI_QUALITY });
    },
    /** Removes one file (its name checked against the folders it may be in). */
    async remove(file: string, folders?: readonly string[]): Promise<void> {
      await target.remove(siteKey(file, folders));
    },
    /** A published file's text (null: there is none). */
    async read(file: string): Promise<string | null> {
      return (await target.read(file))?.toString('utf8') ?? null;
    },
    /** Every published file whose name starts with `prefix`. */
    list(prefix: string): Promise<string[]> {
      return target.list(prefix);
    },
    /** Removes what no longer belongs in an educator's folders (never walks a folder a bad slug would name). */
    async prune(slug: string, keep: Set<string>, report: PublishReport): Promise<void> {
      const folders = safeEducatorFolders(slug);
      for (const folder of folders) {
        for (const file of await filesUnder(folder)) {
          if (keep.has(file)) continue;
          // The marketplace folder of an educator never holds another educator's pages, but it may be the
          // parent of a category listing only if the slug is reserved — excluded by educatorFolders.
          await target.remove(siteKey(file, folders));
          report.removed++;
        }
      }
    },
  };
}

type SiteFiles = ReturnType<typeof siteFiles>;

/** What one publish pass works with and counts. */
interface Pass {
  db: Db;
  log: Logger;
  site: SiteFiles;
  r: Renderer;
  now: number;
  perChunk: number;
  signal: AbortSignal;
  report: PublishReport;
  /** Educators whose pages could not be rendered: their feed rows are retried later. */
  failedEducators: Set<string>;
  /** Educators whose pages this pass wrote. */
  published: Set<string>;
  /** A changed carousel's pages were not all written: every row of the pass is retried later. */
  carouselFailed: boolean;
  carousels: ReturnType<typeof carouselCache>;
  categories: CategoryModel[];
  categorySlug: Map<string, string>;
  onStep?(step: string): Promise<void> | void;
}

/** Renders an educator's pages (or only some marketplace course pages) and writes those that changed; returns every file it has. */
async function publishEducator(pass: Pass, model: EducatorModel, data: PublicCatalogue, onlyCourses?: Set<string>): Promise<Set<string>> {
  const { report } = pass;
  const keep = new Set<string>();
  const courseBySlug = new Map(model.courses.map((c) => [c.course.slug, c]));
  for (const page of pagesOf(model)) {
    keep.add(page.file);
    if (onlyCourses && !(page.kind === 'course' && page.context === 'marketplace' && onlyCourses.has(page.courseSlug!))) continue;
    const rendered = await renderEducatorPage(pass.r, pass.db, page, model, data, pass.now, courseBySlug);
    for (const [file, body] of rendered) {
      keep.add(file);
      report.rendered++;
      if (await pass.site.put(file, body)) report.written++;
    }
  }
  return keep;
}

/**
 * Every page of the affected educators, a few at a time (memory follows the chunk, not the catalogue); adds the
 * categories of their courses to `categoryIds` and returns the slugs the educators have now.
 */
async function publishEducators(pass: Pass, educatorIds: string[], categoryIds: Set<string>): Promise<Set<string>> {
  const { report } = pass;
  const currentSlugs = new Set<string>();
  for (let i = 0; i < educatorIds.length; i += pass.perChunk) {
    if (pass.signal.aborted) throw new Error('publish stopped');
    const chunk = educatorIds.slice(i, i + pass.perChunk);
    const data = await loadEducatorCatalogue(pass.db, chunk, pass.now);
    for (const model of data.educators) {
      for (const c of model.courses) if (c.course.category_id) categoryIds.add(c.course.category_id);
    }
    await pass.carousels.fill(data, (id) => pass.categorySlug.get(id));
    for (const model of data.educators) {
      currentSlugs.add(model.educator.slug);
      try {
        const keep = await publishEducator(pass, model, data);
        await pass.site.prune(model.educator.slug, keep, report);
        pass.published.add(model.educator.id);
        report.educators++;
      } catch (error) {
        pass.failedEducators.add(model.educator.id);
        report.failed++;
        pass.log.error('publish: rendering an educator failed; its pages stay as they were', { educator: model.educator.slug, error });
      }
    }
    await pass.onStep?.(`educators ${i + chunk.length}/${educatorIds.length}`);
  }
  return currentSlugs;
}

/**
 * Removed educators and old slugs: nothing of theirs stays. A slug that is no safe path segment (written before
 * the database refused such slugs) names no folder of the site: nothing is walked for it.
 */
async function pruneGoneSlugs(pass: Pass, slugs: Set<string>, currentSlugs: Set<string>): Promise<void> {
  for (const slug of slugs) {
    if (currentSlugs.has(slug)) continue;
    try {
      await pass.site.prune(slug, new Set(), pass.report);
    } catch (error) {
      if (!(error instanceof UnsafeSitePathError)) throw error;
      pass.log.error('publish: refused to prune the folders of an unsafe slug', { educator: slug, error });
    }
  }
}

/**
 * Category carousels that changed: every marketplace course page of that category shows it. Run last in a pass (a
 * big category is ~1,000 pages, many seconds), so the pages the change is about do not wait for it. The new
 * carousel is recorded only once all its pages are written: a publish cut off or failing on the way is done again.
 */
async function publishChangedCarousels(pass: Pass, categoryIds: Set<string>): Promise<void> {
  for (const id of categoryIds) {
    const cards = await pass.carousels.of(id);
    const digest = carouselDigest(cards);
    const before = await publishedCarousel(pass.db, id);
    // None recorded yet (no full build recorded this category): its pages are those of the build, nothing to redo.
    if (before !== null && before !== digest && !(await fanOutCategory(pass, id, cards))) {
      pass.carouselFailed = true;
      continue;
    }
    if (before !== digest) await recordCarousel(pass.db, id, digest);
  }
}

/** Writes the marketplace course pages of one category again, with its new carousel; false when one failed. */
async function fanOutCategory(pass: Pass, categoryId: string, cards: CourseCard[]): Promise<boolean> {
  const courses = await pass.db.selectFrom('courses').select(['educator_id', 'slug']).where('published', '=', true).where('category_id', '=', categoryId).execute();
  const byEducator = new Map<string, Set<string>>();
  for (const c of courses) {
    // The pass's own educators were written with this carousel already.
    if (pass.published.has(c.educator_id)) continue;
    const set = byEducator.get(c.educator_id) ?? new Set<string>();
    set.add(c.slug);
    byEducator.set(c.educator_id, set);
  }
  const educatorIds = [...byEducator.keys()];
  const slug = pass.categories.find((c) => c.id === categoryId)?.slug;
  let ok = true;
  for (let i = 0; i < educatorIds.length; i += pass.perChunk) {
    if (pass.signal.aborted) throw new Error('publish stopped');
    const data = await loadEducatorCatalogue(pass.db, educatorIds.slice(i, i + pass.perChunk), pass.now);
    if (slug) data.cardsByCategory.set(slug, cards);
    for (const model of data.educators) {
      try {
        await publishEducator(pass, model, data, byEducator.get(model.educator.id));
      } catch (error) {
        ok = false;
        pass.report.failed++;
        pass.log.error('publish: rendering a category carousel failed', { educator: model.educator.slug, error });
      }
    }
    await pass.onStep?.(`carousel ${slug ?? categoryId} ${i + Math.min(pass.perChunk, educatorIds.length - i)}/${educatorIds.length}`);
  }
  return ok;
}

/** One catalogue-wide page (home, a category, search) rendered through its twin and written when it changed. */
async function renderPage(pass: Pass, route: TwinRoute, file: string, props: unknown, folders?: readonly string[]): Promise<void> {
  siteKey(file, folders);
  const html = await pass.r.render(route, { context: 'marketplace', props });
  pass.report.rendered++;
  if (await pass.site.put(file, html, folders)) pass.report.written++;
}

/** Home, the listing pages of the affected categories (all of them, and search, when a category was renamed). */
async function publishListingPages(pass: Pass, categoryIds: Set<string>, categoryRenamed: boolean): Promise<void> {
  await renderPage(pass, 'home', 'index.html', await loadHomeModel(pass.db, pass.now));
  for (const id of categoryRenamed ? pass.categories.map((c) => c.id) : categoryIds) {
    const model = await loadCategoryPageModel(pass.db, id, pass.now);
    const slug = pass.categorySlug.get(id);
    if (model) await renderPage(pass, 'category', `courses/${model.category.slug}/index.html`, model, ['courses']);
    else if (slug) await pass.site.remove(`courses/${slug}/index.html`, ['courses']);
  }
  if (categoryRenamed) await renderPage(pass, 'search', 'search/index.html', pass.categories);
}

/** The marketplace sitemaps: the index and the children the educators' change touches (src/lib/sitemaps.ts). */
async function publishMarketplaceSitemaps(pass: Pass, educatorIds: Iterable<string>): Promise<void> {
  const { report } = pass;
  const currentIndex = await pass.site.read('sitemap.xml');
  const { index, children, named } = await marketplaceSitemapUpdate(pass.db, educatorIds, currentIndex);
  for (const [name, xml] of children) {
    report.rendered++;
    if (await pass.site.put(name, xml)) report.written++;
  }
  report.rendered++;
  if (await pass.site.put('sitemap.xml', index)) report.written++;
  // Children the index no longer names are gone (after the index stopped naming them).
  for (const entry of await pass.site.list('sitemap-')) {
    if (/^sitemap-[\d-]+\.xml$/.test(entry) && !named.has(entry)) {
      await pass.site.remove(entry);
      report.removed++;
    }
  }
}

/** Waits out the batching window so the rest of an edit's writes arrive; returns early when stopped. */
function batchWindow(batchMs: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((ok) => {
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
}

/** Every page the claimed rows affect; returns the rows of educators whose pages could not be rendered. */
async function publishRows(pass: Pass, rows: ClaimedRow[]): Promise<Set<number>> {
  const educatorIds = [...new Set(rows.flatMap((row) => (row.educator_id ? [row.educator_id] : [])))];
  const slugs = new Set(rows.flatMap((row) => (row.educator_slug ? [row.educator_slug] : [])));
  const categoryIds = new Set(rows.flatMap((row) => (row.category_id ? [row.category_id] : [])));
  const categoryRenamed = rows.some((row) => row.category_id && !row.educator_id);

  const currentSlugs = await publishEducators(pass, educatorIds, categoryIds);
  await pruneGoneSlugs(pass, slugs, currentSlugs);
  await publishListingPages(pass, categoryIds, categoryRenamed);
  await publishMarketplaceSitemaps(pass, educatorIds);
  await publishChangedCarousels(pass, categoryIds);
  await pass.onStep?.('pages written');
  if (pass.carouselFailed) return new Set(rows.map((row) => row.id));
  return new Set(rows.filter((row) => row.educator_id && pass.failedEducators.has(row.educator_id)).map((row) => row.id));
}

export function createPublisher(options: PublisherOptions) {
  const { db, log } = options;
  const owner = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const batchMs = options.batchMs ?? 2000;
  const leaseSeconds = options.leaseSeconds ?? 30;
  const feed = changeFeed({ db, dialect: options.dialect, owner, now: options.now, leaseSeconds, maxRows: options.maxRows ?? 5000, batchMs });
  const site = siteFiles(options.target ?? createDirectoryTarget(resolve(options.distDir, 'client')));
  let renderer: Renderer | null = null;
  let lastReport: PublishReport | null = null;
  let warnedNoBuild = false;
  let notified = false;

  async function publish(rows: ClaimedRow[], signal: AbortSignal): Promise<PublishReport> {
    const now = options.pagesNow?.() ?? options.now();
    const ids = rows.map((row) => row.id);
    const renewal = setInterval(() => void feed.renew(ids).catch(() => undefined), Math.max(1000, (leaseSeconds * 1000) / 3));
    renewal.unref();
    try {
      renderer ??= await createRenderer(options.distDir);
      const categories = await listCategories(db);
      const pass: Pass = {
        db, log, site, r: renderer, now, signal, perChunk: options.educatorsPerChunk ?? 16, onStep: options.onStep,
        report: { rows: rows.length, educators: 0, rendered: 0, written: 0, removed: 0, failed: 0 },
        failedEducators: new Set(), published: new Set(), carouselFailed: false, carousels: carouselCache(db, now),
        categories, categorySlug: new Map(categories.map((c) => [c.id, c.slug])),
      };
      const failed = await publishRows(pass, rows);
      // Rows of educators that failed are tried again later; the rest are done.
      await feed.finish(ids.filter((id) => !failed.has(id)));
      if (failed.size) await feed.release([...failed]);
      return pass.report;
    } finally {
      clearInterval(renewal);
    }
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
      const due = await feed.dueRows();
      if (due === 'none') return 0;
      // A notice counts for the rows there are now; one that comes later is for the next pass.
      const committed = notified;
      notified = false;
      if (due === 'wait' && !committed) {
        // Let the rest of an edit's writes arrive, then take them all in one batch.
        await batchWindow(batchMs, signal);
        if (signal.aborted) return 0;
      }
      const rows = await feed.claim();
      if (rows.length === 0) return 0;
      await options.onStep?.('claimed');
      const started = performance.now();
      const report = await publish(rows, signal);
      lastReport = report;
      log.info('published', { ...report, ms: Math.round(performance.now() - started) });
      return rows.length;
    },
    /**
     * A save in this process has committed its writes to the feed: the next pass claims them without waiting out the
     * batching window. Writes of other processes are found by the job's poll and batched as before.
     */
    notify(): void {
      notified = true;
    },
    async close(): Promise<void> {
      await renderer?.close();
      renderer = null;
    },
  };
}

export type Publisher = ReturnType<typeof createPublisher>;

/**
 * The publisher as a background job (api/jobs.ts): idle until the feed has rows. It polls the feed (`idleMs`), and
 * starts at once when `saves` says a save of this process has committed.
 */
export function publisherJob(publisher: Publisher, idleMs = 1000, saves?: FeedSignal): BackgroundJob {
  return {
    name: 'publisher',
    idleMs,
    busyMs: 0,
    maxBackoffMs: 30_000,
    run: (signal) => publisher.run(signal),
    ...(saves ? {
      listen: (wake: () => void) => saves.listen(() => {
        publisher.notify();
        wake();
      }),
    } : {}),
  };
}
