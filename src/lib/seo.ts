/**
 * Titles, descriptions, canonical URLs and share images (docs/routes.md "Search engines").
 * Canonical: marketplace pages → their marketplace URL; minisite pages → their own minisite URL
 * (the educator's site is the home of its own pages), except course pages, whose canonical copy is
 * the marketplace's (src/domain/crawl.ts courseCanonicalContext); embed pages → none (noindex).
 * Server side only.
 */
import { htmlToText } from '../domain/text.ts';
import { courseCanonicalContext } from '../domain/crawl.ts';
import { PRODUCT_NAME, marketplaceUrl, minisiteUrl } from './config.ts';
import type { AppContext } from '../domain/app-context.ts';

/** Search engines cut titles at about 600 pixels: 65 characters keeps every title whole. */
export const MAX_TITLE_LENGTH = 65;

/** Cuts text to at most `max` characters on a word boundary, ending with '…'. */
function cutOnWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:–|-]+$/, '')}…`;
}

/**
 * '{page} | {product}' in the marketplace, '{page} | {educator}' on the educator's own pages, within
 * {@link MAX_TITLE_LENGTH}: each name in `page` (longest first, e.g. '{course} – {educator}' then
 * '{course}') is tried with the suffix, then alone; the last one is cut on a word when even it is too long.
 */
export function pageTitle(context: AppContext, page: string | readonly string[], educatorName?: string): string {
  const suffix = context === 'marketplace' || !educatorName ? PRODUCT_NAME : educatorName;
  const names = typeof page === 'string' ? [page] : page;
  for (const name of names) {
    const candidates = name === suffix || name.endsWith(` ${suffix}`) ? [name] : [`${name} | ${suffix}`, name];
    const fits = candidates.find((title) => title.length <= MAX_TITLE_LENGTH);
    if (fits) return fits;
  }
  return cutOnWord(names[names.length - 1] ?? suffix, MAX_TITLE_LENGTH);
}

/** Plain text of HTML cut to ~155 characters on a word boundary. */
export function metaDescription(htmlOrText: string | null | undefined, fallback = ''): string {
  const text = htmlToText(htmlOrText) || fallback;
  if (text.length <= 155) return text;
  const cut = text.slice(0, 154);
  const space = cut.lastIndexOf(' ');
  return `${(space > 100 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}

/** The reviews page's description: what learners will find there, rated or not yet. */
export function reviewsPageDescription(educator: { name: string; city?: string | null }, aggregate: { rating: number; count: number } | null): string {
  const where = educator.city ? ` in ${educator.city}` : '';
  if (aggregate && aggregate.count > 0) {
    const reviews = aggregate.count === 1 ? '1 review' : `${aggregate.count} reviews`;
    return metaDescription(`${educator.name}${where} is rated ${aggregate.rating.toFixed(1)} out of 5 from ${reviews}. Read what learners say about its courses, teaching and venues before you book.`);
  }
  return metaDescription(`${educator.name}${where} has no reviews yet. Taken a course with them? Be the first to review it and help other learners choose.`);
}

/**
 * The canonical URL of an educator page. `marketplacePath` is its marketplace path
 * ('/{slug}', '/{slug}/courses', …) and `minisitePath` its minisite path ('/about', '/', …).
 */
export function canonicalUrl(context: AppContext, educatorSlug: string, marketplacePath: string, minisitePath: string): string | undefined {
  if (context === 'marketplace') return marketplaceUrl(marketplacePath);
  if (context === 'minisite') return minisiteUrl(educatorSlug, minisitePath);
  return undefined;
}

/** The canonical URL of a course page, the same from both copies (none from the embed). */
export function courseCanonicalUrl(context: AppContext, educatorSlug: string, courseSlug: string): string | undefined {
  if (context === 'embed') return undefined;
  return courseCanonicalContext(educatorSlug, courseSlug) === 'marketplace'
    ? marketplaceUrl(`/${educatorSlug}/${courseSlug}`)
    : minisiteUrl(educatorSlug, `/${courseSlug}`);
}
