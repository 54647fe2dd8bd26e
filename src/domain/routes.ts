/**
 * Reserved words of the public routes (docs/routes.md "Reserved words win over slugs"): educator slugs,
 * course slugs and our own pages share path segments, so a fixed page always wins and a slug that is
 * one of these words has no page in that place.
 */

/** First path segments owned by the marketplace itself (pages, endpoints, assets, other areas). */
export const RESERVED_TOP_LEVEL: ReadonlySet<string> = new Set([
  'courses', 'search', 'embed', 'minisite', 'checkout', 'login', 'logout', 'profile', 'api', 'images', '_astro',
  'sitemap.xml', 'robots.txt', 'embed.js', 'favicon.svg', '404', 'privacy', 'pricing', 'terms', 'complete-booking',
  'complete-order', 'admin', 'gift-checkout',
  // The publisher's on-demand twins of the pre-rendered pages (src/lib/publish-render.ts).
  'publish-render',
]);

/** Second segments under /{educatorSlug}/ (marketplace) and /embed/{educatorSlug}/ that are pages, not courses. */
export const RESERVED_EDUCATOR_PAGES: ReadonlySet<string> = new Set([
  'courses', 'about', 'reviews', 'enquiry', 'waitlist', 'claim-profile', 'memberships', 'gift-checkout', 'add-review',
  'enquiry.json', 'details', 'dates',
]);

/** First segments of a minisite that are pages or files, not courses. */
export const RESERVED_MINISITE_PAGES: ReadonlySet<string> = new Set([
  ...RESERVED_EDUCATOR_PAGES, 'sitemap.xml', 'robots.txt', 'checkout', 'login', 'logout', 'profile', 'api', 'images',
  '_astro', 'embed.js', 'favicon.svg', 'embed', 'minisite', 'search', '404',
]);

/** Educator slugs that cannot be an embed educator (/embed/enquiry is the enquiry shell). */
export const RESERVED_EMBED_EDUCATORS: ReadonlySet<string> = new Set(['enquiry']);

/** The educator has marketplace pages (/{educatorSlug}…). */
export function hasMarketplacePages(educatorSlug: string): boolean {
  return !RESERVED_TOP_LEVEL.has(educatorSlug);
}

/** The course has a marketplace page (/{educatorSlug}/{courseSlug}). */
export function hasMarketplaceCoursePage(educatorSlug: string, courseSlug: string): boolean {
  return hasMarketplacePages(educatorSlug) && !RESERVED_EDUCATOR_PAGES.has(courseSlug);
}

/** The course has a minisite page ({educatorSlug}.{host}/{courseSlug}). */
export function hasMinisiteCoursePage(courseSlug: string): boolean {
  return !RESERVED_MINISITE_PAGES.has(courseSlug);
}

/**
 * An educator has enquiry pages (marketplace, minisite, embed) only when it can be contacted: the
 * Contact tab and button are hidden otherwise (spec 2.6), so a form that could never be sent is not
 * published either.
 */
export function hasEnquiryPage(educator: { can_be_contacted?: boolean | null }): boolean {
  return educator.can_be_contacted !== false;
}
