/**
 * CORS for /api/* (spec 7: the pages call {api} "with credentials").
 *
 * Allowed origins (credentials allowed, the origin echoed, never '*'), always with the site's own scheme
 * (PUBLIC_PROTOCOL: an http:// page is not ours on an https site, whatever its host):
 * - the marketplace, `{PUBLIC_PROTOCOL}://{PUBLIC_HOST}`;
 * - a minisite, `{PUBLIC_PROTOCOL}://{slug}.{PUBLIC_HOST}`, only when an educator has that slug (looked up,
 *   briefly cached): a host under ours that no educator owns is not a page of ours to trust;
 * - API_ORIGIN, when the API lives on its own host;
 * - the request's own host when it is not under PUBLIC_HOST (a same-origin call through another host name,
 *   e.g. 127.0.0.1), with the site's scheme.
 *
 * A foreign origin gets no CORS headers (the browser refuses to hand it the response), and its
 * preflight is refused with 403 generic/forbidden-origin. Its simple writes (a form post, a beacon)
 * are refused by api/http/csrf.ts, which runs on every /api route after this middleware.
 * Requests without an Origin header (server to server, webhooks, curl) are untouched.
 * Every /api response carries `Vary: Origin`.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../deps.ts';
import type { Db } from '../../db/client.ts';
import type { Config } from '../config.ts';
import { problemType, type Problem } from '../../src/domain/problems.ts';
import { problemResponse } from './errors.ts';
import { requestHost } from './context.ts';

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
export const CORS_ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
export const CORS_DEFAULT_HEADERS = 'content-type, accept, authorization';
export const CORS_MAX_AGE = 600;

export const FORBIDDEN_ORIGIN_SLUG = 'generic/forbidden-origin';
export function forbiddenOrigin(origin: string): Problem {
  return { type: problemType(FORBIDDEN_ORIGIN_SLUG), title: 'Forbidden Origin', status: 403, detail: `Requests from ${origin} are not allowed.` };
}

function parseOrigin(origin: string): URL | null {
  if (!origin || origin === 'null') return null;
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? null : url;
  } catch {
    return null;
  }
}

/**
 * The pattern part of the rule (no database): whether an Origin is ours by scheme and host. A minisite
 * origin passes here by its shape; `minisiteSlugOfOrigin` names the slug that must also exist.
 * `requestHostName` is the host (with port) the request was sent to, for the same-origin case.
 */
export function isAllowedOrigin(
  origin: string,
  config: Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PROTOCOL' | 'API_ORIGIN' | 'ADMIN_HOST'>,
  requestHostName?: string,
): boolean {
  return classifyOrigin(origin, config, requestHostName) !== null;
}

/** The educator slug of a minisite origin (after the pattern check), else null. */
export function minisiteSlugOfOrigin(origin: string, config: Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PROTOCOL' | 'API_ORIGIN' | 'ADMIN_HOST'>): string | null {
  return classifyOrigin(origin, config)?.slug ?? null;
}

function classifyOrigin(
  origin: string,
  config: Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PROTOCOL' | 'API_ORIGIN' | 'ADMIN_HOST'>,
  requestHostName?: string,
): { slug: string | null } | null {
  const url = parseOrigin(origin);
  if (!url) return null;
  const host = url.host.toLowerCase();
  if (config.API_ORIGIN) {
    const api = parseOrigin(config.API_ORIGIN);
    if (api && api.origin === url.origin) return { slug: null };
  }
  if (url.protocol !== `${config.PUBLIC_PROTOCOL}:`) return null;
  // PUBLIC_HOST as a URL would normalise it (default port dropped), the same way url.host is.
  const base = parseOrigin(`${config.PUBLIC_PROTOCOL}://${config.PUBLIC_HOST}`)?.host.toLowerCase();
  if (!base) return null;
  if (host === base) return { slug: null };
  if (host.endsWith(`.${base}`)) {
    const label = host.slice(0, -(base.length + 1));
    const adminLabel = config.ADMIN_HOST.replace(/:\d+$/, '').toLowerCase().split('.')[0];
    // The admin host is no minisite; it is allowed only for its own requests (the admin app's saves, same origin).
    if (label === adminLabel) return requestHostName && host === requestHostName.toLowerCase() ? { slug: null } : null;
    return SLUG.test(label) ? { slug: label } : null;
  }
  if (requestHostName && host === requestHostName.toLowerCase()) return { slug: null };
  return null;
}

const SLUG_CACHE_SECONDS = 60;
const SLUG_CACHE_MAX = 10_000;
const slugCaches = new WeakMap<Db, Map<string, { exists: boolean; until: number }>>();

/** Whether an educator has this slug; remembered for a minute so CORS costs no query per request. */
async function educatorSlugExists(db: Db, slug: string): Promise<boolean> {
  let cache = slugCaches.get(db);
  if (!cache) slugCaches.set(db, (cache = new Map()));
  const now = Date.now() / 1000;
  const hit = cache.get(slug);
  if (hit && hit.until > now) return hit.exists;
  const row = await db.selectFrom('educators').select('id').where('slug', '=', slug).executeTakeFirst();
  if (cache.size >= SLUG_CACHE_MAX) cache.clear();
  cache.set(slug, { exists: !!row, until: now + SLUG_CACHE_SECONDS });
  return !!row;
}

/** The whole rule: the pattern, and for a minisite origin an educator with that slug. */
export async function originAllowed(c: Context<AppEnv>, origin: string): Promise<boolean> {
  const { db, config } = c.var.deps;
  const kind = classifyOrigin(origin, config, requestHost(c, config));
  if (!kind) return false;
  return kind.slug === null || (await educatorSlugExists(db, kind.slug));
}

function addVary(headers: Headers, value: string) {
  const current = headers.get('vary');
  if (!current) headers.set('vary', value);
  else if (!current.toLowerCase().split(/\s*,\s*/).includes(value.toLowerCase())) headers.set('vary', `${current}, ${value}`);
}

/** The middleware, mounted on /api/* in api/app.ts. */
export function apiCors(config: Config): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origin = c.req.header('origin');
    const method = c.req.method.toUpperCase();
    const preflight = method === 'OPTIONS' && !!c.req.header('access-control-request-method');
    if (origin === undefined) {
      await next();
      addVary(c.res.headers, 'Origin');
      return;
    }
    const allowed = await originAllowed(c, origin);
    if (!allowed) {
      if (preflight) {
        const res = problemResponse(c, forbiddenOrigin(origin), config.ERRORS_HOST);
        addVary(res.headers, 'Origin');
        return res;
      }
      await next();
      addVary(c.res.headers, 'Origin');
      return;
    }
    if (preflight) {
      const requested = c.req.header('access-control-request-headers');
      const headers = new Headers({
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': CORS_ALLOW_METHODS,
        'access-control-allow-headers': requested && /^[\w\s,-]{1,500}$/.test(requested) ? requested : CORS_DEFAULT_HEADERS,
        'access-control-max-age': String(CORS_MAX_AGE),
        'cache-control': 'no-store',
      });
      addVary(headers, 'Origin');
      addVary(headers, 'Access-Control-Request-Method');
      addVary(headers, 'Access-Control-Request-Headers');
      return new Response(null, { status: 204, headers });
    }
    await next();
    const h = c.res.headers;
    h.set('access-control-allow-origin', origin);
    h.set('access-control-allow-credentials', 'true');
    addVary(h, 'Origin');
  };
}
