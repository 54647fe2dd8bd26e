/**
 * Search on SQLite (migrations 0040, 0130, 0250): four contentless FTS5 tables, one per relevance level, whose rowid
 * is course_search.key (an order key: popularity and creation hour, SEARCH_KEY), and whose texts end with facet
 * tokens for category, educator, delivery mode and price bands; three more with the widest level's text whose rowid
 * is a key in the order of newest, price up and price down. A page reads its table's keys in order and stops; only
 * the key groups the page reaches are looked up in course_search and sorted exactly.
 *
 * Keys are bound as JavaScript numbers, which better-sqlite3 binds as REAL: FTS5 applies `rowid > ?` to one, but not
 * `rowid = ?` (it answers every match), so an equality on a rowid compares with an integer column.
 */
import { sql } from 'kysely';
import type SQLite from 'better-sqlite3';
import { rawHandlesOf, type Db } from '../../client.ts';
import { isBusyError } from '../../sqlite-driver.ts';
import {
  FACT_COLUMNS, SEARCH_KEY, facetGroups, ftsMatchExpression, nameKey, orderBy, ranked,
  type Filters, type LevelReader, type PageFound, type PageWindow, type Ranked, type SearchEngine, type SearchSort,
} from './engine.ts';
import { Stmt, filterConditions, read, readColumn, readTuples } from './statements.ts';
import { SORT_TABLES, SORT_TABLES_PAUSED, fillSortTables } from '../../migrations/0250_search_sort_tables.ts';

/** The FTS5 tables: one per relevance level (migration 0040), one per other sort (0250). */
const SQLITE_FTS_TABLES = [
  'course_search_l4', 'course_search_l3', 'course_search_l2', 'course_search_l1', ...Object.values(SORT_TABLES).map((t) => t.table),
];

/** Rows read at a time while completing a key group. */
const GROUP_READ = 64;

export const sqliteSearch: SearchEngine = {
  async findPage(db, request) {
    const { terms, query, filters, sort, offset, size, end, limit } = request;
    if (terms.length === 0 || sort !== 'relevance') return sorted(db, terms, filters, sort, { offset, size, end, limit });
    const ordered = await ranked(sqliteLevels(db, terms, query, filters, { offset, end }), limit);
    const ids = ordered.slice(offset, end).map((r) => r.id);
    if (ids.includes('')) throw new Error('a row of the page was read without its id');
    return { ids, counted: ordered.length };
  },
  async clearIndex(db) {
    for (const table of SQLITE_FTS_TABLES) await sql`insert into ${sql.table(table)} (${sql.ref(table)}) values ('delete-all')`.execute(db);
  },
  async fillIndex(db) {
    // An empty table: slots count from 0 in each key group; the insert trigger writes the FTS5 rows.
    await sql.raw(`insert into course_search (key, ${FACT_COLUMNS})
      select g * ${SEARCH_KEY.groupShift} + row_number() over (partition by g order by course_id) - 1, ${FACT_COLUMNS}
      from course_search_source`).execute(db);
  },
  async optimizeIndex(db) {
    // Merges the FTS5 segments into one.
    for (const table of SQLITE_FTS_TABLES) await sql`insert into ${sql.table(table)} (${sql.ref(table)}) values ('optimize')`.execute(db);
  },
  async pauseIndex(db) {
    // The sort tables (migration 0250): keyed and written at once by resumeIndex, not by their triggers per row.
    await sql`insert into catalogue_meta (key, value) values (${SORT_TABLES_PAUSED}, '1') on conflict (key) do nothing`.execute(db);
  },
  async resumeIndex(db) {
    const paused = await sql`select 1 from catalogue_meta where key = ${SORT_TABLES_PAUSED}`.execute(db);
    if (paused.rows.length === 0) return;
    await fillSortTables(db);
    await sql`delete from catalogue_meta where key = ${SORT_TABLES_PAUSED}`.execute(db);
  },
};

/**
 * No query, or a query sorted by newest or price: the matches in that order off an index of course_search, and a
 * count that stops at the limit. Words, or filters sorted by newest or price: off the sort's FTS5 table (sortedWords).
 */
