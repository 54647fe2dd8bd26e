/**
 * The educator admin's dates and settings screens (docs/admin.md "Dates", "Gift vouchers"):
 * - `occurrences.series_id`: the dates made together by one repeating rule ("weekly on Tuesdays and Thursdays
 *   until …") share it, so a whole series can be edited or removed at once; null for a single date. Each date of a
 *   series stays an ordinary occurrence (its own spaces, offers, bookings), so the checkout and the public pages
 *   need to know nothing of series.
 * - `gift_voucher_settings.revision`: the settings are saved whole like the other edited things (migration 0230), so
 *   two admins saving them at once cannot overwrite each other silently.
 */
import { sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('occurrences').addColumn('series_id', 'text').execute();
  await db.schema.createIndex('occurrences_series').on('occurrences').columns(['series_id']).execute();
  await sql`alter table gift_voucher_settings add column revision integer not null default 1`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql`alter table gift_voucher_settings drop column revision`.execute(db);
  await db.schema.dropIndex('occurrences_series').ifExists().execute();
  await db.schema.alterTable('occurrences').dropColumn('series_id').execute();
}
