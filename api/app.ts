/**
 * The composition root: the only module that knows every part.
 * Order: security headers → host → context → /api → static files (minisite rewrite) → Astro (on-demand pages) → 404.
 */
import { posix, resolve } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Hono } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Config } from './config.ts';
import type { Db, Dialect } from '../db/client.ts';
import { problemResponse, toProblem } from './http/errors.ts';
import { refuseAmbiguousHost, resolveSite, requestHost, type RequestSite } from './http/context.ts';
import { findStaticFile, staticAnswer, staticAnswerResponse, writeStaticAnswer, type StaticAnswer, type StaticFile } from './http/static.ts';
import { problems } from '../src/domain/problems.ts';
import { loggerFor } from './log.ts';
import { requestLog } from './http/request-log.ts';
import { requestBodyLimit } from './http/body-limit.ts';
import { refuseNulInUrl } from './http/nul.ts';
import { releaseAstroRequest } from './http/astro-request.ts';
import { baseSecurityHeaders, buildScriptHashes, holdHtmlForCsp, htmlCsp } from './http/security-headers.ts';
import { healthRoutes } from './routes/health.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { createMetrics, type Metrics } from './ops/metrics.ts';
// Checkout.
import { paymentOptionsRoutes } from './routes/payment-options.ts';
import { giftVoucherRoutes } from './routes/gift-vouchers.ts';
import { giftCardRoutes } from './routes/gift-cards.ts';
import { checkoutRoutes } from './routes/checkout.ts';
import { formsRoutes } from './routes/forms.ts';
import { studentMetadataRoutes } from './routes/student-metadata.ts';
import { costSummaryRoutes } from './routes/cost-summary.ts';
import { vouchersRoutes } from './routes/vouchers.ts';
import { availabilityRoutes } from './routes/availability.ts';
import { bookingsRoutes } from './routes/bookings.ts';
import { testPaymentsRoutes } from './routes/test-payments.ts';
import { apiCors } from './http/cors.ts';
import { reviewsRoutes } from './routes/reviews.ts';
import { enquiriesRoutes } from './routes/enquiries.ts';
import { locationsRoutes } from './routes/locations.ts';
import { courseDataRoutes } from './routes/course-data.ts';
import { searchRoutes } from './routes/search.ts';
import { analyticsRoutes } from './routes/analytics.ts';
import { captchaRoutes } from './routes/captcha.ts';
import type { SessionUser } from './auth/types.ts';
// Accounts: session middleware, CSRF check, auth / identity / saved courses / reviews / claims / account routes.
import { authMiddleware, requestSession } from './auth/middleware.ts';
import { csrfProtection } from './http/csrf.ts';
import { authRoutes } from './routes/auth.ts';
import { identityRoutes } from './routes/identity.ts';
import { savedCoursesRoutes } from './routes/saved-courses.ts';
import { learnerReviewsRoutes } from './routes/learner-reviews.ts';
import { claimsRoutes } from './routes/claims.ts';
import { accountRoutes } from './routes/account.ts';
// Payments: provider webhooks (raw body, signature-verified; no Origin header, so CSRF lets them through).
import { paymentWebhookRoutes } from './routes/payment-webhooks.ts';
import { membershipsRoutes, membershipTestRoutes } from './routes/memberships.ts';
import { createPageServices } from './pages/services.ts';

export interface Deps {
  db: Db;
  dialect: Dialect;
  config: Config;
  /** Clock in epoch seconds; tests may pin it. */
  now(): number;
  /** Prometheus metrics (api/ops/metrics.ts); createApp makes them when not given. */
  metrics?: Metrics;
}

export type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void, locals?: object) => Promise<void> | void;

export type AppEnv = {
  Bindings: HttpBindings;
  /** `user` is null for a visitor who is not signed in (set by the auth middleware). */
  Variables: { deps: Deps; site: RequestSite; user: SessionUser | null; requestId: string };
};

