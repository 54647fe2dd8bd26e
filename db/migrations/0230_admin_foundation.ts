/**
 * The educator admin's foundation: an audit log of every change an admin makes (who, when, what it was, what it
 * became), and a revision number on the things admins edit, so two admins saving the same thing cannot overwrite
 * each other silently (the second save names its revision and is refused when it moved; what changed since is
 * read back from the audit log).
 */
import { sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

/** The tables an admin edits whole, each with its own revision. */
export const REVISIONED_TABLES = ['educators', 'courses', 'occurrences', 'forms', 'locations', 'vouchers', 'membership_plans', 'collections'] as const;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    /** What was changed: 'educator', 'course', 'occurrence', 'form'… and its id. */
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    /** 'create', 'update', 'delete', 'publish', 'unpublish', 'cancel'… */
    .addColumn('action', 'text', (c) => c.notNull())
    /** The entity's revision after the change (null for entities without one). */
    .addColumn('revision', 'integer')
    /** { field: [before, after] } for each field that changed (JSON). */
    .addColumn('changes', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_educator').on('audit_log').columns(['educator_id', 'created_at']).execute();
  await db.schema.createIndex('audit_log_entity').on('audit_log').columns(['entity', 'entity_id', 'created_at']).execute();
  for (const table of REVISIONED_TABLES) {
    await sql`alter table ${sql.table(table)} add column revision integer not null default 1`.execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of REVISIONED_TABLES) await sql`alter table ${sql.table(table)} drop column revision`.execute(db);
  await db.schema.dropTable('audit_log').ifExists().execute();
}