async function sorted(
  db: Db, terms: string[], filters: Filters, sort: SearchSort, window: { offset: number; size: number; end: number; limit: number },
): Promise<PageFound> {
  // Filters without words, sorted by newest or price: the sort tables' texts carry the educator, category and delivery
  // modes as facet tokens, so the filter's courses come in the sort's order off those tokens' doclists, and the read
  // stops at the count's limit. Off the sort's index of course_search, a narrow filter passed every course it left
  // out: a category, a twentieth of the courses, cost a walk of some 2,000 rows for a first page and its count
  // (1.5 ms at 100,000 courses). A price range is left to the exact test (sortKeys' residual), not matched as its
  // bands: an OR of a dozen bands' doclists cost more than the index (2.8 against 1.2 ms for a range sorted by
  // price), so a price range alone keeps the index. Relevance has no such table (its level tables hold words), and
  // without any filter the index is read in order with nothing left out.
  const facets = terms.length === 0 && sort !== 'relevance' && (filters.educatorRefs.length > 0 || Boolean(filters.categorySlug) || filters.deliveryMask !== 0);
  if (terms.length > 0 || facets) {
    const match = await sqliteMatch(db, terms, filters, { priceBands: !facets });
    if (match === null) return { ids: [], counted: 0 };
    return sortedWords(db, { match, filters, sort: sort as SortedSearch['sort'] }, window);
  }
  const order = orderBy(sort, false);
  const pageSt = filterConditions(new Stmt(false).s('select s.course_id from course_search s where '), filters)
    .s(` order by ${order} limit `).n(window.size).s(' offset ').n(window.offset);
  // Ordered like the page, so the count walks the same (covering) index and stops at the limit.
  const countSt = filterConditions(new Stmt(false).s('select count(*) as n from (select 1 from course_search s where '), filters)
    .s(` order by ${order} limit `).n(window.limit).s(') m');
  const [ids, count] = await Promise.all([readColumn<string>(db, pageSt), read<{ n: number | string }>(db, countSt)]);
  return { ids, counted: Number(count[0]?.n ?? 0) };
}

/** Words sorted by newest or price: the FTS5 match (words and facets), the other filters, the order. */
interface SortedSearch {
  match: string;
  filters: Filters;
  sort: Exclude<SearchSort, 'relevance'>;
}

/**
 * Words in another order than relevance, off the sort's FTS5 table (migration 0250), whose rowid is a key in the
 * sort's order by groups (SORT_TABLES). One read of the matches' keys in order, up to the count's limit, gives the
 * count, the page's keys and mostly the rest of the last group the page reaches (read on when it goes past the
 * limit); only the groups the page reaches are looked up in course_search and sorted exactly, as the relevance
 * levels do (ftsLevel). A word whose stem is too long for FTS5's prefix indexes ("photography") has its doclists
 * merged on every statement (about a millisecond at 100,000 courses), so statements are few.
 *
 * Before, every match was looked up in course_search and sorted, twice (page and count): "online" by price, 95,901
 * matches at 100,000 courses, cost 56 ms of CPU. Walking the sort's index against the set of every match, or
 * testing each row it passes against the match, still cost in proportion to the matches or to the rows passed
 * (1–6 ms for words a fourteenth of the courses have): docs/benchmarks.md.
 */
async function sortedWords(db: Db, search: SortedSearch, window: { offset: number; end: number; limit: number }): Promise<PageFound> {
  const keys = await sortKeys(db, search, null, window.limit);
  const counted = keys.length;
  if (counted <= window.offset) return { ids: [], counted };
  const { slots, column } = SORT_TABLES[search.sort];
  const groupOf = (key: number) => Math.floor(key / slots);
  // The page is keys[offset, end): its first group may begin before it, its last go on past it.
  const end = Math.min(window.end, counted);
  let first = window.offset;
  while (first > 0 && groupOf(keys[first - 1]) === groupOf(keys[window.offset])) first--;
  const lastGroup = groupOf(keys[end - 1]);
  let last = end;
  while (last < counted && groupOf(keys[last]) === lastGroup) last++;
  const sorting = keys.slice(first, last);
  if (last === window.limit) {
    for (let after = keys[last - 1], chunk = GROUP_READ; ; chunk *= 2) {
      const next = await sortKeys(db, search, after, chunk);
      const inGroup = next.filter((key) => groupOf(key) === lastGroup);
      sorting.push(...inGroup);
      if (inGroup.length < next.length || next.length < chunk) break;
      after = next[next.length - 1];
    }
  }
  const ids = await readColumn<string>(db, new Stmt(false)
    .s('select s.course_id from json_each(').v(JSON.stringify(sorting))
    .s(`) k cross join course_search s on s.${column} = k.value order by ${orderBy(search.sort, false)}`));
  // A course unpublished between the statements is left out, as it would be from a single statement.
  return { ids: ids.slice(window.offset - first, end - first), counted };
}

