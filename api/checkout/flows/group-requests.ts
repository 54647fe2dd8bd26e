/**
 * The date and group booking requests (spec 1, 2.14): preferred dates with offers and add-ons, a message, and a
 * request the educator answers — nothing is paid or held.
 */
import { FLOW_RULES, type FlowRules } from '../../../src/domain/checkout/flows.ts';
import { defineFlow, type CompletionPayment, type OutcomeBase } from '../definition.ts';
import { entry, type Ctx } from '../context.ts';
import { contactStep } from '../steps/contact.ts';
import { confirmationStep, datesSelection, datesStep, messageStep } from '../steps/common.ts';
import { courseCatalogue } from '../steps/lines.ts';
import { insertRequest, messageOf, priceDefaults } from './shared.ts';

/** The steps of either flow, as its rules name them (the Dates step, the action names). */
function requestSteps(rules: FlowRules) {
  return { dates: datesStep(rules), message: messageStep(rules), contactDetails: contactStep(rules), confirmation: confirmationStep };
}

/** Everything but the flow's name, rules and steps: the two flows differ only in what the educator is asked for. */
const shared = {
  catalogue: courseCatalogue,
  selection: datesSelection,
  holds: () => ({ occurrenceId: null, spaces: 0, voucherId: null }),
  // The Dates step starts from the first offer on sale, like Spaces (spec 4 "Defaults").
  defaults: priceDefaults,
  outcome: (ctx: Ctx, _pay: CompletionPayment, base: OutcomeBase) =>
    insertRequest(ctx, base, { dates: entry(ctx, 'dates'), message: messageOf(ctx), costSummary: ctx.row.cost_summary }),
};

export const dateBookingRequestFlow = defineFlow({
  flow: 'dateBookingRequest', rules: FLOW_RULES.dateBookingRequest, steps: requestSteps(FLOW_RULES.dateBookingRequest), ...shared,
});
export const groupBookingRequestFlow = defineFlow({
  flow: 'groupBookingRequest', rules: FLOW_RULES.groupBookingRequest, steps: requestSteps(FLOW_RULES.groupBookingRequest), ...shared,
});
