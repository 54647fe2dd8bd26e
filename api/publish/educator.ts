/**
 * One educator's files (src/domain/publish-pages.ts: every page in the three contexts, the minisite's robots.txt
 * and sitemaps, the embed's enquiry JSON), rendered with the built site's views. The publisher (publisher.ts) and
 * the full build (build-worker.ts) both render through here, so the two cannot write different bytes for the
 * same data.
 */
import type { Db } from '../../db/client.ts';
import type { EducatorModel, PublicCatalogue } from '../../db/queries/pages.ts';
import { minisiteSitemaps } from '../../src/lib/sitemaps.ts';
import { educatorPages, type EducatorPage } from '../../src/domain/publish-pages.ts';
import { robotsDisallow } from '../../src/domain/crawl.ts';
import { minisiteUrl } from '../../src/lib/config.ts';
import { robotsTxt } from '../../src/domain/sitemap.ts';
import { embedEnquiryJson } from '../../src/lib/embed-enquiry.ts';
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
