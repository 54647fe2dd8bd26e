/**
 * PostgreSQL: the feed that keeps each server's search replica current (db/search-replica.ts). Every write to a row
 * search reads — the course, its educator, category, locations, offers and review aggregate, and the changes of an
 * occurrence that can move a card's next date (migration 0041's rule) — leaves the table's name, the row's key and
 * the writing transaction's id in `search_replica_changes`, in the writer's own transaction.
 *
 * A replica reads the feed by transaction id: from the oldest transaction that was still running at its last look
 * (that snapshot's xmin), every transaction its snapshot sees as committed. Every transaction below that point had
 * ended by then and was read, and one still running now is read once it has committed. Ids, unlike a sequence,
 * cannot be handed out in one order and committed in another below that point.
 *
 * Bookings change an occurrence's spaces at every checkout; a booking that leaves spaces on both sides writes no
 * row here (the replica's copy of the occurrence then keeps an older count of spaces, on the same side of zero,
 * which is all search reads of it). Rows older than an hour are removed by the server (api/search/replica.ts).
 *
 * SQLite: nothing (its search reads the catalogue itself).
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { OCCURRENCE_MOVED } from './0041_search_cards.ts';

type AnyDb = Kysely<any>;

/** The tables a replica copies, each with its key column; review aggregates only for courses. */
export const FEED_TABLES = [
  ['educators', 'id'],
  ['categories', 'id'],
  ['locations', 'id'],
  ['courses', 'id'],
  ['offers', 'id'],
  ['occurrences', 'id'],
  ['review_aggregates', 'subject_id'],
] as const;

export async function up(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create table search_replica_changes (
    xid xid8 not null default pg_current_xact_id(),
    table_name text not null,
    row_key text not null,
    changed_at bigint not null default extract(epoch from now())::bigint
  )`.execute(db);
  await sql`create index search_replica_changes_xid on search_replica_changes (xid)`.execute(db);
  // One function for every table: the key column is the trigger's argument.
  await sql.raw(`create function search_replica_changed() returns trigger language plpgsql as $$
  begin
    if tg_op in ('UPDATE', 'DELETE') then
      insert into search_replica_changes (table_name, row_key) values (tg_table_name, to_jsonb(old) ->> tg_argv[0]);
    end if;
    if tg_op = 'INSERT' or (tg_op = 'UPDATE' and (to_jsonb(new) ->> tg_argv[0]) is distinct from (to_jsonb(old) ->> tg_argv[0])) then
      insert into search_replica_changes (table_name, row_key) values (tg_table_name, to_jsonb(new) ->> tg_argv[0]);
    end if;
    return null;
  end $$`).execute(db);
  const moved = OCCURRENCE_MOVED.replaceAll('IS_DISTINCT', 'is distinct from');
  for (const [table, key] of FEED_TABLES) {
    const name = `search_replica_${table}`;
    const call = `for each row execute function search_replica_changed('${key}')`;
    if (table === 'occurrences') {
      await sql.raw(`create trigger ${name}_insert_delete after insert or delete on occurrences ${call}`).execute(db);
      await sql.raw(`create trigger ${name}_update after update on occurrences for each row when ${moved}
        execute function search_replica_changed('${key}')`).execute(db);
    } else if (table === 'review_aggregates') {
      await sql.raw(`create trigger ${name}_insert after insert on review_aggregates for each row
        when (new.subject_type = 'course') execute function search_replica_changed('${key}')`).execute(db);
      await sql.raw(`create trigger ${name}_update after update on review_aggregates for each row
        when (old.subject_type = 'course' or new.subject_type = 'course') execute function search_replica_changed('${key}')`).execute(db);
      await sql.raw(`create trigger ${name}_delete after delete on review_aggregates for each row
        when (old.subject_type = 'course') execute function search_replica_changed('${key}')`).execute(db);
    } else {
      await sql.raw(`create trigger ${name} after insert or update or delete on ${table} ${call}`).execute(db);
    }
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop function if exists search_replica_changed() cascade`.execute(db);
  await sql`drop table if exists search_replica_changes`.execute(db);
}
