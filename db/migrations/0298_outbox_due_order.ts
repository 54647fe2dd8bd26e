/**
 * The outbox's index of due messages carries the id, the last key of the order the worker claims in (next attempt,
 * then id): the first due message is then the first row of the index, on both engines. Without the id, every claim
 * read and sorted every message due at the earliest second, so a burst queued in one second (a day's bookings
 * confirmed at once, a message to every learner of a course) cost a sort of the whole burst per message sent. The
 * worker's database work a message, draining 5,000 due at one second (`npm run bench:outbox-claim`): SQLite 0.77–0.94
 * ms before, 0.24–0.28 ms with the id; PostgreSQL 2.70–2.85 ms before, 1.16 ms with it.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('outbox_messages_due').ifExists().execute();
  await db.schema.createIndex('outbox_messages_due').on('outbox_messages').columns(['status', 'next_attempt_at', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('outbox_messages_due').ifExists().execute();
  await db.schema.createIndex('outbox_messages_due').on('outbox_messages').columns(['status', 'next_attempt_at']).execute();
}
