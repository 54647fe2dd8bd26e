/**
 * The server part of the booking page behind "View & Manage Booking" (spec 2.4) and of the order page:
 *   marketplace /{educatorSlug}/{courseSlug}/details/{occurrenceId}?booking={bookingId}
 *   minisite    /{courseSlug}/details/{occurrenceId}?booking={bookingId}
 *   order       /{courseSlug}/details?orderId={orderId} (marketplace prefixed with /{educatorSlug})
 *   no date     /{courseSlug}/dates?booking={bookingId} (marketplace prefixed with /{educatorSlug}): a booking
 *               without an occurrence (a calendar request that became a booking), with its booked time
 * Only the signed-in owner sees it. On the main site a visitor who is not signed in is sent to /login and
 * back; a minisite offers the login link (its session may arrive by hand-off). Anything else is 404.
 */
import type { AstroGlobal } from 'astro';
import type { Db } from '../../db/client.ts';
import type { Educator } from '../../db/schema.ts';
import { latestBookingIdOnOccurrence, loadBookingView, loadOrderView, type BookingView, type OrderView } from '../../db/queries/bookings.ts';
import type { Config } from '../config.ts';
import type { Deps } from '../deps.ts';
import { noStore, pageSite, pageUser } from '../../src/lib/page-locals.ts';
import { documentToken } from '../shared/document-tokens.ts';
import { visitorUrl } from '../shared/origins.ts';
import { courseLink, loginUrl, mainOrigin, occurrenceLinkFromBooking, payInvoiceLink } from '../../src/domain/links.ts';
import { formatPence } from '../../src/domain/money.ts';
import { needsProvider } from '../payments/registry.ts';
import { originForContext } from '../../src/domain/checkout/flows.ts';
import { invoiceDueText } from '../../src/domain/checkout/messages.ts';
import { referenceText } from '../../src/domain/checkout/outcomes.ts';
import {
  BOOKING_STATUS_TEXT, cancellationPolicy, deliveryLines, documentButtonText, giftCardPaid, hasDocument, isCancelled, longDate, paidText, paymentMethodText, whenText,
  type CancellationPolicy,
} from '../documents/describe.ts';

export type PageContext = 'marketplace' | 'minisite';

export interface BookingPageLine {
  text: string;
  amount: string | null;
}

export interface OutcomePageModel {
  kind: 'booking' | 'order';
  id: string;
  reference: string;
  title: string;
  courseName: string;
  courseHref: string;
  educatorName: string;
  status: string;
  statusTone: 'success' | 'neutral' | 'cancelled';
  when: string | null;
  delivery: string[];
  spaces: number | null;
  lines: BookingPageLine[];
  total: { label: string; amount: string } | null;
  payment: string[];
  payInvoiceHref: string | null;
  documents: { label: string; href: string; download?: string }[];
  cancellation: {
    policy: CancellationPolicy;
    deadlineText: string | null;
    cancelledText: string | null;
    refundText: string | null;
    /** What a cancellation would do with the money, shown before confirming. */
    refundPreview: string | null;
  } | null;
  profileHref: string;
  invoiceNumber: string | null;
}

export type BookingPageResult =
  | { state: 'not-found'; educator: Educator | null }
  | { state: 'redirect'; location: string }
  | { state: 'signed-out'; educator: Educator; loginHref: string }
  | { state: 'ok'; educator: Educator; model: OutcomePageModel };

function apiPath(path: string): string {
  const origin = (process.env.PUBLIC_API_ORIGIN ?? '').replace(/\/+$/, '');
  return `${origin}/api${path}`;
}

async function educatorBySlug(db: Db, slug: string | undefined): Promise<Educator | null> {
  if (!slug) return null;
  return (await db.selectFrom('educators').selectAll().where('slug', '=', slug).executeTakeFirst()) ?? null;
}

function linesOf(view: BookingView | OrderView): BookingPageLine[] {
  const money = (p: number) => formatPence(p, view.currency || 'GBP');
  const unit = (p: number | null | undefined) => (typeof p === 'number' && p > 0 ? p : 0);
  const paid = view.totalCost > 0 || hasDocument(view);
  const lines: BookingPageLine[] = [
    ...(view.lines.offers ?? []).filter((l) => l.quantity > 0)
      .map((l) => ({ text: `${l.name} × ${l.quantity}`, amount: paid ? money(unit(l.price) * l.quantity) : 'Free' })),
    ...(view.lines.addOns ?? []).filter((l) => l.quantity > 0)
      .map((l) => ({ text: `${l.name} × ${l.quantity}`, amount: paid ? money(unit(l.price) * l.quantity) : 'Free' })),
    ...(view.lines.extras ?? []).filter((l) => l.quantity > 0 && l.cost > 0)
      .map((l) => ({ text: `${l.label} × ${l.quantity}`, amount: money(unit(l.cost) * l.quantity) })),
  ];
  const items = view.costSummary?.summary_items ?? {};
  for (const i of [...(items.discountSummary ?? []), ...(items.voucherSummary ?? [])]) lines.push({ text: i.text, amount: money(-Math.abs(Number(i.value))) });
  for (const i of items.vatSummary ?? []) lines.push({ text: i.text, amount: money(Number(i.value)) });
  const fee = Number(view.costSummary?.platform_fee ?? 0);
  if (view.costSummary && !view.costSummary.fees_absorbed && fee > 0) lines.push({ text: 'Fees', amount: money(fee) });
  return lines;
}

