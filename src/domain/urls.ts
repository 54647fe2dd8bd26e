/**
 * URLs an educator sets (cover, logo, course and collection images, profile links) end up in `src`, `href`,
 * share tags and the API's JSON, so only two kinds are accepted: absolute http(s) URLs and site-relative paths
 * (`/images/…`). `javascript:`, `data:`, `vbscript:` and any other scheme are refused, and so are
 * protocol-relative `//host` paths (another site, whatever "site-relative" suggests), `/\host` (browsers read the
 * backslash as a slash) and any whitespace or control character (browsers drop tabs and newlines inside a URL, so
 * `/\t/host` would become `//host`).
 *
 * Profile links (website, social) may also be a bare web address (`example.com`, shown as https; a text that is no
 * address at all is ignored when rendering, spec 8): no control character, and the only scheme they may carry is
 * http(s) — whatever precedes the first ':' counts as a scheme, so ` javascript:` is refused too.
 *
 * The database enforces the same rules on every write (db/migrations/0161_educator_urls.ts); the views check
 * again when rendering (safeImageUrl), so a value written before the rule never reaches a page.
 */
import { z } from './zod.ts';

export const URL_MESSAGE = 'Must be an http(s) URL or a path on this site (starting with one "/").';
export const LINK_MESSAGE = 'Must be an http(s) URL or a web address.';

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const WHITESPACE_OR_CONTROL = /[\u0000-\u0020\u007f]/;
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
const ABSOLUTE = /^https?:\/\/[^/?#]/i;
const SITE_RELATIVE = /^\/(?![/\\])/;
/** A scheme: what comes before the first ':' when that holds no '/', '?' or '#'. */
const SCHEME = /^[^/?#]*:/;

/** An absolute http(s) URL or a site-relative path, and nothing else. */
export function isSafeUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048 || WHITESPACE_OR_CONTROL.test(value)) return false;
  return ABSOLUTE.test(value) || SITE_RELATIVE.test(value);
}

/** A profile link: a safe URL, or a bare web address with no scheme (shown as https). */
export function isSafeLink(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048 || CONTROL.test(value)) return false;
  if (ABSOLUTE.test(value)) return true;
  return !SCHEME.test(value) && !value.startsWith('//') && !value.startsWith('\\');
}

/** The URL when it is safe, else the fallback: for rendering a value that may predate the rule. */
export function safeImageUrl<F extends string | null>(value: string | null | undefined, fallback: F): string | F {
  return isSafeUrl(value) ? value : fallback;
}

/** zod: an optional educator-set image URL (null or empty means none). */
export const safeUrlSchema = z.string().refine((v) => isSafeUrl(v), { message: URL_MESSAGE });
export const safeLinkSchema = z.string().refine((v) => isSafeLink(v), { message: LINK_MESSAGE });

/** Only the safe URLs of a list (course images). */
export function safeUrlList(list: ReadonlyArray<unknown> | null | undefined): string[] {
  return Array.isArray(list) ? list.filter((u): u is string => isSafeUrl(u)) : [];
}

/** Profile links without the unsafe ones (a link that is not http(s) or a web address is dropped, as if unset). */
export function safeProfileLinks<L extends object>(links: L | null | undefined): L {
  const out: Record<string, string | null | undefined> = {};
  for (const [key, value] of Object.entries(links ?? {}) as Array<[string, unknown]>) if (value == null || value === '' || isSafeLink(value)) out[key] = value as string | null | undefined;
  return out as L;
}

/** An educator row as the views may render it: unsafe cover, logo and links read as unset. */
export function withSafeEducatorUrls<E extends { cover_url?: string | null; logo_url?: string | null; links?: object | null }>(educator: E): E {
  return {
    ...educator,
    ...('cover_url' in educator ? { cover_url: safeImageUrl(educator.cover_url, null) } : {}),
    ...('logo_url' in educator ? { logo_url: safeImageUrl(educator.logo_url, null) } : {}),
    ...('links' in educator && educator.links ? { links: safeProfileLinks(educator.links) } : {}),
  };
}

/** A course row as the views may render it: unsafe images left out, an unsafe automatic image read as none. */
export function withSafeCourseUrls<C extends { img_urls?: string[] | null; autoimg?: { url: string; author: string } | null }>(course: C): C {
  return {
    ...course,
    ...('img_urls' in course ? { img_urls: safeUrlList(course.img_urls) } : {}),
    ...('autoimg' in course ? { autoimg: course.autoimg && isSafeUrl(course.autoimg.url) ? course.autoimg : null } : {}),
  };
}
