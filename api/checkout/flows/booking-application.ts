/** The booking application (spec 1, 2.14): a dated occurrence and its spaces, sent for the educator to accept. */
import { FLOW_RULES } from '../../../src/domain/checkout/flows.ts';
import { defineFlow } from '../definition.ts';
import { newReference } from '../ids.ts';
import { courseBase } from '../outcomes.ts';
import { requestedSpaces } from '../context.ts';
import { dateStep, pickOccurrence } from '../steps/date.ts';
import { pricingStep, priceSelection } from '../steps/pricing.ts';
import { contactStep } from '../steps/contact.ts';
import { confirmationStep } from '../steps/common.ts';
import { datedCatalogue } from '../steps/lines.ts';
import { priceDefaults } from './shared.ts';

export const bookingApplicationFlow = defineFlow({
  flow: 'bookingApplication',
  rules: FLOW_RULES.bookingApplication,
  steps: {
    date: dateStep,
    spaces: pricingStep('spaces'),
    contactDetails: contactStep(FLOW_RULES.bookingApplication),
    confirmation: confirmationStep,
  },
  catalogue: datedCatalogue,
  selection: priceSelection,
  // An application takes no spaces until the educator accepts it.
  holds: () => ({ occurrenceId: null, spaces: 0, voucherId: null }),
  defaults: priceDefaults,
  initialise: async (ctx, input) => {
    if (input.occurrenceId) await pickOccurrence(ctx, input.occurrenceId, 'occurrenceId', input.occurrence);
  },
  outcome: async (ctx, _pay, base) => {
    const id = newReference('application');
    const occ = ctx.occ?.occurrence;
    await ctx.q.insertInto('booking_applications').values({
      ...courseBase(base), id, status: 'sent', occurrence_id: ctx.row.occurrence_id, spaces: requestedSpaces(ctx),
      details: { occurrence: occ ? { start_datetime: Number(occ.start_datetime), end_datetime: Number(occ.end_datetime) } : null, costSummary: ctx.row.cost_summary },
    }).execute();
    return { kind: 'application', id, documents: false };
  },
});