function modelOf(config: Config, view: BookingView | OrderView, context: PageContext, now: number): OutcomePageModel {
  const host = config.PUBLIC_HOST.toLowerCase();
  const main = mainOrigin(host, config.PUBLIC_PROTOCOL);
  const onMain = (path: string) => (context === 'marketplace' ? path : `${main}${path}`);
  const token = documentToken(config.APP_SECRET, view.kind, view.id);
  const money = (p: number) => formatPence(p, view.currency || 'GBP');
  const cancelled = view.kind === 'booking' && isCancelled(view);

  const payment: string[] = [];
  let total: OutcomePageModel['total'];
  const gift = giftCardPaid(view);
  if (view.paymentState === 'paid' && view.totalCost + gift > 0) {
    // A gift card is a means of payment: its part is paid, and said so ("£40.00 by Card and £20.00 by gift card").
    total = { label: 'Total paid', amount: money(view.totalCost + gift) };
    const how = paidText(view);
    if (how) payment.push(`Paid ${how}`);
  } else if (view.totalCost > 0) {
    if (gift > 0) payment.push(`Paid ${money(gift)} by gift card`);
    total = { label: cancelled ? 'Total (no longer due)' : 'Total due', amount: money(view.totalCost) };
    if (!cancelled && view.paymentMethod === 'invoice' && view.dueDate) payment.push(invoiceDueText(view.dueDate));
    if (!cancelled && view.paymentMethod === 'manual') payment.push(view.manualNote || 'Pay the organizer on the day.');
  } else {
    total = { label: 'Total', amount: 'Free' };
  }

  const documents: OutcomePageModel['documents'] = [];
  if (hasDocument(view)) documents.push({ label: documentButtonText(view), href: apiPath(`/${view.kind}/${encodeURIComponent(view.id)}/invoice?token=${token}`) });
  if (view.kind === 'booking' && view.start !== null && !cancelled) {
    documents.push({ label: 'Add to Calendar', href: apiPath(`/bookings/${encodeURIComponent(view.id)}/ical?token=${token}`), download: `${view.id}.ics` });
  }

  let cancellation: OutcomePageModel['cancellation'] = null;
  if (view.kind === 'booking') {
    const policy = cancellationPolicy(view, now);
    const c = view.cancellation;
    const refundText = !c || c.refund_status === 'none'
      ? null
      : c.refund_status === 'refunded'
        ? `${money(Number(c.refund_amount))} refunded to your ${paymentMethodText(view.paymentMethod) ?? 'payment method'}.`
        : c.refund_status === 'failed'
          ? `Your refund of ${money(Number(c.refund_amount))} could not be made automatically; ${view.educator.name} will arrange it.`
          : `Your refund of ${money(Number(c.refund_amount))} is on its way.`;
    // What a gift card paid goes back on the card with the cancellation, and is said with the rest.
    const giftText = c && gift > 0 ? `${money(gift)} returned to your gift card.` : null;
    const providerPreview = view.paymentState === 'paid' && view.totalCost > 0 && needsProvider(view.paymentMethod ?? '')
      ? `${money(view.totalCost)} will be refunded to your ${paymentMethodText(view.paymentMethod)}.`
      : view.paymentState === 'unpaid' && view.totalCost > 0 ? 'Nothing will be due.' : null;
    const giftPreview = gift > 0 ? `${money(gift)} will be returned to your gift card.` : null;
    cancellation = {
      policy,
      deadlineText: policy.deadline !== null ? longDate(policy.deadline) : null,
      cancelledText: cancelled ? `This booking was cancelled${c ? ` on ${longDate(Number(c.cancelled_at))}` : ''}.` : null,
      refundText: [refundText, giftText].filter(Boolean).join(' ') || null,
      refundPreview: [providerPreview, giftPreview].filter(Boolean).join(' ') || null,
    };
  }

  const status = view.kind === 'booking' ? (BOOKING_STATUS_TEXT[view.status] ?? view.status) : 'Confirmed';
  return {
    kind: view.kind,
    id: view.id,
    reference: referenceText(view.kind, view.id),
    title: view.kind === 'booking' ? 'Your booking' : 'Your order',
    courseName: view.course.name,
    courseHref: courseLink(context, { educatorSlug: view.educator.slug, currentEducatorSlug: context === 'minisite' ? view.educator.slug : null, host, protocol: config.PUBLIC_PROTOCOL, courseSlug: view.course.slug }).href,
    educatorName: view.educator.name,
    status,
    statusTone: cancelled ? 'cancelled' : view.status === 'confirmed' ? 'success' : 'neutral',
    when: view.kind === 'booking' ? whenText(view) : null,
    delivery: deliveryLines(view),
    spaces: view.kind === 'booking' ? view.spaces : null,
    lines: linesOf(view),
    total,
    payment,
    payInvoiceHref: !cancelled && view.paymentMethod === 'invoice' && view.paymentState === 'unpaid' ? onMain(payInvoiceLink(view.kind, view.id)) : null,
    documents,
    cancellation,
    profileHref: onMain('/profile'),
    invoiceNumber: view.document?.invoice_number ?? null,
  };
}

