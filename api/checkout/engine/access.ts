/**
 * Who may see and act on a checkout (spec 2.14, 2.16, 6 "Restricted courses"): the course's access list, the
 * learner a checkout is bound to, and the steps that need a logged-in learner.
 */
import type { SessionUser } from '../../../src/domain/session-user.ts';
import type { CheckoutRow } from '../../../db/schema/checkout.ts';
import type { CheckoutCatalogue, Q } from '../../../db/queries/checkout.ts';
import { afterLoginIn, isStepId } from '../../../src/domain/checkout/steps.ts';
import { flowDefinition } from '../flows/index.ts';

/** Spec 6 "Restricted courses": admins of the educator, and e-mail addresses granted access to the course. */
export async function canAccessCourse(q: Q, cat: CheckoutCatalogue, user: SessionUser | null): Promise<boolean> {
  if (!cat.course || !cat.course.restricted) return true;
  if (!user) return false;
  if (user.educatorIds.includes(cat.educator.id)) return true;
  const grant = await q
    .selectFrom('restricted_course_access')
    .select('course_id')
    .where('course_id', '=', cat.course.id)
    .where('email', '=', user.email.toLowerCase())
    .executeTakeFirst();
  return !!grant;
}

/** A checkout bound to a learner is theirs alone; an anonymous checkout is reachable by its (random) id. */
export function visibleTo(row: CheckoutRow, user: SessionUser | null): boolean {
  return row.user_id === null || (!!user && user.id === row.user_id);
}

/**
 * Spec 2.14: an after-login step reached while logged out shows the login screen in its place, and the checkout
 * resumes after login. A learner who logged out (or whose session ended) keeps their checkout, its step and its
 * hold; the visitor is shown only that a login is needed, never the learner's choices.
 */
export function awaitsLogin(row: CheckoutRow, user: SessionUser | null): boolean {
  return row.user_id !== null && user === null && row.status === 'open';
}

/** The checkout stands on the login step or an after-login step (spec 2.14). */
export function needsLogin(row: CheckoutRow): boolean {
  return row.current_step === 'login' || (isStepId(row.current_step) && afterLoginIn(flowDefinition(row.flow).rules, row.current_step));
}
