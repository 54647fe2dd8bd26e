/**
 * An educator's old slugs, so the URLs it had keep working after it changes its slug in the admin: the marketplace's
 * `/{oldSlug}/…`, the minisite `{oldSlug}.{host}/…` and the embed's `/embed/{oldSlug}/…` answer 301 to the same page
 * under the current slug (api/http/old-slugs.ts, asked only for paths that found no page). One row per slug an
 * educator has left; it points at the educator, not at a slug, so a second change needs no chain of redirects. A
 * slug in this table is not given to another educator (the admin refuses it), so an old link never lands on
 * someone else's pages; the educator itself may take it back (the row is then removed).
 *
 * Also: payment_options gets the admin's optimistic revision (as migration 0230 gave the other edited tables), so
 * two admins saving the payment options at once cannot overwrite each other silently. Dialect-neutral.
 */
import { sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('educator_old_slugs')
    .addColumn('slug', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('educator_old_slugs_educator').on('educator_old_slugs').column('educator_id').execute();
  await sql`alter table payment_options add column revision integer not null default 1`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql`alter table payment_options drop column revision`.execute(db);
  await db.schema.dropTable('educator_old_slugs').ifExists().execute();
}
