/**
 * The product's origins: the main site is {PUBLIC_PROTOCOL}://{PUBLIC_HOST}; minisites are {slug}.{PUBLIC_HOST}
 * (same protocol and port); the admin dashboard is ADMIN_HOST. A leaf module (only the configuration below it):
 * pages, e-mails, documents and the accounts area all build links from it. How a session reaches these hosts
 * (a shared cookie or the hand-off) is api/auth/site.ts.
 */
import { baseHostname, type Config } from '../config.ts';

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export function publicPort(config: Pick<Config, 'PUBLIC_HOST'>): string {
  const match = /:(\d+)$/.exec(config.PUBLIC_HOST);
  return match ? match[1] : '';
}

/** The main site's origin, e.g. 'http://localhost:4321'. */
export function mainSiteOrigin(config: Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PROTOCOL'>): string {
  return `${config.PUBLIC_PROTOCOL}://${config.PUBLIC_HOST.toLowerCase()}`;
}

/** A minisite's origin, e.g. 'http://acme.localhost:4321'. */
export function minisiteSiteOrigin(config: Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PROTOCOL'>, slug: string): string {
  return `${config.PUBLIC_PROTOCOL}://${slug}.${config.PUBLIC_HOST.toLowerCase()}`;
}

/**
 * The address a visitor used for a path: on a minisite's host when the request came to one, else the main site
 * (Astro sees minisite pages under /minisite/{slug}; the visitor's address has no such prefix).
 */
export function visitorUrl(config: Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PROTOCOL'>, minisiteSlug: string | null, path: string): string {
  return `${minisiteSlug ? minisiteSiteOrigin(config, minisiteSlug) : mainSiteOrigin(config)}${path}`;
}

/** The admin dashboard's origin (ADMIN_HOST may be given with or without a protocol). */
export function adminOrigin(config: Pick<Config, 'ADMIN_HOST' | 'PUBLIC_PROTOCOL'>): string {
  return /^https?:\/\//.test(config.ADMIN_HOST) ? config.ADMIN_HOST.replace(/\/+$/, '') : `${config.PUBLIC_PROTOCOL}://${config.ADMIN_HOST}`;
}

export function isLocalHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

export type OwnSite = { kind: 'main' } | { kind: 'minisite'; slug: string };

/**
 * Which of our sites an origin or URL belongs to (protocol, host and port must match), or null.
 * The admin host is not one of them.
 */
export function ownSiteOf(value: string | null | undefined, config: Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PROTOCOL' | 'ADMIN_HOST'>): OwnSite | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== `${config.PUBLIC_PROTOCOL}:`) return null;
  if (url.username || url.password) return null;
  const defaultPort = config.PUBLIC_PROTOCOL === 'https' ? '443' : '80';
  const port = url.port || defaultPort;
  if (port !== (publicPort(config) || defaultPort)) return null;
  const hostname = url.hostname.toLowerCase();
  const base = baseHostname(config);
  if (hostname === base) return { kind: 'main' };
  if (!hostname.endsWith(`.${base}`)) return null;
  const label = hostname.slice(0, -(base.length + 1));
  const adminLabel = baseHostname({ PUBLIC_HOST: config.ADMIN_HOST.replace(/^https?:\/\//, '') }).split('.')[0];
  if (!SLUG.test(label) || label === adminLabel) return null;
  return { kind: 'minisite', slug: label };
}

/** The origin of an absolute URL ('https://host:port'), or null when it is not one. */
export function originOf(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}
