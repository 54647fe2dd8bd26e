/**
 * Which files of the built site belong to one educator, in every context — the same set the full build writes
 * (src/pages/[educator]/*, minisite/[educator]/*, embed/[educator]/*), reserved words included. The publisher
 * renders these and removes any other file it finds in the educator's folders (an unpublished course, a
 * changed slug, a removed educator). Pure: paths are relative to dist/client.
 */
import type { AppContext } from './app-context.ts';
import {
  RESERVED_EDUCATOR_PAGES, RESERVED_EMBED_EDUCATORS, RESERVED_MINISITE_PAGES, hasMarketplacePages,
} from './routes.ts';

export type EducatorPageKind = 'about' | 'courses' | 'reviews' | 'enquiry' | 'waitlist' | 'memberships' | 'course' | 'enquiry-json' | 'robots' | 'sitemaps';

export interface EducatorPage {
  file: string;
  kind: EducatorPageKind;
  context: AppContext;
  courseSlug?: string;
}

export interface EducatorPagesInput {
  slug: string;
  canBeContacted: boolean;
  courseSlugs: ReadonlyArray<string>;
}

/** The folders that hold only this educator's files, per context (the marketplace folder only when it has pages there). */
export function educatorFolders(slug: string): string[] {
  const folders = [`minisite/${slug}`];
  if (hasMarketplacePages(slug)) folders.push(slug);
  if (!RESERVED_EMBED_EDUCATORS.has(slug)) folders.push(`embed/${slug}`);
  return folders;
}

export function educatorPages(input: EducatorPagesInput): EducatorPage[] {
  const { slug } = input;
  const pages: EducatorPage[] = [];
  const page = (file: string, kind: EducatorPageKind, context: AppContext, courseSlug?: string) =>
    pages.push({ file, kind, context, ...(courseSlug ? { courseSlug } : {}) });
  if (hasMarketplacePages(slug)) {
    page(`${slug}/index.html`, 'about', 'marketplace');
    page(`${slug}/courses/index.html`, 'courses', 'marketplace');
    page(`${slug}/reviews/index.html`, 'reviews', 'marketplace');
    if (input.canBeContacted) page(`${slug}/enquiry/index.html`, 'enquiry', 'marketplace');
    page(`${slug}/waitlist/index.html`, 'waitlist', 'marketplace');
    page(`${slug}/memberships/index.html`, 'memberships', 'marketplace');
    for (const course of input.courseSlugs) if (!RESERVED_EDUCATOR_PAGES.has(course)) page(`${slug}/${course}/index.html`, 'course', 'marketplace', course);
  }
  const m = `minisite/${slug}`;
  page(`${m}/index.html`, 'courses', 'minisite');
  page(`${m}/about/index.html`, 'about', 'minisite');
  page(`${m}/reviews/index.html`, 'reviews', 'minisite');
  if (input.canBeContacted) page(`${m}/enquiry/index.html`, 'enquiry', 'minisite');
  page(`${m}/waitlist/index.html`, 'waitlist', 'minisite');
  page(`${m}/memberships/index.html`, 'memberships', 'minisite');
  for (const course of input.courseSlugs) if (!RESERVED_MINISITE_PAGES.has(course)) page(`${m}/${course}/index.html`, 'course', 'minisite', course);
  page(`${m}/robots.txt`, 'robots', 'minisite');
  // sitemap.xml and its children: their names depend on the sitemap's size (src/lib/sitemaps.ts).
  page(`${m}/sitemap.xml`, 'sitemaps', 'minisite');
  if (!RESERVED_EMBED_EDUCATORS.has(slug)) {
    const e = `embed/${slug}`;
    page(`${e}/index.html`, 'courses', 'embed');
    page(`${e}/reviews/index.html`, 'reviews', 'embed');
    page(`${e}/waitlist/index.html`, 'waitlist', 'embed');
    page(`${e}/memberships/index.html`, 'memberships', 'embed');
    for (const course of input.courseSlugs) if (!RESERVED_EDUCATOR_PAGES.has(course)) page(`${e}/${course}/index.html`, 'course', 'embed', course);
    if (input.canBeContacted) page(`${e}/enquiry.json`, 'enquiry-json', 'embed');
  }
  return pages;
}
