/**
 * How the server answers everything that is not /api: pre-rendered pages and assets from the build (with the
 * minisite folder reached only through its own host), on-demand pages rendered by Astro in middleware mode, the
 * admin app's pages only on the admin host, and the site's 404 page for the rest.
 */
import { posix, resolve } from 'node:path';
import type { Context, Handler, MiddlewareHandler } from 'hono';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { AppEnv, AstroHandler, Deps } from '../deps.ts';
import type { PageServices } from '../../src/lib/page-services.ts';
import type { RequestSite } from './context.ts';
import type { Config } from '../config.ts';
import { findStaticFile, staticAnswer, staticAnswerResponse, writeStaticAnswer, type StaticAnswer } from './static.ts';
import { createBucketPages, type BucketPages } from './bucket-static.ts';
import { UPLOADS_URL_PREFIX, findUpload } from '../admin/uploads.ts';
import { storedImageAnswer } from './stored-image.ts';
import { oldSlugRedirect } from './old-slugs.ts';
import { pageBucketOf } from '../publish/page-bucket.ts';
import { buildScriptHashes, holdHtmlForCsp, htmlCsp, type Framing } from './security-headers.ts';
import { releaseAstroRequest } from './astro-request.ts';
import { requestSession } from '../auth/middleware.ts';

/** Where the admin app's on-demand pages live in the build (src/pages/admin-app/); reached only on the admin host. */
const ADMIN_PAGES = '/admin-app';
/** The pages the admin host shares with the public site (signing in and out). */
const ADMIN_HOST_SHARED_PAGES = new Set(['/login', '/logout']);
/** What the admin host serves from the build: its scripts, styles and images. */
const ADMIN_HOST_STATIC = /^\/(?:_astro|images)\/|^\/favicon\./;
/** What is served from dist/client even when pages come from a bucket: the build's own assets, the same on every machine. */
const BUILD_ASSETS = /^\/(?:_astro|images)\//;

/** Who may frame what a request is answered with (api/http/security-headers.ts). */
export function framingOf(site: RequestSite): Framing {
  return site.admin ? 'admin' : site.context;
}

/** The site's pages and assets: the build's on disk, and the publisher's pages from a bucket when there is one. */
export class SitePages {
  private readonly distDir: string;
  private readonly clientDir: string;
  /** PUBLISH_TARGET=s3://…: pages are read from the bucket every machine's publisher writes (api/http/bucket-static.ts). */
  private readonly bucketPages: BucketPages | null;

  constructor(config: Config) {
    this.distDir = config.DIST_DIR;
    this.clientDir = resolve(config.DIST_DIR, 'client');
    const bucket = pageBucketOf(config);
    this.bucketPages = bucket ? createBucketPages(bucket) : null;
  }

  /** Whether the site has a file for a URL path (in the bucket, or on disk). */
  private async exists(urlPath: string): Promise<boolean> {
    return this.bucketPages && !BUILD_ASSETS.test(urlPath) ? this.bucketPages.exists(urlPath) : findStaticFile(this.clientDir, urlPath) !== null;
  }

  /** Pre-rendered pages and assets; anything not in the build goes on to the next handler. */
  staticFiles(): MiddlewareHandler<AppEnv> {
    return async (c, next) => {
      const site = c.var.site;
      const path = c.req.path;
      // The admin host serves the build's assets, never a public page (its pages are the admin app's).
      if (site.admin && !ADMIN_HOST_STATIC.test(path)) return next();
      // Uploaded images: /images/uploads/… on every host, from the database every machine shares (api/admin/uploads.ts).
      if (path.startsWith(UPLOADS_URL_PREFIX)) {
        const upload = await findUpload(c.var.deps.db, path);
        if (!upload) return this.notFound(c);
        return this.send(c, storedImageAnswer(upload, { method: c.req.method, ifNoneMatch: c.req.header('if-none-match') }));
      }
      // Minisite pages live under /minisite/{slug}; that folder is not reachable on the marketplace host,
      // and a minisite host reaches only its own folder. Checked on the path as the file lookup will read it
      // (decoded, dot segments resolved): '/minisite%2f{slug}/' is the same folder.
      if (!site.minisiteSlug && inMinisiteFolder(path)) return next();
      const lookup = site.minisiteSlug && !path.startsWith('/_astro/') && !path.startsWith('/images/')
        ? `/minisite/${site.minisiteSlug}${path === '/' ? '' : path}`
        : path;
      if (site.minisiteSlug && lookup !== path && !inFolder(lookup, `/minisite/${site.minisiteSlug}`)) return this.notFound(c);
      // The embed's enquiry page is one shell for every educator (?educator={slug}): an educator without
      // enquiry data (unknown, or not contactable) is a real 404, not a 200 page that says so.
      if (!site.minisiteSlug && (path === '/embed/enquiry' || path === '/embed/enquiry/')) {
        const slug = c.req.query('educator') ?? '';
        if (!/^[a-z0-9][a-z0-9-]{0,199}$/.test(slug) || !(await this.exists(`/embed/${slug}/enquiry.json`))) return this.notFound(c);
      }
      const facts = {
        method: c.req.method,
        acceptEncoding: c.req.header('accept-encoding'),
        ifNoneMatch: c.req.header('if-none-match'),
        ifModifiedSince: c.req.header('if-modified-since'),
      };
      if (this.bucketPages && !BUILD_ASSETS.test(lookup)) {
        const found = await this.bucketPages.answer(lookup, path, facts);
        if (!found) return next();
        return this.send(c, this.withPagePolicy(c, found.type, found.answer));
      }
      const file = findStaticFile(this.clientDir, lookup);
      if (!file) return next();
      return this.send(c, this.withPagePolicy(c, file.type, staticAnswer(file, path, facts)));
    };
  }

