/**
 * The admin's bookings (docs/admin.md "Bookings" and "Cancellations and refunds"), relative to
 * /api/admin/educators/{educatorId} (every route passes educatorAdminOnly first):
 *
 *   GET  /bookings                          → one keyset page of the educator's bookings (filters, search, sort, cursor)
 *   GET  /bookings/filters?courseId=        → the filters' choices: courses, and the dates of one
 *   GET  /bookings/{bookingId}              → everything about one booking (learner, attendees, money, e-mails, history)
 *   POST /bookings/{bookingId}/refunds      → refund all or part of it {amount, requestKey, expectedRefunds, reason?}
 *   POST /bookings/{bookingId}/cancel       → cancel it {refund: full | none | amount, amount?, requestKey, expectedRefunds?, reason?}
 *   POST /occurrences/{occurrenceId}/cancel → cancel a whole date {refund: full | none, requestKey, reason?}
 *   GET  /orders                            → the educator's orders of on-demand courses (course, payment, origin, search, sort)
 *   GET  /orders/{orderId}                  → one order (learner, answers, what was bought, payment, documents, e-mails, history)
 *
 * A booking or date id of another educator answers 404 through this educator's URL.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv, Deps } from '../deps.ts';
import { parseJson, parseParams, parseQuery } from '../http/parse.ts';
import { adminEducatorId } from './access.ts';
import { bookingFilterOptions, listAdminBookings, loadBookingExtras } from '../../db/queries/admin-bookings.ts';
import { loadBookingView, loadOrderView } from '../../db/queries/bookings.ts';
import { bookingListQuerySchema, orderListQuerySchema, type BookingListQuery } from '../../src/domain/admin/bookings.ts';
import { cancellationMinimum, refundLeft } from '../../src/domain/admin/refunds.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { listChanges } from './audit.ts';
import { bookingMessages, orderMessages } from '../../db/queries/admin-messages.ts';
import { documentUrls } from '../documents/emails.ts';
import { bookingPageUrl } from '../documents/describe.ts';
import { paidPartsOf, providerOfBooking, refundHistory } from './refunds.ts';
import {
  cancelBodySchema, cancelBookingAsEducator, cancelDateBodySchema, cancelOccurrence, choiceOf, refundBodySchema, refundBooking,
} from './bookings-actions.ts';

export const adminIdParam = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'is not an id');

/** Everything one booking's page shows, or null when it is not this educator's. */
export async function bookingDetail(deps: Deps, educatorId: string, bookingId: string) {
  const row = await deps.db.selectFrom('bookings').selectAll().where('id', '=', bookingId).where('educator_id', '=', educatorId).executeTakeFirst();
  if (!row) return null;
  const view = await loadBookingView(deps.db, bookingId);
  if (!view) return null;
  const [extras, provider, history, changes, messages] = await Promise.all([
    loadBookingExtras(deps.db, {
      id: row.id, checkoutId: row.checkout_id, educatorId, courseId: row.course_id, details: (row.details ?? {}) as Record<string, unknown>,
      contact: row.contact_details, emails: [view.booker.email ?? '', view.educator.email ?? ''],
    }),
    providerOfBooking(deps.db, row),
    refundHistory(deps.db, row.id),
    listChanges(deps.db, { educatorId, entity: 'booking', entityId: row.id, limit: 100 }),
    bookingMessages(deps.db, row.id),
  ]);
  const paid = paidPartsOf(row, provider);
  const left = refundLeft(paid, history.done);
  const links = documentUrls(view, deps.config);
  return {
    booking: {
      id: view.id, status: view.status, flow: view.flow, origin: view.origin, createdAt: view.createdAt, start: view.start, end: view.end,
      spaces: view.spaces, currency: view.currency, totalCost: view.totalCost, paymentMethod: view.paymentMethod, paymentState: view.paymentState,
      paymentProvider: provider, dueDate: view.dueDate, manualNote: view.manualNote, invoiceDetails: view.invoiceDetails,
      refundedTotal: Number(row.refunded_total), lines: view.lines, costSummary: view.costSummary,
      course: { id: view.course.id, name: view.course.name, type: view.course.type },
      occurrence: view.occurrence ? { id: view.occurrence.id, delivery: view.occurrence.delivery, spaces: view.occurrence.spaces, availableSpaces: view.occurrence.availableSpaces } : null,
      learner: { name: view.booker.name, email: view.booker.email, userId: view.userId },
      cancellation: view.cancellation ? {
        cancelledAt: Number(view.cancellation.cancelled_at), byLearner: view.cancellation.user_id === view.userId,
        spacesReleased: Number(view.cancellation.spaces_released), refundStatus: view.cancellation.refund_status,
      } : null,
      requestMessage: typeof view.details.message === 'string' ? view.details.message : null,
    },
    ...extras,
    money: {
      paid, refunded: history.done, left, expectedRefunds: history.count,
      cancellationMinimum: cancellationMinimum(paid, history.done),
    },
    documents: {
      invoiceNumber: view.document?.invoice_number ?? null,
      invoice: view.document ? links.invoice : null,
      calendar: links.ical,
      bookingPage: bookingPageUrl(view, deps.config),
    },
    history: changes,
    /** Messages the educator sent to the learners of its date or course (api/admin/messages.ts), newest first. */
    messages,
  };
}

