/**
 * Who may use the educator admin's API: every route under /admin/educators/{educatorId}/… is for a signed-in user
 * who administers that educator (educator_admins), checked on each request from the session (which reads the
 * user's educators afresh), never from anything the browser sends. No session: 401; a learner or another
 * educator's admin: 403 — the same answer whether or not the educator exists, so ids cannot be probed.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import type { SessionUser } from '../../src/domain/session-user.ts';
import { ProblemError } from '../../src/domain/problems.ts';
import { authProblems } from '../auth/problems.ts';

/** An educator id as the API takes it. */
export const educatorIdParam = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'is not an educator id');

/** The signed-in user when they administer `educatorId`; throws 401 / 403 otherwise. */
export function requireEducatorAdmin(c: Context<AppEnv>, educatorId: string): SessionUser {
  const user = c.var.user;
  if (!user) throw new ProblemError(authProblems.unauthenticated());
  if (!user.educatorIds.includes(educatorId)) throw new ProblemError(authProblems.forbidden('You do not administer this educator.'));
  return user;
}

/**
 * Middleware for a router mounted at /admin/educators/:educatorId: every route below it is refused unless the
 * signed-in user administers that educator. Handlers then read the id with `adminEducatorId(c)`.
 */
export function educatorAdminOnly(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const parsed = educatorIdParam.safeParse(c.req.param('educatorId'));
    if (!c.var.user) throw new ProblemError(authProblems.unauthenticated());
    if (!parsed.success) throw new ProblemError(authProblems.forbidden('You do not administer this educator.'));
    requireEducatorAdmin(c, parsed.data);
    return next();
  };
}

/** The educator of an admin route (after `educatorAdminOnly` let the request through). */
export function adminEducatorId(c: Context<AppEnv>): string {
  const id = c.req.param('educatorId');
  if (!id || !c.var.user?.educatorIds.includes(id)) throw new ProblemError(authProblems.forbidden('You do not administer this educator.'));
  return id;
}
