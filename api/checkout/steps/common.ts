/** Steps several flows share as they are: Message, the group Dates step, and Confirmation. */
import { defaultOfferSelection } from '../../../src/domain/checkout/defaults.ts';
import { ACTION_PAYLOADS } from '../actions.ts';
import { ADVANCE, action, defineStep, type StepDef } from '../definition.ts';
import { domainOffers, entry, setEntry, type Ctx } from '../context.ts';
import type { DatesState } from '../../../src/domain/checkout/step-state.ts';
import { complete } from '../outcomes.ts';
import { validateLines } from './lines.ts';
import { checkPreferredDates, requestDatesStep } from './request.ts';
import { messageAction, type FlowRules } from '../../../src/domain/checkout/flows.ts';

/** Spec 2.14 "Message", under the action name the flow's rules give (request: "request message filled"). */
export function messageStep(rules: FlowRules): StepDef<'message'> {
  const actionName = messageAction(rules);
  return defineStep({
    id: 'message',
    isComplete: (ctx) => entry(ctx, 'message') !== null,
    actions: {
      [actionName]: action({
        payload: ACTION_PAYLOADS[actionName],
        handle: (ctx, payload) => {
          setEntry(ctx, 'message', { message: payload.message.trim() });
          return ADVANCE;
        },
      }),
    },
  });
}

/** Spec 2.14 "Group/date request Dates": preferred dates, plus offers and add-ons. */
export const groupDatesStep = defineStep({
  id: 'dates',
  isComplete: (ctx) => entry(ctx, 'dates') !== null,
  actions: {
    'dates and prices selected': action({
      payload: ACTION_PAYLOADS['dates and prices selected'],
      handle: async (ctx, payload) => {
        const preferredDates = checkPreferredDates(ctx, payload.selectedDates, 'payload.selectedDates');
        const offersIn = payload.selectedOffers ?? defaultOfferSelection(domainOffers(ctx.def.catalogue(ctx).offers), ctx.now);
        const { offers, addOns, spaces } = await validateLines(ctx, offersIn, payload.selectedAddons, { offers: 'payload.selectedOffers', addOns: 'payload.selectedAddons' }, 1);
        setEntry(ctx, 'dates', {
          type: 'preferred dates', preferredDates, availableDate: null, skipAvailableDates: false, offers, addOns, spacesRequested: spaces,
        } satisfies DatesState);
        return ADVANCE;
      },
    }),
  },
});

/** The Dates step the flow's rules name: the request's, or preferred dates with offers (group and date requests). */
export function datesStep(rules: FlowRules): StepDef<'dates'> {
  return rules.dates === 'request' ? requestDatesStep : groupDatesStep;
}

/** The group Dates entry as a selection. */
export function datesSelection(ctx: Ctx) {
  const d = entry(ctx, 'dates');
  if (!d) return null;
  return { offers: d.offers ?? [], addOns: d.addOns ?? [], extras: [], spaces: d.spacesRequested ?? 0, voucherId: null };
}

/** Spec 2.15: reaching Confirmation without a Payment step records the outcome, nothing to pay. */
export const confirmationStep = defineStep({
  id: 'confirmation',
  isComplete: (ctx) => ctx.row.status === 'completed',
  actions: {},
  enter: (ctx) => complete(ctx, { method: null, state: 'free' }),
});
