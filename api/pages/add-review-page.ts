/**
 * The add-review pages' server part (spec 2.3): find the educator (and course), who is signed in,
 * where Log in and Back go. `null` means 404.
 */
import type { AstroGlobal } from 'astro';
import { findOwnReview, findReviewTarget } from '../../db/queries/accounts.ts';
import type { Deps } from '../deps.ts';
import { noStore, pageSite, pageUser } from '../../src/lib/page-locals.ts';
import { mainSiteOrigin, visitorUrl } from '../shared/origins.ts';

export type AddReviewPage = NonNullable<Awaited<ReturnType<typeof addReviewPage>>>;

export async function addReviewPage(
  deps: Pick<Deps, 'db' | 'config'>, astro: AstroGlobal, context: 'marketplace' | 'minisite', educatorSlug: string | undefined, courseSlug: string | null,
) {
  const { db, config } = deps;
  noStore(astro);
  const site = pageSite(astro);
  // Marketplace pages only on the main host; minisite pages only for that minisite's own educator.
  if (context === 'marketplace' && site.minisiteSlug) return null;
  if (context === 'minisite' && site.minisiteSlug !== educatorSlug) return null;
  const target = await findReviewTarget(db, educatorSlug ?? '', courseSlug);
  if (!target) return null;
  const { educator, course } = target;
  const user = pageUser(astro);
  const path = context === 'marketplace'
    ? course ? `/${educator.slug}/${course.slug}/add-review` : `/${educator.slug}/reviews/add-review`
    : course ? `/${course.slug}/add-review` : '/reviews/add-review';
  const doneHref = context === 'marketplace'
    ? course ? `/${educator.slug}/${course.slug}` : `/${educator.slug}/reviews`
    : course ? `/${course.slug}` : '/reviews';
  const loginHref = `${mainSiteOrigin(config)}/login?redirect=${encodeURIComponent(visitorUrl(config, site.minisiteSlug, path))}${context === 'marketplace' ? '' : `&educator=${encodeURIComponent(educator.id)}`}`;
  const own = user ? await findOwnReview(db, user.studentId, educator.id, course?.id ?? null) : undefined;
  return {
    context,
    educator,
    course: course ? { slug: course.slug, name: course.name } : null,
    signedIn: !!user,
    loginHref,
    doneHref,
    alreadyReviewed: !!own,
  };
}
