/**
 * getStaticPaths helpers: every page is built from the database at build time (published courses
 * only; every educator in the catalogue is public). Reserved words win over slugs (docs/routes.md):
 * an educator whose slug is a top-level route, or a course whose slug is an educator sub-page, gets
 * no page of its own in that place (a warning is printed at build time).
 */
import { pageDb } from './db.ts';
import { loadPublicCatalogue, type CourseModel, type EducatorModel, type PublicCatalogue } from '../../db/queries/pages.ts';
import type { AppContext } from './types.ts';

/** First path segments owned by the marketplace itself (pages, endpoints, assets, other areas). */
export const RESERVED_TOP_LEVEL = new Set([
  'courses', 'search', 'embed', 'minisite', 'checkout', 'login', 'logout', 'profile', 'api', 'images', '_astro',
  'sitemap.xml', 'robots.txt', 'embed.js', 'favicon.svg', '404', 'privacy', 'pricing', 'complete-booking',
  'complete-order', 'admin', 'gift-checkout',
]);

/** Second segments under /{educatorSlug}/ (marketplace) and /embed/{educatorSlug}/ that are pages, not courses. */
export const RESERVED_EDUCATOR_PAGES = new Set([
  'courses', 'about', 'reviews', 'enquiry', 'waitlist', 'claim-profile', 'memberships', 'gift-checkout', 'add-review',
  'enquiry.json', 'details', 'dates',
]);

/** First segments of a minisite that are pages or files, not courses. */
export const RESERVED_MINISITE_PAGES = new Set([
  ...RESERVED_EDUCATOR_PAGES, 'sitemap.xml', 'robots.txt', 'checkout', 'login', 'logout', 'profile', 'api', 'images',
  '_astro', 'embed.js', 'favicon.svg', 'embed', 'minisite', 'search', '404',
]);

/** Educator slugs that cannot be an embed educator (/embed/enquiry is the enquiry shell). */
export const RESERVED_EMBED_EDUCATORS = new Set(['enquiry']);

const warned = new Set<string>();
function warn(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(`[routes] ${message}`);
}

export async function catalogue(): Promise<PublicCatalogue> {
  return loadPublicCatalogue(pageDb());
}

function educatorAllowed(context: AppContext, slug: string): boolean {
  if (context === 'marketplace' && RESERVED_TOP_LEVEL.has(slug)) {
    warn(`educator "${slug}" is a reserved word: no marketplace pages`);
    return false;
  }
  if (context === 'embed' && RESERVED_EMBED_EDUCATORS.has(slug)) {
    warn(`educator "${slug}" is a reserved word: no embed pages`);
    return false;
  }
  return true;
}

function courseAllowed(context: AppContext, educatorSlug: string, courseSlug: string): boolean {
  const reserved = context === 'minisite' ? RESERVED_MINISITE_PAGES : RESERVED_EDUCATOR_PAGES;
  if (reserved.has(courseSlug)) {
    warn(`course "${educatorSlug}/${courseSlug}" is a reserved word in the ${context}: no course page`);
    return false;
  }
  return true;
}

export interface EducatorPageProps {
  model: EducatorModel;
  now: number;
}

export async function educatorPaths(context: AppContext) {
  const data = await catalogue();
  return data.educators
    .filter((m) => educatorAllowed(context, m.educator.slug))
    .map((model) => ({ params: { educator: model.educator.slug }, props: { model, now: data.now } satisfies EducatorPageProps }));
}

export interface CoursePageProps {
  model: EducatorModel;
  courseModel: CourseModel;
  catalogue: PublicCatalogue;
}

export async function coursePaths(context: AppContext) {
  const data = await catalogue();
  return data.educators
    .filter((m) => educatorAllowed(context, m.educator.slug))
    .flatMap((model) =>
      model.courses
        .filter((c) => courseAllowed(context, model.educator.slug, c.course.slug))
        .map((courseModel) => ({
          params: { educator: model.educator.slug, course: courseModel.course.slug },
          props: { model, courseModel, catalogue: data } satisfies CoursePageProps,
        })));
}
