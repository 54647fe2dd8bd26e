/**
 * SQLite: words sorted by newest or by price read a page, not every match. Three contentless FTS5 tables hold the
 * text of the widest level (course_search_l1's: every word of the course, with its facet tokens), one per sort —
 * `course_search_by_newest`, `course_search_by_price_asc`, `course_search_by_price_desc` — whose rowid is a key in
 * that sort's order, as course_search.key is in popularity order for the level tables (migration 0040). FTS5 hands
 * out a query's matches in rowid order, so a page reads its rows in order and stops; only the key groups the page
 * reaches are looked up in course_search and sorted exactly (db/queries/search/sqlite.ts).
 *
 * Before, a query sorted by newest or price looked up and sorted every course its words matched: "online" by price
 * (95,901 matches at 100,000 courses) cost 56 ms of CPU, "first aid" by newest (6,996) 12 ms, against 0.2–0.5 ms
 * for the same words by relevance.
 *
 * The keys, in course_search (`newest_key`, `price_asc_key`, `price_desc_key`, unique), are group × 2^slotBits + a
 * free slot of the group, the group holding courses that only the exact sort tells apart:
 *   newest      the creation second, latest first (2^20 slots);
 *   price_asc   no price last, the lowest price (pence, up to SORT_PRICE_CAP), then whole popularity descending
 *               (up to SORT_POPULARITY_CAP) (2^18 slots);
 *   price_desc  no price last, the highest price, then whole popularity descending (2^18 slots).
 * A value beyond a cap shares the cap's group with everything after it in the order (prices above the cap: one
 * group), so groups stay in order; keys stay below 2^53 so JavaScript reads them exactly. A trigger on
 * course_search's inserts gives a new row its keys (a free slot above the group's highest taken, else below its
 * lowest, as 0040 does) and, when published, its rows in the three tables; deletes remove them; a price change
 * keys the row again and writes its rows again (their text carries the price bands, migration 0130), and renamed
 * educators and categories write their courses' rows again, as 0040 does for the level tables.
 *
 * Bulk loads (the demo seed, rebuildSearchIndex) set catalogue_meta 'search_sort_tables_paused': the triggers then
 * leave the sort tables alone, and `fillSortTables` keys every row and writes the tables once at the end (keeping
 * them row by row made loading the demo catalogue of 1,000 educators three times as slow, 16.5 → 51 s).
 *
 * PostgreSQL: nothing (its walks and bitmaps, db/queries/search/postgres.ts).
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { inTransaction } from './0100_checkout_catalogue_versions.ts';

type AnyDb = Kysely<any>;

/** Prices above this many pence share one group of the price sorts (exactly sorted when reached). */
export const SORT_PRICE_CAP = 1_048_575;
/** Whole popularity above this shares one group within a price. */
export const SORT_POPULARITY_CAP = 16_383;

/** Per sort: its FTS5 table, its key column in course_search, slots per group, and the group of a row `r`. */
export const SORT_TABLES = {
  newest: {
    table: 'course_search_by_newest',
    column: 'newest_key',
    slots: 1_048_576,
    group: (r: string) => `(8589934591 - min(max(${r}.created_at, 0), 8589934591))`,
  },
  price_asc: {
    table: 'course_search_by_price_asc',
    column: 'price_asc_key',
    slots: 262_144,
    group: (r: string) => priceGroup(r, 'from_price', false),
  },
  price_desc: {
    table: 'course_search_by_price_desc',
    column: 'price_desc_key',
    slots: 262_144,
    group: (r: string) => priceGroup(r, 'to_price', true),
  },
} as const;

/**
 * [no price: 1 bit, 2^34][price: 20 bits, ascending or descending][whole popularity, descending: 14 bits]; a price at or
 * beyond the cap leaves the popularity out (the group of every such price).
 */
function priceGroup(r: string, column: string, descending: boolean): string {
  const price = `min(max(coalesce(${r}.${column}, 0), 0), ${SORT_PRICE_CAP})`;
  const popularity = `(case when ${r}.${column} >= ${SORT_PRICE_CAP} then 0
    else ${SORT_POPULARITY_CAP} - min(max(cast(${r}.popularity as integer), 0), ${SORT_POPULARITY_CAP}) end)`;
  return `((${r}.${column} is null) * 17179869184 + ${descending ? `(${SORT_PRICE_CAP} - ${price})` : price} * 16384 + ${popularity})`;
}

const SORTS = Object.values(SORT_TABLES);
const FTS_OPTIONS = `t, content = '', contentless_delete = 1, detail = none,
      tokenize = "porter unicode61 remove_diacritics 2 tokenchars '§'", prefix = '1 2 3 4 5 6 7 8'`;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A free key of the group of the row `new` (`x` ranges over course_search). */
function freeKey(sort: (typeof SORTS)[number]): string {
  const { column, slots } = sort;
  const first = `${sort.group('new')} * ${slots}`;
  return `(select case
      when max(x.${column}) is null then ${first}
      when max(x.${column}) < ${first} + ${slots - 1} then max(x.${column}) + 1
      else min(x.${column}) - 1 end
    from course_search x where x.${column} between ${first} and ${first} + ${slots - 1})`;
}

