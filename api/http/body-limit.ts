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
import type { AppEnv } from '../deps.ts';
import { problemType, type Problem } from '../../src/domain/problems.ts';
import { problemResponse } from './errors.ts';
import { COURSE_IMAGE_UPLOAD_BODY_LIMIT, COURSE_IMAGE_UPLOAD_PATH } from '../admin/course-images.ts';

export const JSON_BODY_MAX_BYTES = 64 * 1024;
/** An admin image upload: the image's own limit (10 MB) and room for the multipart envelope. */
export const ADMIN_IMAGE_BODY_MAX_BYTES = 10 * 1024 * 1024 + 64 * 1024;

/** Payment providers' webhook events are a few KB; anything far larger is not one (api/routes/payment-webhooks.ts). */
export const WEBHOOK_MAX_BYTES = 256 * 1024;

/** Larger limits for the few routes that need them (path prefix under the app, longest match first). */
const ROUTE_LIMITS: Array<{ prefix: string; pattern?: RegExp; limit: number }> = [
  // Provider events are signed over their exact bytes and can be a few hundred KB for large orders.
  { prefix: '/api/payments/webhooks/', limit: WEBHOOK_MAX_BYTES },
  // A course image straight from a phone's camera (api/admin/course-images.ts).
  { prefix: '/api/admin/educators/', pattern: COURSE_IMAGE_UPLOAD_PATH, limit: COURSE_IMAGE_UPLOAD_BODY_LIMIT },
  // An educator's logo or cover (api/admin/uploads.ts: at most 10 MB) in its multipart envelope.
  { prefix: '/api/admin/educators/', pattern: /^\/api\/admin\/educators\/[^/]+\/images\/[^/]+$/, limit: ADMIN_IMAGE_BODY_MAX_BYTES },
];

export function bodyLimitFor(path: string): number {
  return ROUTE_LIMITS.find((r) => path.startsWith(r.prefix) && (!r.pattern || r.pattern.test(path)))?.limit ?? JSON_BODY_MAX_BYTES;
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
  // The rest of the body is never read, so the connection cannot carry another request: it is closed.
  const refuse = (c: Parameters<MiddlewareHandler<AppEnv>>[0], limit: number) => {
    const res = problemResponse(c, payloadTooLarge(limit), c.var.deps.config.ERRORS_HOST);
    res.headers.set('connection', 'close');
    return res;
  };
  return async (c, next) => {
    const raw = c.req.raw;
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    const limit = bodyLimitFor(c.req.path);
    const declared = raw.headers.get('content-length');
    if (declared !== null && !raw.headers.has('transfer-encoding')) {
      const length = Number(declared);
      if (!Number.isFinite(length) || length > limit) return refuse(c, limit);
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
        return refuse(c, limit);
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
