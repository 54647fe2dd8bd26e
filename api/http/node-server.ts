/**
 * The Hono app on a Node HTTP server, used by the product (api/server.ts) and by the tests alike.
 *
 * @hono/node-server is let replace the global Request and Response with its own light ones: a JSON answer then
 * goes from `c.json` to the socket as a string, with no web Response built and read back as a stream. On the
 * checkout that was about a tenth of the server's CPU (docs/benchmarks.md).
 *
 * One thing needs help with it. Answers written straight to the Node response (static files, Astro's pages)
 * return RESPONSE_ALREADY_SENT, whose marker header tells the node server to write nothing more. For a HEAD
 * request Hono routes as GET and copies the answer into `new Response(null, answer)`: with the light Response
 * that copy is written as it stands, marker and all, after the headers were already sent. So a HEAD answer that
 * carries the marker is swapped back for RESPONSE_ALREADY_SENT itself, which was built by the web Response class
 * when its module loaded (before any server replaced the globals), the kind the node server checks for the marker.
 */
import type { Server } from 'node:http';
import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';

const ALREADY_SENT = [...RESPONSE_ALREADY_SENT.headers.keys()][0];

/** What the node server calls for each request (a Hono app's fetch, bound). */
type Fetch = (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>;

function headSafe(fetch: Fetch): Fetch {
  return (request, env) => {
    const answer = fetch(request, env);
    if (request.method !== 'HEAD') return answer;
    return Promise.resolve(answer).then((res) => (res.headers.has(ALREADY_SENT) ? RESPONSE_ALREADY_SENT : res));
  };
}

/** Listens on the port (0: any free one) and resolves once it does. */
export async function listen(app: { fetch: Fetch }, port: number, hostname: string): Promise<Server> {
  const server = serve({ fetch: headSafe((request, env) => app.fetch(request, env)), port, hostname }) as Server;
  // Were the marker built by the light class (its module evaluated again after a server replaced the globals),
  // every answer written straight to the socket would be written twice: refuse to run like that.
  if (RESPONSE_ALREADY_SENT.constructor === globalThis.Response) {
    server.close();
    throw new Error('RESPONSE_ALREADY_SENT was built after the node server replaced the global Response');
  }
  await new Promise<void>((ok) => server.once('listening', () => ok()));
  return server;
}
