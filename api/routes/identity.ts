/**
 * GET /api/identity: the spec's Identity (3 "Identity (iam)") for the session of this request —
 * cookie on the marketplace and minisites, bearer token in an embed. Never cached.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { identityOf } from '../auth/identity.ts';

export function identityRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/identity', async (c) => {
    const { db, config } = c.var.deps;
    const identity = await identityOf(db, c.var.user, c.var.site, config);
    return c.json(identity, 200, { 'cache-control': 'no-store', vary: 'Cookie, Authorization' });
  });
  return app;
}