  /** On-demand pages (checkout, login, profile, the admin app…) rendered by Astro in middleware mode. */
  onDemandPages(deps: Deps, astro: AstroHandler, services: PageServices): Handler<AppEnv> {
    return async (c) => {
      // The minisite folder is reachable only through a minisite host, for on-demand pages as for static ones;
      // the admin app's pages only through the admin host.
      if (!c.var.site.minisiteSlug && inMinisiteFolder(c.req.path)) return this.notFound(c);
      if (inFolder(c.req.path, ADMIN_PAGES)) return this.notFound(c);
      const { incoming, outgoing } = c.env;
      // The page goes out with the policy of the build's inline scripts (and its educator's analytics hosts).
      holdHtmlForCsp(outgoing, framingOf(c.var.site), buildScriptHashes(this.distDir));
      // Accounts: on-demand pages (login, profile, add-review…) see the signed-in user as Astro.locals.user.
      c.set('user', (await requestSession(c))?.user ?? null);
      // (db: the server's own handle, so on-demand pages use the same database as the API.)
      const locals = { site: c.var.site, user: c.var.user, db: deps.db, services };
      const render = async (): Promise<boolean> => {
        let missed = false;
        await astro(incoming, outgoing, () => {
          missed = true;
          releaseAstroRequest(incoming);
        }, locals);
        return !missed || outgoing.headersSent;
      };
      // A minisite's on-demand pages live under /minisite/{slug}/… like its static ones (e.g.
      // /{courseSlug}/add-review), the admin host's under ADMIN_PAGES; each is tried first, then the pages
      // every host shares (/login, /logout, /profile…).
      const slug = c.var.site.minisiteSlug;
      const folder = slug ? `/minisite/${slug}` : c.var.site.admin ? ADMIN_PAGES : null;
      if (folder && incoming.url && !(slug && incoming.url.startsWith('/minisite/'))) {
        const original = incoming.url;
        incoming.url = `${folder}${original.startsWith('/?') || original === '/' ? original.slice(1) : original}`;
        const answered = await render();
        incoming.url = original;
        if (answered) return RESPONSE_ALREADY_SENT;
        // Not a page of this host. A path the marketplace serves pre-rendered ('/', '/pricing'…) is no
        // on-demand page: Astro has no code for it (it would answer 500), and it is not this host's page either.
        if (await this.exists(c.req.path)) return this.notFound(c);
        if (c.var.site.admin && !ADMIN_HOST_SHARED_PAGES.has(c.req.path)) return this.notFound(c);
      }
      return (await render()) ? RESPONSE_ALREADY_SENT : this.notFound(c);
    };
  }

  /** An educator's old slug: 301 to its current URL (api/http/old-slugs.ts); else the site's 404 page (or a plain one before the first build). */
  async notFound(c: Context<AppEnv>): Promise<Response> {
    const moved = await oldSlugRedirect(c);
    if (moved) return moved;
    const file = findStaticFile(this.clientDir, '/404.html');
    if (file) {
      const answer = staticAnswer(file, '/404.html', { method: c.req.method, acceptEncoding: c.req.header('accept-encoding') }, 404);
      return this.send(c, this.withPagePolicy(c, file.type, answer));
    }
    return c.text('Not found', 404);
  }

  /** A pre-rendered HTML page's Content-Security-Policy: the build's inline scripts by hash (no analytics there). */
  private withPagePolicy(c: Context<AppEnv>, type: string, answer: StaticAnswer): StaticAnswer {
    if (type.startsWith('text/html') && answer.status !== 304) {
      answer.headers['content-security-policy'] = htmlCsp(framingOf(c.var.site), buildScriptHashes(this.distDir));
    }
    return answer;
  }

  /** Written straight to the Node response when there is one (api/http/static.ts), else as a Response. */
  private send(c: Context<AppEnv>, answer: StaticAnswer): Response {
    const outgoing = (c.env as Partial<AppEnv['Bindings']> | undefined)?.outgoing;
    if (!outgoing) return staticAnswerResponse(answer);
    // The security headers are already on the Node response (the first middleware); writeHead merges
    // the answer's own (a page's script-hash policy) over them.
    writeStaticAnswer(answer, outgoing);
    return RESPONSE_ALREADY_SENT;
  }
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
