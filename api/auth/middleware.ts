/**
 * Who is asking: the auth middleware resolves the session of every /api request (and of on-demand pages)
 * and sets `c.var.user` (SessionUser | null).
 * - Browsers: the HttpOnly session cookie (api/http/cookies.ts).
 * - Embeds: `Authorization: Bearer <token>` obtained by the embed's one-time code exchange (they cannot rely
 *   on third-party cookies). A bearer header is never sent automatically by a browser, so it needs no CSRF check.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../deps.ts';
import { ProblemError } from '../../src/domain/problems.ts';
import { readSessionCookie } from '../http/cookies.ts';
import { authProblems } from './problems.ts';
import { resolveSession, type ResolvedSession } from './sessions.ts';
import type { SessionUser } from '../../src/domain/session-user.ts';

const resolved = new WeakMap<Request, ResolvedSession | null>();

function bearerToken(c: Context): string | null {
  const header = c.req.header('authorization');
  const match = header ? /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(header.trim()) : null;
  return match ? match[1] : null;
}

/** The session behind this request (resolved once per request). */
export async function requestSession(c: Context<AppEnv>): Promise<ResolvedSession | null> {
  const raw = c.req.raw;
  if (resolved.has(raw)) return resolved.get(raw) ?? null;
  const { db } = c.var.deps;
  const now = c.var.deps.now();
  let session: ResolvedSession | null = null;
  const bearer = bearerToken(c);
  const cache = c.var.deps.sessionCache;
  if (bearer) session = await resolveSession(db, bearer, 'bearer', now, cache);
  if (!session) {
    const cookie = readSessionCookie(c);
    if (cookie) session = await resolveSession(db, cookie, 'cookie', now, cache);
  }
  resolved.set(raw, session);
  return session;
}

/** Sets c.var.user for the rest of the request. */
export function authMiddleware(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const session = await requestSession(c);
    c.set('user', session?.user ?? null);
    await next();
  };
}

/** The signed-in user, or a 401 problem. */
export function requireUser(c: Context<AppEnv>): SessionUser {
  const user = c.var.user;
  if (!user) throw new ProblemError(authProblems.unauthenticated());
  return user;
}

/**
 * This process forgets the sessions it keeps of a user whose sessions, details or educators a request has just
 * changed (after the change committed), so its next request reads them anew; other processes hear of the change from
 * the database (api/auth/session-cache.ts).
 */
export function forgetSessionsOf(c: Context<AppEnv>, userId: string): void {
  c.var.deps.sessionCache?.forgetUser(userId);
}

/** Forgets the cached session of this request (after login or logout changed it). */
export function forgetRequestSession(c: Context<AppEnv>, session: ResolvedSession | null = null): void {
  resolved.set(c.req.raw, session);
  c.set('user', session?.user ?? null);
}
