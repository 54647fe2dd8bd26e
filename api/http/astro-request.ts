import type { IncomingMessage } from 'node:http';

/**
 * Astro's Node handler, reading a request, adds a 'close' listener to its socket (to abort the render if the client
 * goes) and removes it only when it writes the answer. A request it passes on — no route: a missing page, or a
 * path tried first as a minisite's — would keep it for the life of the keep-alive connection, one more per
 * request. Astro keeps the clean-up on the request under this registered symbol; we run it when it passes.
 */
const ASTRO_REQUEST_CLEANUP = Symbol.for('astro.nodeRequestAbortControllerCleanup');
export function releaseAstroRequest(req: IncomingMessage): void {
  const cleanup: unknown = Reflect.get(req, ASTRO_REQUEST_CLEANUP);
  if (typeof cleanup === 'function') cleanup();
}
