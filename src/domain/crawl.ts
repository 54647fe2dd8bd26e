/**
 * What search engines are given (docs/routes.md "Search engines"): which URLs belong in each host's
 * sitemap, what robots.txt keeps crawlers away from, and which copy of a course page is canonical.
 * Pure rules: the sitemap and robots endpoints (and the publisher) call them with the catalogue.
 *
 * A sitemap lists only canonical, indexable pages:
 * - not /search (a shell whose results are drawn in the browser; noindex) nor the enquiry and
 *   waitlist forms (noindex: a form, no content of its own);
 * - a course once, at its canonical URL: the marketplace copy (see {@link courseCanonicalContext});
 *   a minisite lists its own course pages only when the marketplace has none for them.
 */
import { hasMarketplaceCoursePage, hasMarketplacePages, hasMinisiteCoursePage } from './routes.ts';

export interface SitemapEducator {
  slug: string;
  courseSlugs: ReadonlyArray<string>;
  /** The educator has membership plans listed: its memberships page has content (an empty one is noindex). */
  hasMembershipPlans?: boolean;
}

/**
 * Which copy of a course page is canonical: the marketplace's. It is the copy that carries the
 * course's structured data (spec 2.13: marketplace only), so it is the one that can show as a
 * course rich result, and one canonical gathers the links and reviews of both copies. The minisite
 * copy is canonical only when the marketplace has no page for the course (reserved words).
 */
export function courseCanonicalContext(educatorSlug: string, courseSlug: string): 'marketplace' | 'minisite' {
  return hasMarketplaceCoursePage(educatorSlug, courseSlug) ? 'marketplace' : 'minisite';
}

/** Paths of the marketplace sitemap: home, categories, and each educator's about, courses, reviews, memberships (with plans) and course pages. */
export function marketplaceSitemapPaths(input: { categorySlugs: ReadonlyArray<string>; educators: ReadonlyArray<SitemapEducator> }): string[] {
  const paths = ['/'];
  for (const slug of input.categorySlugs) paths.push(`/courses/${slug}`);
  for (const educator of input.educators) paths.push(...marketplaceEducatorSitemapPaths(educator));
  return paths;
}

/** One educator's part of the marketplace sitemap. */
export function marketplaceEducatorSitemapPaths(educator: SitemapEducator): string[] {
  if (!hasMarketplacePages(educator.slug)) return [];
  const paths = [`/${educator.slug}`, `/${educator.slug}/courses`, `/${educator.slug}/reviews`];
  if (educator.hasMembershipPlans) paths.push(`/${educator.slug}/memberships`);
  for (const course of educator.courseSlugs) {
    if (courseCanonicalContext(educator.slug, course) === 'marketplace') paths.push(`/${educator.slug}/${course}`);
  }
  return paths;
}

/** Paths of one minisite's sitemap: its courses list, about, reviews and memberships (with plans), and the course pages it is canonical for. */
export function minisiteSitemapPaths(educator: SitemapEducator): string[] {
  const courses = educator.courseSlugs.filter((course) => hasMinisiteCoursePage(course) && courseCanonicalContext(educator.slug, course) === 'minisite');
  return ['/', '/about', '/reviews', ...(educator.hasMembershipPlans ? ['/memberships'] : []), ...courses.map((course) => `/${course}`)];
}

/**
 * robots.txt Disallow lines per host: the API and the pages that are per visitor — the checkouts, the gift
 * voucher checkout (a checkout of its own: a crawler has nothing to read there) included. Other embed pages,
 * /search and the forms stay crawlable so that their noindex is seen.
 */
export function robotsDisallow(host: 'marketplace' | 'minisite'): string[] {
  const shared = ['/api/', '/checkout', '/gift-checkout', '/profile', '/login', '/logout'];
  return host === 'marketplace' ? [...shared, '/embed/checkout', '/embed/*/gift-checkout', '/minisite/'] : shared;
}
