/**
 * Approvals and requests (docs/admin.md "Approvals and requests"): the educator approves or declines bookings that
 * await approval and booking applications, and answers booking requests (request, date and group booking requests)
 * with a date and a price. Every decision is one transaction with the learner's e-mail in the outbox and a line in
 * the audit log.
 *
 * - Approving a booking confirms it: its spaces, taken when it was booked, stay taken. Declining it is a cancellation
 *   with a full refund (api/admin/bookings-actions.ts), its spaces given back.
 * - Accepting an application books it: the spaces are taken off its date then (an application holds none) and the
 *   booking is confirmed; what it costs is paid in person (the application flow's only method, spec 4), or nothing
 *   when it is free. Declining it takes nothing back because it held nothing.
 * - Answering a request makes a private date of the course at the time offered, with one offer at the price offered
 *   for the spaces asked for, and a checkout prepared for the learner (booking flow, date and spaces chosen, bound to
 *   their account). The e-mail's link opens that checkout: the learner logs in, confirms their details, pays and
 *   gets a confirmed booking like any other. The private date is nobody else's: it is not listed, and the checkout's
 *   date step refuses it to any other checkout.
 */
import { sql, type Transaction } from 'kysely';
import { z } from 'zod';
import type { Deps } from '../deps.ts';
import type { Database } from '../../db/schema.ts';
import { loadBookingView } from '../../db/queries/bookings.ts';
import { loadPaymentOptions } from '../../db/queries/checkout.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { authProblems } from '../auth/problems.ts';
import { queueMail } from '../mail/index.ts';
import { mainSiteOrigin } from '../shared/origins.ts';
import { recordChange } from './audit.ts';
import { lockBooking } from './refunds.ts';
import { ensureAvailableSpaces, lockOccurrence, sweepExpired } from '../checkout/holds.ts';
import { newCheckoutId, newId, newReference } from '../checkout/ids.ts';
import { issueNewInvoiceNumber } from '../documents/numbering.ts';
import { hasDocument } from '../documents/describe.ts';
import { APPLICATION_ACCEPTED, approvedEmail, quoteEmail, requestDeclinedEmail } from './bookings-emails.ts';
import { bookerOf } from '../../db/queries/admin-bookings.ts';
import { requestedSpacesOf } from '../../src/domain/checkout/ui.ts';

type Tx = Transaction<Database>;

const DAY = 86400;
/** How long a learner has to book an answered request, unless the educator says otherwise. */
export const QUOTE_DAYS = 7;

export const decisionBodySchema = z.object({ reason: z.string().trim().max(1000).optional() });

export const quoteBodySchema = z.object({
  start: z.number().int().min(0).max(4_102_444_800),
  end: z.number().int().min(0).max(4_102_444_800),
  /** The whole price for the spaces, in pence (the platform fee and the educator's VAT are added as for any offer). */
  price: z.number().int().min(0).max(100_000_000),
  spaces: z.number().int().min(1).max(500).optional(),
  delivery: z.enum(['in-person', 'online']).optional(),
  message: z.string().trim().max(2000).optional(),
  /** Days the learner has to book it (1–60). */
  validDays: z.number().int().min(1).max(60).optional(),
});

function learnerOf(contact: unknown): { email: string | null; firstName: string } {
  const booker = bookerOf(contact);
  return { email: booker.email, firstName: booker.name.split(' ')[0] ?? '' };
}

