/**
 * Membership plans as the admin edits them (docs/admin.md "Memberships"; docs/gifts-and-memberships.md). A plan is
 * checked by the same `planInputSchema` the demo catalogue uses (src/domain/memberships.ts); what this adds is what
 * an edit may not take from current members (active or past due), who hold the plan's terms as they joined it:
 * - the price: each membership keeps the price it was joined at (memberships.price, charged at every renewal), so a
 *   new price is for new members only — allowed, and the admin is told so;
 * - the interval (and a pass's months): their periods are counted by it — refused;
 * - the benefits, read live at checkout and renewal: a smaller percentage, fewer credits per period, or fewer
 *   courses covered — refused (more is fine: it only gives them more).
 * To take something away, make a new plan and stop listing this one. Pure: no I/O.
 */
import { z } from '../zod.ts';
import type { ProblemProperty } from '../problems.ts';
import { formatPence } from '../money.ts';
import { planInputSchema, type PlanInput, type PlanTerms } from '../memberships.ts';
import { wholeNumber } from './catalogue-input.ts';

export { planInputSchema, type PlanInput };

/** What a save sends besides the plan's terms. */
export const planExtrasSchema = z.object({
  listed: z.boolean().default(true),
  revision: wholeNumber(1, Number.MAX_SAFE_INTEGER).optional(),
});

const NEW_PLAN = 'Make a new plan and stop listing this one.';

/** Why an edit would change what current members hold; empty when it does not (or there are no members). */
export function planEditProblems(before: PlanTerms, after: PlanInput, members: number): ProblemProperty[] {
  if (members <= 0) return [];
  const who = `${members} current ${members === 1 ? 'member' : 'members'}`;
  const out: ProblemProperty[] = [];
  if (after.interval !== before.interval || (after.interval === 'pass' && after.passMonths !== before.passMonths)) {
    out.push({ key: after.interval !== before.interval ? 'interval' : 'passMonths', message: `cannot change while the plan has ${who}: their periods follow it. ${NEW_PLAN}` });
  }
  if (after.discountPercent < before.discountPercent) {
    out.push({ key: 'discountPercent', message: `cannot go down while the plan has ${who} (it is ${before.discountPercent}%). ${NEW_PLAN}` });
  }
  if (after.creditsPerPeriod < before.creditsPerPeriod) {
    out.push({ key: 'creditsPerPeriod', message: `cannot go down while the plan has ${who} (it is ${before.creditsPerPeriod}). ${NEW_PLAN}` });
  }
  const dropped = before.courseIds === null ? after.courseIds !== null : after.courseIds !== null && before.courseIds.some((id) => !after.courseIds!.includes(id));
  if (dropped) out.push({ key: 'courseIds', message: `cannot cover fewer courses while the plan has ${who}. ${NEW_PLAN}` });
  return out;
}

/** What the admin is told when a plan with members gets a new price. */
export function priceChangeNotice(before: PlanTerms, after: PlanInput, members: number): string | null {
  if (members <= 0 || after.price === before.price) return null;
  return `New members pay ${formatPence(after.price, after.currency)}. The ${members} current ${members === 1 ? 'member keeps' : 'members keep'} paying ${formatPence(before.price, before.currency)} at each renewal.`;
}
