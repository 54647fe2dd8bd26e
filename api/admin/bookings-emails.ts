/**
 * The e-mails the educator's decisions send to the learner (docs/admin.md): queued in the outbox in the transaction
 * of the decision. Every subject ends with the booking's (or request's) reference in brackets, as the checkout's
 * e-mails do, which is how a booking's page finds the e-mails sent about it.
 */
import type { BookingView } from '../../db/queries/bookings.ts';
import type { MailMessage } from '../mail/index.ts';
import type { Config } from '../config.ts';
import { learnerOutcomeEmail, renderEmail } from '../documents/emails.ts';
import { bookingPageUrl, paymentMethodText, whenText } from '../documents/describe.ts';
import { referenceText } from '../../src/domain/checkout/outcomes.ts';
import { formatPence } from '../../src/domain/money.ts';
import { formatOccurrenceRange } from '../../src/lib/format.ts';
import { mainSiteOrigin } from '../shared/origins.ts';

type MailConfig = Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PROTOCOL' | 'API_ORIGIN' | 'APP_SECRET'>;

/** Spec 2.15's title of a confirmed booking. */
export const BOOKING_CONFIRMED = 'Booking Confirmed';
export const APPLICATION_ACCEPTED = 'Application Accepted';

/** The refund's state in the learner's words. */
export interface RefundWords {
  /** Back to the payment method (pence) and where the provider stands. */
  provider: number;
  status: 'none' | 'pending' | 'succeeded' | 'failed';
  giftCard: number;
  creditsReturned: number;
}

function money(view: Pick<BookingView, 'currency'>, pence: number): string {
  return formatPence(pence, view.currency || 'GBP');
}

function refundLines(view: BookingView, refund: RefundWords): string[] {
  const lines: string[] = [];
  const method = paymentMethodText(view.paymentMethod) ?? 'payment method';
  if (refund.provider > 0) {
    if (refund.status === 'succeeded') lines.push(`${money(view, refund.provider)} has been refunded to your ${method}.`);
    else if (refund.status === 'failed') lines.push(`Your refund of ${money(view, refund.provider)} could not be made automatically; ${view.educator.name} will arrange it.`);
    else lines.push(`Your refund of ${money(view, refund.provider)} to your ${method} is being made.`);
  }
  if (refund.giftCard > 0) lines.push(`${money(view, refund.giftCard)} has been returned to your gift card.`);
  if (refund.creditsReturned > 0) lines.push(`The membership credit you used has been returned to your membership.`);
  return lines;
}

function factsOf(view: BookingView): [string, string][] {
  const facts: [string, string][] = [['Course', view.course.name], ['With', view.educator.name]];
  const when = whenText(view);
  if (when) facts.push(['Date', `${when} (UK time)`]);
  facts.push(['Spaces', String(view.spaces)]);
  return facts;
}

/** Approved: the learner's booking confirmation (spec 2.15 "Booking Confirmed"), as the checkout sends it. */
export function approvedEmail(view: BookingView, config: MailConfig, title = BOOKING_CONFIRMED): MailMessage | null {
  const message = learnerOutcomeEmail(view, title, config);
  return message ? { ...message, tag: 'booking-approved' } : null;
}

/** The educator cancelled one booking, declined it, or cancelled its whole date. */
export function educatorCancelledEmail(
  view: BookingView, config: MailConfig, input: { kind: 'cancellation' | 'decline' | 'date-cancellation'; reason: string | null; refund: RefundWords },
): MailMessage | null {
  if (!view.booker.email) return null;
  const heading = input.kind === 'decline' ? 'Booking Declined' : 'Booking Cancelled';
  const what = input.kind === 'decline'
    ? `${view.educator.name} could not accept your booking for ${view.course.name}.`
    : input.kind === 'date-cancellation'
      ? `${view.educator.name} has cancelled the date you booked for ${view.course.name}, so your booking is cancelled.`
      : `${view.educator.name} has cancelled your booking for ${view.course.name}.`;
  const refund = refundLines(view, input.refund);
  const { text, html } = renderEmail({
    heading,
    intro: [
      `Hi ${view.booker.firstName || 'there'},`, what, referenceText('booking', view.id),
      ...(input.reason ? [`Message from ${view.educator.name}: ${input.reason}`] : []),
      ...refund,
      ...(refund.length === 0 && view.paymentState === 'unpaid' ? ['Nothing is due for this booking any more.'] : []),
    ],
    facts: factsOf(view),
    actions: [{ label: 'View Booking', href: bookingPageUrl(view, config) }],
  });
  return {
    to: view.booker.email, subject: `${heading}: ${view.course.name} (${view.id})`, text, html,
    replyTo: view.educator.email ?? undefined, tag: input.kind === 'decline' ? 'booking-declined' : 'booking-cancelled-by-educator',
  };
}

