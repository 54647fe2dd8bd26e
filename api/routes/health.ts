import { Hono } from 'hono';
import { sql } from 'kysely';
import type { AppEnv } from '../app.ts';

/** GET /api/health: the process is up and the database answers. */
export function healthRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/health', async (c) => {
    const started = performance.now();
    await sql`select 1`.execute(c.var.deps.db);
    return c.json({ status: 'ok', database: c.var.deps.dialect, dbMs: Math.round((performance.now() - started) * 10) / 10 });
  });
  return app;
}
