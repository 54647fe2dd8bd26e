/**
 * The e-mails of bookings and orders, as plain text plus simple HTML:
 * - to the learner, on each outcome, under the confirmation screen's title (spec 2.15: "Booking Confirmed",
 *   "Your Booking is Awaiting Approval", "Order Confirmed", "Request Sent", "Application Sent"), with the
 *   reference, the booking page link ("View & Manage Booking"), what was booked, the total paid or due,
 *   "Pay Invoice" and the invoice / receipt link when there is one, and the .ics for dated bookings;
 * - to the educator, a notification of the same outcome;
 * - to both, when the learner cancels a booking.
 * Sent through api/mail (the outbox by default, SMTP when SMTP_URL is set).
 */
import type { BookingView, OrderView } from '../../db/queries/bookings.ts';
import type { MailMessage } from '../mail/index.ts';
import type { Config } from '../config.ts';
import { mainSiteOrigin } from '../shared/origins.ts';
import { documentToken } from '../shared/document-tokens.ts';
import { formatPence } from '../../src/domain/money.ts';
import { manageButtonLabel, referenceText } from '../../src/domain/checkout/outcomes.ts';
import type { Flow } from '../../src/domain/checkout/flows.ts';
import {
  BOOKING_STATUS_TEXT, bookingPageUrl, cancellationPolicy, deliveryLines, documentButtonText, giftCardPaid, hasDocument, longDate,
  paidText, paymentMethodText, payInvoiceUrl, whenText,
} from './describe.ts';
import { calendarOfBooking } from './ical.ts';

type MailConfig = Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PROTOCOL' | 'API_ORIGIN' | 'APP_SECRET'>;

