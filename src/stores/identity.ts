/**
 * The signed-in user, for every island (spec 3 "Identity (iam)"): one nanostore filled from GET /api/identity.
 *
 * - Marketplace and minisites: the HttpOnly session cookie (shared through the parent domain, or handed to a
 *   localhost minisite by the one-time-token redirect; see api/auth/README.md).
 * - Embed: no third-party cookies (the login window and the code exchange are in embed-login.ts). Logging in opens the main site's /login in a first-party window
 *   (window.open … mode=embed); after login that window posts a one-time code back
 *   ({type: 'marketplace:embed-code', code}, main-site origin only); the embed trades it for a bearer token,
 *   kept in sessionStorage ('marketplace:embed_token') and sent as `Authorization: Bearer`.
 * - After login (spec 4, 5): see login.ts (only the login page needs it).
 */
import { isEducatorAdmin } from '../domain/roles.ts';
import { atom } from 'nanostores';
import type { Identity as ApiIdentity, IdentityEducator } from '../../api/auth/identity.ts';
import { apiUrl } from '../lib/api-url.ts';
import { loginUrl, logoutUrl } from '../domain/links.ts';

export type { IdentityEducator };

/**
 * GET /api/identity's answer (api/auth/identity.ts), as the islands hold it: `ready` is false and `site` null
 * until the first answer arrives. (Type-only import: nothing of the server reaches the browser bundle.)
 */
export type Identity = Omit<ApiIdentity, 'ready' | 'site'> & { ready: boolean; site: ApiIdentity['site'] | null };

export const SIGNED_OUT: Identity = {
  authenticated: false, ready: false, id: null, userId: null, studentId: null, email: null, emailConfirmed: false,
  firstName: null, lastName: null, avatar: { url: null }, educators: [], site: null,
};

export const $identity = atom<Identity>(SIGNED_OUT);

/** The embed's bearer token (sessionStorage of the embed's own, partitioned storage). */
export const EMBED_TOKEN_KEY = 'marketplace:embed_token';
/** The message a first-party login window posts to the embed that opened it. */
export const EMBED_CODE_MESSAGE = 'marketplace:embed-code';
/** sessionStorage flag on a localhost minisite: the hand-off from the main host was tried in this tab. */
export const HANDOFF_CHECKED_KEY = 'marketplace:handoff-checked';

/** Local or session storage, or null where the browser refuses it (a third-party frame, privacy modes). */
export function storage(kind: 'local' | 'session'): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * The embed's token also lives in memory: a third-party iframe may be denied sessionStorage altogether
 * (Chromium throws SecurityError when third-party storage is blocked), and then the page keeps it until it unloads.
 */
let memoryToken: string | null = null;

export function embedToken(): string | null {
  try {
    return memoryToken ?? storage('session')?.getItem(EMBED_TOKEN_KEY) ?? null;
  } catch {
    return memoryToken;
  }
}

/** Keeps (or with null forgets) the embed's bearer token. */
export function keepEmbedToken(token: string | null): void {
  memoryToken = token;
  try {
    const store = storage('session');
    if (token) store?.setItem(EMBED_TOKEN_KEY, token);
    else store?.removeItem(EMBED_TOKEN_KEY);
  } catch {
    /* storage denied: memory only */
  }
}

/** Headers every API call from an island sends (the embed's bearer token, when it has one). */
export function authHeaders(): Record<string, string> {
  const token = embedToken();
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** fetch() to the API with credentials and the embed token. */
export function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  for (const [k, v] of Object.entries(authHeaders())) headers.set(k, v);
  if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json');
  headers.set('accept', 'application/json');
  return fetch(apiUrl(path), { credentials: 'include', cache: 'no-store', ...init, headers });
}

let pending: Promise<Identity> | null = null;

/** Loads (or reloads) the identity; concurrent callers share one request. */
export function loadIdentity(force = false): Promise<Identity> {
  if (!force && $identity.get().ready) return Promise.resolve($identity.get());
  pending ??= (async () => {
    try {
      const res = await apiFetch('/identity');
      if (!res.ok) throw new Error(String(res.status));
      const body = (await res.json()) as Identity;
      if (!body.authenticated && embedToken()) keepEmbedToken(null);
      $identity.set({ ...SIGNED_OUT, ...body, ready: true });
    } catch {
      $identity.set({ ...$identity.get(), ready: true });
    } finally {
      pending = null;
    }
    return $identity.get();
  })();
  return pending;
}

/** The page's app context, from the identity's answer or the address. */
export function currentContext(): 'marketplace' | 'minisite' | 'embed' {
  const site = $identity.get().site;
  if (location.pathname === '/embed' || location.pathname.startsWith('/embed/')) return 'embed';
  return site?.context ?? 'marketplace';
}

/** The main site's origin (login lives there). */
export function mainOrigin(): string {
  return $identity.get().site?.mainOrigin ?? location.origin;
}

export function adminOrigin(): string {
  return $identity.get().site?.adminOrigin ?? location.origin;
}

/** Spec 2.5: {host}/login?redirect={currentUrl}&educator={educatorId}; no educator from the marketplace. */
export function loginHref(options: { educatorId?: string | null; redirect?: string | null } = {}): string {
  const main = new URL(mainOrigin());
  const context = currentContext();
  return loginUrl({
    host: main.host,
    protocol: main.protocol,
    currentUrl: options.redirect ?? location.href,
    educatorId: options.educatorId ?? null,
    origin: context,
  });
}

/** Spec 2.5: /logout?redirect={current url}. */
export function logoutHref(redirect: string = location.href): string {
  return logoutUrl(redirect);
}

/** Is this identity an admin of the educator (spec 6)? */
export function administers(identity: Identity, educatorId: string | null | undefined): boolean {
  return !!educatorId && isEducatorAdmin(identity, educatorId);
}
