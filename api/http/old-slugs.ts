/**
 * An educator's old URLs after a slug change (migration 0240, api/admin/educators.ts): a request that found no
 * page, whose educator segment is a slug the educator has left, is answered 301 with the same page under the
 * current slug, in its own context:
 *
 *   marketplace  {host}/{old}/{rest}          → {host}/{new}/{rest}
 *   minisite     {old}.{host}/{rest}          → {new}.{host}/{rest}
 *   embed        {host}/embed/{old}/{rest}    → {host}/embed/{new}/{rest}
 *                {host}/embed/enquiry?educator={old} → …?educator={new}
 *
 * Only GET and HEAD, only for paths no page answered (asked from the 404 path, so a page costs nothing), and the
 * query string is kept. The redirect is cached for a few minutes only: an educator may move again, even back to
 * an old slug, and a browser holding a permanent redirect for long would then loop.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../deps.ts';
import { RESERVED_TOP_LEVEL } from '../../src/domain/routes.ts';
import { EDUCATOR_SLUG_PATTERN } from '../../src/domain/admin/educator-profile.ts';
import { minisiteSiteOrigin } from '../shared/origins.ts';

export const OLD_SLUG_REDIRECT_CACHE = 'public, max-age=300';

async function currentSlug(c: Context<AppEnv>, old: string): Promise<string | null> {
  if (old.length > 63 || !EDUCATOR_SLUG_PATTERN.test(old)) return null;
  const row = await c.var.deps.db
    .selectFrom('educator_old_slugs as o')
    .innerJoin('educators as e', 'e.id', 'o.educator_id')
    .select('e.slug')
    .where('o.slug', '=', old)
    .executeTakeFirst();
  return row && row.slug !== old ? row.slug : null;
}

/** Where an old URL lives now, or null (not an old slug's URL). */
export async function oldSlugLocation(c: Context<AppEnv>): Promise<string | null> {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return null;
  const site = c.var.site;
  if (site.admin) return null;
  const url = new URL(c.req.url);
  const path = url.pathname;
  const search = url.search;
  if (site.minisiteSlug) {
    const slug = await currentSlug(c, site.minisiteSlug);
    return slug ? `${minisiteSiteOrigin(c.var.deps.config, slug)}${path}${search}` : null;
  }
  const segments = path.split('/');
  if (segments[1] === 'embed') {
    if (segments[2] === 'enquiry' && segments.length <= 4 && (segments[3] ?? '') === '') {
      const old = url.searchParams.get('educator');
      const slug = old ? await currentSlug(c, old) : null;
      if (!slug) return null;
      url.searchParams.set('educator', slug);
      return `${path}?${url.searchParams.toString()}`;
    }
    const slug = segments[2] ? await currentSlug(c, segments[2]) : null;
    return slug ? ['', 'embed', slug, ...segments.slice(3)].join('/') + search : null;
  }
  const first = segments[1] ?? '';
  if (!first || RESERVED_TOP_LEVEL.has(first)) return null;
  const slug = await currentSlug(c, first);
  return slug ? ['', slug, ...segments.slice(2)].join('/') + search : null;
}

/** The 301 for an old URL, or null. */
export async function oldSlugRedirect(c: Context<AppEnv>): Promise<Response | null> {
  let location: string | null;
  try {
    location = await oldSlugLocation(c);
  } catch {
    // The lookup must never turn a 404 into an error.
    return null;
  }
  if (!location) return null;
  return new Response(null, { status: 301, headers: { location, 'cache-control': OLD_SLUG_REDIRECT_CACHE } });
}