/** Keys of the sort table's matches in key order, after `after`: `count` of them. */
function sortKeys(db: Db, search: SortedSearch, after: number | null, count: number): Promise<number[]> {
  const { table, column } = SORT_TABLES[search.sort];
  const residual = search.filters.priceMin !== null || search.filters.priceMax !== null;
  // CROSS JOIN keeps FTS5 as the outer loop, handing out matches in key order and stopping at the limit.
  const st = new Stmt(false).s(`select f.rowid from ${table} f ${residual ? `cross join course_search s on s.${column} = f.rowid ` : ''}where f.${table} match `).v(search.match);
  if (residual) filterConditions(st.s(' and '), search.filters, true);
  if (after !== null) st.s(' and f.rowid > ').v(after);
  return readColumn<number>(db, st.s(' order by f.rowid limit ').v(count));
}

/** Hex of the UTF-8 bytes, as SQLite's hex() writes a facet token's id (migration 0040). */
function facetId(id: string): string {
  return `${Buffer.from(id, 'utf8').toString('hex')}0`;
}

/** The longest prefix FTS5 keeps an index for (migrations 0040 and 0250: prefix = '1 2 3 4 5 6 7 8', in characters). */
const PREFIX_INDEXED_CHARS = 8;
/** At most this many words stand in for a longer prefix; more, and the prefix is read as it is. */
const LONG_PREFIX_WORDS = 8;
/** Each term's stem as the tables' tokenizer makes it (null: not one token): a function of the term alone. */
const stems = new Map<string, string | null>();
/** A search connection's statements on the tokenizer and on course_search_l1's vocabulary (temp tables). */
interface Vocabulary {
  /** The term as the tables' tokenizer stems it; null when it makes more than one token of it. */
  stem(term: string): string | null;
  /** The words of course_search_l1 that begin with `from`, at most LONG_PREFIX_WORDS + 1 of them. */
  words(from: string): string[];
}
const vocabularies = new WeakMap<SQLite.Database, Vocabulary>();

/**
 * The words as an FTS5 match, each a prefix. A prefix longer than FTS5's prefix indexes ("photography", stemmed
 * "photographi") has no index of its own: FTS5 then merges the doclists of every word it begins into one, whole,
 * before the statement reads a row, on every statement (1.2 ms for a first page by price at 100,000 courses,
 * against 0.03 ms for the word alone). Such a prefix is read as the words of course_search_l1 it begins (the
 * widest level: every other table's words are among its own), OR'ed, which FTS5 reads in step and stops with the
 * statement. The words are looked up once per search (0.04–0.2 ms in the vocabulary, which counts each word's
 * courses), so a word new since then is missed only by that search, as a course written between its statements is.
 */
function wordsMatch(db: Db, terms: readonly string[]): string {
  const reader = rawHandlesOf(db)?.sqliteReader;
  if (!reader) return ftsMatchExpression(terms);
  const vocabulary = vocabularyOf(reader);
  return terms.map((term) => {
    let stem = stems.get(term);
    if (stem === undefined) {
      stem = vocabulary.stem(term);
      if (stems.size >= 10_000) stems.clear();
      stems.set(term, stem);
    }
    if (stem === null || [...stem].length <= PREFIX_INDEXED_CHARS) return ftsMatchExpression([term]);
    let words: string[];
    try {
      words = vocabulary.words(stem);
    } catch (error) {
      // A lock met by the read-only connection (while the log is recovered or restarted): the prefix as it is,
      // whose statements `read` retries.
      if (!isBusyError(error)) throw error;
      return ftsMatchExpression([term]);
    }
    if (words.length === 0 || words.length > LONG_PREFIX_WORDS) return ftsMatchExpression([term]);
    return `(${words.map((word) => `"${word.replaceAll('"', '""')}"`).join(' OR ')})`;
  }).join(' AND ');
}