/** Statements that give course_search row `new` its keys and, when published, its rows in the sort tables. */
function keyAndWrite(key: string): string {
  return `update course_search set ${SORTS.map((s) => `${s.column} = ${freeKey(s)}`).join(', ')} where key = ${key};
    ${SORTS.map((s) => `insert into ${s.table} (rowid, t) select cs.${s.column}, v.t1 from course_search cs
      join course_search_text v on v.course_id = cs.course_id where cs.key = ${key} and cs.published;`).join('\n    ')}`;
}

/** Statements that remove the sort tables' rows of the course_search rows `rows` (a select of course_search). */
function unwrite(rows: string): string {
  return SORTS.map((s) => `delete from ${s.table} where rowid in (select ${s.column} from ${rows});`).join('\n    ');
}

/** The catalogue_meta key of a bulk load that fills the sort tables at its end (fillSortTables). */
export const SORT_TABLES_PAUSED = 'search_sort_tables_paused';
const RUNNING = `not exists (select 1 from catalogue_meta where key = '${SORT_TABLES_PAUSED}')`;

async function createTriggers(db: AnyDb): Promise<void> {
  await sql.raw(`create trigger course_search_sorted_insert after insert on course_search when ${RUNNING} begin
    ${keyAndWrite('new.key')}
  end`).execute(db);
  await sql.raw(`create trigger course_search_sorted_delete after delete on course_search when old.published and ${RUNNING} begin
    ${SORTS.map((s) => `delete from ${s.table} where rowid = old.${s.column};`).join('\n    ')}
  end`).execute(db);
  // The offers' triggers (0040) write the price range on every change of an offer: only a real move counts.
  await sql.raw(`create trigger course_search_sorted_prices after update of from_price, to_price on course_search
    when (old.from_price is not new.from_price or old.to_price is not new.to_price) and ${RUNNING} begin
    ${unwrite('course_search where key = new.key and published')}
    update course_search set ${SORTS.map((s) => `${s.column} = null`).join(', ')} where key = new.key;
    ${keyAndWrite('new.key')}
  end`).execute(db);
  const rewrite = (courseIds: string) => `${unwrite(`course_search where published and course_id in (${courseIds})`)}
    ${SORTS.map((s) => `insert into ${s.table} (rowid, t) select cs.${s.column}, v.t1 from course_search cs
      join course_search_text v on v.course_id = cs.course_id where cs.published and cs.course_id in (${courseIds});`).join('\n    ')}`;
  await sql.raw(`create trigger course_search_sorted_educator_name after update of name on educators when ${RUNNING} begin
    ${rewrite('select id from courses where educator_id = new.id')}
  end`).execute(db);
  await sql.raw(`create trigger course_search_sorted_category_name after update of name on categories when ${RUNNING} begin
    ${rewrite('select id from courses where category_id = new.id')}
  end`).execute(db);
}

/**
 * Keys every row of course_search afresh (slots from 0 in each group) and writes the sort tables from scratch, in
 * one statement per table: after a bulk load that paused them (SORT_TABLES_PAUSED), and when they are created.
 */
export async function fillSortTables(db: AnyDb): Promise<void> {
  for (const s of SORTS) {
    await sql.raw(`insert into ${s.table} (${s.table}) values ('delete-all')`).execute(db);
    await sql.raw(`update course_search set ${s.column} = null`).execute(db);
    await sql.raw(`update course_search set ${s.column} = k.key from (
      select r.key as row_key, r.g * ${s.slots} + row_number() over (partition by r.g order by r.course_id) - 1 as key
      from (select course_search.key, course_search.course_id, ${s.group('course_search')} as g from course_search) r
    ) k where course_search.key = k.row_key`).execute(db);
    await sql.raw(`insert into ${s.table} (rowid, t) select cs.${s.column}, v.t1 from course_search cs
      join course_search_text v on v.course_id = cs.course_id where cs.published`).execute(db);
  }
}

export function up(db: AnyDb): Promise<void> {
  if (isPostgres(db)) return Promise.resolve();
  return inTransaction(db, async (tx) => {
    for (const s of SORTS) {
      await sql.raw(`alter table course_search add column ${s.column} integer`).execute(tx);
      await sql.raw(`create unique index course_search_${s.column} on course_search (${s.column})`).execute(tx);
      await sql.raw(`create virtual table ${s.table} using fts5(${FTS_OPTIONS})`).execute(tx);
    }
    await fillSortTables(tx);
    for (const s of SORTS) await sql.raw(`insert into ${s.table} (${s.table}) values ('optimize')`).execute(tx);
    await createTriggers(tx);
  });
}

export function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) return Promise.resolve();
  return inTransaction(db, async (tx) => {
    for (const name of ['insert', 'delete', 'prices', 'educator_name', 'category_name']) {
      await sql.raw(`drop trigger if exists course_search_sorted_${name}`).execute(tx);
    }
    for (const s of SORTS) {
      await sql.raw(`drop table if exists ${s.table}`).execute(tx);
      await sql.raw(`drop index if exists course_search_${s.column}`).execute(tx);
      await sql.raw(`alter table course_search drop column ${s.column}`).execute(tx);
    }
  });
}
