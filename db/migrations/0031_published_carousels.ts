/**
 * What each category's "more in this category" carousel showed when its pages were last written (a digest of
 * its cards), so the publisher re-renders the other course pages of a category only when that carousel
 * really changed. Written by the full build's category pages and by the publisher.
 */
import type { Kysely } from 'kysely';

 
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('published_carousels')
    .addColumn('category_id', 'text', (c) => c.primaryKey())
    .addColumn('digest', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('published_carousels').ifExists().execute();
}
