/**
 * The steps of the checkout (spec 2.14) and the actions each one accepts (spec 4). A step handler
 * validates its payload against the catalogue (spec 5), writes its stepState entry and says whether the
 * checkout moves on. Adding a flow is adding its list in src/domain/checkout/steps.ts.
 */
import type { z } from 'zod';
import { ProblemError, problems, type ProblemProperty } from '../../src/domain/problems.ts';
import type { StepId } from '../../src/domain/checkout/steps.ts';
import type { ActionName, ACTION_PAYLOADS } from './actions.ts';
import {
  calendarBased, costOf, durationLabel, durationMinutes, entry, instantBooking, scopeAddOns, scopeOffers, domainOffers, setEntry,
  type Ctx, type DatesState, type DeliveryState, type PriceState,
} from './context.ts';
import { defaultDelivery, defaultDurationId, defaultOfferSelection, defaultRequestPricing, availableDeliveryTypes, pickLocation } from '../../src/domain/checkout/defaults.ts';
import { flowSpacesBase, occurrenceIsListed, offerSaleText, spacesSelected, type SelectedOffer } from '../../src/domain/pricing.ts';
import { soldOutProblem, spacesMessage, voucherProperty } from '../../src/domain/checkout/problems.ts';
import { checkVoucher } from './vouchers.ts';
import {
  BOOKER_RESPONSE_PATH, DEFAULT_FORM_REF, bookerFormRef, attendeeResponsePath, assertKnownUser, capturesGuests,
  showMarketingConsent, termsPreAccepted, validateFormResponse, validatePreferredDates, validateTerms, TERMS_MESSAGE,
  type FormResponse,
} from '../../src/domain/checkout/validation.ts';
import { SYSTEM_EMAIL_LOCKED_DESCRIPTION } from '../../src/domain/checkout/constants.ts';
import { loadForm, educatorBusyIntervals } from '../../db/queries/checkout.ts';
import { availabilitySlots, isAvailableSlot, localDate, zonedMidnight } from '../../src/domain/checkout/slots.ts';
import { slotDurationSeconds } from '../../src/domain/checkout/request.ts';
import { ensureAvailableSpaces, lockOccurrence, sweepExpired } from './holds.ts';
import type { OccurrencesTable } from '../../db/schema.ts';
import type { Selectable } from 'kysely';

export type StepOutcome = 'advance' | 'stay';

type Payload<A extends ActionName> = z.infer<(typeof ACTION_PAYLOADS)[A]>;

function invalid(properties: ProblemProperty[]): never {
  throw new ProblemError(problems.validation(properties));
}

