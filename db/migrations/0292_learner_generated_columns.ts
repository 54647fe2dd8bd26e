/**
 * SQLite: the learner columns of bookings and orders (learner_email, learner_name, learner_last; migration 0270)
 * become virtual generated columns over contact_details instead of columns an AFTER INSERT trigger fills.
 *
 * SQLite has no BEFORE trigger that can change the row being written, so the trigger wrote every booking twice: the
 * insert, then an update of the same row that moved it in every admin index carrying a learner column. That second
 * write was a third of what a booking's insert cost the checkout (measured in docs/benchmarks.md, "Runtime move").
 * A generated column is computed once, as the row goes into each index, and never stored in the row itself; the
 * admin's searches read it from the indexes as before.
 *
 * PostgreSQL keeps its BEFORE trigger, which sets the columns on the row being written (one write already).
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { LEARNER_COLUMNS, LEARNER_TABLES, learnerExpressionsSqlite, learnerTriggerSqlite } from './0270_admin_bookings.ts';

type AnyDb = Kysely<any>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A table's indexes that name a learner column, with the SQL that made them (a column in an index cannot be dropped). */
async function learnerIndexes(db: AnyDb, table: string): Promise<Array<{ name: string; sql: string }>> {
  const { rows } = await sql<{ name: string; sql: string }>`
    select name, sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql like '%learner_%'`.execute(db);
  return rows;
}

async function rebuild(db: AnyDb, table: string, addColumns: () => Promise<void>): Promise<void> {
  const indexes = await learnerIndexes(db, table);
  for (const event of ['insert', 'update']) await sql.raw(`drop trigger if exists ${table}_learner_${event}`).execute(db);
  for (const { name } of indexes) await sql.raw(`drop index ${name}`).execute(db);
  for (const column of LEARNER_COLUMNS) await sql.raw(`alter table ${table} drop column ${column}`).execute(db);
  await addColumns();
  for (const index of indexes) await sql.raw(index.sql).execute(db);
}

export async function up(db: AnyDb): Promise<void> {
  if (isPostgres(db)) return;
  const expressions = learnerExpressionsSqlite();
  for (const table of LEARNER_TABLES) {
    await rebuild(db, table, async () => {
      for (const column of LEARNER_COLUMNS) {
        await sql.raw(`alter table ${table} add column ${column} text generated always as (${expressions[column]}) virtual`).execute(db);
      }
    });
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) return;
  for (const table of LEARNER_TABLES) {
    await rebuild(db, table, async () => {
      for (const column of LEARNER_COLUMNS) await sql.raw(`alter table ${table} add column ${column} text`).execute(db);
      await learnerTriggerSqlite(db, table);
    });
  }
}
