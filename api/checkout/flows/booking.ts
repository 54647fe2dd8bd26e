/** The booking flow (spec 1, 2.14): a dated occurrence of a class or blended course, paid or free. */
import { bookingOutcome } from '../../../src/domain/checkout/outcomes.ts';
import { FLOW_RULES } from '../../../src/domain/checkout/flows.ts';
import { defineFlow } from '../definition.ts';
import { courseOf } from '../context.ts';
import { commitSpaces } from '../outcomes.ts';
import { dateStep, pickOccurrence } from '../steps/date.ts';
import { pricingStep, priceSelection } from '../steps/pricing.ts';
import { contactStep } from '../steps/contact.ts';
import { paymentStep } from '../steps/payment.ts';
import { confirmationStep } from '../steps/common.ts';
import { datedCatalogue } from '../steps/lines.ts';
import { insertBooking, offersPaymentRequired, priceDefaults } from './shared.ts';

export const bookingFlow = defineFlow({
  flow: 'booking',
  rules: FLOW_RULES.booking,
  steps: {
    date: dateStep,
    spaces: pricingStep('spaces'),
    contactDetails: contactStep(FLOW_RULES.booking),
    payment: paymentStep,
    confirmation: confirmationStep,
  },
  catalogue: datedCatalogue,
  selection: priceSelection,
  paymentRequired: offersPaymentRequired,
  // The spaces come off the occurrence, and a voucher's use off the voucher, while the learner pays.
  holds: (ctx) => {
    const sel = priceSelection(ctx);
    return { occurrenceId: ctx.row.occurrence_id, spaces: ctx.row.occurrence_id ? (sel?.spaces ?? 0) : 0, voucherId: sel?.voucherId ?? null };
  },
  defaults: priceDefaults,
  initialise: async (ctx, input) => {
    if (input.occurrenceId) await pickOccurrence(ctx, input.occurrenceId, 'occurrenceId', input.occurrence);
  },
  outcome: async (ctx, pay, base) => {
    await commitSpaces(ctx);
    const occ = ctx.occ?.occurrence;
    return insertBooking(ctx, pay, base, {
      occurrenceId: ctx.row.occurrence_id,
      start: occ ? Number(occ.start_datetime) : null,
      end: occ ? Number(occ.end_datetime) : null,
      status: bookingOutcome(courseOf(ctx).approval_required),
      details: { voucherId: priceSelection(ctx)?.voucherId ?? null, costSummary: ctx.row.cost_summary },
    });
  },
});
