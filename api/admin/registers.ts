/**
 * Registers and exports (docs/admin.md "Registers"), relative to /admin/educators/{educatorId}:
 *
 *   GET /registers                           → the educator's dates from today on, with what is booked
 *   GET /registers/{occurrenceId}            → the date and its attendees (form answers, attendance marks)
 *   PUT /registers/{occurrenceId}/attendance → mark one attendee {bookingId, attendee, status: attended | no-show | null}
 *   GET /registers/{occurrenceId}/attendees.csv, /exports/bookings.csv, /exports/enquiries.csv → streamed CSV
 *
 * An "attended" mark is evidence that the learner took part: it makes their reviews of that course verified
 * (the reviews table's triggers then republish the pages that show them, spec 2.11's badge). The CSV exports write
 * each page of rows as it is read (keyset by id, 500 at a time), so an export of any size takes flat memory.
 */
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseJson } from '../http/parse.ts';
import { adminEducatorId } from './access.ts';
import { audit, invalid, notYours, pathId, type Trx } from './catalogue-saves.ts';
import {
  attendanceMarks, exportBookingsPage, exportEnquiriesPage, ownedOccurrence, registerBookingsPage, upcomingDates,
} from '../../db/queries/admin-registers.ts';
import { ATTENDEE_CSV_HEADER, answersText, attendanceInputSchema, bookingAttendees, csvLine } from '../../src/domain/admin/registers.ts';

const PAGE = 500;
const DAY = 86_400;

/**
 * A CSV response written as it is read: `page(after)` reads the rows after the cursor and turns them into lines;
 * each pull of the stream reads one page, so at most one page is ever held.
 */
export function csvResponse(filename: string, header: readonly string[], page: (after: string | null) => Promise<{ lines: string[]; last: string | null }>): Response {
  const encoder = new TextEncoder();
  let after: string | null = null;
  let started = false;
  let done = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`\uFEFF${csvLine(header)}`));
        return;
      }
      if (done) return controller.close();
      try {
        const { lines, last } = await page(after);
        if (lines.length) controller.enqueue(encoder.encode(lines.join('')));
        if (last === null) {
          done = true;
          controller.close();
        } else after = last;
      } catch (error) {
        controller.error(error);
      }
    },
  }, { highWaterMark: 1 });
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'private, no-store',
    },
  });
}

const isoDate = (s: number | null) => (s === null ? '' : new Date(s * 1000).toISOString());

async function occurrenceOf(c: Context<AppEnv>) {
  const id = pathId.safeParse(c.req.param('occurrenceId'));
  if (!id.success) throw notYours('No date of yours has this id.');
  const row = await ownedOccurrence(c.var.deps.db, adminEducatorId(c), id.data);
  if (!row) throw notYours('No date of yours has this id.');
  return row;
}

export function registersAdminRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/registers', listRegisters);
  app.get('/registers/:occurrenceId', showRegister);
  app.put('/registers/:occurrenceId/attendance', markAttendance);
  app.get('/registers/:occurrenceId/attendees.csv', attendeesCsv);
  app.get('/exports/bookings.csv', bookingsCsv);
  app.get('/exports/enquiries.csv', enquiriesCsv);
  return app;
}

/** GET /registers: the educator's dates from yesterday on. */
async function listRegisters(c: Context<AppEnv>) {
  const from = c.var.deps.now() - DAY;
  return c.json({ dates: await upcomingDates(c.var.deps.db, adminEducatorId(c), from) });
}

/** GET /registers/{occurrenceId}: the date and each attendee of its bookings, with their marks. */
async function showRegister(c: Context<AppEnv>) {
  const { db } = c.var.deps;
  const educatorId = adminEducatorId(c);
  const occ = await occurrenceOf(c);
  const attendees: Array<Record<string, unknown>> = [];
  let after: string | null = null;
  // A register on screen is bounded by the date's spaces; it is read in pages all the same.
  for (;;) {
    const bookings = await registerBookingsPage(db, educatorId, occ.id, after, PAGE);
    const marks = await attendanceMarks(db, occ.id, bookings.map((b) => b.id));
    for (const b of bookings) {
      for (const a of bookingAttendees(b.contact_details, b.spaces)) {
        attendees.push({ bookingId: b.id, bookingStatus: b.status, paymentState: b.payment_state, ...a, attendance: marks.get(`${b.id}:${a.attendee}`) ?? null });
      }
    }
    if (bookings.length < PAGE) break;
    after = bookings[bookings.length - 1]!.id;
  }
  return c.json({
    date: { id: occ.id, courseId: occ.course_id, courseName: occ.course_name, startAt: Number(occ.start_datetime), endAt: Number(occ.end_datetime), delivery: occ.delivery, spaces: occ.spaces === null ? null : Number(occ.spaces) },
    attendees,
  });
}

type AttendanceInput = z.output<typeof attendanceInputSchema>;

/** Sets (or clears, for null) one attendee's mark. */
async function writeAttendanceMark(trx: Trx, c: Context<AppEnv>, input: AttendanceInput, bookingId: string, occurrenceId: string, now: number): Promise<void> {
  const educatorId = adminEducatorId(c);
  if (input.status === null) {
    await trx.deleteFrom('attendance').where('booking_id', '=', bookingId).where('attendee', '=', input.attendee).execute();
  } else {
    await trx.insertInto('attendance')
      .values({ booking_id: bookingId, attendee: input.attendee, educator_id: educatorId, occurrence_id: occurrenceId, status: input.status, marked_at: now, marked_by: c.var.user?.id ?? null })
      .onConflict((oc) => oc.columns(['booking_id', 'attendee']).doUpdateSet({ status: input.status!, marked_at: now, marked_by: c.var.user?.id ?? null }))
      .execute();
  }
}

