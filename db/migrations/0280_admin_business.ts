/**
 * The business half of the educator admin (docs/admin.md "Reviews", "Registers", "Inbox"):
 * - `review_reports`: an educator's report of an abusive review, for the platform team (never shown publicly).
 * - `attendance`: the register of a date — one row per attendee of a booking (`attendee` 0 is the booker or the
 *   first attendee, in the order of the booking's contact details) marked attended or no-show. An attended mark is
 *   what makes the learner's reviews of that course verified.
 * - `enquiries.read_at / done_at`: the inbox's state of an enquiry or waitlist entry; `notified_at`: when a
 *   waitlisted learner was e-mailed that dates or spaces became available (set once, so each entry is told once).
 * - `enquiry_replies`: the educator's replies, each sent as an e-mail through the outbox in the same transaction.
 */
import { sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('review_reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('review_id', 'text', (c) => c.notNull())
    .addColumn('educator_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('resolved_at', 'bigint')
    .execute();
  await db.schema.createIndex('review_reports_review').on('review_reports').columns(['review_id']).execute();

  await db.schema
    .createTable('attendance')
    .addColumn('booking_id', 'text', (c) => c.notNull())
    .addColumn('attendee', 'integer', (c) => c.notNull())
    .addColumn('educator_id', 'text', (c) => c.notNull())
    .addColumn('occurrence_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('marked_at', 'bigint', (c) => c.notNull())
    .addColumn('marked_by', 'text')
    .addPrimaryKeyConstraint('attendance_pk', ['booking_id', 'attendee'])
    .execute();
  await db.schema.createIndex('attendance_occurrence').on('attendance').columns(['occurrence_id']).execute();

  await sql`alter table enquiries add column read_at bigint`.execute(db);
  await sql`alter table enquiries add column done_at bigint`.execute(db);
  await sql`alter table enquiries add column notified_at bigint`.execute(db);
  // The exports read a date's, or an educator's, rows in id order a page at a time (keyset): without these each
  // page would sort every row of the date again.
  await db.schema.createIndex('bookings_occurrence_id').on('bookings').columns(['occurrence_id', 'id']).execute();
  await db.schema.createIndex('bookings_educator_id').on('bookings').columns(['educator_id', 'id']).execute();
  await db.schema.createIndex('enquiries_educator_id').on('enquiries').columns(['educator_id', 'id']).execute();
  await db.schema.createIndex('enquiries_waitlist_course').on('enquiries').columns(['course_id', 'type', 'notified_at']).execute();

  await db.schema
    .createTable('enquiry_replies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('enquiry_id', 'text', (c) => c.notNull())
    .addColumn('educator_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('outbox_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('enquiry_replies_enquiry').on('enquiry_replies').columns(['enquiry_id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('enquiry_replies').ifExists().execute();
  await db.schema.dropIndex('enquiries_waitlist_course').ifExists().execute();
  await db.schema.dropIndex('enquiries_educator_id').ifExists().execute();
  await db.schema.dropIndex('bookings_educator_id').ifExists().execute();
  await db.schema.dropIndex('bookings_occurrence_id').ifExists().execute();
  await sql`alter table enquiries drop column notified_at`.execute(db);
  await sql`alter table enquiries drop column done_at`.execute(db);
  await sql`alter table enquiries drop column read_at`.execute(db);
  await db.schema.dropTable('attendance').ifExists().execute();
  await db.schema.dropTable('review_reports').ifExists().execute();
}
