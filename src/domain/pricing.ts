/**
 * Prices, sale windows, listed occurrences and spaces (spec 3 "Offer", 4
 * "Occurrence filtering", 5 "Offer quantity", 9 "Checkout").
 */
import { FLOW_RULES, type CheckoutOrigin, type Flow, type SpacesPool } from './checkout/flows.ts';
import type { CourseLike, Occurrence, Offer } from './entities.ts';
import { DEFAULT_CURRENCY, formatMoney, money, type Currency } from './money.ts';
import { FREE_TEXT, offerPrice } from './listing.ts';
import { DEFAULT_DISPLAY_LOCALE, DEFAULT_TIME_ZONE } from './time.ts';
import { addLocalDays } from './zone.ts';

// The course card and course page rules live in listing.ts (one copy, re-exported here for the checkout and the API).
export {
  FREE_TEXT, PRICE_ON_ENQUIRY_TEXT, offerPrice, headlinePrice, pricingDisplay, allOffersEnded, occurrenceIsListed,
  listedOccurrences, isSoldOut, bookableOccurrences, nextBookableOccurrence, deliveryLine,
  type HeadlinePrice, type DeliveryLineInput,
} from './listing.ts';

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
  return spacesPoolBase(FLOW_RULES[flow].spaces, input);
}

/** Spec 9 "Available spaces", of a flow's pool (its rules' `spaces`). */
export function spacesPoolBase(pool: SpacesPool, input: Pick<SpacesInput, 'occurrence' | 'course'>): number {
  switch (pool) {
    case 'course':
      return input.course?.spaces ?? ORDER_DEFAULT_SPACES;
    case 'request':
      return REQUEST_SPACES;
    case 'unlimited':
      return Number.POSITIVE_INFINITY;
    case 'occurrence':
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
