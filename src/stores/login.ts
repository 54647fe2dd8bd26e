/**
 * After login (spec 4, 5), for the login page only (kept out of identity.ts, which every page loads): the stored
 * redirect (localStorage authRedirect: only when its hostname ends with the allowed domain, never the site root),
 * else the admin host for educator admins, else /profile; a localhost minisite first collects its own session.
 */
import { AUTH_REDIRECT_KEY, isAllowedRedirect, postLoginDestination } from '../domain/redirects.ts';
import { adminOrigin, mainOrigin, storage, type Identity } from './identity.ts';

/** Spec 5: remembers the post-login redirect, only for our own domain and never the site root. */
export function rememberRedirect(url: string | null, allowedDomain: string = location.hostname): boolean {
  const store = storage('local');
  if (!store) return false;
  if (url && isAllowedRedirect(url, allowedDomain)) {
    store.setItem(AUTH_REDIRECT_KEY, url);
    return true;
  }
  store.removeItem(AUTH_REDIRECT_KEY);
  return false;
}

/** Spec 4 "After login": where to go now (and forget the stored redirect). */
export function takePostLoginDestination(identity: Identity, allowedDomain: string = location.hostname): string {
  const store = storage('local');
  const stored = store?.getItem(AUTH_REDIRECT_KEY) ?? null;
  store?.removeItem(AUTH_REDIRECT_KEY);
  return postLoginDestination({
    storedRedirect: stored && isAllowedRedirect(stored, allowedDomain) ? stored : null,
    identity,
    adminHost: identity.site?.adminOrigin ?? adminOrigin(),
  });
}

/**
 * Goes to a destination after login. A localhost minisite (hand-off mode) first collects its own session
 * from the main host through /api/auth/handoff/start on that minisite.
 */
export function goAfterLogin(destination: string): void {
  let url: URL;
  try {
    url = new URL(destination, location.href);
  } catch {
    location.assign('/profile');
    return;
  }
  const main = new URL(mainOrigin());
  // A destination on this very host (e.g. the admin host, where one can log in too) has the session just made here.
  const handoff = url.origin !== location.origin && url.host !== main.host && isHandoffHost(url.hostname, main.hostname) && url.port === main.port && url.protocol === main.protocol;
  if (handoff) {
    const start = new URL('/api/auth/handoff/start', url.origin);
    start.searchParams.set('return', url.toString());
    location.assign(start.toString());
    return;
  }
  location.assign(url.toString());
}

/** A minisite of a main host that cannot share a cookie domain (localhost, IP addresses). */
export function isHandoffHost(hostname: string, mainHostname: string): boolean {
  const sharedDomainPossible = mainHostname.includes('.') && !/^[\d.]+$/.test(mainHostname) && !mainHostname.includes(':');
  return !sharedDomainPossible && hostname.endsWith(`.${mainHostname}`);
}