/** The actions each step accepts, per flow where the names differ (spec 4 table). */
export function stepActions(step: StepId, flow: Ctx['flow']): ActionName[] {
  switch (step) {
    case 'date':
      return ['occurrence picked'];
    case 'spaces':
      return ['pricing options picked'];
    case 'offers':
      return ['order pricing options picked'];
    case 'delivery':
      return ['request delivery configured'];
    case 'dates':
      return flow === 'request'
        ? ['request preferred dates selected', 'request available date selected', 'skip available dates']
        : ['dates and prices selected'];
    case 'message':
      return flow === 'request' ? ['request message filled'] : ['message filled'];
    case 'contactDetails':
      return flow === 'order' ? ['order contact details filled'] : ['contact details filled'];
    case 'payment':
      return ['payment method selected', 'payment was successful', 'invoice details added', 'manual payment confirmed'];
    default:
      return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Date

type OccurrenceRow = Selectable<OccurrencesTable>;

export function occurrenceBookable(ctx: Ctx, occurrence: OccurrenceRow, offers: ReturnType<typeof domainOffers>): boolean {
  const listed = occurrenceIsListed(
    { _id: occurrence.id, visibility: occurrence.visibility, parent_ref: occurrence.parent_ref, individually_bookable: occurrence.individually_bookable, offers },
    ctx.now,
  );
  return listed && Number(occurrence.start_datetime) > ctx.now;
}

export async function pickOccurrence(ctx: Ctx, occurrenceId: string, key = 'payload.occurrence_id'): Promise<void> {
  const { loadOccurrence } = await import('../../db/queries/checkout.ts');
  const occ = await loadOccurrence(ctx.q, occurrenceId, ctx.cat);
  if (!occ || !occurrenceBookable(ctx, occ.occurrence, domainOffers(occ.offers))) {
    invalid([{ key, name: 'Date', message: 'is not available for booking' }]);
  }
  if (ctx.row.occurrence_id !== occurrenceId) {
    // A different date: the spaces chosen for the previous one no longer apply.
    delete ctx.row.step_state.price;
  }
  ctx.occ = occ;
  ctx.row.occurrence_id = occurrenceId;
  setEntry(ctx, 'date', {
    selectedDate: { _id: occ.occurrence.id, start_datetime: Number(occ.occurrence.start_datetime), end_datetime: Number(occ.occurrence.end_datetime) },
  });
}

// ---------------------------------------------------------------------------------------------
// Offers and spaces (spec 5 "Offer quantity")

/** Current space pool of the flow, sweeping expired holds of the occurrence first (they give spaces back). */
async function spacePool(ctx: Ctx): Promise<number> {
  if ((ctx.flow === 'booking' || ctx.flow === 'bookingApplication') && ctx.occ) {
    const id = ctx.occ.occurrence.id;
    await lockOccurrence(ctx.q, ctx.dialect, id);
    await sweepExpired(ctx.q, ctx.dialect, ctx.now, { occurrenceId: id });
    await ensureAvailableSpaces(ctx.q, id);
    const fresh = await ctx.q.selectFrom('occurrences').select(['available_spaces', 'spaces']).where('id', '=', id).executeTakeFirstOrThrow();
    ctx.occ = { ...ctx.occ, occurrence: { ...ctx.occ.occurrence, available_spaces: fresh.available_spaces, spaces: fresh.spaces } };
    // The checkout's own held spaces are still available to it.
    const own = await ctx.q.selectFrom('space_holds').select(['spaces']).where('checkout_id', '=', ctx.row.id).where('status', '=', 'held').where('occurrence_id', '=', id).executeTakeFirst();
    return flowSpacesBase(ctx.flow, { occurrence: ctx.occ.occurrence, course: ctx.cat.course }) + (own ? Number(own.spaces) : 0);
  }
  return flowSpacesBase(ctx.flow, { occurrence: null, course: ctx.cat.course });
}

/**
 * Validates offer and add-on lines: known ids, offers with a quantity inside their sale window, at least one
 * space, and no more spaces than the pool. Returns the normalised lines and the spaces they take.
 */
async function validateLines(
  ctx: Ctx,
  offersIn: ReadonlyArray<SelectedOffer>,
  addOnsIn: ReadonlyArray<{ addonId: string; quantity: number }>,
  paths: { offers: string; addOns: string },
  spacesRequested?: number,
): Promise<{ offers: SelectedOffer[]; addOns: { addonId: string; quantity: number }[]; spaces: number }> {
  const catalogue = scopeOffers(ctx);
  const offers = domainOffers(catalogue);
  const addOnCatalogue = scopeAddOns(ctx);
  const properties: ProblemProperty[] = [];
  const merged = new Map<string, number>();
  offersIn.forEach((line, index) => {
    const offer = catalogue.find((o) => o.id === line.offerId);
    if (!offer) {
      properties.push({ key: `${paths.offers}.${index}.offerId`, name: 'Offer', message: 'is not one of this course\u2019s offers' });
      return;
    }
    if (line.quantity > 0) {
      const sale = offerSaleText(offer, ctx.now);
      if (sale) properties.push({ key: `${paths.offers}.${index}.quantity`, name: offer.name, message: sale });
    }
    merged.set(line.offerId, (merged.get(line.offerId) ?? 0) + line.quantity);
  });
  const addOnsMerged = new Map<string, number>();
  addOnsIn.forEach((line, index) => {
    if (!addOnCatalogue.some((a) => a.id === line.addonId)) {
      properties.push({ key: `${paths.addOns}.${index}.addonId`, name: 'Add-on', message: 'is not one of this course\u2019s add-ons' });
      return;
    }
    addOnsMerged.set(line.addonId, (addOnsMerged.get(line.addonId) ?? 0) + line.quantity);
  });
  if (properties.length) invalid(properties);
  const lines = [...merged].map(([offerId, quantity]) => ({ offerId, quantity }));
  const spaces = catalogue.length > 0 ? spacesSelected(lines, offers) : spacesRequested ?? 1;
  if (spaces <= 0) invalid([{ key: paths.offers, name: 'Spaces', message: 'must include at least one space' }]);
  const pool = await spacePool(ctx);
  if (spaces > pool) throw new ProblemError(soldOutProblem(Math.max(0, pool), paths.offers));
  return { offers: lines, addOns: [...addOnsMerged].map(([addonId, quantity]) => ({ addonId, quantity })), spaces };
}

export async function pickPricing(ctx: Ctx, payload: Payload<'pricing options picked'>): Promise<void> {
  if ((ctx.flow === 'booking' || ctx.flow === 'bookingApplication') && !ctx.occ) {
    invalid([{ key: 'payload.selectedOffers', name: 'Date', message: 'must be picked first' }]);
  }
  const offersIn = payload.selectedOffers ?? defaultOfferSelection(domainOffers(scopeOffers(ctx)), ctx.now);
  const { offers, addOns, spaces } = await validateLines(
    ctx, offersIn, payload.selectedAddons, { offers: 'payload.selectedOffers', addOns: 'payload.selectedAddons' }, payload.spacesRequested,
  );
  let voucherId: string | null = null;
  if (payload.appliedPromoCode && payload.appliedPromoCode.trim()) {
    const previous = entry<PriceState>(ctx, 'price')?.voucherId ?? null;
    const ownHold = await ctx.q.selectFrom('space_holds').select('voucher_id').where('checkout_id', '=', ctx.row.id).where('status', '=', 'held').executeTakeFirst();
    const check = await checkVoucher(ctx.q, {
      educatorId: ctx.cat.educator.id, courseId: ctx.cat.course.id, codeOrId: payload.appliedPromoCode, now: ctx.now,
      ownHold: !!ownHold?.voucher_id && ownHold.voucher_id === previous,
    });
    if (!check.ok) invalid([voucherProperty(check.reason)]);
    voucherId = check.voucher.id;
  }
  const state: PriceState = { offers, addOns, spacesRequested: spaces, voucherId };
  setEntry(ctx, 'price', state);
}

// ---------------------------------------------------------------------------------------------
// Request: delivery, dates, message

export async function configureDelivery(ctx: Ctx, payload: Payload<'request delivery configured'>): Promise<void> {
  const course = ctx.cat.course;
  const options = course.duration_pricing ?? [];
  const properties: ProblemProperty[] = [];
  let durationId = payload.selectedDurationId ?? null;
  if (durationId === null) durationId = defaultDurationId(options);
  else if (!options.some((o) => o._id === durationId)) properties.push({ key: 'payload.selectedDurationId', name: 'Preferred Duration', message: 'is not one of the options' });

  const locations = course.student_travel_settings?.locations ?? [];
  const courseLike = {
    available_for_online_delivery: course.available_for_online_delivery,
    available_for_in_person_delivery: course.available_for_in_person_delivery,
    educator_travel_settings: course.educator_travel_settings,
    student_travel_settings: course.student_travel_settings,
  };
  const types = availableDeliveryTypes(courseLike, locations);
  let delivery = payload.delivery ?? defaultDelivery(courseLike, locations);
  if (delivery.type === 'Student travels' && !delivery.location_ref) {
    // Spec 5: the "Select a location" placeholder is ignored: the previous choice (or the first location) stays.
    const previous = entry<DeliveryState>(ctx, 'delivery')?.delivery;
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
    const pool = flowSpacesBase('request', {});
    if (pricing.quantity > pool) throw new ProblemError(soldOutProblem(pool, 'payload.pricing.quantity'));
    requestedSpaces = pricing.quantity;
    normalised = { type: 'spaces', quantity: pricing.quantity };
  }
  const state: DeliveryState = { selectedDurationId: durationId, delivery, pricing: normalised, requestedSpaces, payableCost: 0 };
  setEntry(ctx, 'delivery', state);
  // payableCost: what the learner would pay (offers, add-ons, the duration's extra cost per space).
  const option = options.find((o) => o._id === durationId);
  const extras = option && (option.extra_cost ?? 0) > 0 ? [{ label: option.label || durationLabel(option.duration), cost: option.extra_cost as number, quantity: requestedSpaces }] : [];
  const lines = normalised.type === 'offers'
    ? { offers: Object.entries(normalised.offers).map(([offerId, quantity]) => ({ offerId, quantity })), addOns: Object.entries(normalised.addOns).map(([addonId, quantity]) => ({ addonId, quantity })) }
    : { offers: [], addOns: [] };
  state.payableCost = costOf(ctx, { ...lines, extras }, null).total_cost;
  setEntry(ctx, 'delivery', state);
  // A new duration may change whether the dates are calendar-based: the dates must be chosen again.
  const dates = entry<DatesState>(ctx, 'dates');
  if (dates && dates.type === 'available date' && !calendarBased(ctx)) delete ctx.row.step_state.dates;
}

function parseDate(value: string): number | null {
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

/** Spec 5 "Preferred dates": 1–3, each required, each a date that is today or later. */
function checkPreferredDates(ctx: Ctx, dates: ReadonlyArray<string | null>, path: string): string[] {
  const properties = validatePreferredDates(dates, path);
  if (properties.length) invalid(properties);
  const today = zonedMidnight(localDate(ctx.now));
  const bad: ProblemProperty[] = [];
  dates.forEach((d, index) => {
    const t = parseDate(d as string);
    const labels = ['First choice', 'Second choice', 'Third choice'];
    if (t === null) bad.push({ key: `${path}.${index}`, name: labels[index], message: 'is not a valid date' });
    else if (t < today) bad.push({ key: `${path}.${index}`, name: labels[index], message: 'must not be in the past' });
  });
  if (bad.length) invalid(bad);
  return dates.map((d) => (d as string).trim());
}

export function selectPreferredDates(ctx: Ctx, payload: Payload<'request preferred dates selected'>): void {
  if (calendarBased(ctx)) throw new ProblemError(problems.checkoutSubmission());
  const preferredDates = checkPreferredDates(ctx, payload.preferredDates, 'payload.preferredDates');
  const previous = entry<DatesState>(ctx, 'dates');
  setEntry(ctx, 'dates', { type: 'preferred dates', preferredDates, availableDate: null, skipAvailableDates: previous?.skipAvailableDates ?? false } satisfies DatesState);
}

/** The slot a calendar-based request books: start and end (duration, or the 900 s default). */
export function slotOf(ctx: Ctx, start: number): { from: number; to: number } {
  return { from: start, to: start + slotDurationSeconds(durationMinutes(ctx)) };
}

/** Spec 5 "Calendar slots": a future slot of the educator's opening hours that no booking takes. */
export async function checkSlot(ctx: Ctx, start: number, key: string): Promise<void> {
  if (start <= ctx.now) invalid([{ key, name: 'Date & Time', message: 'must be in the future' }]);
  const seconds = slotDurationSeconds(durationMinutes(ctx));
  const dayStart = zonedMidnight(localDate(start));
  const from = dayStart;
  const to = dayStart + 2 * 86400;
  const busy = await educatorBusyIntervals(ctx.q, ctx.cat.educator.id, from, to);
  const slots = availabilitySlots({ workingHours: ctx.cat.educator.working_hours, from, to, durationSeconds: seconds, busy, now: ctx.now });
  if (!isAvailableSlot(slots, start)) invalid([{ key, name: 'Date & Time', message: 'is not an available time' }]);
}

export async function selectAvailableDate(ctx: Ctx, payload: Payload<'request available date selected'>): Promise<void> {
  if (!calendarBased(ctx)) throw new ProblemError(problems.checkoutSubmission());
  const start = parseDate(payload.availableDate);
  if (start === null) invalid([{ key: 'payload.availableDate', name: 'Date & Time', message: 'is not a valid date and time' }]);
  await checkSlot(ctx, start, 'payload.availableDate');
  setEntry(ctx, 'dates', {
    type: 'available date', preferredDates: [], availableDate: new Date(start * 1000).toISOString(), skipAvailableDates: false,
  } satisfies DatesState);
}

export function skipAvailableDates(ctx: Ctx): void {
  if (ctx.cat.course.date_requests !== 'calendar_based') throw new ProblemError(problems.checkoutSubmission());
  ctx.row.step_state.dates = { status: 'complete', state: { type: 'preferred dates', preferredDates: [], availableDate: null, skipAvailableDates: true } };
}

export async function selectDatesAndPrices(ctx: Ctx, payload: Payload<'dates and prices selected'>): Promise<void> {
  const preferredDates = checkPreferredDates(ctx, payload.selectedDates, 'payload.selectedDates');
  const offersIn = payload.selectedOffers ?? defaultOfferSelection(domainOffers(scopeOffers(ctx)), ctx.now);
  const { offers, addOns, spaces } = await validateLines(ctx, offersIn, payload.selectedAddons, { offers: 'payload.selectedOffers', addOns: 'payload.selectedAddons' }, 1);
  setEntry(ctx, 'dates', {
    type: 'preferred dates', preferredDates, availableDate: null, skipAvailableDates: false, offers, addOns, spacesRequested: spaces,
  } satisfies DatesState);
}

export function fillMessage(ctx: Ctx, payload: { message: string }): void {
  setEntry(ctx, 'message', { message: payload.message.trim() });
}

// ---------------------------------------------------------------------------------------------
// Contact details (spec 5)

/** Spaces the checkout asks for (the number of attendees). */
export function requestedSpaces(ctx: Ctx): number {
  switch (ctx.flow) {
    case 'request':
      return entry<DeliveryState>(ctx, 'delivery')?.requestedSpaces ?? 1;
    case 'dateBookingRequest':
    case 'groupBookingRequest':
      return entry<DatesState>(ctx, 'dates')?.spacesRequested ?? 1;
    default: {
      const price = entry<PriceState>(ctx, 'price');
      const offers = domainOffers(scopeOffers(ctx));
      if (!price) return 1;
      return offers.length > 0 ? spacesSelected(price.offers, offers) : price.spacesRequested;
    }
  }
}

export async function fillContactDetails(ctx: Ctx, payload: Payload<'contact details filled'>): Promise<void> {
  assertKnownUser(ctx.user?.id);
  const user = ctx.user!;
  const educator = ctx.cat.educator;
  const origin = ctx.row.origin;
  const properties: ProblemProperty[] = [];

  const formId = bookerFormRef(ctx.cat.course, ctx.cat.educator);
  const form = (await loadForm(ctx.q, formId)) ?? (await loadForm(ctx.q, DEFAULT_FORM_REF))!;
  const booker: FormResponse = { ...payload.bookerFormResponse };
  // The booker's e-mail is the account's and cannot be edited (spec 5).
  const given = typeof booker.system_email === 'string' ? booker.system_email.trim() : '';
  if (given && given.toLowerCase() !== user.email.toLowerCase()) {
    properties.push({ key: `${BOOKER_RESPONSE_PATH}.system_email`, name: 'Email', message: SYSTEM_EMAIL_LOCKED_DESCRIPTION });
  }
  booker.system_email = user.email;
  properties.push(...validateFormResponse(form, booker, BOOKER_RESPONSE_PATH));

  const attendees: FormResponse[] = [];
  const guests = capturesGuests({ capture_guests: ctx.cat.course.capture_guests });
  if (guests) {
    const expected = Math.max(0, requestedSpaces(ctx) - (payload.bookerIsAttending ? 1 : 0));
    const responses = payload.attendeeFormResponses.map((r) => ('formResponse' in r && typeof r.formResponse === 'object' && r.formResponse !== null && !Array.isArray(r.formResponse) ? r.formResponse : r) as FormResponse);
    if (responses.length !== expected) {
      properties.push({ key: 'payload.attendeeFormResponses', name: 'Attendees', message: `must hold the details of ${expected} ${expected === 1 ? 'attendee' : 'attendees'}` });
    }
    const guestForm = ctx.cat.course.guest_form_ref ? (await loadForm(ctx.q, ctx.cat.course.guest_form_ref)) ?? form : form;
    responses.slice(0, expected).forEach((response, index) => {
      properties.push(...validateFormResponse(guestForm, response, attendeeResponsePath(index)));
      attendees.push(response);
    });
  }
  const preAccepted = termsPreAccepted({ hideTerms: educator.feature_flags?.hide_terms, origin });
  const termsMessage = validateTerms({ termsAccepted: payload.termsAccepted, hideTerms: educator.feature_flags?.hide_terms, origin });
  if (termsMessage) properties.push({ key: 'payload.termsAccepted', name: 'Terms', message: TERMS_MESSAGE });
  if (properties.length) throw new ProblemError({ ...problems.validation(properties) });

  const marketingConsent = showMarketingConsent(educator.feature_flags) ? payload.marketingConsent : false;
  setEntry(ctx, 'contactDetails', {
    booker: { formResponse: booker, isAttending: guests ? payload.bookerIsAttending : true },
    attendees: attendees.map((formResponse) => ({ formResponse })),
    marketingConsent,
    // Acceptance is recorded only for terms the learner was shown: hidden terms (spec 5) are waived, not
    // accepted, whatever the client says — the origin that hides them is the client's own claim.
    termsShown: !preAccepted,
    termsAccepted: preAccepted ? false : payload.termsAccepted,
    bookerFormId: form._id ?? formId,
  });
  ctx.row.user_id = user.id;
  ctx.row.student_id = user.studentId;
  // Remember the answers to prefill the learner's next booker form (GET /student_metadata/form/{formId}).
  const formKey = (form as { _id?: string })._id ?? formId;
  await ctx.q
    .insertInto('student_form_responses')
    .values({ user_id: user.id, form_id: formKey, form_response: booker, updated_at: ctx.now })
    .onConflict((oc) => oc.columns(['user_id', 'form_id']).doUpdateSet({ form_response: booker, updated_at: ctx.now }))
    .execute();
}

export { spacesMessage, instantBooking };
