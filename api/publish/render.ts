/**
 * Renders pages with the built site's own code: the Astro handler of dist/server/entry.mjs answers the
 * on-demand twins of the pre-rendered routes (src/pages/publish-render/*, src/lib/publish-render.ts) with
 * the props the publisher hands it in locals. The handler is a Node (req, res) middleware, so it is served
 * on a private loopback port that only this process knows, and each render is one request to it.
 *
 * Rendering in-process instead was weighed with Astro 7: the built entry of @astrojs/node exports only that
 * handler (not its App), so without the port we would hand-build Node request and response objects or ship an
 * adapter entry of our own. The port costs little: a bare node:http answer takes ~20 µs of CPU (bench:serve)
 * against ~4.5 ms of CPU per page rendered and compressed (bench:build), under 1 %.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PUBLISH_LOCALS, type PublishJob } from '../../src/lib/publish-render.ts';
import { releaseAstroRequest } from '../http/astro-request.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void, locals?: object) => Promise<void> | void;

export type TwinRoute = 'about' | 'courses' | 'reviews' | 'enquiry' | 'waitlist' | 'memberships' | 'course' | 'home' | 'category' | 'search';

export interface Renderer {
  render(route: TwinRoute, job: PublishJob<unknown>): Promise<string>;
  close(): Promise<void>;
}

export class RenderError extends Error {}

export async function createRenderer(distDir: string): Promise<Renderer> {
  const entry = resolve(distDir, 'server/entry.mjs');
  if (!existsSync(entry)) throw new RenderError(`No built site at ${entry}: run \`npm run build\` first`);
  const { handler } = (await import(pathToFileURL(entry).href)) as { handler: Handler };
  const jobs = new Map<string, PublishJob<unknown>>();
  const server: Server = createServer((req, res) => {
    const job = jobs.get(String(req.headers['x-publish-job'] ?? ''));
    Promise.resolve(handler(req, res, () => {
      releaseAstroRequest(req);
      res.statusCode = 404;
      res.end();
    }, job ? { [PUBLISH_LOCALS]: job } : {})).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  // Never what keeps a process alive.
  server.unref();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    async render(route, job) {
      const id = randomBytes(9).toString('base64url');
      jobs.set(id, job);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/publish-render/${route}`, { headers: { 'x-publish-job': id } });
        const body = await res.text();
        if (res.status !== 200) throw new RenderError(`render of ${route} answered ${res.status}: ${body.slice(0, 200)}`);
        return body;
      } finally {
        jobs.delete(id);
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
