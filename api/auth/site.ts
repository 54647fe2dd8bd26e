/**
 * How a session reaches the product's hosts (the hosts themselves: api/shared/origins.ts).
 *
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
import { isLocalHostname } from '../shared/origins.ts';

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