/** Approves a booking awaiting approval: it is confirmed and the learner gets the confirmation. Approving twice is harmless. */
export async function approveBooking(deps: Deps, input: { userId: string; educatorId: string; bookingId: string }): Promise<{ status: string; changed: boolean }> {
  const now = deps.now();
  return deps.db.transaction().execute(async (tx) => {
    const booking = await lockBooking(tx, deps.dialect, input.educatorId, input.bookingId);
    if (!booking) throw new ProblemError(problems.notFound('No such booking'));
    if (booking.status === 'confirmed') return { status: 'confirmed', changed: false };
    if (booking.status !== 'awaiting-approval') throw new ProblemError(authProblems.conflict('Not Awaiting Approval', 'This booking was cancelled.'));
    await tx.updateTable('bookings').set({ status: 'confirmed' }).where('id', '=', booking.id).where('status', '=', 'awaiting-approval').execute();
    await recordChange(tx, {
      educatorId: input.educatorId, userId: input.userId, entity: 'booking', entityId: booking.id, action: 'approve',
      changes: { status: ['awaiting-approval', 'confirmed'] }, at: now,
    });
    const view = (await loadBookingView(tx, booking.id))!;
    const message = approvedEmail(view, deps.config);
    if (message) await queueMail(tx, message, { now });
    return { status: 'confirmed', changed: true };
  });
}

async function lockApplication(tx: Tx, deps: Deps, educatorId: string, applicationId: string) {
  let query = tx.selectFrom('booking_applications').selectAll().where('id', '=', applicationId).where('educator_id', '=', educatorId);
  if (deps.dialect === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw new ProblemError(problems.notFound('No such application'));
  return row;
}

/**
 * Accepts an application: its spaces come off its date (the guarded update every hold uses; lapsed holds swept
 * first), a confirmed booking is recorded for the learner (paid in person, or free), with its invoice number, and
 * the learner is told. Accepting twice answers with the booking made the first time.
 */
export async function acceptApplication(deps: Deps, input: { userId: string; educatorId: string; applicationId: string }): Promise<{ bookingId: string; changed: boolean }> {
  const now = deps.now();
  return deps.db.transaction().execute(async (tx) => {
    const app = await lockApplication(tx, deps, input.educatorId, input.applicationId);
    if (app.status === 'accepted') {
      const made = await tx.selectFrom('bookings').select('id').where('checkout_id', '=', app.checkout_id).executeTakeFirst();
      if (made) return { bookingId: made.id, changed: false };
    }
    if (app.status !== 'sent') throw new ProblemError(authProblems.conflict('Already Decided', 'This application was declined.'));
    const occurrence = app.occurrence_id
      ? await tx.selectFrom('occurrences').selectAll().where('id', '=', app.occurrence_id).where('course_id', '=', app.course_id).executeTakeFirst()
      : undefined;
    if (!occurrence) throw new ProblemError(authProblems.conflict('Date Gone', 'The date this application is for no longer exists.'));
    const spaces = Math.max(1, Number(app.spaces));
    await lockOccurrence(tx, deps.dialect, occurrence.id);
    await sweepExpired(tx, deps.dialect, now, { occurrenceId: occurrence.id });
    await ensureAvailableSpaces(tx, occurrence.id);
    const taken = await tx.updateTable('occurrences').set({ available_spaces: sql<number>`available_spaces - ${spaces}` })
      .where('id', '=', occurrence.id).where('available_spaces', '>=', spaces).executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) {
      const left = await tx.selectFrom('occurrences').select('available_spaces').where('id', '=', occurrence.id).executeTakeFirst();
      const n = Math.max(0, Number(left?.available_spaces ?? 0));
      throw new ProblemError(authProblems.conflict('Not Enough Spaces', `Only ${n} ${n === 1 ? 'space is' : 'spaces are'} left on this date; the application asks for ${spaces}.`));
    }
    const total = Number(app.total_cost);
    const manual = total > 0 ? (await loadPaymentOptions(tx, app.educator_id, app.course_id)).manual : null;
    const id = newReference('booking');
    const row = {
      id, checkout_id: app.checkout_id, flow: app.flow, course_id: app.course_id, educator_id: app.educator_id, user_id: app.user_id,
      student_id: app.student_id, origin: app.origin, lines: app.lines, contact_details: app.contact_details,
      details: { ...(app.details ?? {}), applicationId: app.id }, total_cost: total, currency: app.currency || 'GBP', created_at: now,
      status: 'confirmed' as const, occurrence_id: occurrence.id, spaces, start_datetime: Number(occurrence.start_datetime), end_datetime: Number(occurrence.end_datetime),
      payment_method: total > 0 ? 'manual' : null, payment_state: total > 0 ? 'unpaid' as const : 'free' as const, payment_id: null,
      invoice_details: null, due_date: null, manual_note: total > 0 ? (manual && 'message' in manual ? manual.message ?? null : null) : null,
    };
    await tx.insertInto('bookings').values(row).execute();
    await tx.updateTable('booking_applications').set({ status: 'accepted' }).where('id', '=', app.id).execute();
    await recordChange(tx, {
      educatorId: input.educatorId, userId: input.userId, entity: 'application', entityId: app.id, action: 'accept',
      changes: { status: ['sent', 'accepted'], booking: [null, id] }, at: now,
    });
    await recordChange(tx, {
      educatorId: input.educatorId, userId: input.userId, entity: 'booking', entityId: id, action: 'create',
      changes: { status: [null, 'confirmed'], application: [null, app.id] }, at: now,
    });
    const view = (await loadBookingView(tx, id))!;
    const message = approvedEmail(view, deps.config, APPLICATION_ACCEPTED);
    if (message) await queueMail(tx, message, { now });
    // Its invoice / receipt number, last: every booking of the educator waits for that counter's lock.
    if (hasDocument(view)) await issueNewInvoiceNumber(tx, { kind: 'booking', outcomeId: id, educatorId: app.educator_id, issuedAt: now, now });
    return { bookingId: id, changed: true };
  });
}

