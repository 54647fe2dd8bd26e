/**
 * The date and group booking requests (spec 1, 2.14): preferred dates with offers and add-ons, a message, and a
 * request the educator answers — nothing is paid or held.
 */
import { defineFlow, type CompletionPayment, type OutcomeBase } from '../definition.ts';
import { entry, type Ctx, type DatesState } from '../context.ts';
import { contactStep } from '../steps/contact.ts';
import { confirmationStep, datesSelection, groupDatesStep, messageStep } from '../steps/common.ts';
import { courseCatalogue } from '../steps/lines.ts';
import { insertRequest, messageOf, priceDefaults } from './shared.ts';

/** Everything but the flow's name: the two flows differ only in what the educator is asked for. */
const shared = {
  steps: {
    dates: groupDatesStep,
    message: messageStep('message filled'),
    contactDetails: contactStep('contact details filled'),
    confirmation: confirmationStep,
  },
  catalogue: courseCatalogue,
  selection: datesSelection,
  holds: () => ({ occurrenceId: null, spaces: 0, voucherId: null }),
  // The Dates step starts from the first offer on sale, like Spaces (spec 4 "Defaults").
  defaults: priceDefaults,
  outcome: (ctx: Ctx, _pay: CompletionPayment, base: OutcomeBase) =>
    insertRequest(ctx, base, { dates: entry<DatesState>(ctx, 'dates'), message: messageOf(ctx), costSummary: ctx.row.cost_summary }),
};

export const dateBookingRequestFlow = defineFlow({ flow: 'dateBookingRequest', ...shared });
export const groupBookingRequestFlow = defineFlow({ flow: 'groupBookingRequest', ...shared });
