/**
 * One structured log line per request, written when the answer has gone out (or the client went away):
 * request id, method, path (no query string: it can carry tokens), status and duration in milliseconds.
 * The id comes from the proxy in front when it sends a usable X-Request-Id, else it is made here; either
 * way it is sent back as X-Request-Id so a user's report can be matched to the line.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app.ts';
import type { Logger } from '../log.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
const USABLE_ID = /^[\w.:-]{8,128}$/;

export function requestLog(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const given = c.req.header(REQUEST_ID_HEADER);
    const requestId = given && USABLE_ID.test(given) ? given : randomUUID();
    c.set('requestId', requestId);
    const started = performance.now();
    // Set on the Node response too: Astro's on-demand pages write to it directly, and Node merges it
    // with the headers of answers that go through Hono.
    const outgoing = (c.env as Partial<AppEnv['Bindings']> | undefined)?.outgoing;
    outgoing?.setHeader(REQUEST_ID_HEADER, requestId);
    if (log.enabled('info') && outgoing) {
      const { method } = c.req;
      const path = c.req.path;
      outgoing.once('close', () => {
        log.info('request', {
          requestId, method, path, status: outgoing.statusCode, durationMs: Math.round((performance.now() - started) * 10) / 10,
          // The answer was cut short (the client went away before it was all written).
          ...(outgoing.writableEnded ? {} : { aborted: true }),
        });
      });
    }
    await next();
    if (!outgoing) c.header(REQUEST_ID_HEADER, requestId);
  };
}