/** Declines an application (it held nothing) and tells the learner. */
export async function declineApplication(deps: Deps, input: { userId: string; educatorId: string; applicationId: string; reason: string | null }): Promise<{ changed: boolean }> {
  const now = deps.now();
  return deps.db.transaction().execute(async (tx) => {
    const app = await lockApplication(tx, deps, input.educatorId, input.applicationId);
    if (app.status === 'declined') return { changed: false };
    if (app.status !== 'sent') throw new ProblemError(authProblems.conflict('Already Decided', 'This application was accepted: cancel its booking instead.'));
    await tx.updateTable('booking_applications').set({ status: 'declined' }).where('id', '=', app.id).where('status', '=', 'sent').execute();
    await recordChange(tx, {
      educatorId: input.educatorId, userId: input.userId, entity: 'application', entityId: app.id, action: 'decline',
      changes: { status: ['sent', 'declined'], ...(input.reason ? { reason: [null, input.reason] } : {}) }, at: now,
    });
    await tellDeclined(tx, deps, { kind: 'application', id: app.id, courseId: app.course_id, educatorId: app.educator_id, contact: app.contact_details, reason: input.reason, now });
    return { changed: true };
  });
}

async function tellDeclined(
  tx: Tx, deps: Deps, input: { kind: 'request' | 'application'; id: string; courseId: string; educatorId: string; contact: unknown; reason: string | null; now: number },
): Promise<void> {
  const [course, educator] = await Promise.all([
    tx.selectFrom('courses').select('name').where('id', '=', input.courseId).executeTakeFirstOrThrow(),
    tx.selectFrom('educators').select(['name', 'email']).where('id', '=', input.educatorId).executeTakeFirstOrThrow(),
  ]);
  const learner = learnerOf(input.contact);
  const message = requestDeclinedEmail({
    kind: input.kind, requestId: input.id, learnerEmail: learner.email, learnerFirstName: learner.firstName, courseName: course.name,
    educator: { name: educator.name, email: educator.email }, reason: input.reason, config: deps.config,
  });
  if (message) await queueMail(tx, message, { now: input.now });
}

