/**
 * Request context: which app context (spec 1) a request is in, decided from its host and path.
 * `{slug}.{PUBLIC_HOST}` is a minisite; `/embed/…` is an embed; anything else is the marketplace.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, RequestSite } from '../deps.ts';
import { baseHostname, type Config } from '../config.ts';
import { problems } from '../../src/domain/problems.ts';
import { forwardedValue } from './client-ip.ts';
import { problemResponse } from './errors.ts';
import type { AppContext } from '../../src/domain/app-context.ts';

export type { RequestSite };

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export function requestHost(c: Context, config: Config): string {
  const forwarded = forwardedValue(c.req.header('x-forwarded-host'), config.TRUST_PROXY);
  return (forwarded ?? c.req.header('host') ?? config.PUBLIC_HOST).split(',')[0]!.trim().toLowerCase();
}

/** The message of the 400 that answers a request with more than one Host header. */
export const ONE_HOST_MESSAGE = 'A request must have exactly one Host header.';

/**
 * A request with two Host headers is ambiguous: Node keeps the first, a proxy in front may have routed on the
 * other, so the request could be answered as another site than the one it passed through. It is refused
 * (400, connection closed) instead of guessing. Node's parsed headers keep only the first, so the raw ones
 * are counted.
 */
export function refuseAmbiguousHost(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = (c.env as Partial<AppEnv['Bindings']> | undefined)?.incoming?.rawHeaders ?? [];
    let hosts = 0;
    for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'host') hosts++;
    if (hosts > 1) {
      const res = problemResponse(c, problems.validation([{ key: 'host', message: ONE_HOST_MESSAGE }]), c.var.deps.config.ERRORS_HOST);
      res.headers.set('connection', 'close');
      return res;
    }
    return next();
  };
}

export function resolveSite(host: string, path: string, config: Config): RequestSite {
  const hostname = host.replace(/:\d+$/, '');
  const base = baseHostname(config);
  let minisiteSlug: string | null = null;
  if (hostname !== base && hostname.endsWith(`.${base}`)) {
    const label = hostname.slice(0, -(base.length + 1));
    if (SLUG.test(label) && label !== baseHostname({ PUBLIC_HOST: config.ADMIN_HOST }).split('.')[0]) minisiteSlug = label;
  }
  const context: AppContext = minisiteSlug ? 'minisite' : path === '/embed' || path.startsWith('/embed/') ? 'embed' : 'marketplace';
  const admin = hostname === baseHostname({ PUBLIC_HOST: config.ADMIN_HOST.replace(/^https?:\/\//, '') });
  return { context, minisiteSlug, hostname, admin };
}
