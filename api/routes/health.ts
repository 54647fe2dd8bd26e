import { Hono } from 'hono';
import { sql } from 'kysely';
import type { AppEnv } from '../deps.ts';
import { problemResponse } from '../http/errors.ts';
import { checkReadiness } from '../ops/readiness.ts';
import { problemType } from '../../src/domain/problems.ts';

/**
 * GET /api/health: the process is up and the database answers (liveness).
 * GET /api/ready: this process should get traffic (api/ops/readiness.ts): 200, or 503 naming what is wrong.
 */
export function healthRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/health', async (c) => {
    const started = performance.now();
    await sql`select 1`.execute(c.var.deps.db);
    return c.json({ status: 'ok', database: c.var.deps.dialect, dbMs: Math.round((performance.now() - started) * 10) / 10 });
  });
  app.get('/ready', async (c) => {
    const checks = await checkReadiness(c.var.deps);
    const failed = checks.filter((check) => !check.ok);
    c.header('cache-control', 'no-store');
    if (failed.length === 0) return c.json({ status: 'ready', checks });
    return problemResponse(c, {
      type: problemType('generic/not-ready'), title: 'Not Ready', status: 503,
      detail: failed.map((check) => `${check.name}: ${check.detail}`).join('; '),
      failed: failed.map((check) => check.name), checks,
    }, c.var.deps.config.ERRORS_HOST);
  });
  return app;
}
