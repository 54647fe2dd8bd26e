/**
 * The cookies accounts set. All are HttpOnly, Path=/, SameSite=Lax and Secure outside localhost.
 *
 * SameSite=Lax, deliberately: a learner who follows a link from an e-mail or another site arrives signed in
 * (Strict would hide the session on that first page), while cross-site sub-requests (fetch, forms posted by
 * other sites, iframes) carry no cookie. State-changing requests are additionally checked by api/http/csrf.ts.
 *
 * - session: the login, on the parent domain in shared mode, host-only in hand-off mode (api/auth/site.ts).
 * - hand-off state: a short-lived, host-only nonce that binds a minisite's hand-off to the browser that started it.
 * - sign-up nonce: binds the password typed at sign-up to the browser that typed it (api/routes/auth.ts), for as
 *   long as the e-mailed confirmation link lives.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Config } from '../config.ts';
import { secureCookies, sharedCookieDomain } from '../auth/site.ts';

export const SESSION_COOKIE = 'mk_session';
export const HANDOFF_STATE_COOKIE = 'mk_handoff';
export const SIGNUP_NONCE_COOKIE = 'mk_signup';

type CookieConfig = Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PROTOCOL' | 'COOKIE_SECURE' | 'SESSION_COOKIE_DOMAIN'>;

function base(config: CookieConfig) {
  return { path: '/', httpOnly: true, secure: secureCookies(config), sameSite: 'Lax' as const };
}

/** Whether a request arrived on a host the shared cookie domain covers. */
function domainFor(c: Context, config: CookieConfig): string | undefined {
  const domain = sharedCookieDomain(config);
  if (!domain) return undefined;
  const host = (c.req.header('host') ?? '').replace(/:\d+$/, '').toLowerCase();
  // A request on some other host (a raw IP, a health check) gets a host-only cookie rather than one the browser would reject.
  return host === domain || host.endsWith(`.${domain}`) ? domain : undefined;
}

export function readSessionCookie(c: Context): string | undefined {
  return getCookie(c, SESSION_COOKIE);
}

export function setSessionCookie(c: Context, config: CookieConfig, token: string, maxAgeSeconds: number): void {
  setCookie(c, SESSION_COOKIE, token, { ...base(config), domain: domainFor(c, config), maxAge: maxAgeSeconds });
}

export function clearSessionCookie(c: Context, config: CookieConfig): void {
  deleteCookie(c, SESSION_COOKIE, { ...base(config), domain: domainFor(c, config) });
}

export function readHandoffStateCookie(c: Context): string | undefined {
  return getCookie(c, HANDOFF_STATE_COOKIE);
}

export function setHandoffStateCookie(c: Context, config: CookieConfig, value: string): void {
  setCookie(c, HANDOFF_STATE_COOKIE, value, { ...base(config), maxAge: 300 });
}

export function clearHandoffStateCookie(c: Context, config: CookieConfig): void {
  deleteCookie(c, HANDOFF_STATE_COOKIE, base(config));
}

export function readSignupNonceCookie(c: Context): string | undefined {
  return getCookie(c, SIGNUP_NONCE_COOKIE);
}

export function setSignupNonceCookie(c: Context, config: CookieConfig, value: string, maxAgeSeconds: number): void {
  setCookie(c, SIGNUP_NONCE_COOKIE, value, { ...base(config), domain: domainFor(c, config), maxAge: maxAgeSeconds });
}

export function clearSignupNonceCookie(c: Context, config: CookieConfig): void {
  deleteCookie(c, SIGNUP_NONCE_COOKIE, { ...base(config), domain: domainFor(c, config) });
}
