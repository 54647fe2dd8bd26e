/**
 * Prices, sale windows, listed occurrences and spaces (spec 3 "Offer", 4
 * "Occurrence filtering", 5 "Offer quantity", 9 "Checkout").
 */
import type { CheckoutOrigin, Flow } from './checkout/flows.ts';
import type { AddOn, CourseLike, Occurrence, Offer, PricingOption } from './entities.ts';
import { DEFAULT_CURRENCY, formatMoney, formatPriceShort, money, type Currency } from './money.ts';
import { DEFAULT_DISPLAY_LOCALE, DEFAULT_TIME_ZONE } from './time.ts';
import { addLocalDays } from './zone.ts';

export const FREE_TEXT = 'Free';
export const PRICE_ON_ENQUIRY_TEXT = 'Price on enquiry';

/** Spec 3: an offer's price in pence; missing counts as 0. */
export function offerPrice(item: Pick<Offer, 'price'> | Pick<AddOn, 'price'>): number {
  return typeof item.price === 'number' && item.price > 0 ? item.price : 0;
}

/**
 * Spec 2.14 / 5 / 2.15: some offer (or add-on) costs more than 0. Drives the
 * Payment step in booking and order, the promo code box and the invoice/receipt button.
 */
export function anyOfferPaid(items: ReadonlyArray<Pick<Offer, 'price'>> | null | undefined): boolean {
  return (items ?? []).some((item) => offerPrice(item) > 0);
}

/** An offer or add-on price for checkout lines: 'Free', or the amount with 2 decimals. */
export function offerPriceText(item: Pick<Offer, 'price'>, currency: Currency = DEFAULT_CURRENCY): string {
  const price = offerPrice(item);
  return price === 0 ? FREE_TEXT : formatMoney(money(price, currency));
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

export type OfferSaleStatus = 'before' | 'on-sale' | 'ended';

/**
 * Spec 5: 'before' while now < start_at, 'ended' once now ≥ end_at (the same
 * "at or before now" boundary as occurrence filtering), else 'on-sale'.
 */
export function offerSaleStatus(offer: Pick<Offer, 'start_at' | 'end_at'>, now: number): OfferSaleStatus {
  if (typeof offer.start_at === 'number' && now < offer.start_at) return 'before';
  if (typeof offer.end_at === 'number' && offer.end_at <= now) return 'ended';
  return 'on-sale';
}

export function isOfferOnSale(offer: Pick<Offer, 'start_at' | 'end_at'>, now: number): boolean {
  return offerSaleStatus(offer, now) === 'on-sale';
}

/** Date and time of a sale boundary, e.g. '14 Nov 2023, 22:13' (en-GB, Europe/London). */
export function formatSaleDate(epochSeconds: number, locale: string = DEFAULT_DISPLAY_LOCALE, timeZone: string = DEFAULT_TIME_ZONE): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(epochSeconds * 1000));
}

