/**
 * What the educator and course views are rendered with, and the moment they are rendered for. Every educator's
 * pages in the three contexts come from one renderer: the publisher's (api/publish/educator.ts, through the
 * on-demand routes of src/pages/publish-render/), in a full build (scripts/build-site.mjs) as after an edit, so
 * the two cannot drift apart. Reserved words win over slugs there (src/domain/publish-pages.ts, docs/routes.md).
 */
import type { CourseModel, EducatorModel, PublicCatalogue } from '../../db/queries/pages.ts';

/**
 * The moment pages are rendered for (epoch seconds): now, or PAGES_NOW when set, so that a test can render
 * the same data twice (full build and publisher) and compare the bytes.
 */
let buildNow: number | undefined;
export function pagesNow(): number {
  const pinned = Number(process.env.PAGES_NOW);
  // One moment for the whole build.
  buildNow ??= Number.isInteger(pinned) && pinned > 0 ? pinned : Math.floor(Date.now() / 1000);
  return buildNow;
}

export interface EducatorPageProps {
  model: EducatorModel;
  now: number;
}

export interface CoursePageProps {
  model: EducatorModel;
  courseModel: CourseModel;
  catalogue: PublicCatalogue;
}
