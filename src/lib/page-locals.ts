/**
 * What the server (api/app.ts) hands every on-demand render in Astro.locals, read without importing the API:
 * the signed-in user and the request's site. Pages that show personal data are never cached.
 */
import type { AstroGlobal } from 'astro';
import type { SessionUser } from '../domain/session-user.ts';
import type { RequestSite } from '../../api/deps.ts';

export function pageUser(astro: Pick<AstroGlobal, 'locals'>): SessionUser | null {
  return (astro.locals as { user?: SessionUser | null }).user ?? null;
}

export function pageSite(astro: Pick<AstroGlobal, 'locals'>): RequestSite {
  return (astro.locals as { site?: RequestSite }).site ?? { context: 'marketplace', minisiteSlug: null, hostname: '', admin: false };
}

export function noStore(astro: Pick<AstroGlobal, 'response'>): void {
  astro.response.headers.set('cache-control', 'private, no-store');
}
