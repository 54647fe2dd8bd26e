/**
 * `educator_images`: the logos and covers educators upload in the admin (api/admin/uploads.ts), already scaled
 * down and re-encoded as WebP with no metadata, served at /images/uploads/{path} on every host.
 *
 * They lived in a folder of one machine (UPLOADS_DIR): a second machine did not have them, and the backups and
 * `npm run db:copy` left them behind. Kept in the database like the course images (migration 0245, base64 text,
 * which both engines, the engine copy and the backups read the same way): every server process answers for every
 * image, and a backup or a move to PostgreSQL takes them along. Images earlier versions wrote to UPLOADS_DIR are
 * read in at start-up (api/admin/uploads.ts `importUploadsDir`), under the same addresses.
 *
 * `path` is the address under /images/uploads/ (`educators/{educatorId}/{kind}-{hash}.webp`), named by the bytes'
 * digest: a new image is a new address, so an address can be cached for good.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('educator_images')
    .addColumn('path', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    /** logo or cover. */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    .addColumn('bytes_b64', 'text', (c) => c.notNull())
    /** SHA-256 of the bytes (hex): the ETag. */
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('educator_images_educator').on('educator_images').columns(['educator_id', 'created_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('educator_images').ifExists().execute();
}
