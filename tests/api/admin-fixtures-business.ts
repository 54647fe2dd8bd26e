/** Rows the business screens' tests share: a date, a checkout and its booking with contact details. */
import type { TestServer } from '../helpers/server.ts';

export async function insertDate(server: TestServer, id: string, courseId: string, startAt: number, spaces = 10): Promise<void> {
  await server.db.insertInto('occurrences').values({
    id, course_id: courseId, start_datetime: startAt, end_datetime: startAt + 7200, delivery: 'in-person', address: null, spaces, available_spaces: spaces,
    parent_ref: null, series_id: null,
  }).execute();
}

export interface BookingInput {
  id: string; educatorId: string; courseId: string; occurrenceId: string | null; studentId: string; userId: string;
  booker: Record<string, unknown>; attendees?: Record<string, unknown>[]; bookerIsAttending?: boolean; spaces?: number; status?: 'confirmed' | 'cancelled';
  paymentState?: 'paid' | 'unpaid' | 'free';
}

export async function insertBooking(server: TestServer, b: BookingInput): Promise<void> {
  await server.db.insertInto('checkouts').values({
    id: `chk_${b.id}`, flow: 'booking', origin: 'marketplace', course_id: b.courseId, educator_id: b.educatorId, occurrence_id: b.occurrenceId, user_id: b.userId, student_id: b.studentId,
    current_step: 'confirmation', step_state: {}, utms: null, booked_on_url: null, booking_id: b.id, order_id: null, request_id: null, application_id: null,
    outcome_kind: null, outcome_id: null, total_cost: 0, cost_summary: null, payment_provider: null, payment_id: null, created_at: 1, updated_at: 1, completed_at: 1,
  }).execute();
  const attendees = b.attendees ?? [];
  await server.db.insertInto('bookings').values({
    id: b.id, checkout_id: `chk_${b.id}`, flow: 'booking', course_id: b.courseId, educator_id: b.educatorId, user_id: b.userId, student_id: b.studentId, origin: 'marketplace',
    lines: {}, contact_details: { booker: { formResponse: b.booker, isAttending: b.bookerIsAttending ?? true }, attendees: attendees.map((formResponse) => ({ formResponse })) },
    total_cost: 0, created_at: 1, status: b.status ?? 'confirmed', details: {}, occurrence_id: b.occurrenceId,
    spaces: b.spaces ?? (b.bookerIsAttending === false ? 0 : 1) + attendees.length, start_datetime: null, end_datetime: null,
    payment_method: null, payment_state: b.paymentState ?? 'unpaid', payment_id: null, invoice_details: null, due_date: null, manual_note: null,
  }).execute();
}

/** An order of an on-demand course (no date) and its checkout, with the booker's answers. */
export async function insertOrder(server: TestServer, o: Omit<BookingInput, 'occurrenceId' | 'attendees' | 'bookerIsAttending' | 'spaces' | 'status'>): Promise<void> {
  await server.db.insertInto('checkouts').values({
    id: `chk_${o.id}`, flow: 'order', origin: 'marketplace', course_id: o.courseId, educator_id: o.educatorId, occurrence_id: null, user_id: o.userId, student_id: o.studentId,
    current_step: 'confirmation', step_state: {}, utms: null, booked_on_url: null, booking_id: null, order_id: o.id, request_id: null, application_id: null,
    outcome_kind: null, outcome_id: null, total_cost: 0, cost_summary: null, payment_provider: null, payment_id: null, created_at: 1, updated_at: 1, completed_at: 1,
  }).execute();
  await server.db.insertInto('orders').values({
    id: o.id, checkout_id: `chk_${o.id}`, flow: 'order', course_id: o.courseId, educator_id: o.educatorId, user_id: o.userId, student_id: o.studentId, origin: 'marketplace',
    lines: {}, contact_details: { booker: { formResponse: o.booker, isAttending: true }, attendees: [] }, total_cost: 0, created_at: 1, status: 'confirmed', details: {},
    payment_method: null, payment_state: o.paymentState ?? 'free', payment_id: null, invoice_details: null, due_date: null, manual_note: null,
  }).execute();
}
