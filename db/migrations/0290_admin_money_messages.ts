/**
 * The Money screen and messages to a date's or a course's learners (docs/admin.md "Money", "Messages"):
 * - `learner_messages`: what an educator sent to every learner of a date (occurrence_id) or of a course at once;
 *   `learner_message_recipients`: one row per booking it went to, with the outbox e-mail that carried it (a learner
 *   with two bookings gets one e-mail, both bookings keep the message), so each booking's page shows it.
 * - Indexes for the Money screen's lists, newest first per educator (gift cards sold, memberships), and its period
 *   figures (payments of an educator's memberships, refunds of an educator by time).
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('learner_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull())
    .addColumn('course_id', 'text', (c) => c.notNull())
    .addColumn('occurrence_id', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('recipients', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('learner_messages_course').on('learner_messages').columns(['educator_id', 'course_id', 'created_at']).execute();
  await db.schema.createIndex('learner_messages_occurrence').on('learner_messages').columns(['occurrence_id', 'created_at']).execute();

  await db.schema
    .createTable('learner_message_recipients')
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('booking_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('outbox_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('learner_message_recipients_pk', ['message_id', 'booking_id'])
    .execute();
  await db.schema.createIndex('learner_message_recipients_booking').on('learner_message_recipients').columns(['booking_id']).execute();

  await db.schema.createIndex('gift_cards_educator_created').on('gift_cards').columns(['educator_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('memberships_educator_created').on('memberships').columns(['educator_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('membership_payments_educator').on('membership_payments').columns(['educator_id', 'created_at']).execute();
  await db.schema.createIndex('refunds_educator_created').on('refunds').columns(['educator_id', 'created_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('refunds_educator_created').ifExists().execute();
  await db.schema.dropIndex('membership_payments_educator').ifExists().execute();
  await db.schema.dropIndex('memberships_educator_created').ifExists().execute();
  await db.schema.dropIndex('gift_cards_educator_created').ifExists().execute();
  await db.schema.dropTable('learner_message_recipients').ifExists().execute();
  await db.schema.dropTable('learner_messages').ifExists().execute();
}
