/**
 * Read models of messages to a date's or a course's learners (api/admin/messages.ts): the bookings (and, for a
 * course, the orders) a message goes to, a page at a time in id order, and the messages sent, for a date, a course,
 * one booking or one order.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

/**
 * Bookings not cancelled after `afterId`: of one date, or — for a course — of its dates that have not ended and its
 * bookings without a date (on request, booked for a slot of their own still to come or never given one).
 */
export async function messageRecipientsPage(db: Db, educatorId: string, target: { occurrenceId: string } | { courseId: string; now: number }, afterId: string | null, limit: number) {
  let q = db.selectFrom('bookings as b').leftJoin('occurrences as o', 'o.id', 'b.occurrence_id')
    .select(['b.id', 'b.learner_email', 'b.contact_details', 'o.start_datetime as occurrence_start', 'o.end_datetime as occurrence_end', 'b.start_datetime', 'b.end_datetime'])
    .where('b.educator_id', '=', educatorId).where('b.status', '!=', 'cancelled');
  if ('occurrenceId' in target) q = q.where('b.occurrence_id', '=', target.occurrenceId);
  else {
    q = q.where('b.course_id', '=', target.courseId).where((eb) => eb.or([
      eb('o.end_datetime', '>', target.now),
      eb.and([eb('b.occurrence_id', 'is', null), eb.or([eb('b.end_datetime', 'is', null), eb('b.end_datetime', '>', target.now)])]),
    ]));
  }
  if (afterId !== null) q = q.where('b.id', '>', afterId);
  return q.orderBy('b.id').limit(limit).execute();
}

/** A course's orders (its on-demand learners: an order gives access with no date, so every order counts) after `afterId`. */
export async function messageOrderRecipientsPage(db: Db, educatorId: string, courseId: string, afterId: string | null, limit: number) {
  let q = db.selectFrom('orders').select(['id', 'learner_email', 'contact_details'])
    .where('educator_id', '=', educatorId).where('course_id', '=', courseId);
  if (afterId !== null) q = q.where('id', '>', afterId);
  return q.orderBy('id').limit(limit).execute();
}

export interface SentMessage { id: string; subject: string; message: string; recipients: number; createdAt: number; occurrenceId: string | null; by: string | null }

async function named(db: Db, rows: { id: string; subject: string; message: string; recipients: number; created_at: number; occurrence_id: string | null; created_by: string | null }[]): Promise<SentMessage[]> {
  const userIds = [...new Set(rows.map((r) => r.created_by).filter((v): v is string => !!v))];
  const users = userIds.length ? await db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('id', 'in', userIds).execute() : [];
  const names = new Map(users.map((u) => [u.id, `${u.first_name} ${u.last_name}`.trim() || null]));
  return rows.map((r) => ({
    id: r.id, subject: r.subject, message: r.message, recipients: Number(r.recipients), createdAt: Number(r.created_at), occurrenceId: r.occurrence_id,
    by: r.created_by ? names.get(r.created_by) ?? null : null,
  }));
}

/** The latest messages sent to a date's learners, or to a course's (whether to one of its dates or to all). */
export async function sentMessages(db: Db, educatorId: string, target: { occurrenceId: string } | { courseId: string }, limit = 50): Promise<SentMessage[]> {
  let q = db.selectFrom('learner_messages').select(['id', 'subject', 'message', 'recipients', 'created_at', 'occurrence_id', 'created_by']).where('educator_id', '=', educatorId);
  q = 'occurrenceId' in target ? q.where('occurrence_id', '=', target.occurrenceId) : q.where('course_id', '=', target.courseId);
  return named(db, await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute());
}

const MESSAGE_COLUMNS = ['m.id', 'm.subject', 'm.message', 'm.recipients', 'm.created_at', 'm.occurrence_id', 'm.created_by'] as const;

/** The messages one booking was sent (its page's history). */
export async function bookingMessages(db: Db, bookingId: string): Promise<SentMessage[]> {
  return named(db, await db.selectFrom('learner_message_recipients as r').innerJoin('learner_messages as m', 'm.id', 'r.message_id').select(MESSAGE_COLUMNS)
    .where('r.booking_id', '=', bookingId).orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').limit(100).execute());
}

/** The messages one order was sent (its page's history). */
export async function orderMessages(db: Db, orderId: string): Promise<SentMessage[]> {
  return named(db, await db.selectFrom('learner_message_order_recipients as r').innerJoin('learner_messages as m', 'm.id', 'r.message_id').select(MESSAGE_COLUMNS)
    .where('r.order_id', '=', orderId).orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').limit(100).execute());
}