function vocabularyOf(reader: SQLite.Database): Vocabulary {
  let kept = vocabularies.get(reader);
  if (kept) return kept;
  // Temp tables are the connection's own, so a read-only connection may make them. The same tokenizer as the
  // search tables (migration 0040), to stem a term exactly as they did.
  reader.exec(`create virtual table if not exists temp.search_stem using fts5(t, tokenize = "porter unicode61 remove_diacritics 2 tokenchars '§'");
    create virtual table if not exists temp.search_stem_words using fts5vocab(temp, search_stem, 'row');
    create virtual table if not exists temp.search_l1_words using fts5vocab(main, course_search_l1, 'row');`);
  const put = reader.prepare('insert into temp.search_stem (rowid, t) values (1, ?)');
  const tokens = reader.prepare('select term from temp.search_stem_words').pluck();
  const clear = reader.prepare('delete from temp.search_stem');
  const words = reader.prepare('select term from temp.search_l1_words where term >= ? and term < ? limit ?').pluck();
  kept = {
    stem: (term) => {
      put.run(term);
      try {
        const made = tokens.all() as string[];
        return made.length === 1 ? made[0] : null;
      } finally {
        clear.run();
      }
    },
    // Every word that begins with `from`: those from it up to the last character there is after it.
    words: (from) => words.all(from, `${from}\u{10ffff}`, LONG_PREFIX_WORDS + 1) as string[],
  };
  vocabularies.set(reader, kept);
  return kept;
}

/**
 * The FTS5 match for the level tables: the words, and the facets the filters name (educator, category,
 * delivery mode, price bands). Null when the category does not exist, so nothing can match. `priceBands` false: a
 * price range is left to the exact test of the statements that read the match (sortKeys, levelKeys), which they
 * make whenever a price bound is set.
 */
async function sqliteMatch(db: Db, terms: readonly string[], filters: Filters, options = { priceBands: true }): Promise<string | null> {
  const parts = terms.length > 0 ? [wordsMatch(db, terms)] : [];
  if (filters.categorySlug) {
    const [category] = await read<{ id: string }>(db, new Stmt(false).s('select id from categories where slug = ').v(filters.categorySlug));
    if (!category) return null;
    parts.push(`"§c${facetId(category.id)}"`);
  }
  if (filters.educatorRefs.length > 0) parts.push(`(${filters.educatorRefs.map((id) => `"§e${facetId(id)}"`).join(' OR ')})`);
  const groups = facetGroups(options.priceBands ? filters : { ...filters, priceMin: null, priceMax: null });
  for (const group of groups) parts.push(`(${group.map((token) => `"${token}"`).join(' OR ')})`);
  return parts.join(' AND ');
}

/**
 * The levels in rank order. Rows outside the page (`page`, positions among all levels) carry their key
 * alone (an empty id): they are counted and skipped, never shown.
 */
function sqliteLevels(db: Db, terms: string[], query: string | null | undefined, filters: Filters, page: PageWindow): LevelReader {
  let matchPromise: Promise<string | null> | null = null;
  return async (level, limit, taken) => {
    const match = await (matchPromise ??= sqliteMatch(db, terms, filters));
    if (match === null || limit <= 0) return [];
    if (level === 5) return exactNameLevel(db, match, query, filters, limit);
    return ftsLevel(db, { table: `course_search_l${level}`, match, filters, page }, limit, taken);
  };
}

/** Level 5: few courses share a name, so they are found by name, then each checked against the name level. */
async function exactNameLevel(db: Db, match: string, query: string | null | undefined, filters: Filters, limit: number): Promise<Ranked[]> {
  const st = new Stmt(false).s('select s.key, s.course_id from course_search s indexed by course_search_name where s.name_key = ').v(nameKey(query)).s(' and ');
  filterConditions(st, filters)
    .s(' and exists (select 1 from course_search_l4 f where f.rowid = s.key and f.course_search_l4 match ').v(match)
    .s(`) order by ${orderBy('relevance', false)} limit `).v(limit);
  const rows = await read<{ key: number; course_id: string }>(db, st);
  return rows.map((r) => ({ id: r.course_id, key: r.key }));
}

/** One FTS5 level to read: its table, the match, the filters, and where the page lies. */
interface FtsLevel {
  table: string;
  match: string;
  filters: Filters;
  page: PageWindow;
}

/**
 * Keys of a level's matches in key order, after `after` (reads go forward from a key: FTS5 reads a doclist from
 * its start when given an upper rowid bound, and a NOT IN on the rowid slows it as much).
 */
