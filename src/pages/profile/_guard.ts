/**
 * Shared by the profile pages: who is signed in, and where "Log in" goes (the main site's /login with this
 * page as the redirect). On the main site a visitor who is not signed in is redirected there at once.
 */
import type { AstroGlobal } from 'astro';
import type { SessionUser } from '../../../api/auth/types.ts';
import { noStore, pageMainOrigin, pageSite, pageUser, visitorUrl } from '../../../api/auth/pages.ts';

export interface ProfileGuard {
  user: SessionUser | null;
  loginHref: string;
  /** Set when the page should answer with this redirect instead. */
  redirect: string | null;
}

export function profileGuard(astro: AstroGlobal, path: string): ProfileGuard {
  noStore(astro);
  const user = pageUser(astro);
  const here = visitorUrl(astro, `${path}${astro.url.search}`);
  const loginHref = `${pageMainOrigin()}/login?redirect=${encodeURIComponent(here)}`;
  const site = pageSite(astro);
  return { user, loginHref, redirect: !user && !site.minisiteSlug ? loginHref : null };
}
