/**
 * How search writes and runs its statements, on both engines: as text with their parameters, without the query
 * builder, straight on SQLite's read-only connection or PostgreSQL's pool (see `read`).
 */
import { CompiledQuery, PostgresAdapter } from 'kysely';
import { rawHandlesOf, type Db } from '../../client.ts';
import { isBusyError } from '../../sqlite-driver.ts';
import type { Filters } from './engine.ts';

/** Also true of a transaction on PostgreSQL (dialectOfDb knows only the handles openDb made). */
export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * A statement's text and parameters, written without the query builder: search runs several statements per
 * request, and building and compiling them through kysely cost more than SQLite takes to run most of them.
 * The same shape of search always writes the same text, so prepared statements are reused.
 */
export class Stmt {
  text = '';
  readonly params: unknown[] = [];
  /** PostgreSQL: whether one plan serves every parameter value (see PG_STATEMENT_NAMES). */
  reusePlan = true;
  constructor(readonly postgres: boolean) {}
  s(text: string): this {
    this.text += text;
    return this;
  }
  v(value: unknown): this {
    this.params.push(value);
    this.text += this.postgres ? `$${this.params.length}` : '?';
    return this;
  }
  /**
   * A count (a limit, an offset, a row number, a delivery mask): written into the text on PostgreSQL, a
   * parameter on SQLite. PostgreSQL plans a statement whose limit is a parameter as if it might read a tenth
   * of the table, so that generic plan looks far dearer than one planned for the values, and it plans every
   * execution anew (a quarter of what a search without words cost it). With the counts in the text, the
   * few texts a page and a page size make each keep one plan per connection.
   */
  n(value: number): this {
    if (!this.postgres) return this.v(value);
    if (!Number.isSafeInteger(value)) throw new Error(`Not an integer: ${value}`);
    this.text += String(value);
    return this;
  }
}

/**
 * PostgreSQL: names of prepared statements, one per statement text, so each pooled connection plans a
 * statement once and may reuse the plan. Search chooses how to read a level from its counts, so most plans
 * hold for any words: a walk for many matches is a walk, and the levels of few matches (at most
 * SEARCH_TUNING.postgresFewMatches) read together are a bitmap of the GIN index, which is also the plan
 * PostgreSQL keeps for a tsquery it does not know (planning that statement for its words cost 0.2–1.2 ms, more
 * than running it). Not for statements whose best plan depends on how many courses the words match where
 * search has not chosen (words sorted by date or price, a lone level read through the GIN index): those are
 * planned for their words every time (`reusePlan` false).
 */
const PG_STATEMENT_NAMES = new Map<string, string>();
const PG_MAX_NAMED = 2000;

function pgStatementName(st: Stmt): string | undefined {
  if (!st.reusePlan) return undefined;
  const text = st.text;
  let name = PG_STATEMENT_NAMES.get(text);
  if (name === undefined && PG_STATEMENT_NAMES.size < PG_MAX_NAMED) PG_STATEMENT_NAMES.set(text, (name = `search_${PG_STATEMENT_NAMES.size}`));
  return name;
}

/**
 * Runs a read: on SQLite straight on the read-only connection (the statement cache of db/client.ts; a lock
 * met there goes the usual way, which waits and retries), on PostgreSQL straight on the pool as a named
 * statement where it can be one; through kysely inside a transaction or on in-memory SQLite.
 */
export async function read<R>(db: Db, st: Stmt): Promise<R[]> {
  const handles = rawHandlesOf(db);
  if (handles?.sqliteReader) {
    try {
      return handles.sqliteReader.prepare(st.text).all(st.params) as R[];
    } catch (error) {
      if (!isBusyError(error)) throw error;
    }
  } else if (handles?.pgPool) {
    // A client of its own rather than pool.query: openDb wraps the pool's connect for test schemas.
    const client = await handles.pgPool.connect();
    try {
      const name = pgStatementName(st);
      return (await client.query(name ? { name, text: st.text, values: st.params } : { text: st.text, values: st.params })).rows as R[];
    } finally {
      client.release();
    }
  }
  return (await db.executeQuery<R>(CompiledQuery.raw(st.text, st.params))).rows;
}

/**
 * A read whose rows come as arrays of their values, in the order of the select list. On SQLite better-sqlite3
 * then makes no object per row (its `raw` mode), which cost more than SQLite's own work for a row: a level reads
 * up to 500 keys, a page's cards 24 rows (about a third of reading them).
 */
export async function readTuples<T extends unknown[]>(db: Db, st: Stmt): Promise<T[]> {
  const reader = rawHandlesOf(db)?.sqliteReader;
  if (reader) {
    try {
      return reader.prepare(st.text).raw(true).all(st.params) as T[];
    } catch (error) {
      if (!isBusyError(error)) throw error;
    }
  }
  return (await read<Record<string, unknown>>(db, st)).map((row) => Object.values(row) as T);
}

/** A read of one column, as a list of its values (see readTuples). */
export async function readColumn<T>(db: Db, st: Stmt): Promise<T[]> {
  return (await readTuples<[T]>(db, st)).map((tuple) => tuple[0]);
}

/** Conditions on course_search `s` (published courses only). `facetsInMatch` leaves out what an FTS5 match already checks. */
export function filterConditions(st: Stmt, f: Filters, facetsInMatch = false): Stmt {
  st.s('s.published');
  if (!facetsInMatch) {
    if (f.educatorRefs.length > 0) {
      st.s(' and s.educator_id in (');
      f.educatorRefs.forEach((id, i) => (i > 0 ? st.s(', ') : st).v(id));
      st.s(')');
    }
    if (f.categorySlug) st.s(' and s.category_id = (select id from categories where slug = ').v(f.categorySlug).s(')');
    if (f.deliveryMask) st.s(' and (s.delivery_mask & ').n(f.deliveryMask).s(') <> 0');
  }
  if (f.priceMin !== null) st.s(' and s.to_price >= ').v(f.priceMin);
  if (f.priceMax !== null) st.s(' and s.from_price <= ').v(f.priceMax);
  return st;
}
