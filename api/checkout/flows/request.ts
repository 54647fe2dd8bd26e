/**
 * The request flow (spec 1, 2.14, 4 "Request flow rules"): an on-request course, delivered as the learner
 * chooses; an instant booking of a calendar slot when the rules say so (paid when it costs something), else a
 * request the educator answers.
 */
import { ProblemError, problems } from '../../../src/domain/problems.ts';
import { bookingOutcome } from '../../../src/domain/checkout/outcomes.ts';
import { defaultDelivery, defaultDurationId, defaultRequestPricing, type RequestDelivery } from '../../../src/domain/checkout/defaults.ts';
import { requiresPayment } from '../../../src/domain/checkout/request.ts';
import { educatorBusyIntervals } from '../../../db/queries/checkout.ts';
import { FLOW_RULES } from '../../../src/domain/checkout/flows.ts';
import { defineFlow } from '../definition.ts';
import { checkoutCost, courseOf, domainOffers, entry } from '../context.ts';
import { commitSpaces } from '../outcomes.ts';
import { deliveryStep, calendarBased, deliveryCourse, deliverySelection, instantBooking, slotOf } from '../steps/request.ts';
import { contactStep } from '../steps/contact.ts';
import { paymentStep } from '../steps/payment.ts';
import { confirmationStep, datesStep, messageStep } from '../steps/common.ts';
import { courseCatalogue } from '../steps/lines.ts';
import { insertBooking, insertRequest, messageOf } from './shared.ts';

export const requestFlow = defineFlow({
  flow: 'request',
  rules: FLOW_RULES.request,
  steps: {
    delivery: deliveryStep,
    dates: datesStep(FLOW_RULES.request),
    message: messageStep(FLOW_RULES.request),
    contactDetails: contactStep(FLOW_RULES.request),
    payment: paymentStep,
    confirmation: confirmationStep,
  },
  catalogue: courseCatalogue,
  selection: deliverySelection,
  // Spec 4's rule, and something left to pay once a promo code, a gift card or member prices are taken off.
  paymentRequired: async (ctx) => requiresPayment({ instant: instantBooking(ctx), payableCost: entry(ctx, 'delivery')?.payableCost ?? 0 })
    && ((await checkoutCost(ctx))?.total_cost ?? 0) > 0,
  // An instant booking holds the use of its promo code (its gift card is held by Payment, as in every flow).
  holds: (ctx) => ({ occurrenceId: null, spaces: 0, voucherId: deliverySelection(ctx)?.voucherId ?? null }),
  defaults: (ctx) => {
    let delivery: RequestDelivery | null;
    try {
      delivery = defaultDelivery(deliveryCourse(ctx.cat), courseOf(ctx).student_travel_settings?.locations ?? []);
    } catch {
      delivery = null;
    }
    return {
      delivery: {
        selectedDurationId: defaultDurationId(courseOf(ctx).duration_pricing),
        delivery,
        pricing: defaultRequestPricing(domainOffers(ctx.cat.offers), ctx.now),
      },
    };
  },
  stateRules: (ctx) => ({ calendarBased: calendarBased(ctx), instantBooking: instantBooking(ctx) }),
  // Spec 4: "No delivery options available" when no delivery option can be defaulted.
  initialise: async (ctx) => {
    defaultDelivery(deliveryCourse(ctx.cat), courseOf(ctx).student_travel_settings?.locations ?? []);
  },
  outcome: async (ctx, pay, base) => {
    const dates = entry(ctx, 'dates');
    const details = { delivery: entry(ctx, 'delivery'), dates, message: messageOf(ctx), costSummary: ctx.row.cost_summary };
    if (!instantBooking(ctx) || !dates?.availableDate) return insertRequest(ctx, base, details);
    const slot = slotOf(ctx, Math.floor(Date.parse(dates.availableDate) / 1000));
    // The slot must still be free: lock the educator (PostgreSQL) and look for an overlapping booking.
    if (ctx.dialect === 'postgres') await ctx.q.selectFrom('educators').select('id').where('id', '=', ctx.row.educator_id).forUpdate().execute();
    const busy = await educatorBusyIntervals(ctx.q, ctx.row.educator_id, slot.from, slot.to);
    if (busy.length > 0) throw new ProblemError(problems.validation([{ key: 'stepState.dates.availableDate', name: 'Date & Time', message: 'is no longer available' }]));
    await commitSpaces(ctx);
    return insertBooking(ctx, pay, base, {
      occurrenceId: null, start: slot.from, end: slot.to, status: bookingOutcome(courseOf(ctx).approval_required), details,
    });
  },
});
