/**
 * The outcomes of the checkout as the learner sees them (spec 2.15, 7 "Links"):
 *   GET  /api/bookings/mine → {bookings[], orders[], requests[], applications[]} (the signed-in learner's, newest first; for /profile)
 *   GET  /api/bookings/{bookingId} → the booking with its course, educator, document number, cancellation rule and links (owner only)
 *   POST /api/bookings/{bookingId}/cancel → cancels it inside the educator's free-cancellation window (owner only; CSRF-checked
 *        like every state-changing /api call); the spaces go back to the occurrence and a paid card / wallet payment is refunded
 *   GET  /api/bookings/{bookingId}/ical → text/calendar ("Add to Calendar"; dated bookings only)
 *   GET  /api/booking/{bookingId}/invoice, GET /api/order/{orderId}/invoice → application/pdf: "Invoice" while money is due,
 *        "Receipt" once paid, with its sequential number (INV-000001…); refused when everything was free
 * Documents open for the owner, or with the signed `token` the confirmation state and e-mails hand out (an embed has no cookies).
 */
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../deps.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { documentToken, verifyDocumentToken } from '../shared/document-tokens.ts';
import { requireUser } from '../auth/middleware.ts';
import { calendarOfBooking } from '../documents/ical.ts';
import { invoiceModel, renderInvoicePdf } from '../documents/invoice.ts';
import { ensureInvoiceNumber } from '../documents/numbering.ts';
import { cancelBooking } from '../documents/cancel.ts';
import { documentProblems } from '../documents/problems.ts';
import {
  BOOKING_STATUS_TEXT, bookingPageUrl, cancellationPolicy, deliveryLines, documentButtonText, documentTitle, hasDocument, whenText,
} from '../documents/describe.ts';
import { listLearnerOutcomes } from '../../db/queries/checkout-outcomes.ts';
import { loadBookingView, loadOrderView, type BookingView, type OrderView } from '../../db/queries/bookings.ts';
import { payInvoiceLink } from '../../src/domain/links.ts';

function allowed(c: Context<AppEnv>, kind: string, id: string, userId: string): boolean {
  const user = c.var.user;
  if (user && user.id === userId) return true;
  return verifyDocumentToken(c.var.deps.config.APP_SECRET, kind, id, c.req.query('token'));
}

function notFound(kind: 'booking' | 'order' = 'booking'): never {
  throw new ProblemError(problems.notFound(kind === 'booking' ? 'No such booking' : 'No such order'));
}

/** What the booking page and islands need, on top of the stored booking. */
function bookingJson(c: Context<AppEnv>, view: BookingView) {
  const { config } = c.var.deps;
  const now = c.var.deps.now();
  const token = documentToken(config.APP_SECRET, 'booking', view.id);
  const policy = cancellationPolicy(view, now);
  return {
    id: view.id,
    reference: view.id,
    flow: view.flow,
    origin: view.origin,
    status: view.status,
    statusText: BOOKING_STATUS_TEXT[view.status] ?? view.status,
    occurrence_id: view.occurrenceId,
    spaces: view.spaces,
    start_datetime: view.start,
    end_datetime: view.end,
    when: whenText(view),
    delivery: deliveryLines(view),
    lines: view.lines,
    cost_summary: view.costSummary,
    total_cost: view.totalCost,
    currency: view.currency,
    payment_method: view.paymentMethod,
    payment_state: view.paymentState,
    due_date: view.dueDate,
    manual_note: view.manualNote,
    invoice_details: view.invoiceDetails,
    created_at: view.createdAt,
    course: view.course,
    educator: { id: view.educator.id, slug: view.educator.slug, name: view.educator.name },
    invoiceNumber: view.document?.invoice_number ?? null,
    cancellation: view.cancellation
      ? {
        cancelledAt: Number(view.cancellation.cancelled_at), spacesReleased: Number(view.cancellation.spaces_released),
        refundStatus: view.cancellation.refund_status, refundAmount: Number(view.cancellation.refund_amount),
      }
      : null,
    cancellationPolicy: policy,
    documentLabel: hasDocument(view) ? documentButtonText(view) : null,
    links: {
      manage: bookingPageUrl(view, config),
      ical: view.start !== null ? `/api/bookings/${view.id}/ical?token=${token}` : null,
      invoice: hasDocument(view) ? `/api/booking/${view.id}/invoice?token=${token}` : null,
      payInvoice: view.paymentMethod === 'invoice' && view.paymentState === 'unpaid' ? payInvoiceLink('booking', view.id) : null,
    },
  };
}

export function bookingsRoutes() {
  const app = new Hono<AppEnv>();
  const db = (c: Context<AppEnv>) => c.var.deps.db;

  app.get('/bookings/mine', async (c) => {
    const user = c.var.user;
    if (!user) throw new ProblemError(problems.unknownUser());
    c.header('cache-control', 'no-store');
    return c.json(await listLearnerOutcomes(db(c), user.id));
  });

  app.get('/bookings/:bookingId/ical', async (c) => {
    const view = await loadBookingView(db(c), c.req.param('bookingId'));
    if (!view || !allowed(c, 'booking', view.id, view.userId)) notFound();
    const body = calendarOfBooking(view, c.var.deps.config);
    if (!body) throw new ProblemError(documentProblems.noCalendar());
    return new Response(body, {
      headers: {
        'content-type': 'text/calendar; charset=utf-8',
        'content-disposition': `attachment; filename="${view.id}.ics"`,
        'cache-control': 'private, no-store',
      },
    });
  });

  app.get('/bookings/:bookingId', async (c) => {
    const user = c.var.user;
    const view = await loadBookingView(db(c), c.req.param('bookingId'));
    if (!view || !user || view.userId !== user.id) notFound();
    c.header('cache-control', 'no-store');
    return c.json(bookingJson(c, view));
  });

  app.post('/bookings/:bookingId/cancel', async (c) => {
    const user = requireUser(c);
    const result = await cancelBooking(c.var.deps, user, c.req.param('bookingId'));
    c.header('cache-control', 'no-store');
    return c.json({ ...bookingJson(c, result.booking), spacesReleased: result.spacesReleased, refund: result.refund, giftCardRefund: result.giftCardRefund });
  });

  const invoice = (kind: 'booking' | 'order') => async (c: Context<AppEnv>) => {
    const id = c.req.param(kind === 'booking' ? 'bookingId' : 'orderId') ?? '';
    const { deps } = c.var;
    const view: BookingView | OrderView | null = kind === 'booking' ? await loadBookingView(deps.db, id) : await loadOrderView(deps.db, id);
    if (!view || !allowed(c, kind, view.id, view.userId)) notFound(kind);
    if (!hasDocument(view)) throw new ProblemError(documentProblems.noDocument(kind));
    // Bookings and orders get their number when they are recorded; one recorded before that gets it now, once.
    const document = view.document ?? (await ensureInvoiceNumber(deps.db, deps.dialect, {
      kind, outcomeId: view.id, educatorId: view.educator.id, issuedAt: deps.now(), now: deps.now(),
    }));
    const pdf = await renderInvoicePdf(invoiceModel(view, document));
    return new Response(new Uint8Array(pdf), {
      headers: {
        'content-type': 'application/pdf',
        'content-disposition': `inline; filename="${documentTitle(view)}-${document.invoice_number}.pdf"`,
        'cache-control': 'private, no-store',
      },
    });
  };
  app.get('/booking/:bookingId/invoice', invoice('booking'));
  app.get('/order/:orderId/invoice', invoice('order'));
  return app;
}
