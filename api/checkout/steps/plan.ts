/**
 * The membership flow's Plan step: the learner confirms the plan they chose on the memberships page (or picks
 * another of the educator's listed plans). The plan is kept, as chosen, in stepState.plan, so the cost summary and
 * the outcome read the same price and name even if the educator edits the plan meanwhile.
 */
import { ProblemError, problems } from '../../../src/domain/problems.ts';
import { planPriceText, planTerms } from '../../../src/domain/memberships.ts';
import type { PlanState } from '../../../src/domain/checkout/step-state.ts';
import { ACTION_PAYLOADS } from '../actions.ts';
import { ADVANCE, action, defineStep } from '../definition.ts';
import { entry, setEntry, type Ctx } from '../context.ts';

export function planOf(ctx: Ctx): PlanState | null {
  return entry(ctx, 'plan');
}

/** A learner holds one membership of a plan at a time (a lapsed or ended one may be joined again). */
export async function assertNotMember(ctx: Ctx, planId: string, userId: string | null | undefined): Promise<void> {
  if (!userId) return;
  const existing = await ctx.q.selectFrom('memberships').select('id').where('user_id', '=', userId).where('plan_id', '=', planId)
    .where('status', 'in', ['active', 'past_due']).executeTakeFirst();
  if (existing) throw new ProblemError(alreadyMemberProblem());
}

/** The learner already has a running membership of this plan (found before, or refused by the database at the insert). */
export function alreadyMemberProblem() {
  return problems.validation([{ key: 'payload.planId', name: 'Plan', message: 'is already one of your memberships' }]);
}

export const planStep = defineStep({
  id: 'plan',
  isComplete: (ctx) => planOf(ctx) !== null,
  actions: {
    'membership plan picked': action({
      payload: ACTION_PAYLOADS['membership plan picked'],
      handle: async (ctx, payload) => {
        const plan = await ctx.q.selectFrom('membership_plans').selectAll()
          .where('id', '=', payload.planId).where('educator_id', '=', ctx.row.educator_id).where('listed', '=', true).executeTakeFirst();
        if (!plan) throw new ProblemError(problems.validation([{ key: 'payload.planId', name: 'Plan', message: 'is not one of this educator\u2019s plans' }]));
        await assertNotMember(ctx, plan.id, ctx.user?.id);
        const terms = planTerms(plan);
        setEntry(ctx, 'plan', {
          planId: plan.id, name: plan.name, interval: terms.interval, passMonths: terms.passMonths, price: terms.price, currency: terms.currency,
        } satisfies PlanState);
        return ADVANCE;
      },
    }),
  },
});

/** The chosen plan as the checkout's selection: one line, the plan and its price per period. */
export function planSelection(ctx: Ctx) {
  const plan = planOf(ctx);
  if (!plan) return null;
  return { offers: [], addOns: [], extras: [{ label: `${plan.name} (${planPriceText(plan)})`, cost: plan.price, quantity: 1 }], spaces: 0, voucherId: null };
}
