/**
 * Checkouts that sell from an educator rather than a course (gift vouchers, memberships): `checkouts.course_id`
 * becomes nullable, and every outcome is also kept as `outcome_kind` + `outcome_id`, so a new kind of outcome
 * needs no column of its own. PostgreSQL drops the constraint; SQLite cannot alter a column, so the table is
 * rebuilt from its own stored definition (whatever columns earlier migrations added), with foreign keys off so
 * that dropping the old table cascades nothing (SQLite migrations do not run inside a transaction).
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

 
type AnyDb = Kysely<any>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('checkouts').addColumn('outcome_kind', 'text').execute();
  await db.schema.alterTable('checkouts').addColumn('outcome_id', 'text').execute();
  // The outcomes recorded before keep their own columns; copy them into the generic pair.
  for (const [kind, column] of [['booking', 'booking_id'], ['order', 'order_id'], ['request', 'request_id'], ['application', 'application_id']] as const) {
    await sql`update checkouts set outcome_kind = ${kind}, outcome_id = ${sql.ref(column)} where ${sql.ref(column)} is not null`.execute(db);
  }
  if (isPostgres(db)) {
    await sql`alter table checkouts alter column course_id drop not null`.execute(db);
    return;
  }
  const table = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'checkouts'`.execute(db);
  const created = table.rows[0]?.sql;
  if (!created) throw new Error('checkouts table not found');
  const nullable = created.replace(/("course_id"\s+text)\s+not null/i, '$1');
  if (nullable === created) throw new Error('checkouts.course_id: unexpected definition');
  const rebuilt = nullable.replace(/^create table\s+"?checkouts"?/i, 'create table "checkouts_rebuilt"');
  const indexes = await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = 'checkouts' and sql is not null`.execute(db);
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql.raw(rebuilt).execute(db);
    await sql`insert into checkouts_rebuilt select * from checkouts`.execute(db);
    await sql`drop table checkouts`.execute(db);
    await sql`alter table checkouts_rebuilt rename to checkouts`.execute(db);
    for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

export async function down(): Promise<void> {
  // Not reversible once a checkout without a course exists.
}
