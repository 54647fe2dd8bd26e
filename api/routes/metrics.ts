import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { problemResponse } from '../http/errors.ts';
import { metricsTokenMatches, type Metrics } from '../ops/metrics.ts';
import { problemType } from '../../src/domain/problems.ts';

/**
 * GET /api/metrics: the Prometheus text of this process, for a scraper holding METRICS_TOKEN as a bearer token
 * (mounted only when the token is set; docs/operations.md "Metrics and readiness").
 */
export function metricsRoutes(metrics: Metrics) {
  const app = new Hono<AppEnv>();
  app.get('/metrics', async (c) => {
    const { config } = c.var.deps;
    if (!metricsTokenMatches(c.req.header('authorization'), config.METRICS_TOKEN)) {
      const res = problemResponse(c, {
        type: problemType('generic/unauthorised'), title: 'Unauthorised', status: 401, detail: 'The metrics need the bearer token set in METRICS_TOKEN.',
      }, config.ERRORS_HOST);
      res.headers.set('www-authenticate', 'Bearer realm="metrics"');
      return res;
    }
    const body = await metrics.registry.metrics();
    return c.body(body, 200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
  });
  return app;
}