async function lockRequest(tx: Tx, deps: Deps, educatorId: string, requestId: string) {
  let query = tx.selectFrom('booking_requests').selectAll().where('id', '=', requestId).where('educator_id', '=', educatorId);
  if (deps.dialect === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw new ProblemError(problems.notFound('No such request'));
  return row;
}

/** Declines a request and tells the learner. */
export async function declineRequest(deps: Deps, input: { userId: string; educatorId: string; requestId: string; reason: string | null }): Promise<{ changed: boolean }> {
  const now = deps.now();
  return deps.db.transaction().execute(async (tx) => {
    const request = await lockRequest(tx, deps, input.educatorId, input.requestId);
    if (request.status === 'declined') return { changed: false };
    if (request.status !== 'sent') throw new ProblemError(authProblems.conflict('Already Answered', 'This request was answered already.'));
    await tx.updateTable('booking_requests').set({ status: 'declined' }).where('id', '=', request.id).where('status', '=', 'sent').execute();
    await recordChange(tx, {
      educatorId: input.educatorId, userId: input.userId, entity: 'request', entityId: request.id, action: 'decline',
      changes: { status: ['sent', 'declined'], ...(input.reason ? { reason: [null, input.reason] } : {}) }, at: now,
    });
    await tellDeclined(tx, deps, { kind: 'request', id: request.id, courseId: request.course_id, educatorId: request.educator_id, contact: request.contact_details, reason: input.reason, now });
    return { changed: true };
  });
}

/** The spaces a request asks for (its dates' or delivery's count, as the checkout kept it). */
export function requestedSpacesOfRequest(details: unknown): number {
  const d = (details ?? {}) as Record<string, unknown>;
  const entry = (state: unknown) => (state ? { status: 'complete', state: state as Record<string, unknown> } : undefined);
  const stepState: Record<string, { status: string; state: Record<string, unknown> }> = {};
  const dates = entry(d.dates);
  const delivery = entry(d.delivery);
  if (dates) stepState.dates = dates;
  if (delivery) stepState.delivery = delivery;
  return requestedSpacesOf(stepState);
}

/** The link in the answer's e-mail: the prepared checkout on the main site (the learner logs in there). */
export function quoteLink(config: Deps['config'], courseId: string, checkoutId: string): string {
  const params = new URLSearchParams({ flow: 'booking', course: courseId, checkoutId });
  return `${mainSiteOrigin(config)}/checkout?${params.toString()}`;
}

export interface QuoteAnswer {
  quoteId: string;
  checkoutId: string;
  occurrenceId: string;
  link: string;
}

/** Answers a booking request with a date and a price (see the module's comment). */
export async function answerRequest(
  deps: Deps, input: { userId: string; educatorId: string; requestId: string; body: z.output<typeof quoteBodySchema> },
): Promise<QuoteAnswer> {
  const { body } = input;
  const now = deps.now();
  const properties: { key: string; name: string; message: string }[] = [];
  if (body.start <= now) properties.push({ key: 'start', name: 'Start', message: 'must be in the future' });
  if (body.end <= body.start) properties.push({ key: 'end', name: 'End', message: 'must be after the start' });
  else if (body.end - body.start > 31 * DAY) properties.push({ key: 'end', name: 'End', message: 'must be at most 31 days after the start' });
  if (properties.length) throw new ProblemError(problems.validation(properties));
  return deps.db.transaction().execute(async (tx) => {
    const request = await lockRequest(tx, deps, input.educatorId, input.requestId);
    if (request.status !== 'sent') {
      throw new ProblemError(authProblems.conflict('Already Answered', request.status === 'declined' ? 'This request was declined.' : 'This request was answered already.'));
    }
    const course = await tx.selectFrom('courses').select(['id', 'name', 'currency', 'address', 'educator_id']).where('id', '=', request.course_id)
      .where('educator_id', '=', input.educatorId).executeTakeFirst();
    if (!course) throw new ProblemError(problems.notFound('No such course'));
    const educator = await tx.selectFrom('educators').select(['name', 'email', 'address']).where('id', '=', input.educatorId).executeTakeFirstOrThrow();
    const spaces = body.spaces ?? Math.max(1, requestedSpacesOfRequest(request.details));
    const delivery = body.delivery ?? 'in-person';
    const expiresAt = Math.min(now + (body.validDays ?? QUOTE_DAYS) * DAY, body.start);
    const occurrenceId = newId('occ');
    const offerId = newId('off');
    const checkoutId = newCheckoutId();
    const quoteId = newId('quo');
    await tx.insertInto('occurrences').values({
      id: occurrenceId, course_id: course.id, visibility: 'private', start_datetime: body.start, end_datetime: body.end, timezone: 'Europe/London',
      delivery, address: delivery === 'in-person' ? (course.address ?? educator.address ?? null) : null, spaces, available_spaces: spaces,
      parent_ref: null, individually_bookable: true,
    }).execute();
    await tx.insertInto('offers').values({
      id: offerId, course_id: course.id, occurrence_id: occurrenceId, position: 0,
      name: spaces === 1 ? 'Your requested booking' : `Your group booking (${spaces} spaces)`, description: body.message || null,
      price: body.price, spaces, start_at: null, end_at: expiresAt,
    }).execute();
    await tx.insertInto('checkouts').values({
      id: checkoutId, flow: 'booking', origin: request.origin as 'marketplace', course_id: course.id, educator_id: input.educatorId, occurrence_id: occurrenceId,
      user_id: request.user_id, student_id: request.student_id, current_step: 'contactDetails',
      step_state: {
        date: { status: 'complete', state: { selectedDate: { _id: occurrenceId, start_datetime: body.start, end_datetime: body.end } } },
        price: { status: 'complete', state: { offers: [{ offerId, quantity: 1 }], addOns: [], spacesRequested: spaces, voucherId: null } },
      },
      utms: { utm_source: 'request-answer', utm_medium: 'email' }, booked_on_url: null, status: 'open', booking_id: null, order_id: null,
      request_id: null, application_id: null, outcome_kind: null, outcome_id: null, total_cost: null, currency: course.currency || 'GBP',
      cost_summary: null, payment_provider: null, payment_id: null, version: 1, created_at: now, updated_at: now, completed_at: null,
    }).execute();
    await tx.insertInto('booking_quotes').values({
      id: quoteId, educator_id: input.educatorId, course_id: course.id, request_id: request.id, user_id: request.user_id,
      occurrence_id: occurrenceId, offer_id: offerId, checkout_id: checkoutId, price: body.price, spaces,
      start_datetime: body.start, end_datetime: body.end, message: body.message || null, expires_at: expiresAt, status: 'sent',
      created_by: input.userId, created_at: now,
    }).execute();
    await tx.updateTable('booking_requests').set({ status: 'answered' }).where('id', '=', request.id).execute();
    await recordChange(tx, {
      educatorId: input.educatorId, userId: input.userId, entity: 'request', entityId: request.id, action: 'answer',
      changes: { status: ['sent', 'answered'], start: [null, body.start], end: [null, body.end], price: [null, body.price], spaces: [null, spaces] }, at: now,
    });
    const link = quoteLink(deps.config, course.id, checkoutId);
    const learner = learnerOf(request.contact_details);
    const message = quoteEmail({
      requestId: request.id, learnerEmail: learner.email, learnerFirstName: learner.firstName, courseName: course.name,
      educator: { name: educator.name, email: educator.email }, start: body.start, end: body.end, price: body.price, spaces,
      currency: course.currency || 'GBP', message: body.message || null, link, expiresAt,
    });
    if (message) await queueMail(tx, message, { now });
    return { quoteId, checkoutId, occurrenceId, link };
  });
}

// ---------------------------------------------------------------------------------------------
// The /requests screen's lists

function num(v: unknown): number | null {
  return v === null || v === undefined ? null : Number(v);
}

/** Everything waiting for the educator, oldest first, and the answers given lately. */
export async function listRequests(deps: Deps, educatorId: string) {
  const db = deps.db;
  const now = deps.now();
  const [awaiting, applications, requests, quotes] = await Promise.all([
    db.selectFrom('bookings as b').innerJoin('courses as c', 'c.id', 'b.course_id')
      .select(['b.id', 'b.created_at', 'b.start_datetime', 'b.end_datetime', 'b.spaces', 'b.total_cost', 'b.currency', 'b.payment_method',
        'b.payment_state', 'b.contact_details', 'b.origin', 'c.id as course_id', 'c.name as course_name'])
      .where('b.educator_id', '=', educatorId).where('b.status', '=', 'awaiting-approval').orderBy('b.created_at').orderBy('b.id').limit(200).execute(),
    db.selectFrom('booking_applications as a').innerJoin('courses as c', 'c.id', 'a.course_id')
      .leftJoin('occurrences as o', 'o.id', 'a.occurrence_id')
      .select(['a.id', 'a.created_at', 'a.spaces', 'a.total_cost', 'a.currency', 'a.contact_details', 'a.origin', 'c.id as course_id', 'c.name as course_name',
        'o.start_datetime', 'o.end_datetime', 'o.available_spaces'])
      .where('a.educator_id', '=', educatorId).where('a.status', '=', 'sent').orderBy('a.created_at').orderBy('a.id').limit(200).execute(),
    db.selectFrom('booking_requests as r').innerJoin('courses as c', 'c.id', 'r.course_id')
      .select(['r.id', 'r.flow', 'r.created_at', 'r.details', 'r.contact_details', 'r.origin', 'c.id as course_id', 'c.name as course_name', 'c.type as course_type'])
      .where('r.educator_id', '=', educatorId).where('r.status', '=', 'sent').orderBy('r.created_at').orderBy('r.id').limit(200).execute(),
    db.selectFrom('booking_quotes as q').innerJoin('courses as c', 'c.id', 'q.course_id').innerJoin('checkouts as k', 'k.id', 'q.checkout_id')
      .innerJoin('booking_requests as r', 'r.id', 'q.request_id')
      .select(['q.id', 'q.request_id', 'q.price', 'q.spaces', 'q.start_datetime', 'q.end_datetime', 'q.expires_at', 'q.status', 'q.created_at',
        'k.booking_id', 'r.contact_details', 'c.name as course_name'])
      .where('q.educator_id', '=', educatorId).orderBy('q.created_at', 'desc').limit(50).execute(),
  ]);
  return {
    awaitingApproval: awaiting.map((b) => ({
      id: b.id, createdAt: Number(b.created_at), start: num(b.start_datetime), end: num(b.end_datetime), spaces: Number(b.spaces),
      totalCost: Number(b.total_cost), currency: b.currency || 'GBP', paymentMethod: b.payment_method, paymentState: b.payment_state,
      origin: b.origin, course: { id: b.course_id, name: b.course_name }, learner: bookerOf(b.contact_details),
    })),
    applications: applications.map((a) => ({
      id: a.id, createdAt: Number(a.created_at), start: num(a.start_datetime), end: num(a.end_datetime), spaces: Number(a.spaces),
      spacesLeft: num(a.available_spaces), totalCost: Number(a.total_cost), currency: a.currency || 'GBP', origin: a.origin,
      course: { id: a.course_id, name: a.course_name }, learner: bookerOf(a.contact_details),
    })),
    requests: requests.map((r) => {
      const details = (r.details ?? {}) as { message?: string | null; dates?: { preferredDates?: string[]; availableDate?: string | null } | null };
      return {
        id: r.id, flow: r.flow, createdAt: Number(r.created_at), origin: r.origin, course: { id: r.course_id, name: r.course_name, type: r.course_type },
        learner: bookerOf(r.contact_details), message: details.message ?? null,
        preferredDates: details.dates?.preferredDates ?? (details.dates?.availableDate ? [details.dates.availableDate] : []),
        spaces: Math.max(1, requestedSpacesOfRequest(r.details)),
      };
    }),
    answered: quotes.map((q) => ({
      id: q.id, requestId: q.request_id, price: Number(q.price), spaces: Number(q.spaces), start: Number(q.start_datetime), end: Number(q.end_datetime),
      expiresAt: Number(q.expires_at), createdAt: Number(q.created_at), courseName: q.course_name, learner: bookerOf(q.contact_details),
      bookingId: q.booking_id, state: q.booking_id ? 'booked' : q.status === 'withdrawn' ? 'withdrawn' : Number(q.expires_at) <= now ? 'expired' : 'waiting',
    })),
  };
}

