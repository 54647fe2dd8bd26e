/**
 * Shared by every admin page: who is signed in and which educator the screen is about. Not signed in: the page
 * redirects to /login on the admin host and back. Signed in without an educator: to /new-educator (onboarding).
 * An `educator-context` the user does not administer is not shown: the page answers 403.
 */
import type { AstroGlobal } from 'astro';
import type { SessionUser } from '../../domain/session-user.ts';
import type { IdentityEducator } from '../../../api/auth/identity.ts';
import { noStore, pageUser } from '../../lib/page-locals.ts';
import { adminServices } from '../../lib/admin-page-services.ts';
import { chooseEducatorContext } from '../../domain/admin-nav.ts';

export interface AdminGuard {
  user: SessionUser;
  /** The educators this user administers (the switcher). */
  educators: IdentityEducator[];
  /** The educator of this screen. */
  educator: IdentityEducator;
}

export type AdminGuardResult = { ok: true; value: AdminGuard } | { ok: false; response: Response };

/** `needsEducator: false` for screens that work without one (onboarding). */
export async function adminGuard(astro: AstroGlobal, options: { needsEducator?: boolean } = {}): Promise<AdminGuardResult | { ok: 'no-educator'; user: SessionUser }> {
  noStore(astro);
  astro.response.headers.set('x-robots-tag', 'noindex, nofollow');
  const user = pageUser(astro);
  if (!user) {
    // The page's own path on the admin host (the server rewrote /x to /admin-app/x for Astro).
    const back = `${astro.url.pathname.replace(/^\/admin-app(?=\/|$)/, '') || '/'}${astro.url.search}`;
    return { ok: false, response: astro.redirect(`/login?redirect=${encodeURIComponent(`${adminServices(astro).adminOrigin()}${back}`)}`, 302) };
  }
  const requested = astro.url.searchParams.get('educator-context');
  if (requested && !user.educatorIds.includes(requested)) {
    return { ok: false, response: new Response('You do not administer this educator.', { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'private, no-store' } }) };
  }
  const chosen = chooseEducatorContext(requested, user.educatorIds);
  if (!chosen) {
    if (options.needsEducator === false) return { ok: 'no-educator', user };
    return { ok: false, response: astro.redirect('/new-educator', 302) };
  }
  const educators = await adminServices(astro).educators(user.educatorIds);
  const educator = educators.find((e) => e.id === chosen);
  if (!educator) return { ok: false, response: astro.redirect('/new-educator', 302) };
  return { ok: true, value: { user, educators, educator } };
}

/**
 * A screen about one educator: who is signed in and that educator, or the response that takes the page's place
 * (the sign-in redirect, 403 for an educator the user does not administer, onboarding for a user with none).
 */
export async function adminScreen(astro: AstroGlobal): Promise<AdminGuard | Response> {
  const guard = await adminGuard(astro);
  if (guard.ok === true) return guard.value;
  return guard.ok === false ? guard.response : astro.redirect('/new-educator', 302);
}
