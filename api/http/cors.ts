/**
 * CORS for /api/* (spec 7: the pages call {api} "with credentials").
 *
 * Allowed origins (credentials allowed, the origin echoed, never '*'):
 * - the marketplace, `{PUBLIC_PROTOCOL}://{PUBLIC_HOST}`;
 * - every minisite, `{PUBLIC_PROTOCOL}://{label}.{PUBLIC_HOST}` for ANY single DNS label that is a valid
 *   slug (the same rule as api/http/context.ts, so the admin host's label is excluded). We do not look
 *   the slug up: every such host is served by us, and one for an unknown slug only serves our 404 page,
 *   so trusting the pattern trusts nothing an outsider controls, and costs no query per request;
 * - API_ORIGIN, when the API lives on its own host;
 * - the request's own host (a same-origin call through another host name, e.g. 127.0.0.1).
 *
 * A foreign origin gets no CORS headers (the browser refuses to hand it the response), and its
 * preflight is refused with 403 generic/forbidden-origin. Its simple writes (a form post, a beacon)
 * are refused by api/http/csrf.ts, which runs on every /api route after this middleware.
 * Requests without an Origin header (server to server, webhooks, curl) are untouched.
 * Every /api response carries `Vary: Origin`.
 */
import type { MiddlewareHandler } from 'hono';
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
 * Whether a browser Origin may call the API with credentials (see the rules above).
 * `requestHostName` is the host (with port) the request was sent to, for the same-origin case.
 */
export function isAllowedOrigin(
  origin: string,
  config: Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PROTOCOL' | 'API_ORIGIN' | 'ADMIN_HOST'>,
  requestHostName?: string,
): boolean {
  const url = parseOrigin(origin);
  if (!url) return false;
  const host = url.host.toLowerCase();
  if (requestHostName && host === requestHostName.toLowerCase()) return true;
  if (config.API_ORIGIN) {
    const api = parseOrigin(config.API_ORIGIN);
    if (api && api.origin === url.origin) return true;
  }
  if (url.protocol !== `${config.PUBLIC_PROTOCOL}:`) return false;
  // PUBLIC_HOST as a URL would normalise it (default port dropped), the same way url.host is.
  const base = parseOrigin(`${config.PUBLIC_PROTOCOL}://${config.PUBLIC_HOST}`)?.host.toLowerCase();
  if (!base) return false;
  if (host === base) return true;
  if (!host.endsWith(`.${base}`)) return false;
  const label = host.slice(0, -(base.length + 1));
  const adminLabel = config.ADMIN_HOST.replace(/:\d+$/, '').toLowerCase().split('.')[0];
  return SLUG.test(label) && label !== adminLabel;
}

function addVary(headers: Headers, value: string) {
  const current = headers.get('vary');
  if (!current) headers.set('vary', value);
  else if (!current.toLowerCase().split(/\s*,\s*/).includes(value.toLowerCase())) headers.set('vary', `${current}, ${value}`);
}

/** The middleware, mounted on /api/* in api/app.ts. */
export function apiCors(config: Config): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin');
    const method = c.req.method.toUpperCase();
    const preflight = method === 'OPTIONS' && !!c.req.header('access-control-request-method');
    if (origin === undefined) {
      await next();
      addVary(c.res.headers, 'Origin');
      return;
    }
    const allowed = isAllowedOrigin(origin, config, requestHost(c, config));
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