function levelKeys(db: Db, level: FtsLevel, after: number | null, count: number): Promise<number[]> {
  const { table, match, filters } = level;
  // Only the exact price range is left to check against course_search (the match has its bands); the other
  // filters are facets in the match.
  const hasResidual = filters.priceMin !== null || filters.priceMax !== null;
  // CROSS JOIN keeps FTS5 as the outer loop, handing out matches in key order and stopping at the limit.
  const from = hasResidual ? `from ${table} f cross join course_search s on s.key = f.rowid` : `from ${table} f`;
  const st = new Stmt(false).s(`select f.rowid as key ${from} where f.${table} match `).v(match);
  if (hasResidual) filterConditions(st.s(' and '), filters, true);
  if (after !== null) st.s(' and f.rowid > ').v(after);
  st.s(' order by f.rowid limit ').v(count);
  return readColumn<number>(db, st);
}

const groupOf = (key: number) => Math.floor(key / SEARCH_KEY.groupShift);

/** Levels 4 to 1: the level's first `limit` keys not taken by better levels, those the page reaches sorted exactly. */
async function ftsLevel(db: Db, level: FtsLevel, limit: number, taken: readonly Ranked[]): Promise<Ranked[]> {
  const skip = new Set(taken.map((r) => r.key));
  // Better levels' rows are in this level too (levels nest), so `taken` more rows hold `limit` new ones.
  const asked = limit + skip.size;
  const got = await levelKeys(db, level, null, asked);
  const fresh = got.filter((key) => !skip.has(key));
  const keys = fresh.slice(0, limit);
  if (keys.length === 0) return [];
  // Keys come in rank order but within a group (SEARCH_KEY). Only the rows on the page need their ids and
  // their exact order; the others are only counted, or skipped by key in the levels below (which are read
  // only once this one has run out). So only the groups the page reaches are read from course_search (CROSS
  // JOIN again) and sorted: a lookup costs about a microsecond a row, and a first page counts four times the
  // rows it shows (a deep one, twenty).
  const counted = (key: number): Ranked => ({ id: '', key });
  const pageFrom = Math.max(0, level.page.offset - taken.length);
  const pageTo = Math.min(keys.length, level.page.end - taken.length);
  if (pageFrom >= pageTo) return keys.map(counted);
  let first = pageFrom;
  while (first > 0 && groupOf(keys[first - 1]) === groupOf(keys[pageFrom])) first--;
  let last = pageTo;
  while (last < keys.length && groupOf(keys[last]) === groupOf(keys[pageTo - 1])) last++;
  const sorting = keys.slice(first, last);
  if (last === limit) {
    // The page reaches the group of the level's last row, some of whose rows further on may rank above it:
    // the whole group is sorted.
    sorting.push(...(await restOfGroup(db, level, groupOf(keys[limit - 1]), { got, asked, beyond: fresh.slice(limit) }, skip)));
  }
  const rows = await readTuples<[number, string]>(db, new Stmt(false)
    .s('select s.key, s.course_id from json_each(').v(JSON.stringify(sorting))
    .s(`) k cross join course_search s on s.key = k.value order by ${orderBy('relevance', false)}`));
  // A course unpublished between the statements is left out, as it would be from a single statement.
  const exact = rows.map(([key, id]) => ({ id, key }));
  return [...keys.slice(0, first).map(counted), ...exact, ...keys.slice(last).map(counted)].slice(0, limit);
}

/**
 * The keys past the level's `limit` in `group`, the group of its last row: those of the keys read (`got`, of
 * `asked`; `beyond`, the fresh ones past the limit), then more, GROUP_READ at a time, while the group goes on.
 */
async function restOfGroup(
  db: Db, level: FtsLevel, group: number, keysRead: { got: number[]; asked: number; beyond: number[] }, skip: ReadonlySet<number | undefined>,
): Promise<number[]> {
  const { got, asked, beyond } = keysRead;
  const rest = beyond.filter((key) => groupOf(key) === group);
  let after = got[got.length - 1];
  for (let more = got.length === asked && groupOf(got[got.length - 1]) === group; more;) {
    const next = await levelKeys(db, level, after, GROUP_READ);
    const inGroup = next.filter((key) => groupOf(key) === group);
    rest.push(...inGroup.filter((key) => !skip.has(key)));
    more = inGroup.length === GROUP_READ;
    after = next[next.length - 1];
  }
  return rest;
}
