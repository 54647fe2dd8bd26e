/**
 * Indexes for the metrics read at each scrape (api/ops/metrics.ts), so a scrape reads a range of an index, never a
 * whole table that grows with every checkout or renewal: checkouts by status changed in the last hour, and the
 * failed membership payments (few, beside every paid one).
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('checkouts_status_updated').on('checkouts').columns(['status', 'updated_at']).execute();
  await db.schema.createIndex('membership_payments_status').on('membership_payments').columns(['status', 'kind']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('membership_payments_status').ifExists().execute();
  await db.schema.dropIndex('checkouts_status_updated').ifExists().execute();
}
