/**
 * Documents and booking changes: invoice number counters, the number issued to each
 * booking / order, and booking cancellations. Dialect-neutral: text ids, bigint epoch seconds, integer pence.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('document_counters')
    .addColumn('scope', 'text', (c) => c.primaryKey()) // 'invoice:{educatorId}'
    .addColumn('value', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('invoice_documents')
    .addColumn('outcome_kind', 'text', (c) => c.notNull()) // booking | order
    .addColumn('outcome_id', 'text', (c) => c.notNull())
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('invoice_number', 'text', (c) => c.notNull())
    .addColumn('issued_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('invoice_documents_pk', ['outcome_kind', 'outcome_id'])
    // Two documents can never share a number of the same educator.
    .addUniqueConstraint('invoice_documents_educator_seq', ['educator_id', 'seq'])
    .execute();

  await db.schema
    .createTable('booking_cancellations')
    .addColumn('booking_id', 'text', (c) => c.primaryKey().references('bookings.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('occurrence_id', 'text')
    .addColumn('spaces_released', 'integer', (c) => c.notNull())
    .addColumn('cancelled_at', 'bigint', (c) => c.notNull())
    .addColumn('refund_status', 'text', (c) => c.notNull()) // none | pending | refunded | failed
    .addColumn('refund_provider', 'text')
    .addColumn('refund_payment_id', 'text')
    .addColumn('refund_amount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refunded_at', 'bigint')
    .addColumn('refund_error', 'text')
    .execute();
  await db.schema.createIndex('booking_cancellations_refund').on('booking_cancellations').column('refund_status').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('booking_cancellations').ifExists().execute();
  await db.schema.dropTable('invoice_documents').ifExists().execute();
  await db.schema.dropTable('document_counters').ifExists().execute();
}
