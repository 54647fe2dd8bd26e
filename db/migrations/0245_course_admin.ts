/**
 * The educator admin's courses (api/admin/courses.ts, api/admin/course-images.ts):
 *
 * - `course_images`: images an admin uploads for a course, already resized and re-encoded (no metadata kept),
 *   served on every host at /api/course-images/{id}.{ext}. Kept in the database (as base64 text, which both
 *   engines, the engine copy and the backups read the same way) rather than in the built site's folder: a full
 *   build starts that folder afresh, and every server process must answer for every image.
 * - `archived_courses`: a deleted course that still has past bookings, orders or requests is archived, not
 *   removed (removing it would take those records with it, as their rows cascade from the course): it is
 *   unpublished, its slug freed, and it is left out of the admin's lists. A table of its own rather than a column
 *   of `courses`, so nothing that reads or writes courses changes shape.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('course_images')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    /** image/webp, image/jpeg or image/png: what was written, whatever was sent. */
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    .addColumn('bytes_b64', 'text', (c) => c.notNull())
    /** SHA-256 of the bytes (hex): the ETag. */
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('course_images_educator').on('course_images').columns(['educator_id', 'created_at']).execute();
  await db.schema
    .createTable('archived_courses')
    .addColumn('course_id', 'text', (c) => c.primaryKey().references('courses.id').onDelete('cascade'))
    .addColumn('educator_id', 'text', (c) => c.notNull())
    .addColumn('archived_by', 'text')
    .addColumn('archived_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('archived_courses_educator').on('archived_courses').column('educator_id').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('archived_courses').ifExists().execute();
  await db.schema.dropTable('course_images').ifExists().execute();
}
