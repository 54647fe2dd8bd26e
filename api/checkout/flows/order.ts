/** The order flow (spec 1, 2.14): an on-demand course, no date; a voucher use is held while paying. */
import { FLOW_RULES } from '../../../src/domain/checkout/flows.ts';
import { defineFlow } from '../definition.ts';
import { commitSpaces, courseBase, paymentColumns } from '../outcomes.ts';
import { newReference } from '../ids.ts';
import { pricingStep, priceSelection } from '../steps/pricing.ts';
import { contactStep } from '../steps/contact.ts';
import { paymentStep } from '../steps/payment.ts';
import { confirmationStep } from '../steps/common.ts';
import { courseCatalogue } from '../steps/lines.ts';
import { offersPaymentRequired, priceDefaults } from './shared.ts';

export const orderFlow = defineFlow({
  flow: 'order',
  rules: FLOW_RULES.order,
  steps: {
    offers: pricingStep('offers'),
    contactDetails: contactStep(FLOW_RULES.order),
    payment: paymentStep,
    confirmation: confirmationStep,
  },
  catalogue: courseCatalogue,
  selection: priceSelection,
  paymentRequired: offersPaymentRequired,
  holds: (ctx) => ({ occurrenceId: null, spaces: 0, voucherId: priceSelection(ctx)?.voucherId ?? null }),
  defaults: priceDefaults,
  outcome: async (ctx, pay, base) => {
    await commitSpaces(ctx);
    const id = newReference('order');
    const row = await ctx.q.insertInto('orders').values({
      ...courseBase(base), ...paymentColumns(pay), id, status: 'confirmed',
      details: { voucherId: priceSelection(ctx)?.voucherId ?? null, costSummary: ctx.row.cost_summary },
    }).returningAll().executeTakeFirstOrThrow();
    return { kind: 'order', id, documents: true, row };
  },
});
