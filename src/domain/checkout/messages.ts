/**
 * Checkout texts that take values (spec 2.14, 8 "Checkout errors").
 */
import type { Problem } from '../problems.ts';
import type { CheckoutOrigin } from './flows.ts';
import { AVAILABILITY_ERROR_SUFFIX } from './constants.ts';
import { DEFAULT_DISPLAY_LOCALE, DEFAULT_TIME_ZONE } from '../time.ts';
import { addLocalDays } from '../zone.ts';

/** Spec 8 "Voucher": the error is shown as "{title} {detail}" (the title alone without a detail). */
export function voucherErrorText(problem: Pick<Problem, 'title' | 'detail'>): string {
  return problem.detail ? `${problem.title} ${problem.detail}` : problem.title;
}

/** Spec 8 "Availability fetch": the error's detail or title, then the fixed explanation. */
export function availabilityErrorText(problem: Pick<Problem, 'title' | 'detail'>): string {
  return `${problem.detail || problem.title} ${AVAILABILITY_ERROR_SUFFIX}`;
}

/** Spec 2.14 "Contact Info". */
export function loggedInAsText(email: string): string {
  return `You are logged in as ${email}`;
}

/** Spec 2.14 summary sidebar. */
export function byEducatorText(educatorName: string): string {
  return `By ${educatorName}`;
}

/** Spec 2.14 "Message" step. */
export function messageFieldLabel(educatorName: string): string {
  return `Write a message for ${educatorName}`;
}

/**
 * The invoice's due date: `dueDays` London calendar days after it is issued, at the same clock time (a
 * day across a clock change is 23 or 25 hours). The screen's promise and the stored date use this one rule.
 */
export function invoiceDueDate(issuedAt: number, dueDays: number, timeZone: string = DEFAULT_TIME_ZONE): number {
  return addLocalDays(issuedAt, dueDays, timeZone);
}

/** Spec 2.14 "Invoice": "This invoice will be due by {date}." (date as '14 November 2023', en-GB, Europe/London). */
export function invoiceDueText(dueDate: number, locale: string = DEFAULT_DISPLAY_LOCALE, timeZone: string = DEFAULT_TIME_ZONE): string {
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone }).format(new Date(dueDate * 1000));
  return `This invoice will be due by ${date}.`;
}

/** Spec 2.14: the request delivery options' labels. */
export function deliveryOptionLabel(type: 'Online' | 'Educator travels' | 'Student travels', educatorName: string): string {
  if (type === 'Online') return 'Online';
  if (type === 'Educator travels') return `In-person • I will host ${educatorName}`;
  return `In-person • I will travel to ${educatorName}`;
}

/** Spec 2.14: "Add Second Choice" / "Add Third Choice" for the next preferred date, or null at the maximum. */
export function addChoiceLabel(currentCount: number): string | null {
  if (currentCount === 1) return 'Add Second Choice';
  if (currentCount === 2) return 'Add Third Choice';
  return null;
}

function httpOrigin(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/**
 * Spec 2.14: the "Back to Website" banner links to parent_window_url, only when the origin is embed — and only
 * when that URL is on the embedding page's own origin (see embeddingOrigin). The address is anyone's to write,
 * so without this check a link to our checkout could carry a "Back to Website" to any site.
 */
export function backToWebsiteUrl(origin: CheckoutOrigin, parentWindowUrl: string | null | undefined, embeddingPageOrigin: string | null | undefined): string | null {
  if (origin !== 'embed' || !parentWindowUrl || !embeddingPageOrigin) return null;
  return httpOrigin(parentWindowUrl) === embeddingPageOrigin ? parentWindowUrl : null;
}

/**
 * The origin of the page that embeds this frame, from what the browser vouches for — never from the query
 * (?parent_origin= is only a hint for where to post the frame's height):
 * - not framed: none;
 * - `location.ancestorOrigins[0]` where the browser has it (Chromium, WebKit): the parent's real origin;
 * - otherwise the referrer of the frame's first page when it is another site (the page that set the iframe's
 *   src), which the frame remembers for its later pages (`remembered`, in its own sessionStorage, which the
 *   parent cannot write); a referrer on our own origin proves nothing.
 */
export function embeddingOrigin(input: {
  framed: boolean;
  ancestorOrigins: ReadonlyArray<string> | null | undefined;
  referrer: string | null | undefined;
  selfOrigin: string;
  remembered: string | null | undefined;
}): string | null {
  if (!input.framed) return null;
  if (input.ancestorOrigins && input.ancestorOrigins.length > 0) {
    const parent = input.ancestorOrigins[0];
    return parent && parent !== 'null' ? parent : null;
  }
  const referrer = httpOrigin(input.referrer);
  if (referrer && referrer !== input.selfOrigin) return referrer;
  return httpOrigin(input.remembered);
}

/** Spec 2.16: the restricted course screen's state. */
export function restrictedCourseScreen(identity: { ready?: boolean | null; authenticated?: boolean | null }):
  | { view: 'loading' }
  | { view: 'no-access'; title: string; text: string }
  | { view: 'login'; text: string; linkText: string } {
  if (!identity.ready) return { view: 'loading' };
  if (identity.authenticated) return { view: 'no-access', title: 'Restricted Course', text: 'You do not have access to this course.' };
  return { view: 'login', text: 'You may need to log in to access this course', linkText: 'Login' };
}
