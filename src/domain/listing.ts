/**
 * What a course card and a course page show (spec 2.12, 2.13, 4 "Occurrence filtering", 9 "Pricing display",
 * 9 "Delivery lines"): the headline price, the listed and bookable dates, the delivery line.
 * Kept apart from the checkout's rules (pricing.ts re-exports these) so the course page's islands load only these.
 */
import type { AddOn, Occurrence, Offer, PricingOption } from './entities.ts';
import { DEFAULT_CURRENCY, formatPriceShort, money, type Currency } from './money.ts';

export const FREE_TEXT = 'Free';
export const PRICE_ON_ENQUIRY_TEXT = 'Price on enquiry';

/** Spec 3: an offer's price in pence; missing counts as 0. */
export function offerPrice(item: Pick<Offer, 'price'> | Pick<AddOn, 'price'>): number {
  return typeof item.price === 'number' && item.price > 0 ? item.price : 0;
}

/**
 * The headline price a course shows (cards, course page, structured data), before formatting:
 * - free → free; price-on-enquiry → enquiry;
 * - price-range → the minimum (and maximum) amount, one amount when both are equal;
 * - price-offers → free when every offer is free, the single price when all offers cost the same,
 *   else 'from' the lowest (chosen reading; the lowest may be 0);
 * - anything else → the minimum price when known; null when nothing can be shown.
 */
export type HeadlinePrice =
  | { kind: 'free' }
  | { kind: 'enquiry' }
  | { kind: 'amount'; pence: number; maxPence?: number; from?: boolean };

export function headlinePrice(option: PricingOption | null | undefined): HeadlinePrice | null {
  if (!option) return null;
  switch (option.type) {
    case 'free':
      return { kind: 'free' };
    case 'price-on-enquiry':
      return { kind: 'enquiry' };
    case 'price-range': {
      const min = option.minimumPrice ?? option.maximumPrice;
      const max = option.maximumPrice ?? option.minimumPrice;
      if (typeof min !== 'number' || typeof max !== 'number') return null;
      return min === max ? { kind: 'amount', pence: min } : { kind: 'amount', pence: min, maxPence: max };
    }
    case 'price-offers': {
      const offers = option.offers ?? [];
      if (offers.length === 0) {
        if (typeof option.minimumPrice !== 'number') return null;
        return option.minimumPrice > 0 ? { kind: 'amount', pence: option.minimumPrice, from: true } : { kind: 'free' };
      }
      const prices = offers.map(offerPrice);
      const lowest = Math.min(...prices);
      const highest = Math.max(...prices);
      if (highest === 0) return { kind: 'free' };
      return lowest === highest ? { kind: 'amount', pence: lowest } : { kind: 'amount', pence: lowest, from: true };
    }
    default:
      return typeof option.minimumPrice === 'number' ? { kind: 'amount', pence: option.minimumPrice } : null;
  }
}

/**
 * Spec 9 "Pricing display" for a course's headline price (cards, course page): 'Free',
 * 'Price on enquiry', 'min - max' (one value when equal), the single price, or 'From {lowest}'
 * ({@link headlinePrice}). Headline amounts hide '.00' for whole pounds ({@link formatPriceShort}).
 */
export function pricingDisplay(option: PricingOption | null | undefined, currency: Currency = DEFAULT_CURRENCY): string | null {
  const headline = headlinePrice(option);
  if (!headline) return null;
  if (headline.kind === 'free') return FREE_TEXT;
  if (headline.kind === 'enquiry') return PRICE_ON_ENQUIRY_TEXT;
  const fmt = (amount: number) => formatPriceShort(money(amount, currency));
  if (headline.maxPence !== undefined) return `${fmt(headline.pence)} - ${fmt(headline.maxPence)}`;
  return headline.from ? `From ${fmt(headline.pence)}` : fmt(headline.pence);
}

