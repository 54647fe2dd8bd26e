/**
 * PostgreSQL: the walks of search in popularity order check each course's words in the index itself.
 *
 * For a word that many courses share, search walks an index in popularity order and tests each course's
 * level text (doc_l4…doc_l2, migration 0040) until a page is full. Those tests read the table row by row, about
 * 4 µs each: "beginners" in course names (one course in twenty) cost 8 ms at 100,000 courses. With the level
 * texts carried in the walking indexes (INCLUDE; stripped name-sized tsvectors, so the indexes grow little) the
 * walk is an index-only scan: 0.3 ms. The description's level (doc_l1) stays out: it is large, and the words it
 * matches are either so common that a walk stops at once or rare enough for the GIN index.
 * SQLite's FTS5 tables already hand out matches in popularity order: nothing to do there.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

const POPULAR = 'popularity desc, created_at desc, course_id collate "C"';
const DOCS = 'doc_l4, doc_l3, doc_l2';
/** [name, key columns, columns carried before (0040), with the level texts now]. */
const INDEXES: Array<[string, string, string]> = [
  ['course_search_popular', POPULAR, 'category_id, educator_id, delivery_mask, from_price, to_price'],
  ['course_search_category', `category_id, ${POPULAR}`, 'educator_id, delivery_mask, from_price, to_price'],
  ['course_search_educator', `educator_id, ${POPULAR}`, 'category_id, delivery_mask, from_price, to_price'],
];

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

async function rebuild(db: AnyDb, withDocs: boolean): Promise<void> {
  for (const [name, keys, carried] of INDEXES) {
    await sql.raw(`drop index if exists ${name}`).execute(db);
    await sql.raw(`create index ${name} on course_search (${keys}) include (${withDocs ? `${DOCS}, ` : ''}${carried}) where published`).execute(db);
  }
}

export async function up(db: AnyDb): Promise<void> {
  if (isPostgres(db)) await rebuild(db, true);
}

export async function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) await rebuild(db, false);
}
