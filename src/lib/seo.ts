/**
 * Titles, descriptions, canonical URLs and Course structured data (docs/routes.md "Search engines").
 * Canonical: marketplace pages → their marketplace URL; minisite pages → their own minisite URL
 * (the educator's site is the canonical home of its pages); embed pages → none (noindex).
 * Server side only.
 */
import { htmlToText } from '../domain/text.ts';
import { PRODUCT_NAME, marketplaceUrl, minisiteUrl } from './config.ts';
import type { AppContext } from './types.ts';

/** '{page} | {product}' in the marketplace, '{page} | {educator}' on the educator's own pages. */
export function pageTitle(context: AppContext, page: string, educatorName?: string): string {
  const suffix = context === 'marketplace' || !educatorName ? PRODUCT_NAME : educatorName;
  if (page === suffix || page.endsWith(suffix)) return page;
  const full = `${page} | ${suffix}`;
  // Search engines show about 60–70 characters: long page names go without the suffix.
  return full.length <= 70 ? full : page;
}

/** Plain text of HTML cut to ~155 characters on a word boundary. */
export function metaDescription(htmlOrText: string | null | undefined, fallback = ''): string {
  const text = htmlToText(htmlOrText) || fallback;
  if (text.length <= 155) return text;
  const cut = text.slice(0, 154);
  const space = cut.lastIndexOf(' ');
  return `${(space > 100 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
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
