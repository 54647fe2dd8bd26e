/**
 * The request flow's own steps (spec 2.14 "Request Delivery", "Request Dates") and its rules (spec 4 "Request
 * flow rules"): calendar-based, instant booking, the slot a calendar-based request books.
 */
import type { z } from 'zod';
import type { ProblemProperty } from '../../../src/domain/problems.ts';
import { ProblemError, problems } from '../../../src/domain/problems.ts';
import { availableDeliveryTypes, defaultDelivery, defaultDurationId, defaultRequestPricing, pickLocation } from '../../../src/domain/checkout/defaults.ts';
import { durationExtra, isCalendarBased, isInstantBooking, slotDurationSeconds } from '../../../src/domain/checkout/request.ts';
import { spacesPoolBase } from '../../../src/domain/pricing.ts';
import { soldOutProblem } from '../../../src/domain/checkout/problems.ts';
import { validatePreferredDates } from '../../../src/domain/checkout/validation.ts';
import { availabilitySlots, isAvailableSlot } from '../../../src/domain/checkout/slots.ts';
import { addLocalDays, calendarDayOf, isoDate, localDate, startOfLocalDay } from '../../../src/domain/zone.ts';
import { educatorBusyIntervals, type CheckoutCatalogue } from '../../../db/queries/checkout.ts';
import type { DurationPricing } from '../../../db/schema.ts';
import { ACTION_PAYLOADS } from '../actions.ts';
import { ADVANCE, STAY, action, defineStep } from '../definition.ts';
import { costOf, courseOf, domainOffers, entry, setEntry, type Ctx } from '../context.ts';
import type { DatesState, DeliveryState } from '../../../src/domain/checkout/step-state.ts';
import { invalid, validateLines } from './lines.ts';
import { resolveCode } from './pricing.ts';

/** The delivery facts of a course (spec 4 "Defaults"). */
export function deliveryCourse(cat: CheckoutCatalogue) {
  const c = courseOf({ cat });
  return {
    available_for_online_delivery: c.available_for_online_delivery,
    available_for_in_person_delivery: c.available_for_in_person_delivery,
    educator_travel_settings: c.educator_travel_settings,
    student_travel_settings: c.student_travel_settings,
  };
}

/** The selected duration option of a request (or null). */
export function selectedDuration(ctx: Ctx, durationId?: string | null): DurationPricing | null {
  const options = courseOf(ctx).duration_pricing ?? [];
  const id = durationId === undefined ? entry(ctx, 'delivery')?.selectedDurationId : durationId;
  return options.find((o) => o._id === id) ?? null;
}

/** Minutes of the request's duration: the selected option, else the course duration, else null. */
function durationMinutes(ctx: Ctx): number | null {
  const option = selectedDuration(ctx);
  if (option && typeof option.duration === 'number') return option.duration;
  return courseOf(ctx).course_duration ?? null;
}

export function calendarBased(ctx: Ctx): boolean {
  return isCalendarBased({
    dateRequests: courseOf(ctx).date_requests,
    durationMinutes: durationMinutes(ctx),
    skipAvailableDates: entry(ctx, 'dates')?.skipAvailableDates ?? false,
  });
}

export function instantBooking(ctx: Ctx): boolean {
  return isInstantBooking({ pricingType: courseOf(ctx).pricing_type, calendarBased: calendarBased(ctx) });
}

/**
 * The delivery entry as a selection: its offers and add-ons, the duration's extra cost per requested space, and the
 * promo code or gift card applied — only for an instant booking, the one kind of request that is paid at checkout (a
 * request the educator answers is priced by them later).
 */
export function deliverySelection(ctx: Ctx) {
  const d = entry(ctx, 'delivery');
  if (!d) return null;
  const offers = d.pricing.type === 'offers' ? Object.entries(d.pricing.offers).map(([offerId, quantity]) => ({ offerId, quantity })) : [];
  const addOns = d.pricing.type === 'offers' ? Object.entries(d.pricing.addOns ?? {}).map(([addonId, quantity]) => ({ addonId, quantity })) : [];
  const extra = durationExtra(selectedDuration(ctx, d.selectedDurationId), d.requestedSpaces);
  const paid = instantBooking(ctx);
  return {
    offers, addOns, extras: extra ? [extra] : [], spaces: d.requestedSpaces,
    voucherId: paid ? d.voucherId ?? null : null, giftCardId: paid ? d.giftCardId ?? null : null,
  };
}

