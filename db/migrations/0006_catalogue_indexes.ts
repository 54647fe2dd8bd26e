/**
 * Indexes on the catalogue's remaining foreign keys, so deleting an occurrence or a course (and the
 * demo catalogue's --reset) does not scan offers, add-ons and child occurrences once per row.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<any>;

const INDEXES = [
  ['occurrences_parent', 'occurrences', 'parent_ref'],
  ['offers_occurrence', 'offers', 'occurrence_id'],
  ['add_ons_occurrence', 'add_ons', 'occurrence_id'],
  ['collection_courses_course', 'collection_courses', 'course_id'],
  ['vouchers_course', 'vouchers', 'course_id'],
  ['payment_options_course', 'payment_options', 'course_id'],
] as const;

export async function up(db: AnyDb): Promise<void> {
  for (const [name, table, column] of INDEXES) {
    await db.schema.createIndex(name).ifNotExists().on(table).column(column).execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).ifExists().execute();
}
