/**
 * The membership flow: the learner picks one of the educator's plans, logs in, pays the first period by card and
 * becomes a member (docs/gifts-and-memberships.md "## Memberships"). The membership starts at the memberships'
 * clock; the card that paid is kept by the provider for the renewals (api/memberships/service.ts).
 */
import { FLOW_RULES } from '../../../src/domain/checkout/flows.ts';
import { defineFlow, defineStep } from '../definition.ts';
import { paymentStep } from '../steps/payment.ts';
import { confirmationStep } from '../steps/common.ts';
import { alreadyMemberProblem, assertNotMember, planOf, planSelection, planStep } from '../steps/plan.ts';
import { documentToken } from '../../shared/document-tokens.ts';
import { checkoutCost } from '../context.ts';
import { loadPlan, startMembership } from '../../memberships/service.ts';
import { membershipNow } from '../../memberships/clock.ts';
import { queueMembershipMail } from '../../memberships/mail.ts';
import { recurringNamed } from '../../payments/registry.ts';
import { ProblemError, problems } from '../../../src/domain/problems.ts';

/**
 * Payment is this flow's first step after login (there are no contact details to fill: the account is the
 * member): entering it binds the checkout to the learner, as the Contact step does in the course flows.
 */
const memberPaymentStep = defineStep({
  ...paymentStep,
  enter: async (ctx) => {
    if (ctx.user && !ctx.row.user_id) {
      ctx.row.user_id = ctx.user.id;
      ctx.row.student_id = ctx.user.studentId;
    }
    await paymentStep.enter?.(ctx);
  },
});

export const membershipFlow = defineFlow({
  flow: 'membership',
  rules: FLOW_RULES.membership,
  steps: { plan: planStep, payment: memberPaymentStep, confirmation: confirmationStep },
  catalogue: () => ({ offers: [], addOns: [] }),
  selection: planSelection,
  // A plan always costs something (MIN_PLAN_PRICE): the first period is paid now.
  paymentRequired: async (ctx) => ((await checkoutCost(ctx))?.total_cost ?? 1) > 0,
  holds: () => ({ occurrenceId: null, spaces: 0, voucherId: null }),
  defaults: (ctx) => ({ plan: planOf(ctx) }),
  outcome: async (ctx, pay, base) => {
    const chosen = planOf(ctx);
    const plan = chosen ? await loadPlan(ctx.q, chosen.planId) : undefined;
    if (!chosen || !plan) throw new ProblemError(problems.checkoutSubmission());
    await assertNotMember(ctx, plan.id, base.user_id);
    const now = await membershipNow(ctx.deps, ctx.q, base.user_id);
    const membership = await startMembership(ctx.q, ctx.deps, {
      plan, userId: base.user_id, checkoutId: ctx.row.id, now, amount: base.total_cost, currency: base.currency,
      paymentMethod: pay.method, provider: ctx.row.payment_provider, paymentId: pay.paymentId ?? null, customerId: null,
    });
    // Another checkout of this plan completed for the learner at the same moment: nothing is recorded, and the
    // engine refunds this payment (a problem thrown here rolls the transaction back).
    if (!membership) throw new ProblemError(alreadyMemberProblem());
    // The welcome e-mail commits with the membership: one that only followed the commit would be lost to a
    // process that died in between.
    await queueMembershipMail(ctx.q, ctx.deps, 'joined', membership.id);
    const provider = ctx.row.payment_provider;
    const paymentId = pay.paymentId ?? null;
    ctx.after.push(async () => {
      // The provider's saved card for the renewals is asked for after the commit (it may be a network call).
      const recurring = provider ? recurringNamed(ctx.deps, provider) : null;
      const customer = recurring && paymentId ? await recurring.customerFromPayment(paymentId) : null;
      if (customer) await ctx.deps.db.updateTable('memberships').set({ provider_customer_id: customer }).where('id', '=', membership.id).execute();
    });
    return { kind: 'membership', id: membership.id, documents: false };
  },
  describeOutcome: async (ctx, outcome, title) => {
    const m = await ctx.q.selectFrom('memberships').selectAll().where('id', '=', outcome.id).executeTakeFirst();
    if (!m) return null;
    const payment = await ctx.q.selectFrom('membership_payments').select('id').where('membership_id', '=', m.id).where('kind', '=', 'join').executeTakeFirst();
    const receipt = payment ? `/api/membership-payments/${payment.id}/receipt?token=${documentToken(ctx.deps.config.APP_SECRET, 'membership_payment', payment.id)}` : null;
    return {
      kind: 'membership', id: m.id, reference: m.id, title, status: m.status, paymentMethod: m.payment_method, paymentState: 'paid',
      totalCost: Number(m.price), currency: m.currency, links: { invoice: receipt, manage: '/profile' },
    };
  },
});
