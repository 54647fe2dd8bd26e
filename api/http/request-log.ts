/**
 * One structured log line per request, written when the answer has gone out (or the client went away):
 * request id, method, path (no query string: it can carry tokens), status and duration in milliseconds.
 * The id comes from the proxy in front when it sends a usable X-Request-Id, else it is made here; either
 * way it is sent back as X-Request-Id so a user's report can be matched to the line.
 * The same duration goes to the latency histogram (api/ops/metrics.ts) under the route pattern that answered
 * ('/checkout/:id/submit-response', '*' for pages and files), never the raw path: one series per route, not per id.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from '../deps.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../ops/metrics.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
const USABLE_ID = /^[\w.:-]{8,128}$/;

export function requestLog(log: Logger, metrics?: Metrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const given = c.req.header(REQUEST_ID_HEADER);
    const requestId = given && USABLE_ID.test(given) ? given : randomUUID();
    c.set('requestId', requestId);
    const started = performance.now();
    // Set on the Node response too: Astro's on-demand pages write to it directly, and Node merges it
    // with the headers of answers that go through Hono.
    const outgoing = (c.env as Partial<AppEnv['Bindings']> | undefined)?.outgoing;
    outgoing?.setHeader(REQUEST_ID_HEADER, requestId);
    const logging = log.enabled('info');
    // The route is known once the handlers have run, the duration once the answer is out: whichever comes
    // last records the request (an on-demand page can be written out before its handler returns).
    let route: string | null = null;
    let closed: { status: number; durationMs: number } | null = null;
    const observe = () => {
      if (metrics && route !== null && closed) metrics.observeRequest({ method: c.req.method, route, status: closed.status }, closed.durationMs / 1000);
    };
    if ((logging || metrics) && outgoing) {
      const { method } = c.req;
      const path = c.req.path;
      outgoing.once('close', () => {
        closed = { status: outgoing.statusCode, durationMs: performance.now() - started };
        observe();
        if (!logging) return;
        log.info('request', {
          requestId, method, path, status: outgoing.statusCode, durationMs: Math.round(closed.durationMs * 10) / 10,
          // The answer was cut short (the client went away before it was all written).
          ...(outgoing.writableEnded ? {} : { aborted: true }),
        });
      });
    }
    try {
      await next();
    } finally {
      route = routePath(c) || '*';
      if (!outgoing && metrics) {
        // No Node response (a request made in-process): the handlers' end is the answer's.
        closed = { status: c.res.status, durationMs: performance.now() - started };
      }
      observe();
    }
    if (!outgoing) c.header(REQUEST_ID_HEADER, requestId);
  };
}
