/**
 * One educator's files (src/domain/publish-pages.ts: every page in the three contexts, the minisite's robots.txt
 * and sitemaps, the embed's enquiry JSON), rendered with the built site's views. The publisher (publisher.ts) and
 * the full build (build-worker.ts) both render through here, so the two cannot write different bytes for the
 * same data.
 */
import type { Db } from '../../db/client.ts';
import {
  CATEGORY_CAROUSEL_SOURCE, topCards, type EducatorModel, type PublicCatalogue,
} from '../../db/queries/pages.ts';
import { minisiteSitemaps } from '../../db/queries/sitemaps.ts';
import { educatorPages, type EducatorPage } from '../../src/domain/publish-pages.ts';
import { robotsDisallow } from '../../src/domain/crawl.ts';
import { minisiteUrl } from '../../src/lib/config.ts';
import { robotsTxt } from '../../src/lib/sitemap.ts';
import { embedEnquiryJson } from '../../src/lib/embed-enquiry.ts';
import type { CourseCard } from '../../src/lib/types.ts';
import { isSafeSlug } from '../../src/domain/slugs.ts';
import type { Renderer, TwinRoute } from './render.ts';
import { educatorFilesOnly, safeEducatorFolders, siteFilePath, UnsafeSitePathError } from './safe-paths.ts';

/** The pages of an educator as the full build writes them. */
export function pagesOf(model: EducatorModel): EducatorPage[] {
  const e = model.educator;
  return educatorPages({ slug: e.slug, canBeContacted: e.can_be_contacted !== false, courseSlugs: model.courses.map((c) => c.course.slug) });
}

/** The file(s) of one page: a page is one file, except the minisite's sitemaps (an index and its children). */
export async function renderEducatorPage(
  r: Renderer, db: Db, page: EducatorPage, model: EducatorModel, data: PublicCatalogue, now: number,
  courseBySlug: Map<string, EducatorModel['courses'][number]>,
): Promise<Array<[string, string]>> {
  const slug = model.educator.slug;
  // Refused before rendering: a file outside this educator's folders, or named by a slug that is no safe segment.
  if (page.courseSlug !== undefined && !isSafeSlug(page.courseSlug)) throw new UnsafeSitePathError(`refused course slug ${JSON.stringify(page.courseSlug)}: not a safe path segment`);
  siteFilePath('/site', page.file, safeEducatorFolders(slug));
  return educatorFilesOnly(slug, await renderFiles(r, db, page, model, data, now, courseBySlug));
}

async function renderFiles(
  r: Renderer, db: Db, page: EducatorPage, model: EducatorModel, data: PublicCatalogue, now: number,
  courseBySlug: Map<string, EducatorModel['courses'][number]>,
): Promise<Array<[string, string]>> {
  const slug = model.educator.slug;
  switch (page.kind) {
    case 'course': {
      const courseModel = courseBySlug.get(page.courseSlug!)!;
      return [[page.file, await r.render('course', { context: page.context, props: { model, courseModel, catalogue: data } })]];
    }
    case 'enquiry-json':
      return [[page.file, embedEnquiryJson(model)]];
    case 'robots':
      return [[page.file, robotsTxt(minisiteUrl(slug, '/sitemap.xml'), robotsDisallow('minisite'))]];
    case 'sitemaps': {
      const sitemaps = await minisiteSitemaps(db, model.educator.id);
      if (!sitemaps) return [];
      return [[page.file, sitemaps.set.index], ...[...sitemaps.set.children].map(([name, xml]) => [`minisite/${slug}/${name}`, xml] as [string, string])];
    }
    default:
      return [[page.file, await r.render(page.kind as TwinRoute, { context: page.context, props: { model, now } })]];
  }
}

/**
 * The first cards of each category's carousel (what a course page of that category shows), read from the
 * search read model per category, never from the whole catalogue; kept for the life of the cache.
 */
export function carouselCache(db: Db, now: number) {
  const cards = new Map<string, Promise<CourseCard[]>>();
  const of = (categoryId: string) => {
    let pending = cards.get(categoryId);
    if (!pending) {
      pending = topCards(db, { categoryId, limit: CATEGORY_CAROUSEL_SOURCE, now });
      cards.set(categoryId, pending);
    }
    return pending;
  };
  return {
    of,
    /** Fills `data.cardsByCategory` for every category its educators' courses are in. */
    async fill(data: PublicCatalogue, categorySlug: (id: string) => string | undefined): Promise<void> {
      const ids = new Set(data.educators.flatMap((m) => m.courses.flatMap((c) => (c.course.category_id ? [c.course.category_id] : []))));
      for (const id of ids) {
        const slug = categorySlug(id);
        if (slug) data.cardsByCategory.set(slug, await of(id));
      }
    },
  };
}
