/**
 * The Numbers dashboard's API (docs/admin.md "Numbers"), relative to /admin/educators/{educatorId}:
 *
 *   GET /numbers?from=YYYY-MM-DD&to=YYYY-MM-DD → views, enquiries, the checkout funnel by step, conversion per
 *                                               context and per course (the last 30 days by default)
 */
import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { parseQuery } from '../http/parse.ts';
import { adminEducatorId } from './access.ts';
import { invalid } from './catalogue-saves.ts';
import { educatorNumbers } from '../../db/queries/admin-numbers.ts';
import { numbersPeriod, numbersQuerySchema } from '../../src/domain/admin/numbers.ts';

export function numbersAdminRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/numbers', async (c) => {
    const q = parseQuery(c, numbersQuerySchema);
    const period = numbersPeriod(q, c.var.deps.now());
    if ('error' in period) throw invalid('from', period.error);
    return c.json({ from: period.from, to: period.to, ...(await educatorNumbers(c.var.deps.db, adminEducatorId(c), period.from, period.to)) });
  });
  return app;
}
