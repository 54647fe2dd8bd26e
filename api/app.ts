/**
 * The composition root: the only module that knows every part.
 * Order: request log → request context and security headers → host, body and URL checks → /api → static files
 * (minisite rewrite) → on-demand pages (Astro) → 404.
 */
import { Hono } from 'hono';
import type { AppEnv, AstroHandler, Deps } from './deps.ts';
import type { Logger } from './log.ts';
import { problemResponse, toProblem } from './http/errors.ts';
import { refuseAmbiguousHost, resolveSite, requestHost } from './http/context.ts';
import { loggerFor } from './log.ts';
import { requestLog } from './http/request-log.ts';
import { requestBodyLimit } from './http/body-limit.ts';
import { refuseNulInUrl } from './http/nul.ts';
import { baseSecurityHeaders } from './http/security-headers.ts';
import { apiCors } from './http/cors.ts';
import { SitePages, framingOf } from './http/site-pages.ts';
import { createMetrics } from './ops/metrics.ts';
import { createPageServices } from './pages/services.ts';
import { apiRoutes } from './routes/index.ts';
import { handlePaymentEvent } from './checkout/engine.ts';

export function createApp(deps: Deps, options: { astro?: AstroHandler } = {}) {
  const { config } = deps;
  const app = new Hono<AppEnv>();
  const log = loggerFor(config);
  // One registry per app, kept on deps so the server's metrics port shows the same one.
  const metrics = (deps.metrics ??= createMetrics(deps));
  // A provider's payment events reach the checkout through this port (api/payments/port.ts): the payment modules
  // never import the checkout, which imports them.
  deps.paymentEvents ??= { succeeded: (event) => handlePaymentEvent(deps, event) };
  app.onError(problemAnswer(deps, log));
  // First, so every request is logged and carries its id, whatever answers it.
  app.use('*', requestLog(log, metrics));
  app.use('*', requestContext(deps));
  // Two Host headers: no guessing which site was meant (400).
  app.use('*', refuseAmbiguousHost());
  // Before any route reads a body: every body has a size limit (413 before it is read whole).
  app.use('*', requestBodyLimit());
  app.use('*', refuseNulInUrl());

  // CORS for the API (api/http/cors.ts): marketplace, minisites and API_ORIGIN, with credentials.
  app.use('/api/*', apiCors(config));
  app.route('/api', apiRoutes(config, metrics));

  const pages = new SitePages(config);
  app.on(['GET', 'HEAD'], '*', pages.staticFiles());
  // What on-demand pages ask the server for (src/lib/page-services.ts).
  if (options.astro) app.all('*', pages.onDemandPages(deps, options.astro, createPageServices(deps)));
  app.all('*', (c) => pages.notFound(c));
  return app;
}

/** Every error becomes problem details (spec 8); only a server fault (5xx) is logged, with its stack. */
function problemAnswer(deps: Deps, log: Logger) {
  return (err: Error, c: import('hono').Context<AppEnv>) => {
    const problem = toProblem(err);
    if (problem.status >= 500) log.error('request failed', { requestId: c.var.requestId, path: c.req.path, error: err });
    const res = problemResponse(c, problem, deps.config.ERRORS_HOST);
    if (problem.status === 429 && typeof problem.retryAfter === 'number') res.headers.set('retry-after', String(problem.retryAfter));
    return res;
  };
}

/**
 * What every handler reads (deps, the request's site, no user yet) and the security headers every answer carries
 * (api/http/security-headers.ts), set first on the Node response itself: on-demand pages are written there by
 * Astro, around Hono, and Node merges these into whatever is written later.
 */
function requestContext(deps: Deps) {
  const { config } = deps;
  return async (c: import('hono').Context<AppEnv>, next: () => Promise<void>) => {
    c.set('deps', deps);
    c.set('site', resolveSite(requestHost(c, config), c.req.path, config));
    c.set('user', null);
    const security = baseSecurityHeaders(config, framingOf(c.var.site));
    const outgoing = (c.env as Partial<AppEnv['Bindings']> | undefined)?.outgoing;
    if (outgoing) for (const [name, value] of Object.entries(security)) outgoing.setHeader(name, value);
    await next();
    // Answers written straight to the Node response (static files, on-demand pages) got them there.
    if (outgoing?.headersSent) return;
    const h = c.res.headers;
    for (const [name, value] of Object.entries(security)) {
      // A response's own policy (an HTML page's script hashes) is kept.
      if (name === 'content-security-policy' && h.has(name)) continue;
      h.set(name, value);
    }
  };
}
