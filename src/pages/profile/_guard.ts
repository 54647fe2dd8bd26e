/**
 * Shared by the profile pages: who is signed in, and where "Log in" goes (the main site's /login with this
 * page as the redirect). On the main site a visitor who is not signed in is redirected there at once.
 */
import type { AstroGlobal } from 'astro';
import type { SessionUser } from '../../domain/session-user.ts';
import { noStore, pageSite, pageUser } from '../../lib/page-locals.ts';
import { pageServices } from '../../lib/page-services.ts';

export interface ProfileGuard {
  user: SessionUser | null;
  loginHref: string;
  /** Set when the page should answer with this redirect instead. */
  redirect: string | null;
}

export function profileGuard(astro: AstroGlobal, path: string): ProfileGuard {
  noStore(astro);
  const user = pageUser(astro);
  const services = pageServices(astro);
  const here = services.visitorUrl(astro, `${path}${astro.url.search}`);
  const loginHref = `${services.mainOrigin()}/login?redirect=${encodeURIComponent(here)}`;
  const site = pageSite(astro);
  return { user, loginHref, redirect: !user && !site.minisiteSlug ? loginHref : null };
}
