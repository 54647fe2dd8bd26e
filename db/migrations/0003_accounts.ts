/**
 * The accounts area (spec 3 "Identity", "Saved status", 6 "Roles"): users, sessions, one-time tokens,
 * database-backed rate limits, saved courses, educator admins, claim requests and the mail outbox.
 * Dialect-neutral: text ids, bigint epoch seconds, JSON as text (db/codec.ts).
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<any>;

// eslint-disable-next-line max-lines-per-function -- a migration reads top to bottom as the schema it creates
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('student_id', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull().unique()) // lower case
    .addColumn('email_confirmed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('avatar_url', 'text')
    .addColumn('password_hash', 'text') // scrypt$15$8$1$salt$hash, null for magic-link-only accounts
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey()) // sha256 hex of the secret
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull()) // cookie | bearer
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('auth_method', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_family').on('sessions').column('family_id').execute();
  await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('auth_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('family_id', 'text')
    .addColumn('state_hash', 'text')
    .addColumn('payload', 'text', (c) => c.notNull()) // JSON
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('auth_tokens_expires').on('auth_tokens').column('expires_at').execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limits_pk', ['bucket', 'window_start'])
    .execute();
  await db.schema.createIndex('rate_limits_window').on('rate_limits').column('window_start').execute();

  await db.schema
    .createTable('saved_courses')
    .addColumn('student_id', 'text', (c) => c.notNull().references('users.student_id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('saved_courses_pk', ['student_id', 'course_id'])
    .execute();

  await db.schema
    .createTable('educator_admins')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('educator_admins_pk', ['user_id', 'educator_id'])
    .execute();
  await db.schema.createIndex('educator_admins_educator').on('educator_admins').column('educator_id').execute();

  await db.schema
    .createTable('educator_claims')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('educator_claims_educator_user', ['educator_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('outbox_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text')
    .addColumn('tag', 'text')
    .addColumn('eml_file', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('outbox_messages_to_created').on('outbox_messages').columns(['to_address', 'created_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'outbox_messages', 'educator_claims', 'educator_admins', 'saved_courses', 'rate_limits', 'auth_tokens', 'sessions', 'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