/** One order's page (orders are not refunded or cancelled here), or null when it is not this educator's. */
export async function orderDetail(deps: Deps, educatorId: string, orderId: string) {
  const row = await deps.db.selectFrom('orders').selectAll().where('id', '=', orderId).where('educator_id', '=', educatorId).executeTakeFirst();
  if (!row) return null;
  const view = await loadOrderView(deps.db, orderId);
  if (!view) return null;
  const [extras, changes, messages] = await Promise.all([
    loadBookingExtras(deps.db, {
      id: row.id, checkoutId: row.checkout_id, educatorId, courseId: row.course_id, details: (row.details ?? {}) as Record<string, unknown>,
      contact: row.contact_details, emails: [view.booker.email ?? '', view.educator.email ?? ''],
    }),
    listChanges(deps.db, { educatorId, entity: 'order', entityId: row.id, limit: 100 }),
    orderMessages(deps.db, row.id),
  ]);
  const links = documentUrls(view, deps.config);
  return {
    order: {
      id: view.id, status: view.status, origin: view.origin, createdAt: view.createdAt, currency: view.currency, totalCost: view.totalCost,
      paymentMethod: view.paymentMethod, paymentState: view.paymentState, paymentProvider: view.paymentProvider, dueDate: view.dueDate,
      manualNote: view.manualNote, lines: view.lines, costSummary: view.costSummary,
      course: { id: view.course.id, name: view.course.name, type: view.course.type },
      learner: { name: view.booker.name, email: view.booker.email, userId: view.userId },
    },
    booker: extras.booker, attendees: extras.attendees, consent: extras.consent, voucher: extras.voucher, giftCard: extras.giftCard,
    platformFee: extras.platformFee, payments: extras.payments, emails: extras.emails,
    documents: { invoiceNumber: view.document?.invoice_number ?? null, invoice: view.document ? links.invoice : null, orderPage: bookingPageUrl(view, deps.config) },
    history: changes,
    /** Messages the educator sent to the learners of its course (api/admin/messages.ts), newest first. */
    messages,
  };
}

export function bookingsAdminRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get('/bookings', async (c) => {
    const query = parseQuery(c, bookingListQuerySchema);
    return c.json(await listAdminBookings(c.var.deps.db, adminEducatorId(c), query));
  });

  app.get('/bookings/filters', async (c) => {
    const { courseId } = parseQuery(c, z.object({ courseId: adminIdParam.optional() }));
    return c.json(await bookingFilterOptions(c.var.deps.db, adminEducatorId(c), courseId ?? null, c.var.deps.now()));
  });

  app.get('/bookings/:bookingId', async (c) => {
    const { bookingId } = parseParams(c, z.object({ bookingId: adminIdParam }));
    const detail = await bookingDetail(c.var.deps, adminEducatorId(c), bookingId);
    if (!detail) throw new ProblemError(problems.notFound('No such booking'));
    return c.json(detail);
  });

  app.post('/bookings/:bookingId/refunds', async (c) => {
    const { bookingId } = parseParams(c, z.object({ bookingId: adminIdParam }));
    const body = await parseJson(c, refundBodySchema);
    const result = await refundBooking(c.var.deps, { userId: c.var.user!.id, educatorId: adminEducatorId(c), bookingId, body });
    return c.json(result, result.replayed ? 200 : 201);
  });

  app.post('/bookings/:bookingId/cancel', async (c) => {
    const { bookingId } = parseParams(c, z.object({ bookingId: adminIdParam }));
    const body = await parseJson(c, cancelBodySchema);
    const result = await cancelBookingAsEducator(c.var.deps, {
      userId: c.var.user!.id, educatorId: adminEducatorId(c), bookingId, kind: 'cancellation', choice: choiceOf(body),
      requestKey: body.requestKey, expectedRefunds: body.expectedRefunds, reason: body.reason || null,
    });
    return c.json(result);
  });

  app.post('/occurrences/:occurrenceId/cancel', async (c) => {
    const { occurrenceId } = parseParams(c, z.object({ occurrenceId: adminIdParam }));
    const body = await parseJson(c, cancelDateBodySchema);
    return c.json(await cancelOccurrence(c.var.deps, { userId: c.var.user!.id, educatorId: adminEducatorId(c), occurrenceId, body }));
  });

  app.get('/orders', async (c) => {
    const query = parseQuery(c, orderListQuerySchema);
    return c.json(await listAdminBookings(c.var.deps.db, adminEducatorId(c), query as BookingListQuery, 'orders'));
  });

  app.get('/orders/:orderId', async (c) => {
    const { orderId } = parseParams(c, z.object({ orderId: adminIdParam }));
    const detail = await orderDetail(c.var.deps, adminEducatorId(c), orderId);
    if (!detail) throw new ProblemError(problems.notFound('No such order'));
    return c.json(detail);
  });

  return app;
}
