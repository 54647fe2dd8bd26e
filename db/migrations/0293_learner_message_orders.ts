/**
 * A message to every learner of a course reaches its on-demand learners too: an on-demand course sells orders, not
 * bookings of a date, so `learner_message_order_recipients` records each order a course's message went to (with the
 * outbox e-mail that carried it, one per learner), as `learner_message_recipients` does for bookings, and each
 * order's page shows it.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('learner_message_order_recipients')
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('outbox_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('learner_message_order_recipients_pk', ['message_id', 'order_id'])
    .execute();
  await db.schema.createIndex('learner_message_order_recipients_order').on('learner_message_order_recipients').columns(['order_id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('learner_message_order_recipients').ifExists().execute();
}
