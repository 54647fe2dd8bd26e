/**
 * Payment reconciliation: when each provider payment was last checked with its provider (the reconciler claims a
 * payment by moving this forward, so several processes never check the same one at once), and an index for the
 * reconciler's "unsettled payments due a check" scan.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('checkout_payments').addColumn('checked_at', 'bigint').execute();
  await db.schema.createIndex('checkout_payments_unsettled').on('checkout_payments').columns(['status', 'checked_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('checkout_payments_unsettled').execute();
  await db.schema.alterTable('checkout_payments').dropColumn('checked_at').execute();
}