/** Spec 5: "Sales start on {date}" before the window, "Sales ended on {date}" after it, else null. */
export function offerSaleText(
  offer: Pick<Offer, 'start_at' | 'end_at'>,
  now: number,
  locale: string = DEFAULT_DISPLAY_LOCALE,
  timeZone: string = DEFAULT_TIME_ZONE,
): string | null {
  const status = offerSaleStatus(offer, now);
  if (status === 'before') return `Sales start on ${formatSaleDate(offer.start_at as number, locale, timeZone)}`;
  if (status === 'ended') return `Sales ended on ${formatSaleDate(offer.end_at as number, locale, timeZone)}`;
  return null;
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

/** A selected offer line (spec 3 "Checkout state.price.offers"). */
export interface SelectedOffer {
  offerId: string;
  quantity: number;
}

/** Spec 5: spaces already selected = Σ quantity × offer spaces (default 1). */
export function spacesSelected(selected: ReadonlyArray<SelectedOffer>, offers: ReadonlyArray<Pick<Offer, '_id' | 'spaces'>>): number {
  return selected.reduce((sum, line) => {
    const offer = offers.find((candidate) => candidate._id === line.offerId);
    const perUnit = typeof offer?.spaces === 'number' ? offer.spaces : 1;
    return sum + line.quantity * perUnit;
  }, 0);
}

/**
 * Spec 5: the space pool: the occurrence's available_spaces, else its spaces,
 * else the course's spaces, else 0. "Else" means null/undefined: an explicit 0
 * (sold out) is kept and does not fall through.
 */
export function baseSpaces(input: { occurrence?: Pick<Occurrence, 'available_spaces' | 'spaces'> | null; course?: Pick<CourseLike, 'spaces'> | null }): number {
  return input.occurrence?.available_spaces ?? input.occurrence?.spaces ?? input.course?.spaces ?? 0;
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

export interface SpacesInput {
  occurrence?: Pick<Occurrence, 'available_spaces' | 'spaces'> | null;
  course?: Pick<CourseLike, 'spaces'> | null;
  selected?: ReadonlyArray<SelectedOffer>;
  offers?: ReadonlyArray<Pick<Offer, '_id' | 'spaces'>>;
}

/** Spec 5: maximum quantity of an offer = its current quantity + available spaces (as written in the spec). */
export function maxQuantity(currentQuantity: number, available: number): number {
  return currentQuantity + Math.max(0, available);
}

/** Spec 5: add-ons are unlimited. */
export const ADD_ON_MAX_QUANTITY = Number.POSITIVE_INFINITY;

/** Spec 5: minus is disabled at 0. */
export function canDecrement(quantity: number): boolean {
  return quantity > 0;
}

/** Spec 5: plus is disabled at or above the maximum, before start_at and after end_at. */
export function canIncrement(input: { quantity: number; max: number; offer?: Pick<Offer, 'start_at' | 'end_at'> | null; now: number }): boolean {
  if (input.quantity >= input.max) return false;
  return input.offer ? isOfferOnSale(input.offer, input.now) : true;
}

/** Spec 9: order flow spaces when the course has none set. */
export const ORDER_DEFAULT_SPACES = 100;
/** Spec 9: request flow spaces. */
export const REQUEST_SPACES = 10000;

/**
 * Spec 9 "Available spaces" pool per flow: order → the course's spaces or 100;
 * request → 10000; group/date request → unlimited (Infinity); booking and
 * bookingApplication → the occurrence pool of spec 5 ({@link baseSpaces}).
 */
export function flowSpacesBase(flow: Flow, input: Pick<SpacesInput, 'occurrence' | 'course'>): number {
  switch (flow) {
    case 'order':
      return input.course?.spaces ?? ORDER_DEFAULT_SPACES;
    case 'request':
      return REQUEST_SPACES;
    case 'dateBookingRequest':
    case 'groupBookingRequest':
      return Number.POSITIVE_INFINITY;
    default:
      return baseSpaces(input);
  }
}

/** Spec 9 with spec 5: the flow's pool minus the spaces already selected. */
export function flowAvailableSpaces(flow: Flow, input: SpacesInput): number {
  return flowSpacesBase(flow, input) - spacesSelected(input.selected ?? [], input.offers ?? []);
}

/**
 * Spec 9: "Free cancellation N day(s) prior" ('day' for 1, else 'days') when
 * `cancellation_allowed` is set and the course is not on-demand. "Set" means a
 * positive number: 0, null and undefined hide it.
 */
export function cancellationText(days: number | null | undefined, courseType: string | null | undefined): string | null {
  if (courseType === 'on-demand') return null;
  if (typeof days !== 'number' || !(days > 0)) return null;
  return `Free cancellation ${days} ${days === 1 ? 'day' : 'days'} prior`;
}

/**
 * The last moment of free cancellation: N London calendar days before the start, at the start's clock time
 * ("2 days prior" to 10:00 on the Monday after the clocks go back is 10:00 on the Saturday, 49 hours).
 */
export function cancellationDeadline(start: number, days: number, timeZone: string = DEFAULT_TIME_ZONE): number {
  return addLocalDays(start, -days, timeZone);
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

/** Spec 3 "Cost summary" item. */
export interface SummaryItem {
  text: string;
  value: number;
}

export interface CostSummaryLike {
  summary_items?: Partial<Record<'offerSummary' | 'addOnSummary' | 'discountSummary' | 'voucherSummary' | 'vatSummary' | 'extraSummary' | 'giftCardSummary', SummaryItem[] | null>> | null;
  fees_absorbed?: boolean | null;
  total_cost?: number | null;
  vat_amount?: number | null;
}

export interface CostLine {
  kind: 'offer' | 'addOn' | 'discount' | 'voucher' | 'vat' | 'extra' | 'fees' | 'giftCard';
  text: string;
  /** Signed pence: discounts and vouchers are negative. */
  amount: number;
}

/** Spec 9: a "Fees" line shows when there is a platform fee and it is not absorbed. */
export function showFeesLine(platformFee: number | null | undefined, feesAbsorbed: boolean | null | undefined): boolean {
  return typeof platformFee === 'number' && platformFee > 0 && !feesAbsorbed;
}

/** Spec 9: the summary's cost lines; discounts and vouchers are negative; then the Fees line when due. */
export function costLines(summary: CostSummaryLike, platformFee?: number | null): CostLine[] {
  const items = summary.summary_items ?? {};
  const lines: CostLine[] = [];
  const push = (kind: CostLine['kind'], list: SummaryItem[] | null | undefined, negative = false) => {
    for (const item of list ?? []) lines.push({ kind, text: item.text, amount: negative ? -Math.abs(item.value) : item.value });
  };
  push('offer', items.offerSummary);
  push('addOn', items.addOnSummary);
  push('extra', items.extraSummary);
  push('discount', items.discountSummary, true);
  push('voucher', items.voucherSummary, true);
  push('vat', items.vatSummary);
  if (showFeesLine(platformFee, summary.fees_absorbed)) lines.push({ kind: 'fees', text: 'Fees', amount: platformFee as number });
  // A gift card pays last: the total it leaves is what the payment method is charged.
  push('giftCard', items.giftCardSummary, true);
  return lines;
}

/** Spec 6 "Hidden pricing": with hide_pricing, checkout prices and cost lines are hidden except on the marketplace origin. */
export function checkoutPricesVisible(hidePricing: boolean | null | undefined, origin: CheckoutOrigin | (string & {})): boolean {
  return !hidePricing || origin === 'marketplace';
}
