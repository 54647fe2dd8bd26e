/**
 * How a booking or order is described the same way everywhere (invoice / receipt, calendar file, e-mails,
 * the booking page): its date and time in Europe/London, its delivery line (spec 9), whether it has a
 * document at all (spec 2.15: not when everything was free), Invoice or Receipt, the cancellation rule
 * (spec 9 "Free cancellation N day(s) prior") and the links to the booking page (spec 2.4).
 */
import { paidByText, paidParts } from '../../src/domain/checkout/paidBy.ts';
import type { BookingView, OrderView, OutcomeView, StoredCostSummary } from '../../db/queries/bookings.ts';
import { cancellationDeadline, cancellationText, deliveryLine } from '../../src/domain/pricing.ts';
import { locationText } from '../../src/domain/locations.ts';
import { mainOrigin, occurrenceLinkFromBooking, orderDetailsLink, payInvoiceLink } from '../../src/domain/links.ts';
import { DEFAULT_TIME_ZONE } from '../../src/domain/time.ts';
import { documentKind } from '../../src/domain/checkout/outcomes.ts';
import { DEFAULT_TAX_LABEL } from '../../src/domain/vat.ts';
import { formatOccurrenceRange } from '../../src/lib/format.ts';
import type { Config } from '../config.ts';

export const TIME_ZONE = DEFAULT_TIME_ZONE;

/** 'Sat 6 Dec 2026, 10:00 – 13:00' in Europe/London, or null without a date. */
export function whenText(view: Pick<BookingView, 'start' | 'end'>): string | null {
  if (view.start === null || view.end === null) return null;
  return formatOccurrenceRange(view.start, view.end, TIME_ZONE);
}

/** '6 December 2026' in Europe/London. */
export function longDate(epoch: number): string {
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: TIME_ZONE }).format(new Date(epoch * 1000));
}

/** Spec 9 "Delivery lines in the summary" for a booking or an order. */
export function deliveryLines(view: BookingView | OrderView): string[] {
  if (view.kind === 'order') return deliveryLine({ courseType: view.course.type, keyword: view.course.keyword });
  if (view.occurrence) {
    return deliveryLine({
      courseType: view.course.type, delivery: view.occurrence.delivery, address: locationText(view.occurrence.address), keyword: view.course.keyword,
    });
  }
  // A request that became a booking: the delivery the learner chose.
  const chosen = (view.details.delivery as { delivery?: { type?: string; address?: string } } | null | undefined)?.delivery;
  if (chosen?.type === 'Online') return ['Delivered live online'];
  if (chosen?.type === 'Educator travels') return chosen.address ? [`At your address: ${chosen.address}`] : [];
  if (chosen?.type === 'Student travels') return view.requestLocation ? [view.requestLocation.split('\n').map((l) => l.trim()).filter(Boolean).join(', ')] : [];
  return [];
}

function sum(items: { value: number }[] | undefined): number {
  return (items ?? []).reduce((t, i) => t + Number(i.value || 0), 0);
}

/** The value of everything selected before discounts (offers, add-ons, duration extras), in pence. */
export function selectedValue(view: Pick<OutcomeView, 'lines' | 'costSummary'>): number {
  const summary: StoredCostSummary | null = view.costSummary;
  if (summary && typeof summary.subtotal === 'number') return summary.subtotal;
  const items = summary?.summary_items;
  if (items) return sum(items.offerSummary) + sum(items.addOnSummary) + sum(items.extraSummary);
  const unit = (p: number | null | undefined) => (typeof p === 'number' && p > 0 ? p : 0);
  return (view.lines.offers ?? []).reduce((t, l) => t + unit(l.price) * l.quantity, 0)
    + (view.lines.addOns ?? []).reduce((t, l) => t + unit(l.price) * l.quantity, 0)
    + (view.lines.extras ?? []).reduce((t, l) => t + unit(l.cost) * l.quantity, 0);
}

/** Spec 2.15: there is an invoice / receipt unless every selected offer and add-on (and extra) was free. */
export function hasDocument(view: Pick<OutcomeView, 'lines' | 'costSummary' | 'totalCost'>): boolean {
  return view.totalCost > 0 || selectedValue(view) > 0;
}

/** "Receipt" once paid (or nothing was left to pay), "Invoice" while money is due (invoice, in person). */
export function documentTitle(view: Pick<OutcomeView, 'paymentState'>): 'Invoice' | 'Receipt' {
  return documentKind(view.paymentState);
}

export function documentButtonText(view: Pick<OutcomeView, 'paymentState'>): string {
  return `Download ${documentKind(view.paymentState)}`;
}

const METHOD_LABELS: Record<string, string> = {
  card: 'Card', paypal: 'PayPal', klarna: 'Klarna (pay later)', invoice: 'Invoice', manual: 'In-person payment',
};

