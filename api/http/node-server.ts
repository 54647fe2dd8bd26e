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
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { bodyLimitFor } from './body-limit.ts';

const ALREADY_SENT = [...RESPONSE_ALREADY_SENT.headers.keys()][0];

/**
 * `Expect: 100-continue`: Node answers 100 Continue by itself unless told otherwise, inviting a body the app
 * will refuse. A body announced larger than its limit is not invited: the request goes to the app without a
 * 100, and the body limit answers 413 (and closes the connection) before the client sends a byte of it.
 */
function continueOnlyWithinLimit(server: Server): void {
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const declared = req.headers['content-length'];
    let path = '/';
    try {
      path = new URL(req.url ?? '/', 'http://x').pathname;
    } catch {
      // An unparseable target gets the default limit; the app answers it.
    }
    const tooLarge = declared !== undefined && !req.headers['transfer-encoding'] && !(Number(declared) <= bodyLimitFor(path));
    if (!tooLarge) res.writeContinue();
    server.emit('request', req, res);
  });
}

/** What the node server calls for each request (a Hono app's fetch, bound). */
type Fetch = (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>;

function headSafe(fetch: Fetch): Fetch {
  return (request, env) => {
    const answer = fetch(request, env);
    if (request.method !== 'HEAD') return answer;
    return Promise.resolve(answer).then((res) => (res.headers.has(ALREADY_SENT) ? RESPONSE_ALREADY_SENT : res));
  };
}

/**
 * How long an idle keep-alive connection stays open. A client (a load balancer, a proxy's upstream pool, a browser,
 * a test's HTTP client) that sends a request on a connection at the moment the server closes it gets it reset: a
 * 502 or a failed fetch with nothing wrong, likelier the busier the machine. The side that keeps connections open
 * must be the one to close them, so the server waits longer than the usual proxies do (an AWS load balancer's idle
 * timeout and nginx's upstream keepalive_timeout are 60 s by default) rather than Node's 5 s.
 */
export const KEEP_ALIVE_MS = 65_000;

/** Listens on the port (0: any free one) and resolves once it does. */
export async function listen(app: { fetch: Fetch }, port: number, hostname: string): Promise<Server> {
  const server = serve({ fetch: headSafe((request, env) => app.fetch(request, env)), port, hostname }) as Server;
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // Node's own advice: headersTimeout above keepAliveTimeout, so a request that starts on a kept connection just
  // before it would be closed is not cut short.
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  continueOnlyWithinLimit(server);
  // Were the marker built by the light class (its module evaluated again after a server replaced the globals),
  // every answer written straight to the socket would be written twice: refuse to run like that.
  if (RESPONSE_ALREADY_SENT.constructor === globalThis.Response) {
    server.close();
    throw new Error('RESPONSE_ALREADY_SENT was built after the node server replaced the global Response');
  }
  await new Promise<void>((ok) => server.once('listening', () => ok()));
  return server;
}
