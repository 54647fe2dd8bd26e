/**
 * Request context: which app context (spec 1) a request is in, decided from its host and path.
 * `{slug}.{PUBLIC_HOST}` is a minisite; `/embed/…` is an embed; anything else is the marketplace.
 */
import type { Context } from 'hono';
import { baseHostname, type Config } from '../config.ts';
import { forwardedValue } from './client-ip.ts';

export type AppContext = 'marketplace' | 'minisite' | 'embed';

export interface RequestSite {
  context: AppContext;
  /** The educator slug of a minisite host. */
  minisiteSlug: string | null;
  /** Hostname (no port) the visitor used. */
  hostname: string;
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export function requestHost(c: Context, config: Config): string {
  const forwarded = forwardedValue(c.req.header('x-forwarded-host'), config.TRUST_PROXY);
  return (forwarded ?? c.req.header('host') ?? config.PUBLIC_HOST).split(',')[0]!.trim().toLowerCase();
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
  return { context, minisiteSlug, hostname };
}
