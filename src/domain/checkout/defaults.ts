/**
 * Defaults when no selection has been stored (spec 4 "Defaults when no selection has been stored").
 */
import type { CourseLike, DurationOption, Offer } from '../entities.ts';
import { isOfferOnSale, spacesSelected, type SelectedOffer } from '../pricing.ts';
import { ProblemError, problems } from '../problems.ts';

/** Spec 4: the first offer gets quantity 1 if it is inside its sale window; otherwise nothing is selected. */
export function defaultOfferSelection(offers: ReadonlyArray<Offer> | null | undefined, now: number): SelectedOffer[] {
  const first = offers?.[0];
  return first && isOfferOnSale(first, now) ? [{ offerId: first._id, quantity: 1 }] : [];
}

/** Spec 3 "stepState.delivery.pricing". */
export type RequestPricing =
  | { type: 'offers'; offers: Record<string, number>; addOns: Record<string, number> }
  | { type: 'spaces'; quantity: number };

/**
 * The spaces a request's pricing asks for (spec 3 delivery.requestedSpaces): its offers' spaces (spec 5: quantity ×
 * the offer's spaces, 1 when unset), or the "Number of people".
 */
export function requestPricingSpaces(pricing: RequestPricing, offers: ReadonlyArray<Pick<Offer, '_id' | 'spaces'>>): number {
  if (pricing.type === 'spaces') return pricing.quantity;
  return spacesSelected(Object.entries(pricing.offers).map(([offerId, quantity]) => ({ offerId, quantity })), offers);
}

/** Spec 4: request pricing defaults to the first offer (1 if on sale, else 0), or to spaces quantity 1. */
export function defaultRequestPricing(offers: ReadonlyArray<Offer> | null | undefined, now: number): RequestPricing {
  const first = offers?.[0];
  if (!first) return { type: 'spaces', quantity: 1 };
  return { type: 'offers', offers: { [first._id]: isOfferOnSale(first, now) ? 1 : 0 }, addOns: {} };
}

/** Spec 3 "stepState.delivery.delivery". */
export type RequestDelivery =
  | { type: 'Online' }
  | { type: 'Educator travels'; address: string }
  | { type: 'Student travels'; location_ref: string };

export type RequestDeliveryType = RequestDelivery['type'];

/**
 * Spec 2.14 "Delivery" radio: which of the (up to three) options the course offers.
 * - Online: `available_for_online_delivery`.
 * - Educator travels: `educator_travel_settings.enabled`.
 * - Student travels: `student_travel_settings.enabled` with at least one location.
 * In-person options also need `available_for_in_person_delivery` not to be
 * explicitly false (the travel settings carry the intent; the flag only vetoes).
 */
export function availableDeliveryTypes(course: CourseLike, locationIds?: ReadonlyArray<string> | null): RequestDeliveryType[] {
  const types: RequestDeliveryType[] = [];
  if (course.available_for_online_delivery) types.push('Online');
  const inPerson = course.available_for_in_person_delivery !== false;
  if (inPerson && course.educator_travel_settings?.enabled) types.push('Educator travels');
  const locations = locationIds ?? course.student_travel_settings?.locations ?? [];
  if (inPerson && course.student_travel_settings?.enabled && locations.length > 0) types.push('Student travels');
  return types;
}

/**
 * Spec 4: delivery defaults to Online, else Educator travels (empty address to
 * fill in), else Student travels with the first location. Throws "No delivery
 * options available" (a ProblemError) when none applies.
 */
export function defaultDelivery(course: CourseLike, locationIds?: ReadonlyArray<string> | null): RequestDelivery {
  const types = availableDeliveryTypes(course, locationIds);
  if (types[0] === 'Online') return { type: 'Online' };
  if (types[0] === 'Educator travels') return { type: 'Educator travels', address: '' };
  if (types[0] === 'Student travels') {
    const locations = locationIds ?? course.student_travel_settings?.locations ?? [];
    return { type: 'Student travels', location_ref: locations[0] };
  }
  throw new ProblemError(problems.noDeliveryOptions());
}

/** Spec 4: the duration defaults to the first option (null when there are none). */
export function defaultDurationId(options: ReadonlyArray<DurationOption> | null | undefined): string | null {
  return options?.[0]?._id ?? null;
}

/** Spec 2.14: the "Preferred Duration" radio is hidden when there is only one option. */
export function showDurationChoice(options: ReadonlyArray<DurationOption> | null | undefined): boolean {
  return (options?.length ?? 0) > 1;
}

/** Spec 2.14: "Select a location" dropdown when there are several locations, otherwise the single address. */
export function showLocationDropdown(locationCount: number): boolean {
  return locationCount > 1;
}

/** Spec 5: choosing the "Select a location" placeholder (empty value) is ignored: the previous choice stays. */
export function pickLocation(previous: string | null, chosen: string | null | undefined): string | null {
  return chosen ? chosen : previous;
}
