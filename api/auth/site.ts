/**
 * Which hosts belong to the product and how a session reaches them.
 *
 * - The main site is {PUBLIC_PROTOCOL}://{PUBLIC_HOST}; minisites are {slug}.{PUBLIC_HOST} (same protocol and port).
 * - Shared mode: when PUBLIC_HOST has a parent domain a browser accepts in a cookie's Domain attribute
 *   (anything with a dot that is not an IP address, e.g. marketplace.example), the session cookie is set on
 *   that domain and every minisite receives it.
 * - Hand-off mode: `localhost` (and IP addresses) cannot carry a Domain cookie — Chromium stores
 *   `Domain=localhost` as a host-only cookie and treats slug.localhost as another site — so each host keeps
 *   its own host-only cookie, and a minisite obtains one from the main host through a one-time token
 *   redirect (api/routes/auth.ts, "hand-off"). See api/auth/README.md.
 */
import { isIP } from 'node:net';
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

/** The admin dashboard's origin (ADMIN_HOST may be given with or without a protocol). */
export function adminOrigin(config: Pick<Config, 'ADMIN_HOST' | 'PUBLIC_PROTOCOL'>): string {
  return /^https?:\/\//.test(config.ADMIN_HOST) ? config.ADMIN_HOST.replace(/\/+$/, '') : `${config.PUBLIC_PROTOCOL}://${config.ADMIN_HOST}`;
}

export function isLocalHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** The Domain attribute of the session cookie, or null for host-only cookies (hand-off mode). */
export function sharedCookieDomain(config: Pick<Config, 'PUBLIC_HOST' | 'SESSION_COOKIE_DOMAIN'>): string | null {
  if (config.SESSION_COOKIE_DOMAIN) return config.SESSION_COOKIE_DOMAIN.replace(/^\./, '').toLowerCase();
  const base = baseHostname(config);
  if (isIP(base) || !base.includes('.')) return null;
  return base;
}

/** True when minisites get their session by hand-off rather than by a shared cookie. */
export function usesHandoff(config: Pick<Config, 'PUBLIC_HOST' | 'SESSION_COOKIE_DOMAIN'>): boolean {
  return sharedCookieDomain(config) === null;
}

export function secureCookies(config: Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PROTOCOL' | 'COOKIE_SECURE'>): boolean {
  if (config.COOKIE_SECURE === 'true') return true;
  if (config.COOKIE_SECURE === 'false') return false;
  return config.PUBLIC_PROTOCOL === 'https' || !isLocalHostname(baseHostname(config));
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

/** The origin ('{protocol}://{host}') of an absolute URL, or null. */
export function originOf(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}