/** A refund the educator made without cancelling (all or part of what was paid). */
export function refundEmail(view: BookingView, config: MailConfig, input: { reason: string | null; refund: RefundWords }): MailMessage | null {
  if (!view.booker.email) return null;
  const total = input.refund.provider + input.refund.giftCard;
  const { text, html } = renderEmail({
    heading: 'Refund',
    intro: [
      `Hi ${view.booker.firstName || 'there'},`,
      `${view.educator.name} is refunding ${money(view, total)} of your booking for ${view.course.name}. Your booking stays as it is.`,
      referenceText('booking', view.id),
      ...(input.reason ? [`Message from ${view.educator.name}: ${input.reason}`] : []),
      ...refundLines(view, input.refund),
    ],
    facts: factsOf(view),
    actions: [{ label: 'View Booking', href: bookingPageUrl(view, config) }],
  });
  return { to: view.booker.email, subject: `Refund: ${view.course.name} (${view.id})`, text, html, replyTo: view.educator.email ?? undefined, tag: 'booking-refund' };
}

export interface RequestMailInput {
  requestId: string;
  learnerEmail: string | null;
  learnerFirstName: string;
  courseName: string;
  educator: { name: string; email: string | null };
}

/** The answer to a booking request: the date and price offered, and the link that books it through the checkout. */
export function quoteEmail(
  input: RequestMailInput & { start: number; end: number; price: number; spaces: number; currency: string; message: string | null; link: string; expiresAt: number },
): MailMessage | null {
  if (!input.learnerEmail) return null;
  const expires = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/London' }).format(new Date(input.expiresAt * 1000));
  const { text, html } = renderEmail({
    heading: 'Your Request Has Been Answered',
    intro: [
      `Hi ${input.learnerFirstName || 'there'},`,
      `${input.educator.name} can take your booking for ${input.courseName}. Book it with the button below.`,
      referenceText('request', input.requestId),
      ...(input.message ? [`Message from ${input.educator.name}: ${input.message}`] : []),
    ],
    facts: [
      ['Course', input.courseName],
      ['With', input.educator.name],
      ['Date', `${formatOccurrenceRange(input.start, input.end, 'Europe/London')} (UK time)`],
      ['Spaces', String(input.spaces)],
      ['Price', input.price > 0 ? formatPence(input.price, input.currency) : 'Free'],
      ['Book by', `${expires} (UK time)`],
    ],
    actions: [{ label: 'Book Now', href: input.link }],
    outro: ['You will be asked to log in with the account you sent the request from.'],
  });
  return {
    to: input.learnerEmail, subject: `Your request has been answered: ${input.courseName} (${input.requestId})`, text, html,
    replyTo: input.educator.email ?? undefined, tag: 'request-answered',
  };
}

/** A request or an application the educator declined. */
export function requestDeclinedEmail(input: RequestMailInput & { kind: 'request' | 'application'; reason: string | null; config: MailConfig }): MailMessage | null {
  if (!input.learnerEmail) return null;
  const heading = input.kind === 'request' ? 'Request Declined' : 'Application Declined';
  const { text, html } = renderEmail({
    heading,
    intro: [
      `Hi ${input.learnerFirstName || 'there'},`,
      input.kind === 'request'
        ? `${input.educator.name} cannot take your request for ${input.courseName}.`
        : `${input.educator.name} could not accept your application for ${input.courseName}.`,
      referenceText(input.kind, input.requestId),
      ...(input.reason ? [`Message from ${input.educator.name}: ${input.reason}`] : []),
    ],
    facts: [['Course', input.courseName], ['With', input.educator.name]],
    actions: [{ label: 'My Courses & Bookings', href: `${mainSiteOrigin(input.config)}/profile` }],
  });
  return {
    to: input.learnerEmail, subject: `${heading}: ${input.courseName} (${input.requestId})`, text, html,
    replyTo: input.educator.email ?? undefined, tag: `${input.kind}-declined`,
  };
}
