/**
 * What the accounts area's on-demand pages (src/pages/login, logout, profile/**, add-review, claim-profile)
 * need on the server: the signed-in user (Astro.locals.user, set by api/app.ts), the request's site, the
 * configuration and the database.
 */
import type { AstroGlobal } from 'astro';
import type { Db } from '../../db/client.ts';
import { pageDb } from '../../src/lib/db.ts';
import { loadConfig, type Config } from '../config.ts';
import type { RequestSite } from '../http/context.ts';
import type { SessionUser } from './types.ts';
import { mainSiteOrigin, minisiteSiteOrigin } from './site.ts';

export interface PageLocals {
  user?: SessionUser | null;
  site?: RequestSite;
  /** The server's database handle (api/app.ts passes it to on-demand pages). */
  db?: Db;
}

/** The database of this request: the server's handle, else the pages' own (DATABASE_URL). */
export function requestDb(astro: Pick<AstroGlobal, 'locals'>): Db {
  return (astro.locals as PageLocals).db ?? pageDb();
}

let config: Config | undefined;

export function pageConfig(): Config {
  config ??= loadConfig(process.env);
  return config;
}

export function pageUser(astro: Pick<AstroGlobal, 'locals'>): SessionUser | null {
  return (astro.locals as PageLocals).user ?? null;
}

export function pageSite(astro: Pick<AstroGlobal, 'locals'>): RequestSite {
  return (astro.locals as PageLocals).site ?? { context: 'marketplace', minisiteSlug: null, hostname: '' };
}

export function pageMainOrigin(): string {
  return mainSiteOrigin(pageConfig());
}

/** The address the visitor used, rebuilt from the site (Astro sees minisite pages under /minisite/{slug}). */
export function visitorUrl(astro: Pick<AstroGlobal, 'locals' | 'url'>, path: string): string {
  const site = pageSite(astro);
  const origin = site.minisiteSlug ? minisiteSiteOrigin(pageConfig(), site.minisiteSlug) : pageMainOrigin();
  return `${origin}${path}`;
}

/** Pages that show personal data are never cached. */
export function noStore(astro: Pick<AstroGlobal, 'response'>): void {
  astro.response.headers.set('cache-control', 'private, no-store');
}