export function paymentMethodText(method: string | null | undefined): string | null {
  return method ? (METHOD_LABELS[method] ?? method) : null;
}

/** What a gift card paid of an outcome (its cost summary keeps it; total_cost is the payment method's part). */
export function giftCardPaid(view: { costSummary: { gift_card_amount?: number | null } | null }): number {
  return Math.max(0, Number(view.costSummary?.gift_card_amount ?? 0) || 0);
}

/** How an outcome was paid, in words: "£40.00 by Card and £20.00 by gift card" (a gift card is a means of payment). */
export function paidText(view: { totalCost: number; paymentMethod: string | null; currency: string; costSummary: { gift_card_amount?: number | null } | null }): string {
  return paidByText(paidParts({ totalCost: view.totalCost, giftCardAmount: giftCardPaid(view), paymentMethod: view.paymentMethod }, paymentMethodText), view.currency || 'GBP');
}

/** The educator's tax label (spec 3: defaults to "Tax"). */
export function taxLabel(view: Pick<OutcomeView, 'educator'>): string {
  return view.educator.vatSettings?.tax_label?.trim() || DEFAULT_TAX_LABEL;
}

export const BOOKING_STATUS_TEXT: Record<string, string> = {
  confirmed: 'Confirmed',
  'awaiting-approval': 'Awaiting approval',
  cancelled: 'Cancelled',
};

export function isCancelled(view: Pick<BookingView, 'status' | 'cancellation'>): boolean {
  return view.status === 'cancelled' || !!view.cancellation;
}

export interface CancellationPolicy {
  /** Spec 9 "Free cancellation N day(s) prior", or null when the educator offers none. */
  text: string | null;
  /** The last moment a cancellation is accepted (start − N days), or null. */
  deadline: number | null;
  allowed: boolean;
  reason: 'cancelled' | 'not-offered' | 'no-date' | 'window-passed' | null;
}

/**
 * Spec 3 `cancellation_allowed` (days) and spec 9: a booking can be cancelled by its learner while
 * now ≤ start − N days; not when the educator sets no number (or 0), for on-demand courses, or once cancelled.
 */
export function cancellationPolicy(view: Pick<BookingView, 'status' | 'cancellation' | 'start' | 'course' | 'educator'>, now: number): CancellationPolicy {
  const days = view.educator.cancellationAllowed;
  const text = cancellationText(days, view.course.type);
  if (isCancelled(view)) return { text, deadline: null, allowed: false, reason: 'cancelled' };
  if (!text || days === null) return { text, deadline: null, allowed: false, reason: 'not-offered' };
  if (view.start === null) return { text, deadline: null, allowed: false, reason: 'no-date' };
  const deadline = cancellationDeadline(view.start, days, TIME_ZONE);
  return now <= deadline ? { text, deadline, allowed: true, reason: null } : { text, deadline, allowed: false, reason: 'window-passed' };
}

type Site = Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PROTOCOL'>;

function linkTarget(view: OutcomeView, config: Site) {
  return { educatorSlug: view.educator.slug, courseSlug: view.course.slug, host: config.PUBLIC_HOST.toLowerCase(), protocol: config.PUBLIC_PROTOCOL };
}

/**
 * Spec 2.4: the booking page ("View & Manage Booking") as an absolute URL: on the marketplace for
 * bookings made there, on the educator's minisite for the embed and landing_page origins. A booking without
 * an occurrence (a calendar request) links to the course's dates page with the booking.
 */
export function bookingPageUrl(view: BookingView | OrderView, config: Site): string {
  const main = mainOrigin(config.PUBLIC_HOST.toLowerCase(), config.PUBLIC_PROTOCOL);
  const context = view.origin === 'marketplace' ? 'marketplace' : 'embed';
  if (view.kind === 'order') {
    const link = orderDetailsLink(context, { ...linkTarget(view, config), orderId: view.id });
    return link.href.startsWith('/') ? `${main}${link.href}` : link.href;
  }
  const link = occurrenceLinkFromBooking(context, { ...linkTarget(view, config), occurrenceId: view.occurrenceId, bookingId: view.id });
  return link.href.startsWith('/') ? `${main}${link.href}` : link.href;
}

/** Spec 2.15 "Pay Invoice" as an absolute URL on the main site, or null when not paid by invoice. */
export function payInvoiceUrl(view: OutcomeView, config: Site): string | null {
  if (view.paymentMethod !== 'invoice' || view.paymentState !== 'unpaid') return null;
  return `${mainOrigin(config.PUBLIC_HOST.toLowerCase(), config.PUBLIC_PROTOCOL)}${payInvoiceLink(view.kind, view.id)}`;
}
