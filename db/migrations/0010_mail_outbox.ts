/**
 * The e-mail outbox becomes a queue: every message is written in the transaction of what caused it and sent
 * later by a background worker (api/mail/worker.ts), with retries, a dead-letter state and scheduling.
 * Messages already in the table were sent by the old synchronous mailer and are marked so.
 */
import { sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('outbox_messages').addColumn('status', 'text', (c) => c.notNull().defaultTo('pending')).execute();
  await db.schema.alterTable('outbox_messages').addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('outbox_messages').addColumn('send_after', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('outbox_messages').addColumn('next_attempt_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('outbox_messages').addColumn('lease_owner', 'text').execute();
  await db.schema.alterTable('outbox_messages').addColumn('lease_until', 'bigint').execute();
  await db.schema.alterTable('outbox_messages').addColumn('last_error', 'text').execute();
  await db.schema.alterTable('outbox_messages').addColumn('sent_at', 'bigint').execute();
  await db.schema.alterTable('outbox_messages').addColumn('reply_to', 'text').execute();
  await db.schema.alterTable('outbox_messages').addColumn('attachments', 'text').execute();
  await sql`update outbox_messages set status = 'sent', sent_at = created_at`.execute(db);
  await db.schema.createIndex('outbox_messages_due').on('outbox_messages').columns(['status', 'next_attempt_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('outbox_messages_due').ifExists().execute();
  for (const column of ['attachments', 'reply_to', 'sent_at', 'last_error', 'lease_until', 'lease_owner', 'next_attempt_at', 'send_after', 'attempts', 'status']) {
    await db.schema.alterTable('outbox_messages').dropColumn(column).execute();
  }
}