/** The slot a calendar-based request books: start and end (duration, or the 900 s default). */
export function slotOf(ctx: Ctx, start: number): { from: number; to: number } {
  return { from: start, to: start + slotDurationSeconds(durationMinutes(ctx)) };
}

/** Spec 5 "Calendar slots": a future slot of the educator's opening hours that no booking takes. */
async function checkSlot(ctx: Ctx, start: number, key: string): Promise<void> {
  if (start <= ctx.now) invalid([{ key, name: 'Date & Time', message: 'must be in the future' }]);
  const seconds = slotDurationSeconds(durationMinutes(ctx));
  // The slot's local day and the next: a slot may start late and end after midnight.
  const from = startOfLocalDay(start);
  const to = addLocalDays(from, 2);
  const busy = await educatorBusyIntervals(ctx.q, ctx.cat.educator.id, from, to);
  const slots = availabilitySlots({ workingHours: ctx.cat.educator.working_hours, from, to, durationSeconds: seconds, busy, now: ctx.now });
  if (!isAvailableSlot(slots, start)) invalid([{ key, name: 'Date & Time', message: 'is not an available time' }]);
}

function parseDate(value: string): number | null {
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

/** Spec 5 "Preferred dates": 1–3, each required, each a date that is today or later. */
export function checkPreferredDates(ctx: Ctx, dates: ReadonlyArray<string | null>, path: string): string[] {
  const properties = validatePreferredDates(dates, path);
  if (properties.length) invalid(properties);
  // Calendar days in London compared as days: 'YYYY-MM-DD' strings order like the dates they name.
  const today = isoDate(localDate(ctx.now));
  const bad: ProblemProperty[] = [];
  dates.forEach((d, index) => {
    const day = calendarDayOf(d as string);
    const labels = ['First choice', 'Second choice', 'Third choice'];
    if (day === null) bad.push({ key: `${path}.${index}`, name: labels[index], message: 'is not a valid date' });
    else if (day < today) bad.push({ key: `${path}.${index}`, name: labels[index], message: 'must not be in the past' });
  });
  if (bad.length) invalid(bad);
  return dates.map((d) => (d as string).trim());
}

async function configureDelivery(ctx: Ctx, payload: z.output<(typeof ACTION_PAYLOADS)['request delivery configured']>): Promise<void> {
  const course = courseOf(ctx);
  const options = course.duration_pricing ?? [];
  const properties: ProblemProperty[] = [];
  let durationId = payload.selectedDurationId ?? null;
  if (durationId === null) durationId = defaultDurationId(options);
  else if (!options.some((o) => o._id === durationId)) properties.push({ key: 'payload.selectedDurationId', name: 'Preferred Duration', message: 'is not one of the options' });

  const locations = course.student_travel_settings?.locations ?? [];
  const courseLike = deliveryCourse(ctx.cat);
  const types = availableDeliveryTypes(courseLike, locations);
  let delivery = payload.delivery ?? defaultDelivery(courseLike, locations);
  if (delivery.type === 'Student travels' && !delivery.location_ref) {
    // Spec 5: the "Select a location" placeholder is ignored: the previous choice (or the first location) stays.
    const previous = entry(ctx, 'delivery')?.delivery;
    const kept = pickLocation(previous?.type === 'Student travels' ? previous.location_ref : null, delivery.location_ref);
    delivery = { type: 'Student travels', location_ref: kept ?? locations[0] ?? '' };
  }
  if (!types.includes(delivery.type)) properties.push({ key: 'payload.delivery.type', name: 'Delivery', message: 'is not offered for this course' });
  else if (delivery.type === 'Educator travels' && !delivery.address.trim()) {
    properties.push({ key: 'payload.delivery.address', name: 'Enter your address', message: 'is required' });
  } else if (delivery.type === 'Student travels' && !locations.includes(delivery.location_ref)) {
    properties.push({ key: 'payload.delivery.location_ref', name: 'Select a location', message: 'is not one of the locations' });
  }
  if (properties.length) invalid(properties);

  const pricing = payload.pricing ?? defaultRequestPricing(domainOffers(ctx.cat.offers), ctx.now);
  let requestedSpaces: number;
  let normalised: DeliveryState['pricing'];
  if (pricing.type === 'offers') {
    const { offers, addOns, spaces } = await validateLines(
      ctx,
      Object.entries(pricing.offers).map(([offerId, quantity]) => ({ offerId, quantity })),
      Object.entries(pricing.addOns ?? {}).map(([addonId, quantity]) => ({ addonId, quantity })),
      { offers: 'payload.pricing.offers', addOns: 'payload.pricing.addOns' },
    );
    requestedSpaces = spaces;
    normalised = { type: 'offers', offers: Object.fromEntries(offers.map((l) => [l.offerId, l.quantity])), addOns: Object.fromEntries(addOns.map((l) => [l.addonId, l.quantity])) };
  } else {
    const pool = spacesPoolBase(ctx.def.rules.spaces, {});
    if (pricing.quantity > pool) throw new ProblemError(soldOutProblem(pool, 'payload.pricing.quantity'));
    requestedSpaces = pricing.quantity;
    normalised = { type: 'spaces', quantity: pricing.quantity };
  }
  // "Apply promo code or gift card" (shown for an instant booking, which is paid at checkout).
  const code = await resolveCode(ctx, payload.appliedPromoCode, entry(ctx, 'delivery'));
  const state: DeliveryState = { selectedDurationId: durationId, delivery, pricing: normalised, requestedSpaces, payableCost: 0, ...code };
  setEntry(ctx, 'delivery', state);
  // payableCost (spec 3): what the learner would pay (offers, add-ons, the duration's extra cost per space), before
  // any code.
  const sel = deliverySelection(ctx);
  state.payableCost = sel ? costOf(ctx.cat, ctx.def.catalogue(ctx), sel, null).total_cost : 0;
  setEntry(ctx, 'delivery', state);
  // A new duration may change whether the dates are calendar-based: the dates must be chosen again.
  const dates = entry(ctx, 'dates');
  if (dates && dates.type === 'available date' && !calendarBased(ctx)) delete ctx.row.step_state.dates;
}

export const deliveryStep = defineStep({
  id: 'delivery',
  isComplete: (ctx) => entry(ctx, 'delivery') !== null,
  actions: {
    'request delivery configured': action({
      payload: ACTION_PAYLOADS['request delivery configured'],
      handle: async (ctx, payload) => {
        await configureDelivery(ctx, payload);
        return ADVANCE;
      },
    }),
  },
});

/** The request's Dates step: a calendar slot when calendar-based, else preferred dates (spec 2.14). */
export const requestDatesStep = defineStep({
  id: 'dates',
  isComplete: (ctx) => entry(ctx, 'dates') !== null,
  actions: {
    'request preferred dates selected': action({
      payload: ACTION_PAYLOADS['request preferred dates selected'],
      handle: (ctx, payload) => {
        if (calendarBased(ctx)) throw new ProblemError(problems.checkoutSubmission());
        const preferredDates = checkPreferredDates(ctx, payload.preferredDates, 'payload.preferredDates');
        const previous = entry(ctx, 'dates');
        setEntry(ctx, 'dates', { type: 'preferred dates', preferredDates, availableDate: null, skipAvailableDates: previous?.skipAvailableDates ?? false } satisfies DatesState);
        return ADVANCE;
      },
    }),
    'request available date selected': action({
      payload: ACTION_PAYLOADS['request available date selected'],
      handle: async (ctx, payload) => {
        if (!calendarBased(ctx)) throw new ProblemError(problems.checkoutSubmission());
        const start = parseDate(payload.availableDate);
        if (start === null) invalid([{ key: 'payload.availableDate', name: 'Date & Time', message: 'is not a valid date and time' }]);
        await checkSlot(ctx, start, 'payload.availableDate');
        setEntry(ctx, 'dates', {
          type: 'available date', preferredDates: [], availableDate: new Date(start * 1000).toISOString(), skipAvailableDates: false,
        } satisfies DatesState);
        return ADVANCE;
      },
    }),
    'skip available dates': action({
      payload: ACTION_PAYLOADS['skip available dates'],
      handle: (ctx) => {
        // Stays on Dates, which now asks for preferred dates (spec 4: no longer calendar-based).
        if (courseOf(ctx).date_requests !== 'calendar_based') throw new ProblemError(problems.checkoutSubmission());
        setEntry(ctx, 'dates', { type: 'preferred dates', preferredDates: [], availableDate: null, skipAvailableDates: true });
        return STAY;
      },
    }),
  },
});
