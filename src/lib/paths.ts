/**
 * getStaticPaths helpers: every page is built from the database at build time (published courses
 * only; every educator in the catalogue is public). Reserved words win over slugs (docs/routes.md):
 * an educator whose slug is a top-level route, or a course whose slug is an educator sub-page, gets
 * no page of its own in that place (a warning is printed at build time).
 */
import { pageDb } from './db.ts';
import { loadPublicCatalogue, type CourseModel, type EducatorModel, type PublicCatalogue } from '../../db/queries/pages.ts';
import type { AppContext } from './types.ts';

// The reserved words are route rules (src/domain/routes.ts); re-exported for the pages that read them here.
import {
  RESERVED_TOP_LEVEL, RESERVED_EDUCATOR_PAGES, RESERVED_MINISITE_PAGES, RESERVED_EMBED_EDUCATORS, hasEnquiryPage,
} from '../domain/routes.ts';
export { RESERVED_TOP_LEVEL, RESERVED_EDUCATOR_PAGES, RESERVED_MINISITE_PAGES, RESERVED_EMBED_EDUCATORS };

const warned = new Set<string>();
function warn(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(`[routes] ${message}`);
}

export async function catalogue(): Promise<PublicCatalogue> {
  return loadPublicCatalogue(pageDb(), pagesNow());
}

/**
 * `npm run build` (scripts/build-site.mjs) sets CATALOGUE_PAGES=workers: `astro build` then writes the bundle and
 * the pages that do not come from the catalogue, and the educators' pages are rendered afterwards, educator by
 * educator in worker processes, by the publisher's renderer (api/publish/build-worker.ts). A plain `astro build`
 * still renders them here, from the catalogue read whole (fine for a small catalogue, not for a marketplace).
 */
function catalogueRenderedByWorkers(): boolean {
  return process.env.CATALOGUE_PAGES === 'workers';
}

/**
 * The moment pages are rendered for (epoch seconds): now, or PAGES_NOW when set, so that a test can render
 * the same data twice (full build and publisher) and compare the bytes.
 */
let buildNow: number | undefined;
export function pagesNow(): number {
  const pinned = Number(process.env.PAGES_NOW);
  // One moment for the whole build, as the catalogue is read once.
  buildNow ??= Number.isInteger(pinned) && pinned > 0 ? pinned : Math.floor(Date.now() / 1000);
  return buildNow;
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
  if (catalogueRenderedByWorkers()) return [];
  const data = await catalogue();
  return data.educators
    .filter((m) => educatorAllowed(context, m.educator.slug))
    .map((model) => ({ params: { educator: model.educator.slug }, props: { model, now: data.now } satisfies EducatorPageProps }));
}

/** Enquiry pages: educators who can be contacted only (src/domain/routes.ts hasEnquiryPage). */
export async function enquiryPaths(context: AppContext) {
  return (await educatorPaths(context)).filter((path) => hasEnquiryPage(path.props.model.educator));
}

export interface CoursePageProps {
  model: EducatorModel;
  courseModel: CourseModel;
  catalogue: PublicCatalogue;
}

export async function coursePaths(context: AppContext) {
  if (catalogueRenderedByWorkers()) return [];
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
