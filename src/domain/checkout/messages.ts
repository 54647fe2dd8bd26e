/**
 * Checkout texts that take values (spec 2.14, 8 "Checkout errors").
 */
import type { Problem } from '../problems.ts';
import type { CheckoutOrigin } from './flows.ts';
import { AVAILABILITY_ERROR_SUFFIX } from './constants.ts';
import { DEFAULT_DISPLAY_LOCALE, DEFAULT_TIME_ZONE } from '../time.ts';

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

/** Spec 2.14 "Invoice": "This invoice will be due by {date}." (date as '14 November 2023', en-GB, Europe/London). */
/**
 * Spec 2.14 "Invoice": the due date of an invoice raised now, `dueDays` (the educator's invoice_due_days) later.
 * The screen shows it before paying and the server records it, from this one rule.
 */
export function invoiceDueDate(now: number, dueDays: number): number {
  return now + dueDays * 86400;
}

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

/** Spec 2.14: the "Back to Website" banner links to parent_window_url, only when the origin is embed. */
export function backToWebsiteUrl(origin: CheckoutOrigin, parentWindowUrl: string | null | undefined): string | null {
  return origin === 'embed' && parentWindowUrl ? parentWindowUrl : null;
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
