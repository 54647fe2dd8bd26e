/**
 * Every request body has a size limit, enforced before the body is read whole: a body announced larger
 * than its limit (Content-Length) is refused at once, and a body without a length (chunked) is counted as
 * it streams in and refused as soon as it passes the limit. Either way the answer is 413 problem+json and
 * at most `limit` bytes were ever held in memory for the request.
 *
 * JSON bodies are small (a checkout step, a review, an enquiry): 64 KB each. Routes that need more say
 * so in ROUTE_LIMITS. Paths outside /api (pages) read no body at all, so only the announced length is
 * checked there: an unread body is discarded by Node as it arrives, never buffered.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app.ts';
import { ProblemError, problemType, type Problem } from '../../src/domain/problems.ts';
import { WEBHOOK_MAX_BYTES } from '../routes/payment-webhooks.ts';

export const JSON_BODY_MAX_BYTES = 64 * 1024;

/** Larger limits for the few routes that need them (path prefix under the app, longest match first). */
const ROUTE_LIMITS: Array<{ prefix: string; limit: number }> = [
  // Provider events are signed over their exact bytes and can be a few hundred KB for large orders.
  { prefix: '/api/payments/webhooks/', limit: WEBHOOK_MAX_BYTES },
];

export function bodyLimitFor(path: string): number {
  return ROUTE_LIMITS.find((r) => path.startsWith(r.prefix))?.limit ?? JSON_BODY_MAX_BYTES;
}

export function payloadTooLarge(limit: number): Problem {
  return {
    type: problemType('generic/payload-too-large'),
    title: 'Payload Too Large',
    status: 413,
    detail: `The request body must be at most ${Math.floor(limit / 1024)} KB.`,
  };
}

export function requestBodyLimit(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = c.req.raw;
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    const limit = bodyLimitFor(c.req.path);
    const declared = raw.headers.get('content-length');
    if (declared !== null && !raw.headers.has('transfer-encoding')) {
      const length = Number(declared);
      if (!Number.isFinite(length) || length > limit) throw new ProblemError(payloadTooLarge(limit));
      return next();
    }
    // Only /api routes read bodies; a page that is sent a chunked body never reads it.
    if (!raw.body || !c.req.path.startsWith('/api/')) return next();
    const reader = raw.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        // Stop reading: the rest is never buffered (Node discards it, or the connection closes).
        void reader.cancel().catch(() => {});
        throw new ProblemError(payloadTooLarge(limit));
      }
      chunks.push(value);
    }
    const body = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    // A fresh request with the bytes read (the original's stream is spent); its length is now known.
    const headers = new Headers(raw.headers);
    headers.delete('transfer-encoding');
    headers.set('content-length', String(size));
    c.req.raw = new Request(raw.url, { method: raw.method, headers, body, signal: raw.signal });
    return next();
  };
}