/** Spec 4: every offer has `end_at` at or before now. An empty list has not "all ended". */
export function allOffersEnded(offers: ReadonlyArray<Pick<Offer, 'end_at'>> | null | undefined, now: number): boolean {
  const list = offers ?? [];
  return list.length > 0 && list.every((offer) => typeof offer.end_at === 'number' && offer.end_at <= now);
}

/**
 * Spec 3 / 4: an occurrence is listed when it is public, is not a child session
 * (parent_ref) unless individually bookable, and not all of its offers have
 * ended. `fallbackOffers` (the course's) are used when the occurrence has none.
 */
export function occurrenceIsListed(occurrence: Occurrence, now: number, fallbackOffers?: ReadonlyArray<Offer> | null): boolean {
  if (occurrence.visibility !== 'public') return false;
  if (occurrence.parent_ref && !occurrence.individually_bookable) return false;
  const offers = occurrence.offers && occurrence.offers.length > 0 ? occurrence.offers : fallbackOffers;
  return !allOffersEnded(offers, now);
}

export function listedOccurrences<T extends Occurrence>(occurrences: ReadonlyArray<T>, now: number, fallbackOffers?: ReadonlyArray<Offer> | null): T[] {
  return occurrences.filter((occurrence) => occurrenceIsListed(occurrence, now, fallbackOffers));
}

/**
 * A date is sold out when its known spaces (the occurrence's available spaces, else its spaces, else
 * the course's) are 0 or fewer. Unknown capacity (none of the three set) is not sold out: nothing says so.
 */
export function isSoldOut(occurrence: Pick<Occurrence, 'available_spaces' | 'spaces'>, courseSpaces?: number | null): boolean {
  const spaces = occurrence.available_spaces ?? occurrence.spaces ?? courseSpaces;
  return typeof spaces === 'number' && spaces <= 0;
}

/**
 * The dates a learner can still book, soonest first: listed dates that have not ended and are not
 * sold out. "Next date" on cards and the booking aside is the first of them, never a sold-out one.
 */
export function bookableOccurrences<T extends Pick<Occurrence, 'available_spaces' | 'spaces'> & { start_datetime: number; end_datetime: number }>(
  occurrences: ReadonlyArray<T>,
  now: number,
  courseSpaces?: number | null,
): T[] {
  return occurrences
    .filter((o) => o.end_datetime > now && !isSoldOut(o, courseSpaces))
    .sort((a, b) => a.start_datetime - b.start_datetime);
}

/** The next date that starts at or after now and can still be booked, or null. */
export function nextBookableOccurrence<T extends Pick<Occurrence, 'available_spaces' | 'spaces'> & { start_datetime: number; end_datetime: number }>(
  occurrences: ReadonlyArray<T>,
  now: number,
  courseSpaces?: number | null,
): T | null {
  return bookableOccurrences(occurrences, now, courseSpaces).find((o) => o.start_datetime >= now) ?? null;
}

export interface DeliveryLineInput {
  courseType?: string | null;
  /** The occurrence's delivery: online, in-person or hybrid. */
  delivery?: string | null;
  /** The address text (see locations.locationText). */
  address?: string | null;
  keyword?: string | null;
}

/**
 * Spec 9 "Delivery lines in the summary":
 * on-demand course → 'On-demand online {keyword|course}'; online → 'Delivered live online';
 * hybrid → 'Delivered online and in person' then the address; in-person → the address.
 * Returns the lines in order (empty address lines are left out).
 */
export function deliveryLine(input: DeliveryLineInput): string[] {
  if (input.courseType === 'on-demand') return [`On-demand online ${input.keyword?.trim() || 'course'}`];
  const address = input.address?.trim() ?? '';
  switch (input.delivery) {
    case 'online':
      return ['Delivered live online'];
    case 'hybrid':
      return address ? ['Delivered online and in person', address] : ['Delivered online and in person'];
    case 'in-person':
      return address ? [address] : [];
    default:
      return [];
  }
}
