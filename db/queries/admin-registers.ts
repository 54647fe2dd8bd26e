/**
 * Read models of the admin's registers and exports (api/admin/registers.ts): the educator's coming dates, one
 * date's bookings a page at a time (keyset by booking id, so an export of any size reads in flat memory), the
 * marks of its register, and the educator's bookings and enquiries for the CSV exports.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

export interface DateSummary { id: string; courseId: string; courseName: string; startAt: number; endAt: number; spaces: number | null; booked: number }

export async function upcomingDates(db: Db, educatorId: string, from: number, limit = 200): Promise<DateSummary[]> {
  const rows = await db.selectFrom('occurrences as o')
    .innerJoin('courses as c', 'c.id', 'o.course_id')
    .select(['o.id', 'o.course_id', 'c.name', 'o.start_datetime', 'o.end_datetime', 'o.spaces'])
    .select((eb) => eb.selectFrom('bookings as b').select((e) => e.fn.coalesce(e.fn.sum<number>('b.spaces'), e.lit(0)).as('n'))
      .whereRef('b.occurrence_id', '=', 'o.id').where('b.status', '!=', 'cancelled').as('booked'))
    .where('c.educator_id', '=', educatorId)
    .where('o.end_datetime', '>=', from)
    .orderBy('o.start_datetime').orderBy('o.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id, courseId: r.course_id, courseName: r.name, startAt: Number(r.start_datetime), endAt: Number(r.end_datetime),
    spaces: r.spaces === null ? null : Number(r.spaces), booked: Number(r.booked ?? 0),
  }));
}

export async function ownedOccurrence(db: Db, educatorId: string, occurrenceId: string) {
  return db.selectFrom('occurrences as o').innerJoin('courses as c', 'c.id', 'o.course_id')
    .select(['o.id', 'o.course_id', 'c.name as course_name', 'o.start_datetime', 'o.end_datetime', 'o.delivery', 'o.spaces'])
    .where('o.id', '=', occurrenceId).where('c.educator_id', '=', educatorId).executeTakeFirst();
}

export interface RegisterBookingRow { id: string; student_id: string; course_id: string; status: string; spaces: number; contact_details: Record<string, unknown>; payment_state: string }

/** The date's bookings after `afterId`, in id order (not cancelled ones only, unless `withCancelled`). */
export async function registerBookingsPage(db: Db, educatorId: string, occurrenceId: string, afterId: string | null, limit: number): Promise<RegisterBookingRow[]> {
  let q = db.selectFrom('bookings').select(['id', 'student_id', 'course_id', 'status', 'spaces', 'contact_details', 'payment_state'])
    .where('occurrence_id', '=', occurrenceId).where('educator_id', '=', educatorId).where('status', '!=', 'cancelled');
  if (afterId !== null) q = q.where('id', '>', afterId);
  const rows = await q.orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ ...r, spaces: Number(r.spaces) }));
}

export async function attendanceMarks(db: Db, occurrenceId: string, bookingIds: readonly string[]): Promise<Map<string, 'attended' | 'no-show'>> {
  if (bookingIds.length === 0) return new Map();
  const rows = await db.selectFrom('attendance').select(['booking_id', 'attendee', 'status'])
    .where('occurrence_id', '=', occurrenceId).where('booking_id', 'in', bookingIds).execute();
  return new Map(rows.map((r) => [`${r.booking_id}:${Number(r.attendee)}`, r.status]));
}

export interface ExportBookingRow {
  id: string; created_at: number; status: string; course_name: string; start_datetime: number | null; spaces: number;
  total_cost: number; currency: string; payment_state: string; payment_method: string | null; contact_details: Record<string, unknown>;
}

export async function exportBookingsPage(db: Db, educatorId: string, afterId: string | null, limit: number): Promise<ExportBookingRow[]> {
  let q = db.selectFrom('bookings as b').innerJoin('courses as c', 'c.id', 'b.course_id')
    .select(['b.id', 'b.created_at', 'b.status', 'c.name as course_name', 'b.start_datetime', 'b.spaces', 'b.total_cost', 'b.currency', 'b.payment_state', 'b.payment_method', 'b.contact_details'])
    .where('b.educator_id', '=', educatorId);
  if (afterId !== null) q = q.where('b.id', '>', afterId);
  const rows = await q.orderBy('b.id').limit(limit).execute();
  return rows.map((r) => ({ ...r, created_at: Number(r.created_at), start_datetime: r.start_datetime === null ? null : Number(r.start_datetime), spaces: Number(r.spaces), total_cost: Number(r.total_cost) }));
}

export async function exportEnquiriesPage(db: Db, educatorId: string, afterId: string | null, limit: number) {
  let q = db.selectFrom('enquiries')
    .select(['id', 'type', 'created_at', 'first_name', 'last_name', 'email', 'phone', 'course_name', 'enquiry_type', 'message', 'context', 'read_at', 'done_at', 'notified_at'])
    .where('educator_id', '=', educatorId);
  if (afterId !== null) q = q.where('id', '>', afterId);
  return q.orderBy('id').limit(limit).execute();
}