export function createApp(deps: Deps, options: { astro?: AstroHandler } = {}) {
  const { config } = deps;
  const clientDir = resolve(config.DIST_DIR, 'client');
  const app = new Hono<AppEnv>();
  // What on-demand pages ask the server for (src/lib/page-services.ts).
  const services = createPageServices(deps);

  const log = loggerFor(config);
  // One registry per app, kept on deps so the server's metrics port shows the same one.
  const metrics = (deps.metrics ??= createMetrics(deps));
  app.onError((err, c) => {
    const problem = toProblem(err);
    if (problem.status >= 500) log.error('request failed', { requestId: c.var.requestId, path: c.req.path, error: err });
    const res = problemResponse(c, problem, config.ERRORS_HOST);
    if (problem.status === 429 && typeof problem.retryAfter === 'number') res.headers.set('retry-after', String(problem.retryAfter));
    return res;
  });

  // First, so every request is logged and carries its id, whatever answers it.
  app.use('*', requestLog(log, metrics));
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    c.set('site', resolveSite(requestHost(c, config), c.req.path, config));
    c.set('user', null);
    // Security headers (api/http/security-headers.ts), first on the Node response itself: on-demand pages
    // are written there by Astro, around Hono, and Node merges these into whatever is written later.
    const security = baseSecurityHeaders(config, c.var.site.context);
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
  });
  // Two Host headers: no guessing which site was meant (400).
  app.use('*', refuseAmbiguousHost());
  // Before any route reads a body: every body has a size limit (413 before it is read whole).
  app.use('*', requestBodyLimit());
  app.use('*', refuseNulInUrl());

  const api = new Hono<AppEnv>();
  // Accounts: refuse cross-site state-changing requests, then resolve the session into c.var.user.
  api.use('*', csrfProtection());
  api.use('*', authMiddleware());
  // Route modules, one per resource (spec section 7). Add new ones above the catch-all.
  api.route('/', healthRoutes());
  if (config.METRICS_TOKEN) api.route('/', metricsRoutes(metrics));
  api.route('/', reviewsRoutes());
  api.route('/', enquiriesRoutes());
  api.route('/', locationsRoutes());
  api.route('/', courseDataRoutes());
  api.route('/', searchRoutes());
  api.route('/', analyticsRoutes());
  api.route('/', captchaRoutes());
  // Accounts routes.
  api.route('/', authRoutes());
  api.route('/', identityRoutes());
  api.route('/', savedCoursesRoutes());
  api.route('/', learnerReviewsRoutes());
  api.route('/', claimsRoutes());
  api.route('/', accountRoutes());
  // Payment provider webhooks.
  api.route('/', paymentWebhookRoutes());
  // Checkout routes (payment-options before the checkout's own /checkout/{id}).
  api.route('/', paymentOptionsRoutes());
  api.route('/', checkoutRoutes());
  api.route('/', formsRoutes());
  api.route('/', studentMetadataRoutes());
  api.route('/', costSummaryRoutes());
  api.route('/', vouchersRoutes());
  api.route('/', giftVoucherRoutes());
  api.route('/', giftCardRoutes());
  api.route('/', availabilityRoutes());
  api.route('/', bookingsRoutes());
  api.route('/', membershipsRoutes());
  // The test provider's "servers" exist only while test payments are switched on (api/payments/registry.ts).
  if (config.PAYMENTS_MODE === 'test') api.route('/', testPaymentsRoutes());
  if (config.PAYMENTS_MODE === 'test') api.route('/', membershipTestRoutes());
  api.all('*', (c) => problemResponse(c, problems.notFound(), config.ERRORS_HOST));
  // CORS for the API (api/http/cors.ts): marketplace, minisites and API_ORIGIN, with credentials.
  app.use('/api/*', apiCors(config));
  app.route('/api', api);

  // Pre-rendered pages and assets.
  app.on(['GET', 'HEAD'], '*', async (c, next) => {
    const site = c.get('site');
    const path = c.req.path;
    // Minisite pages live under /minisite/{slug}; that folder is not reachable on the marketplace host,
    // and a minisite host reaches only its own folder. Checked on the path as the file lookup will read it
    // (decoded, dot segments resolved): '/minisite%2f{slug}/' is the same folder.
    if (!site.minisiteSlug && inMinisiteFolder(path)) return next();
    const lookup = site.minisiteSlug && !path.startsWith('/_astro/') && !path.startsWith('/images/')
      ? `/minisite/${site.minisiteSlug}${path === '/' ? '' : path}`
      : path;
    if (site.minisiteSlug && lookup !== path && !inFolder(lookup, `/minisite/${site.minisiteSlug}`)) return notFound(c);
    // The embed's enquiry page is one shell for every educator (?educator={slug}): an educator without
    // enquiry data (unknown, or not contactable) is a real 404, not a 200 page that says so.
    if (!site.minisiteSlug && (path === '/embed/enquiry' || path === '/embed/enquiry/')) {
      const slug = c.req.query('educator') ?? '';
      if (!/^[a-z0-9][a-z0-9-]{0,199}$/.test(slug) || !findStaticFile(clientDir, `/embed/${slug}/enquiry.json`)) return notFound(c);
    }
    const file = findStaticFile(clientDir, lookup);
    if (!file) return next();
    const answer = staticAnswer(file, path, {
      method: c.req.method,
      acceptEncoding: c.req.header('accept-encoding'),
      ifNoneMatch: c.req.header('if-none-match'),
      ifModifiedSince: c.req.header('if-modified-since'),
    });
    return sendStatic(c, await withPagePolicy(c, file, answer));
  });

  // On-demand pages (checkout, login, profile…) rendered by Astro in middleware mode.
  if (options.astro) {
    const astro = options.astro;
    app.all('*', async (c) => {
      // The minisite folder is reachable only through a minisite host, for on-demand pages as for static ones.
      if (!c.var.site.minisiteSlug && inMinisiteFolder(c.req.path)) return notFound(c);
      const { incoming, outgoing } = c.env;
      let passed = false;
      // The page goes out with the policy of the build's inline scripts (and its educator's analytics hosts).
      holdHtmlForCsp(outgoing, c.var.site.context, buildScriptHashes(config.DIST_DIR));
      // Accounts: on-demand pages (login, profile, add-review…) see the signed-in user as Astro.locals.user.
      c.set('user', (await requestSession(c))?.user ?? null);
      // (db: the server's own handle, so on-demand pages use the same database as the API.)
      const locals = { site: c.var.site, user: c.var.user, db: deps.db, services };
      // Accounts: on a minisite host, on-demand pages live under /minisite/{slug}/… like the static ones
      // (e.g. /{courseSlug}/add-review); host-independent pages (/login, /logout, /profile…) are tried next.
      const slug = c.var.site.minisiteSlug;
      if (slug && incoming.url && !incoming.url.startsWith('/minisite/')) {
        const original = incoming.url;
        incoming.url = `/minisite/${slug}${original.startsWith('/?') || original === '/' ? original.slice(1) : original}`;
        let missed = false;
        await astro(incoming, outgoing, () => {
          missed = true;
          releaseAstroRequest(incoming);
        }, locals);
        incoming.url = original;
        if (!missed || outgoing.headersSent) return RESPONSE_ALREADY_SENT;
        // Not a page of this minisite. Host-independent on-demand pages (/login, /profile…) are tried next,
        // but a path the marketplace serves pre-rendered ('/', '/pricing'…) is no on-demand page: Astro has
        // no code for it (it would answer 500), and it is not this host's page either.
        if (await findStaticFile(clientDir, c.req.path)) return notFound(c);
      }
      await astro(incoming, outgoing, () => {
        passed = true;
        releaseAstroRequest(incoming);
      }, locals);
      if (passed && !outgoing.headersSent) return notFound(c);
      return RESPONSE_ALREADY_SENT;
    });
  }
  app.all('*', (c) => notFound(c));

  /** A pre-rendered HTML page's Content-Security-Policy: the build's inline scripts by hash (no analytics there). */
  async function withPagePolicy(c: import('hono').Context<AppEnv>, file: StaticFile, answer: StaticAnswer): Promise<StaticAnswer> {
    if (file.type.startsWith('text/html') && answer.status !== 304) {
      answer.headers['content-security-policy'] = htmlCsp(c.var.site.context, buildScriptHashes(config.DIST_DIR));
    }
    return answer;
  }

  /** Whether a URL path, decoded and with dot segments resolved as the file lookup reads it, is in `folder`. */
  function inFolder(urlPath: string, folder: string): boolean {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return false;
    }
    const normalised = posix.normalize(decoded.replace(/\\/g, '/'));
    return normalised === folder || normalised.startsWith(`${folder}/`);
  }

  /** The minisite folder, however the path spells it; an undecodable path counts as inside (refused). */
  function inMinisiteFolder(urlPath: string): boolean {
    try {
      decodeURIComponent(urlPath);
    } catch {
      return true;
    }
    return inFolder(urlPath, '/minisite');
  }

  async function notFound(c: import('hono').Context<AppEnv>): Promise<Response> {
    const file = findStaticFile(clientDir, '/404.html');
    if (file) {
      const answer = staticAnswer(file, '/404.html', { method: c.req.method, acceptEncoding: c.req.header('accept-encoding') }, 404);
      return sendStatic(c, await withPagePolicy(c, file, answer));
    }
    return c.text('Not found', 404);
  }

  /** Written straight to the Node response when there is one (api/http/static.ts), else as a Response. */
  function sendStatic(c: import('hono').Context<AppEnv>, answer: StaticAnswer): Response {
    const outgoing = (c.env as Partial<AppEnv['Bindings']> | undefined)?.outgoing;
    if (!outgoing) return staticAnswerResponse(answer);
    // The security headers are already on the Node response (the first middleware); writeHead merges
    // the answer's own (a page's script-hash policy) over them.
    writeStaticAnswer(answer, outgoing);
    return RESPONSE_ALREADY_SENT;
  }

  return app;
}
