/**
 * PostgreSQL: word to every server process that what a session resolves to has changed, so each process may keep
 * the sessions it resolved in memory (api/auth/session-cache.ts) instead of reading them on every request.
 *
 * A session resolves to its row, its user and the educators the user administers; a row trigger on each of the
 * three tables sends the user's id on the channel `session_user_changed` whenever a row is changed or removed
 * (a new session or user needs no word: nothing cached can be about it; a new admin row changes its user's
 * educators). PostgreSQL delivers a notification when its transaction commits and drops it when it rolls back, so a
 * process hears only of changes that happened; cascaded deletes (a user's account removed) fire the triggers too.
 *
 * SQLite: nothing. Its lookups are in-process reads with no round trip, and a cache there could not hear another
 * process's writes.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export const SESSION_CHANNEL = 'session_user_changed';

const WATCHED: Array<{ table: string; events: string; userColumn: string }> = [
  { table: 'sessions', events: 'update or delete', userColumn: 'user_id' },
  { table: 'educator_admins', events: 'insert or update or delete', userColumn: 'user_id' },
  { table: 'users', events: 'update or delete', userColumn: 'id' },
];

export async function up(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const { table, events, userColumn } of WATCHED) {
    const fn = sql.raw(`${table}_session_notice`);
    await sql`
create or replace function ${fn}() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    perform pg_notify(${sql.lit(SESSION_CHANNEL)}, old.${sql.raw(userColumn)});
  else
    perform pg_notify(${sql.lit(SESSION_CHANNEL)}, new.${sql.raw(userColumn)});
    -- A row moved to another user (never done today) changes the old user's sessions too.
    if tg_op = 'UPDATE' and old.${sql.raw(userColumn)} is distinct from new.${sql.raw(userColumn)} then
      perform pg_notify(${sql.lit(SESSION_CHANNEL)}, old.${sql.raw(userColumn)});
    end if;
  end if;
  return null;
end $$`.execute(db);
    await sql`create trigger ${fn} after ${sql.raw(events)} on ${sql.table(table)} for each row execute function ${fn}()`.execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const { table } of WATCHED) {
    const fn = sql.raw(`${table}_session_notice`);
    await sql`drop trigger if exists ${fn} on ${sql.table(table)}`.execute(db);
    await sql`drop function if exists ${fn}()`.execute(db);
  }
}