/** The learner took part: their reviews of this course become verified (and their pages are republished). */
async function verifyReviews(trx: Trx, educatorId: string, booking: { course_id: string; student_id: string | null }): Promise<number> {
  const res = await trx.updateTable('reviews').set({ verified: true })
    .where('educator_id', '=', educatorId).where('course_id', '=', booking.course_id).where('reviewer_id', '=', booking.student_id)
    .where('verified', '=', false).where('archived_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows ?? 0);
}

/** PUT /registers/{occurrenceId}/attendance: marks one attendee of a booking of the date. */
async function markAttendance(c: Context<AppEnv>) {
  const input = await parseJson(c, attendanceInputSchema);
  const occ = await occurrenceOf(c);
  const educatorId = adminEducatorId(c);
  const now = c.var.deps.now();
  const result = await c.var.deps.db.transaction().execute(async (trx) => {
    const booking = await trx.selectFrom('bookings').select(['id', 'student_id', 'course_id', 'spaces', 'contact_details', 'status'])
      .where('id', '=', input.bookingId).where('occurrence_id', '=', occ.id).where('educator_id', '=', educatorId).executeTakeFirst();
    if (!booking || booking.status === 'cancelled') throw notYours('No booking of this date has this id.');
    if (input.attendee >= bookingAttendees(booking.contact_details, Number(booking.spaces)).length) throw invalid('attendee', 'is not an attendee of this booking');
    const before = await trx.selectFrom('attendance').select('status').where('booking_id', '=', booking.id).where('attendee', '=', input.attendee).executeTakeFirst();
    await writeAttendanceMark(trx, c, input, booking.id, occ.id, now);
    const verified = input.status === 'attended' ? await verifyReviews(trx, educatorId, booking) : 0;
    await audit(trx, c, {
      entity: 'booking', entityId: booking.id, action: 'check-in',
      changes: { [`attendance.${input.attendee}`]: [before?.status ?? null, input.status], ...(verified ? { reviewsVerified: [0, verified] } : {}) },
    });
    return { bookingId: booking.id, attendee: input.attendee, status: input.status, reviewsVerified: verified };
  });
  return c.json(result);
}

/** GET /registers/{occurrenceId}/attendees.csv: one line per attendee. */
async function attendeesCsv(c: Context<AppEnv>) {
  const { db } = c.var.deps;
  const educatorId = adminEducatorId(c);
  const occ = await occurrenceOf(c);
  return csvResponse(`register-${occ.id}.csv`, ATTENDEE_CSV_HEADER, async (after) => {
    const bookings = await registerBookingsPage(db, educatorId, occ.id, after, PAGE);
    const marks = await attendanceMarks(db, occ.id, bookings.map((b) => b.id));
    const lines: string[] = [];
    for (const b of bookings) {
      for (const a of bookingAttendees(b.contact_details, b.spaces)) {
        lines.push(csvLine([b.id, a.attendee + 1, a.firstName, a.lastName, a.email, a.role, b.status, marks.get(`${b.id}:${a.attendee}`) ?? '', answersText(a.answers)]));
      }
    }
    return { lines, last: bookings.length < PAGE ? null : bookings[bookings.length - 1]!.id };
  });
}

/** GET /exports/bookings.csv: one line per booking, with the booker's name and email. */
function bookingsCsv(c: Context<AppEnv>) {
  const { db } = c.var.deps;
  const educatorId = adminEducatorId(c);
  return csvResponse('bookings.csv', ['Booking', 'Made', 'Status', 'Course', 'Date', 'Spaces', 'Total (pence)', 'Currency', 'Payment', 'Payment method', 'Booker first name', 'Booker last name', 'Booker email'], async (after) => {
    const rows = await exportBookingsPage(db, educatorId, after, PAGE);
    const lines = rows.map((b) => {
      const booker = bookingAttendees(b.contact_details, 1)[0]!;
      const bookerResponse = ((b.contact_details.booker as { formResponse?: Record<string, unknown> } | undefined)?.formResponse) ?? {};
      return csvLine([b.id, isoDate(b.created_at), b.status, b.course_name, isoDate(b.start_datetime), b.spaces, b.total_cost, b.currency, b.payment_state, b.payment_method ?? '',
        String(bookerResponse.system_first_name ?? booker.firstName), String(bookerResponse.system_last_name ?? booker.lastName), String(bookerResponse.system_email ?? booker.email)]);
    });
    return { lines, last: rows.length < PAGE ? null : rows[rows.length - 1]!.id };
  });
}

/** GET /exports/enquiries.csv: one line per enquiry. */
function enquiriesCsv(c: Context<AppEnv>) {
  const { db } = c.var.deps;
  const educatorId = adminEducatorId(c);
  return csvResponse('enquiries.csv', ['Enquiry', 'Type', 'Received', 'First name', 'Last name', 'Email', 'Telephone', 'Course', 'Enquiry type', 'Message', 'Context', 'Read', 'Done', 'Notified'], async (after) => {
    const rows = await exportEnquiriesPage(db, educatorId, after, PAGE);
    const lines = rows.map((e) => csvLine([e.id, e.type, isoDate(Number(e.created_at)), e.first_name, e.last_name, e.email, e.phone, e.course_name ?? '', e.enquiry_type ?? '', e.message ?? '', e.context,
      isoDate(e.read_at === null ? null : Number(e.read_at)), isoDate(e.done_at === null ? null : Number(e.done_at)), isoDate(e.notified_at === null ? null : Number(e.notified_at))]));
    return { lines, last: rows.length < PAGE ? null : rows[rows.length - 1]!.id };
  });
}
