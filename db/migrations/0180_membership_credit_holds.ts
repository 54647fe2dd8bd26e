/**
 * A membership credit held while its checkout is at Payment, as the spaces and a gift card's amount are: entering
 * Payment takes the credit off the period (credits_left − 1, guarded), the hold lapses with the spaces' hold, and
 * recording the booking commits it (its membership_credit_uses row is written then). Going back, abandoning or a
 * lapsed hold swept gives the credit back.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('membership_credit_holds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('membership_id', 'text', (c) => c.notNull().references('memberships.id').onDelete('cascade'))
    .addColumn('checkout_id', 'text', (c) => c.notNull().unique())
    .addColumn('period_index', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull()) // held | committed | released
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('membership_credit_holds_membership').on('membership_credit_holds').columns(['membership_id', 'status']).execute();
  await db.schema.createIndex('membership_credit_holds_lapse').on('membership_credit_holds').columns(['status', 'expires_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('membership_credit_holds').execute();
}
