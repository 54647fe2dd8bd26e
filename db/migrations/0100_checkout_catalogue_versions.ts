/**
 * A version number per educator that every write to what a checkout sells from (the educator, their courses,
 * the courses' offers and add-ons, the fee settings, the membership plans) raises, by triggers in the writer's
 * own transaction — the educator admin app is a separate program writing these tables, so only the database can
 * be sure to hear of every write. The checkout keeps the catalogue it read in memory with the version it read first, and reads it
 * again only when the version moved (api/checkout/catalogue-cache.ts): one number read with the checkout row
 * instead of eight statements per action.
 *
 * Unlike the pages' change feed (migration 0030) these triggers are never paused: a stale price is a wrong
 * charge, and a bulk load pays one small upsert per row for that. Spaces taken by holds are on occurrences,
 * which the checkout always reads afresh, so bookings do not move the version.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

const viaCourse = '(select c.educator_id from courses c where c.id = R.course_id)';
/** How a row of each table leads to its educator; `R` stands for new or old. */
export const CATALOGUE_VERSION_SOURCES: ReadonlyArray<{ table: string; educator: string }> = [
  { table: 'educators', educator: 'R.id' },
  { table: 'courses', educator: 'R.educator_id' },
  { table: 'offers', educator: viaCourse },
  { table: 'add_ons', educator: viaCourse },
  { table: 'educator_fee_settings', educator: 'R.educator_id' },
  // Whether the educator sells memberships at all (a learner's benefits are looked for only then).
  { table: 'membership_plans', educator: 'R.educator_id' },
];

/** Raises the version of the educator the row leads to (none: a row whose course went with it, nothing to do). */
function bump(educator: string, row: 'new' | 'old'): string {
  const id = educator.replace(/\bR\./g, `${row}.`);
  return `insert into catalogue_versions (educator_id, version) select x.id, 1 from (select ${id} as id) x where x.id is not null
    on conflict (educator_id) do update set version = catalogue_versions.version + 1;`;
}

/** On SQLite on the writing connection: a 'drop trigger if exists' counts as read-only there. */
export async function inTransaction(db: AnyDb, work: (db: AnyDb) => Promise<void>): Promise<void> {
  if (db.isTransaction) await work(db);
  else await db.transaction().execute(work);
}

export function up(db: AnyDb): Promise<void> {
  return inTransaction(db, async (tx) => {
    await tx.schema
      .createTable('catalogue_versions')
      .addColumn('educator_id', 'text', (c) => c.primaryKey())
      .addColumn('version', 'bigint', (c) => c.notNull())
      .execute();
    await createVersionTriggers(tx, CATALOGUE_VERSION_SOURCES);
  });
}

export function down(db: AnyDb): Promise<void> {
  return inTransaction(db, async (tx) => {
    await dropVersionTriggers(tx, CATALOGUE_VERSION_SOURCES);
    await tx.schema.dropTable('catalogue_versions').ifExists().execute();
  });
}

/** The triggers that raise the version on every write to `sources` (later migrations add tables with it). */
export async function createVersionTriggers(db: AnyDb, sources: typeof CATALOGUE_VERSION_SOURCES): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const { table, educator } of sources) {
    if (postgres) {
      await sql.raw(`create or replace function catalogue_version_${table}() returns trigger language plpgsql as $$
        begin
          if tg_op in ('UPDATE', 'DELETE') then ${bump(educator, 'old')} end if;
          if tg_op in ('INSERT', 'UPDATE') then ${bump(educator, 'new')} end if;
          return null;
        end $$`).execute(db);
      await sql.raw(`create trigger catalogue_version_${table} after insert or update or delete on ${table}
        for each row execute function catalogue_version_${table}()`).execute(db);
      continue;
    }
    await sql.raw(`create trigger catalogue_version_${table}_insert after insert on ${table} begin ${bump(educator, 'new')} end`).execute(db);
    await sql.raw(`create trigger catalogue_version_${table}_update after update on ${table} begin ${bump(educator, 'old')} ${bump(educator, 'new')} end`).execute(db);
    await sql.raw(`create trigger catalogue_version_${table}_delete after delete on ${table} begin ${bump(educator, 'old')} end`).execute(db);
  }
}

export async function dropVersionTriggers(db: AnyDb, sources: typeof CATALOGUE_VERSION_SOURCES): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const { table } of sources) {
    if (postgres) {
      await sql.raw(`drop trigger if exists catalogue_version_${table} on ${table}`).execute(db);
      await sql.raw(`drop function if exists catalogue_version_${table}()`).execute(db);
    } else {
      for (const event of ['insert', 'update', 'delete']) await sql.raw(`drop trigger if exists catalogue_version_${table}_${event}`).execute(db);
    }
  }
}
