/**
 * PostgreSQL: what lets a server process act on a checkout as it last left it, without reading it again
 * (api/checkout/engine/known.ts).
 *
 * - `checkout_unchanged(id, version, educator, catalogue version)` locks the checkout's row, as the locking read
 *   did, and raises `CK001` unless the row is still at that version and the educator's catalogue at that version.
 *   Nobody waits for its answer: it goes out with the transaction's first statement, and its failure fails that
 *   statement (or the COMMIT), so nothing the action did on an outdated copy can commit.
 * - An occurrence's details (its times, place, visibility, size; everything but the spaces holds move) raise its
 *   educator's catalogue version, as the course's own rows do (migration 0100), so a copy kept with a catalogue
 *   version holds its occurrence too. Spaces are not covered: they move with every hold, and every decision on them
 *   is a guarded statement (api/checkout/holds.ts).
 *
 * SQLite: nothing. Its reads are in-process calls with no round trip to save, and every transaction runs alone.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

/** The SQLSTATE `checkout_unchanged` raises: the copy this process kept is out of date. */
export const CHECKOUT_CHANGED = 'CK001';

const BUMP_OLD = `insert into catalogue_versions (educator_id, version)
  select c.educator_id, 1 from courses c where c.id = old.course_id
  on conflict (educator_id) do update set version = catalogue_versions.version + 1;`;

export async function up(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql.raw(`
create or replace function checkout_unchanged(p_id text, p_version integer, p_educator text, p_catalogue bigint)
returns boolean language plpgsql as $$
declare
  current_version integer;
begin
  select version into current_version from checkouts where id = p_id for update;
  if current_version is distinct from p_version
    or coalesce((select version from catalogue_versions where educator_id = p_educator), 0) <> p_catalogue then
    raise exception 'checkout % changed since this process last saw it', p_id using errcode = '${CHECKOUT_CHANGED}';
  end if;
  return true;
end $$`).execute(db);
  await sql.raw(`
create or replace function catalogue_version_occurrences() returns trigger language plpgsql as $$
begin
  ${BUMP_OLD}
  return null;
end $$`).execute(db);
  // A row's course is the same before and after (dates do not move between courses), so the old row names the educator.
  await sql.raw(`create trigger catalogue_version_occurrences after update on occurrences for each row
    when ((to_jsonb(old) - 'available_spaces') is distinct from (to_jsonb(new) - 'available_spaces'))
    execute function catalogue_version_occurrences()`).execute(db);
  await sql.raw(`create trigger catalogue_version_occurrences_delete after delete on occurrences for each row
    execute function catalogue_version_occurrences()`).execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql.raw('drop trigger if exists catalogue_version_occurrences on occurrences').execute(db);
  await sql.raw('drop trigger if exists catalogue_version_occurrences_delete on occurrences').execute(db);
  await sql.raw('drop function if exists catalogue_version_occurrences()').execute(db);
  await sql.raw('drop function if exists checkout_unchanged(text, integer, text, bigint)').execute(db);
}