export interface EmailContent {
  heading: string;
  intro: string[];
  facts: [string, string][];
  actions: { label: string; href: string }[];
  outro?: string[];
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Plain text and a simple, inline-styled HTML version of the same content. */
export function renderEmail(content: EmailContent): { text: string; html: string } {
  const text = [
    content.heading,
    '',
    ...content.intro,
    ...(content.intro.length ? [''] : []),
    ...content.facts.map(([label, value]) => `${label}: ${value}`),
    ...(content.actions.length ? ['', ...content.actions.map((a) => `${a.label}: ${a.href}`)] : []),
    ...(content.outro?.length ? ['', ...content.outro] : []),
  ].join('\n');
  const facts = content.facts
    .map(([label, value]) => `<tr><th align="left" style="padding:4px 12px 4px 0;vertical-align:top;font-weight:600">${escapeHtml(label)}</th><td style="padding:4px 0;white-space:pre-line">${escapeHtml(value)}</td></tr>`)
    .join('');
  const actions = content.actions
    .map((a) => `<a href="${escapeHtml(a.href)}" style="display:inline-block;margin:0 8px 8px 0;padding:10px 16px;border-radius:8px;background:#1f4fd1;color:#fff;text-decoration:none;font-weight:600">${escapeHtml(a.label)}</a>`)
    .join('');
  const html = [
    '<!doctype html><html><body style="margin:0;padding:24px;font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1c2333;line-height:1.5">',
    `<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(content.heading)}</h1>`,
    ...content.intro.map((p) => `<p style="margin:0 0 12px">${escapeHtml(p)}</p>`),
    facts ? `<table role="presentation" style="border-collapse:collapse;margin:8px 0 16px">${facts}</table>` : '',
    actions ? `<p style="margin:16px 0">${actions}</p>` : '',
    ...(content.outro ?? []).map((p) => `<p style="margin:0 0 12px;color:#555">${escapeHtml(p)}</p>`),
    '</body></html>',
  ].join('\n');
  return { text: `${text}\n`, html };
}

function apiBase(config: MailConfig): string {
  return (config.API_ORIGIN || mainSiteOrigin(config)).replace(/\/+$/, '');
}

/** The signed document links (they work without a session, e.g. from a mail client). */
export function documentUrls(view: BookingView | OrderView, config: MailConfig): { invoice: string | null; ical: string | null } {
  const token = documentToken(config.APP_SECRET, view.kind, view.id);
  const base = apiBase(config);
  const invoice = hasDocument(view) ? `${base}/api/${view.kind}/${encodeURIComponent(view.id)}/invoice?token=${token}` : null;
  const ical = view.kind === 'booking' && view.start !== null ? `${base}/api/bookings/${encodeURIComponent(view.id)}/ical?token=${token}` : null;
  return { invoice, ical };
}

function money(view: BookingView | OrderView, pence: number): string {
  return formatPence(pence, view.currency || 'GBP');
}

/**
 * '£60.00 paid by Card', '£60.00 paid (£40.00 by Card and £20.00 by gift card)', 'Due £30.00 by 1 January 2027 (Invoice)',
 * 'Free'…
 */
export function paymentText(view: BookingView | OrderView): string {
  const gift = giftCardPaid(view);
  // A gift card is a means of payment: what it paid is paid, not free.
  if (view.paymentState === 'paid' && (view.totalCost > 0 || gift > 0)) {
    const method = paymentMethodText(view.paymentMethod);
    if (gift === 0) return `${money(view, view.totalCost)} paid${method ? ` by ${method}` : ''}`;
    return view.totalCost > 0 ? `${money(view, view.totalCost + gift)} paid (${paidText(view)})` : `${money(view, gift)} paid by gift card`;
  }
  if (view.paymentState === 'free' || view.totalCost <= 0) return 'Free';
  const already = gift > 0 ? ` (${money(view, gift)} paid by gift card)` : '';
  if (view.paymentMethod === 'invoice') return `${money(view, view.totalCost)} due${view.dueDate ? ` by ${longDate(view.dueDate)}` : ''} (Invoice)${already}`;
  return `${money(view, view.totalCost)} due${view.manualNote ? ` — ${view.manualNote}` : ''}${already}`;
}

function whatLines(view: BookingView | OrderView): string {
  const items = [
    ...(view.lines.offers ?? []).filter((l) => l.quantity > 0).map((l) => `${l.name} × ${l.quantity}`),
    ...(view.lines.addOns ?? []).filter((l) => l.quantity > 0).map((l) => `${l.name} × ${l.quantity}`),
    ...(view.lines.extras ?? []).filter((l) => l.quantity > 0 && l.cost > 0).map((l) => `${l.label} × ${l.quantity}`),
  ];
  return items.join('\n');
}

function outcomeFacts(view: BookingView | OrderView): [string, string][] {
  const facts: [string, string][] = [
    ['Course', view.course.name],
    ['With', view.educator.name],
  ];
  if (view.kind === 'booking') {
    const when = whenText(view);
    if (when) facts.push(['Date', `${when} (UK time)`]);
  }
  const delivery = deliveryLines(view);
  if (delivery.length) facts.push(['Where', delivery.join('\n')]);
  if (view.kind === 'booking') facts.push(['Spaces', String(view.spaces)]);
  const what = whatLines(view);
  if (what) facts.push(['Selected', what]);
  facts.push(['Total', paymentText(view)]);
  return facts;
}

/** The learner's confirmation of a booking or an order. */
export function learnerOutcomeEmail(view: BookingView | OrderView, title: string, config: MailConfig): MailMessage | null {
  if (!view.booker.email) return null;
  const reference = referenceText(view.kind, view.id);
  const links = documentUrls(view, config);
  const manage = bookingPageUrl(view, config);
  const pay = payInvoiceUrl(view, config);
  const policy = view.kind === 'booking' ? cancellationPolicy(view, view.createdAt) : null;
  const actions = [
    { label: manageButtonLabel(view.flow as Flow, view.course), href: manage },
    ...(pay ? [{ label: 'Pay Invoice', href: pay }] : []),
    ...(links.invoice ? [{ label: documentButtonText(view), href: links.invoice }] : []),
    ...(links.ical ? [{ label: 'Add to Calendar', href: links.ical }] : []),
  ];
  const content: EmailContent = {
    heading: title,
    intro: [`Hi ${view.booker.firstName || 'there'},`, `${title}: ${view.course.name} with ${view.educator.name}.`, reference],
    facts: outcomeFacts(view),
    actions,
    outro: [
      ...(policy?.text ? [`${policy.text}.`] : []),
      ...(links.ical ? ['The calendar file for this booking is attached.'] : []),
      'You can also find it any time under My Account → My Courses & Bookings.',
    ],
  };
  const { text, html } = renderEmail(content);
  const calendar = view.kind === 'booking' ? calendarOfBooking(view, config) : null;
  return {
    to: view.booker.email,
    subject: `${title}: ${view.course.name} (${view.id})`,
    text,
    html,
    replyTo: view.educator.email ?? undefined,
    tag: `${view.kind}-confirmation`,
    attachments: calendar ? [{ filename: `${view.id}.ics`, content: calendar, contentType: 'text/calendar; charset=utf-8; method=PUBLISH' }] : undefined,
  };
}

/** The educator's notification of a new booking or order. */
export function educatorOutcomeEmail(view: BookingView | OrderView): MailMessage | null {
  if (!view.educator.email) return null;
  const kindText = view.kind === 'booking' ? (view.status === 'awaiting-approval' ? 'booking awaiting your approval' : 'booking') : 'order';
  const learner = [view.booker.name, view.booker.email ? `<${view.booker.email}>` : ''].filter(Boolean).join(' ') || 'A learner';
  const content: EmailContent = {
    heading: `New ${kindText}`,
    intro: [`${learner} made a new ${kindText} for ${view.course.name}.`, referenceText(view.kind, view.id)],
    facts: [
      ...outcomeFacts(view).filter(([label]) => label !== 'With'),
      ...(view.kind === 'booking' ? [['Status', BOOKING_STATUS_TEXT[view.status] ?? view.status] as [string, string]] : []),
      ...(view.invoiceDetails?.billing_name ? [['Bill to', view.invoiceDetails.billing_name] as [string, string]] : []),
    ],
    actions: [],
  };
  const { text, html } = renderEmail(content);
  return {
    to: view.educator.email,
    subject: `New ${kindText}: ${view.course.name} (${view.id})`,
    text,
    html,
    replyTo: view.booker.email ?? undefined,
    tag: `${view.kind}-educator-notification`,
  };
}

/** Requests and applications (no booking page, no documents): the learner's confirmation and the educator's notification. */
export function requestEmails(input: {
  kind: 'request' | 'application';
  id: string;
  title: string;
  courseName: string;
  educatorName: string;
  educatorEmail: string | null;
  learnerName: string;
  learnerEmail: string | null;
  config: MailConfig;
}): MailMessage[] {
  const reference = referenceText(input.kind, input.id);
  const out: MailMessage[] = [];
  const profile = `${mainSiteOrigin(input.config)}/profile`;
  if (input.learnerEmail) {
    const content: EmailContent = {
      heading: input.title,
      intro: [
        `Hi ${input.learnerName.split(' ')[0] || 'there'},`,
        input.kind === 'request' ? `Your request has been sent to ${input.educatorName}.` : `Your application has been sent to ${input.educatorName}.`,
        reference,
      ],
      facts: [['Course', input.courseName], ['With', input.educatorName]],
      actions: [{ label: 'My Courses & Bookings', href: profile }],
      outro: [`${input.educatorName} will be in touch soon.`],
    };
    const { text, html } = renderEmail(content);
    out.push({ to: input.learnerEmail, subject: `${input.title}: ${input.courseName} (${input.id})`, text, html, tag: `${input.kind}-confirmation` });
  }
  if (input.educatorEmail) {
    const learner = [input.learnerName, input.learnerEmail ? `<${input.learnerEmail}>` : ''].filter(Boolean).join(' ') || 'A learner';
    const content: EmailContent = {
      heading: `New ${input.kind}`,
      intro: [`${learner} sent a new ${input.kind} for ${input.courseName}.`, reference],
      facts: [['Course', input.courseName]],
      actions: [],
    };
    const { text, html } = renderEmail(content);
    out.push({
      to: input.educatorEmail, subject: `New ${input.kind}: ${input.courseName} (${input.id})`, text, html,
      replyTo: input.learnerEmail ?? undefined, tag: `${input.kind}-educator-notification`,
    });
  }
  return out;
}

/** After a cancellation: the learner (with the refund) and the educator. */
export function cancellationEmails(view: BookingView, config: MailConfig): MailMessage[] {
  const reference = referenceText('booking', view.id);
  const c = view.cancellation;
  const refund = c && c.refund_status !== 'none' ? Number(c.refund_amount) : 0;
  const refundText = !c || c.refund_status === 'none'
    ? (view.paymentState === 'unpaid' ? 'Nothing is due for this booking any more.' : null)
    : c.refund_status === 'refunded'
      ? `${money(view, refund)} has been refunded to your ${paymentMethodText(view.paymentMethod) ?? 'payment method'}.`
      : c.refund_status === 'failed'
        ? `Your refund of ${money(view, refund)} could not be made automatically; ${view.educator.name} will arrange it.`
        : `Your refund of ${money(view, refund)} is being made.`;
  // What a gift card paid went back on the card with the cancellation.
  const gift = c ? giftCardPaid(view) : 0;
  const giftText = gift > 0 ? `${money(view, gift)} has been returned to your gift card.` : null;
  const facts: [string, string][] = [['Course', view.course.name], ['With', view.educator.name]];
  const when = whenText(view);
  if (when) facts.push(['Date', `${when} (UK time)`]);
  facts.push(['Spaces released', String(c?.spaces_released ?? view.spaces)]);
  const out: MailMessage[] = [];
  const calendar = calendarOfBooking(view, config);
  if (view.booker.email) {
    const { text, html } = renderEmail({
      heading: 'Booking Cancelled',
      intro: [`Hi ${view.booker.firstName || 'there'},`, `Your booking for ${view.course.name} with ${view.educator.name} has been cancelled.`, reference, ...(refundText ? [refundText] : []), ...(giftText ? [giftText] : [])],
      facts,
      actions: [{ label: 'View Booking', href: bookingPageUrl(view, config) }],
    });
    out.push({
      to: view.booker.email, subject: `Booking Cancelled: ${view.course.name} (${view.id})`, text, html, tag: 'booking-cancelled',
      replyTo: view.educator.email ?? undefined,
      attachments: calendar ? [{ filename: `${view.id}.ics`, content: calendar, contentType: 'text/calendar; charset=utf-8; method=PUBLISH' }] : undefined,
    });
  }
  if (view.educator.email) {
    const learner = [view.booker.name, view.booker.email ? `<${view.booker.email}>` : ''].filter(Boolean).join(' ') || 'A learner';
    const { text, html } = renderEmail({
      heading: 'Booking cancelled by the learner',
      intro: [`${learner} cancelled their booking for ${view.course.name}.`, reference],
      facts: [...facts.filter(([label]) => label !== 'With'), ...(refund ? [['Refund', `${money(view, refund)} (${c?.refund_status})`] as [string, string]] : []),
        ...(gift > 0 ? [['Returned to gift card', money(view, gift)] as [string, string]] : [])],
      actions: [],
    });
    out.push({
      to: view.educator.email, subject: `Booking cancelled: ${view.course.name} (${view.id})`, text, html, tag: 'booking-cancelled-educator',
      replyTo: view.booker.email ?? undefined,
    });
  }
  return out;
}