/**
 * Shared by the booking, order and dates pages of both contexts: `booking` pages name the occurrence in the
 * path, `dates` pages are for bookings without one (a booking that has one is sent to its details page).
 */
export async function outcomePage(
  deps: Pick<Deps, 'db' | 'config'>, astro: AstroGlobal, context: PageContext, kind: 'booking' | 'order' | 'dates',
): Promise<BookingPageResult> {
  const { db, config } = deps;
  noStore(astro);
  const site = pageSite(astro);
  const params = astro.params as { educator?: string; course?: string; occurrence?: string };
  // Marketplace pages only on the main host; minisite pages only on that educator's own minisite.
  if (context === 'marketplace' && site.minisiteSlug) return { state: 'not-found', educator: null };
  if (context === 'minisite' && site.minisiteSlug !== params.educator) return { state: 'not-found', educator: null };
  const educator = await educatorBySlug(db, params.educator);
  if (!educator) return { state: 'not-found', educator: null };

  const user = pageUser(astro);
  if (!user) {
    const here = visitorUrl(config, site.minisiteSlug, `${stripMinisite(astro.url.pathname)}${astro.url.search}`);
    const loginHref = loginUrl({
      host: config.PUBLIC_HOST.toLowerCase(), protocol: config.PUBLIC_PROTOCOL, currentUrl: here, educatorId: educator.id,
      origin: originForContext(context),
    });
    if (context === 'marketplace') return { state: 'redirect', location: loginHref };
    return { state: 'signed-out', educator, loginHref };
  }

  const now = Math.floor(Date.now() / 1000);
  if (kind === 'order') {
    const orderId = astro.url.searchParams.get('orderId') ?? '';
    const view = await loadOrderView(db, orderId);
    if (!view || view.userId !== user.id || view.educator.slug !== educator.slug || view.course.slug !== params.course) return { state: 'not-found', educator };
    return { state: 'ok', educator, model: modelOf(config, view, context, now) };
  }
  if (kind === 'dates') {
    const bookingId = astro.url.searchParams.get('booking') ?? '';
    const view = bookingId ? await loadBookingView(db, bookingId) : null;
    if (!view || view.userId !== user.id || view.educator.slug !== educator.slug || view.course.slug !== params.course) return { state: 'not-found', educator };
    if (view.occurrenceId) {
      const link = occurrenceLinkFromBooking(context, {
        educatorSlug: educator.slug, currentEducatorSlug: context === 'minisite' ? educator.slug : null, host: config.PUBLIC_HOST.toLowerCase(),
        protocol: config.PUBLIC_PROTOCOL, courseSlug: view.course.slug, occurrenceId: view.occurrenceId, bookingId: view.id,
      });
      return { state: 'redirect', location: link.href };
    }
    return { state: 'ok', educator, model: modelOf(config, view, context, now) };
  }
  const occurrenceId = params.occurrence ?? '';
  const bookingId = astro.url.searchParams.get('booking') || (await latestBookingIdOnOccurrence(db, user.id, occurrenceId));
  const view = bookingId ? await loadBookingView(db, bookingId) : null;
  if (!view || view.userId !== user.id || view.educator.slug !== educator.slug || view.course.slug !== params.course || view.occurrenceId !== occurrenceId) {
    return { state: 'not-found', educator };
  }
  return { state: 'ok', educator, model: modelOf(config, view, context, now) };
}

/** Astro sees minisite pages under /minisite/{slug}/…; the visitor's path has no such prefix. */
function stripMinisite(pathname: string): string {
  return pathname.replace(/^\/minisite\/[^/]+/, '') || '/';
}
