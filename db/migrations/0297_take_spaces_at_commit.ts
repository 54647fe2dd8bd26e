/**
 * PostgreSQL: `take_spaces(occurrence, spaces)`, the guarded statement of spec 5's capacity (api/checkout/holds.ts)
 * as one that raises `CK002` when too few spaces are left, instead of answering that it changed no row.
 *
 * A learner's first hold of spaces takes them with the transaction's COMMIT (db/client.ts writeAtCommit): the
 * occurrence's row lock is then held for the COMMIT alone. Taken at once, it was held through the rest of the
 * action's round trips and the server's turns between them, and every other learner booking that date waited
 * behind it: 200 learners booking one date passed each other through that lock at some 9 ms apiece, which bounded
 * completed checkouts at about 108 a second. Sent with the COMMIT, nobody reads its answer before the
 * transaction ends, so a taking that fails must fail the transaction: the raise rolls it back, and the action is
 * run again taking the spaces at once, which answers "sold out" its usual way.
 *
 * SQLite: nothing (its transactions run one at a time, and the statement is taken at once there).
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

/** The SQLSTATE `take_spaces` raises: too few spaces were left to take. */
export const SPACES_GONE = 'CK002';

export async function up(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql.raw(`
create function take_spaces(p_occurrence text, p_spaces integer) returns void language plpgsql as $$
begin
  update occurrences set available_spaces = available_spaces - p_spaces
    where id = p_occurrence and available_spaces >= p_spaces;
  if not found then
    raise exception 'too few spaces left on occurrence %', p_occurrence using errcode = '${SPACES_GONE}';
  end if;
end $$`).execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql.raw('drop function if exists take_spaces(text, integer)').execute(db);
}
