/**
 * Checkout screen rules and texts that the other checkout modules do not hold (spec 2.14–2.17, 7, 8):
 * the share prompt, the availability error's link, error-banner items linked to fields, the month
 * calendar grid and its keyboard moves, the cost-summary request body, the spaces a selection asks for,
 * the platform terms text, the checkout URL kept in the address bar, and the analytics payloads.
 * Pure: no DOM, no I/O.
 */
import { durationExtra, type DurationOption } from './request.ts';
import { AVAILABILITY_ERROR_SUFFIX, PLATFORM_TERMS } from './constants.ts';
import { availabilityErrorText } from './messages.ts';
import { calendarWeekday, isoDate, type CalendarDate } from '../zone.ts';
import { isProblemOfType, PROBLEM_SLUGS, problemMessage, propertyLabel, type Problem, type ProblemProperty } from '../problems.ts';

// ---------------------------------------------------------------------------------------------
// Share prompt (spec 2.15, 2.17)

export const SHARE_HEADING = 'Share with your network';

/** Spec 2.15: the share text says the user booked the course with the educator. */
export function shareText(courseName: string, educatorName: string): string {
  return `I just booked ${courseName} with ${educatorName}!`;
}

/** Spec 2.17: a social network, a microblogging site, a professional network and email, each with the link and the text. */
export function shareLinks(url: string, text: string): { label: string; href: string }[] {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(text);
  return [
    { label: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${u}&quote=${t}` },
    { label: 'X', href: `https://twitter.com/intent/tweet?url=${u}&text=${t}` },
    { label: 'LinkedIn', href: `https://www.linkedin.com/sharing/share-offsite/?url=${u}` },
    { label: 'Email', href: `mailto:?subject=${t}&body=${t}%20${u}` },
  ];
}

// ---------------------------------------------------------------------------------------------
// Availability error (spec 8 "Availability fetch")

/** Where the link starts inside the fixed explanation: "let us know which dates work for you …". */
const AVAILABILITY_LINK_START = 'let us know which dates work for you';

/**
 * Spec 8: the availability error is the error's detail or title followed by the fixed explanation, whose
 * last part ("let us know which dates work for you and we'll get back to you to book you in.") is a link
 * that skips available dates. `lead + link` is exactly {@link availabilityErrorText}.
 */
export function availabilityErrorParts(problem: Pick<Problem, 'title' | 'detail'>): { lead: string; link: string } {
  const full = availabilityErrorText(problem);
  const index = full.length - AVAILABILITY_ERROR_SUFFIX.length + AVAILABILITY_ERROR_SUFFIX.indexOf(AVAILABILITY_LINK_START);
  return { lead: full.slice(0, index), link: full.slice(index) };
}

// ---------------------------------------------------------------------------------------------
// Error banner (spec 2.14, 8)

/** The DOM id of the input a validation key points at ('payload.bookerFormResponse.system_email' → 'cf-payload-bookerFormResponse-system_email'). */
export function fieldDomId(key: string): string {
  return `cf-${key.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
}

export interface BannerItem {
  text: string;
  /** The validation key, for a link to its field. */
  key?: string;
}

/**
 * Spec 2.14 / 8: what the error banner lists. A validation error with properties shows one item per
 * property, "{field label}: {message}", linked to the field; any other problem shows "title: detail"
 * (or the title alone).
 */
export function bannerItems(problem: Pick<Problem, 'title' | 'detail' | 'properties'>): { heading: string; items: BannerItem[] } {
  const properties = (problem.properties ?? []) as ProblemProperty[];
  if (properties.length > 0) {
    return { heading: problem.title, items: properties.map((p) => ({ text: `${propertyLabel(p)}: ${p.message}`, key: p.key })) };
  }
  return { heading: problemMessage(problem), items: [] };
}

/** Spec 2.16: the checkout answered with the unauthorised problem → the restricted course screen. */
export function isUnauthorisedCheckout(problem: Pick<Problem, 'type'> | null | undefined): boolean {
  return isProblemOfType(problem, PROBLEM_SLUGS.unauthorisedCheckout);
}

// ---------------------------------------------------------------------------------------------
// Month calendar (spec 2.14 "Request Dates", 2.17 "Calendar")

export interface CalendarMonth {
  year: number;
  month: number;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Spec 2.17: the weekday columns starting on the locale's first day (0 = Sunday … 6 = Saturday). */
export function weekdayOrder(weekStart: number): number[] {
  return Array.from({ length: 7 }, (_, i) => (weekStart + i) % 7);
}

/**
 * Spec 2.17: the month grid: weeks of 7 cells starting on `weekStart`, the month's days in place and
 * null for the padding before the 1st and after the last day.
 */
export function monthGrid(year: number, month: number, weekStart: number): (CalendarDate | null)[][] {
  const lead = (calendarWeekday({ year, month, day: 1 }) - weekStart + 7) % 7;
  const cells: (CalendarDate | null)[] = Array.from({ length: lead }, () => null);
  const count = daysInMonth(year, month);
  for (let day = 1; day <= count; day++) cells.push({ year, month, day });
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (CalendarDate | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

export function addMonths(month: CalendarMonth, count: number): CalendarMonth {
  const index = month.year * 12 + (month.month - 1) + count;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

export function sameDate(a: CalendarDate | null | undefined, b: CalendarDate | null | undefined): boolean {
  return !!a && !!b && a.year === b.year && a.month === b.month && a.day === b.day;
}

/** Negative, 0 or positive as `a` is before, on or after `b` ('YYYY-MM-DD' strings sort as dates). */
export function compareDates(a: CalendarDate, b: CalendarDate): number {
  const x = isoDate(a);
  const y = isoDate(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Spec 2.17: arrow keys move by 1 day (left / right) or 7 days (up / down); other keys do not move. */
export function arrowKeyDays(key: string): number | null {
  switch (key) {
    case 'ArrowLeft':
      return -1;
    case 'ArrowRight':
      return 1;
    case 'ArrowUp':
      return -7;
    case 'ArrowDown':
      return 7;
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Spaces, attendees and the cost-summary request (spec 3, 7)

export interface StepStateEntry {
  status?: string;
  state?: Record<string, unknown> | null;
}

function stateOf(stepState: Record<string, StepStateEntry> | null | undefined, key: string): Record<string, unknown> | null {
  const entry = stepState?.[key];
  return entry && typeof entry.state === 'object' && entry.state !== null ? entry.state : null;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * The spaces a checkout asks for (the number of attendees), read from its stepState (spec 3): whichever step
 * recorded them — price.spacesRequested (booking, bookingApplication, order), delivery.requestedSpaces (request)
 * or dates.spacesRequested (group and date requests). 1 when nothing is stored. The server and the screen both
 * read it here.
 */
export function requestedSpacesOf(stepState: Record<string, StepStateEntry> | null | undefined): number {
  return num(stateOf(stepState, 'delivery')?.requestedSpaces)
    ?? num(stateOf(stepState, 'dates')?.spacesRequested)
    ?? num(stateOf(stepState, 'price')?.spacesRequested)
    ?? 1;
}

/**
 * Spec 2.14 "Contact Info": one attendee form per space the booker does not take: all of them when the
 * booker is booking for someone else, all but one when the booker attends. Never below 0.
 */
export function attendeeFormCount(spaces: number, bookerIsAttending: boolean): number {
  return Math.max(0, Math.floor(spaces) - (bookerIsAttending ? 1 : 0));
}

export interface CostSummaryRequestInput {
  courseId: string;
  occurrenceId?: string | null;
  voucherId?: string | null;
  offers: ReadonlyArray<{ offerId: string; quantity: number }>;
  addOns: ReadonlyArray<{ addonId: string; quantity: number }>;
  origin: string;
  paymentMethod?: string | null;
  /** Request flow: the selected duration and the requested spaces. */
  duration?: DurationOption | null;
  requestedSpaces?: number;
  /** A member asked to pay one space with a membership credit (the preview then shows it). */
  useMembershipCredit?: boolean;
}

/** Spec 7: the body of POST /custom/get-checkout-summary. */
export interface CostSummaryRequest {
  course_ref: string;
  occurrence_ref: string | null;
  voucher_ref: string | null;
  offers: { _id: string; quantity: number }[];
  add_ons: { _id: string; quantity: number }[];
  origin: string;
  payment_method: string | null;
  extras: { label: string; cost: number; quantity: number }[];
  /** Not in spec 7: a member's credit in the preview (sent only when asked for). */
  use_membership_credit?: boolean;
}

/**
 * Spec 7: the cost-summary request. Lines with a quantity of 0 are left out. An extra is sent for a
 * duration with an `extra_cost`: its label is the duration's label (or the duration itself), its cost the
 * extra cost, its quantity the requested spaces.
 */
export function costSummaryRequest(input: CostSummaryRequestInput): CostSummaryRequest {
  const extra = durationExtra(input.duration, input.requestedSpaces ?? 1);
  const extras: CostSummaryRequest['extras'] = extra ? [extra] : [];
  return {
    course_ref: input.courseId,
    occurrence_ref: input.occurrenceId ?? null,
    voucher_ref: input.voucherId ?? null,
    offers: input.offers.filter((l) => l.quantity > 0).map((l) => ({ _id: l.offerId, quantity: l.quantity })),
    add_ons: input.addOns.filter((l) => l.quantity > 0).map((l) => ({ _id: l.addonId, quantity: l.quantity })),
    origin: input.origin,
    payment_method: input.paymentMethod ?? null,
    extras,
    ...(input.useMembershipCredit ? { use_membership_credit: true } : {}),
  };
}

/**
 * Spec 2.15: the prices of what was selected, read from a cost summary's offer and add-on lines, for
 * documentButtonLabel (hidden when every selected offer and add-on is free). `offersOnly` is the order
 * rule (hidden when the offers total 0).
 */
export function selectedLinePrices(
  summary: { summary_items?: { offerSummary?: { value: number }[] | null; addOnSummary?: { value: number }[] | null } | null } | null | undefined,
  offersOnly = false,
): { price: number }[] {
  const items = summary?.summary_items;
  const offers = (items?.offerSummary ?? []).map((l) => ({ price: l.value }));
  if (offersOnly) return [{ price: offers.reduce((sum, l) => sum + (l.price > 0 ? l.price : 0), 0) }];
  return [...offers, ...(items?.addOnSummary ?? []).map((l) => ({ price: l.value }))];
}

// ---------------------------------------------------------------------------------------------
// Platform terms (spec 1 "Platform terms", 9 "Terms figures")

export interface TermsSection {
  heading: string;
  paragraphs: string[];
}

/** Spec 1 / 9: the platform terms with their figures (age 18+, 30 days, 30 days' notice, 24 hours, 99.99%). */
export function platformTerms(productName: string): TermsSection {
  const t = PLATFORM_TERMS;
  return {
    heading: `${productName} terms`,
    paragraphs: [
      `${productName} is a marketplace that connects learners with independent course providers. By booking you also agree to these platform terms.`,
      `Anyone in control of the data in an account must be ${t.minimumAge} or older.`,
      `${productName} charges transaction fees on paid orders. When a booking is cancelled or refunded, ${productName} refunds its fees too.`,
      `Disputes must be raised within ${t.disputeWindowDays} days of the delivery date.`,
      `We notify you of changes to these terms ${t.changeNoticeDays} days ahead.`,
      `Our support team replies within ${t.supportReplyHours} hours, and we aim for ${t.uptimePercent}% uptime.`,
    ],
  };
}

/** Spec 2.14: the Dispute Resolution section of the Terms dialog. */
export function disputeResolution(productName: string): TermsSection {
  return {
    heading: 'Dispute Resolution',
    paragraphs: [
      `If something goes wrong, contact the course provider first. If you cannot resolve it together, raise a dispute with ${productName} within ${PLATFORM_TERMS.disputeWindowDays} days of the delivery date and we will help both sides reach a fair outcome.`,
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// The address bar (spec 2.14 "The checkout id is reported back", "The card provider may return …")

export const CARD_RETURN_PARAMS = ['payment_intent', 'payment_intent_client_secret', 'redirect_status', 'setup_intent', 'setup_intent_client_secret'] as const;

/** The checkout URL with `checkoutId` set, so a reload resumes the checkout (GET instead of initialising again). */
export function urlWithCheckoutId(href: string, checkoutId: string): string {
  const url = new URL(href);
  url.searchParams.set('checkoutId', checkoutId);
  return url.toString();
}

/** The card provider's return parameters, when the browser came back from a redirect. */
export function cardReturnParams(href: string): { payment_intent_client_secret: string; redirect_status: string } | null {
  const params = new URL(href).searchParams;
  const secret = params.get('payment_intent_client_secret') ?? params.get('setup_intent_client_secret');
  const status = params.get('redirect_status');
  if (secret === null && status === null) return null;
  return { payment_intent_client_secret: secret ?? '', redirect_status: status ?? '' };
}

/** The URL without the card provider's return parameters (they are handled once). */
export function withoutCardReturnParams(href: string): string {
  const url = new URL(href);
  for (const name of CARD_RETURN_PARAMS) url.searchParams.delete(name);
  return url.toString();
}

// ---------------------------------------------------------------------------------------------
// Analytics (spec 1 "Analytics": begin_checkout and purchase to the educator's own ids)

export interface AnalyticsItem {
  item_id: string;
  item_name: string;
}

/** GA4 'begin_checkout' / 'purchase' parameters; value in major units. */
export function checkoutEventParams(input: {
  /** null: a checkout that sells from the educator (no course item). */
  courseId: string | null;
  courseName: string;
  currency: string;
  totalPence?: number | null;
  transactionId?: string | null;
}): { currency: string; value?: number; transaction_id?: string; items: AnalyticsItem[] } {
  const params: { currency: string; value?: number; transaction_id?: string; items: AnalyticsItem[] } = {
    currency: input.currency,
    items: input.courseId ? [{ item_id: input.courseId, item_name: input.courseName }] : [],
  };
  if (typeof input.totalPence === 'number') params.value = input.totalPence / 100;
  if (input.transactionId) params.transaction_id = input.transactionId;
  return params;
}

/** The ad pixel's standard event for each checkout event. */
export const PIXEL_EVENTS = { begin_checkout: 'InitiateCheckout', purchase: 'Purchase' } as const;

/**
 * The checkout page's <title>: the course it sells, or what a flow without a course sells and from whom
 * ("Gift Voucher – Clay & Kiln Pottery"): a tab, a bookmark or the browser's history names the purchase.
 */
export function checkoutPageTitle(input: { courseName?: string | null; flowTitle?: string | null; educatorName?: string | null }): string {
  if (input.courseName) return `Checkout – ${input.courseName}`;
  const what = input.flowTitle || 'Checkout';
  return input.educatorName ? `${what} – ${input.educatorName}` : what;
}
