/**
 * Course search (spec 2.12 carousels, 7 "Course search"): published courses only, filtered by educator,
 * category, delivery and price, sorted by relevance, newest or price, paged. It reads the read model of
 * migration 0040 (`course_search`), never the catalogue tables, and every page costs about the rows it
 * shows, whatever the size of the catalogue.
 *
 * Matching: every word of the query must match a word of the course's name, educator name, keyword,
 * category, city or description, as a prefix ("pott" finds "pottery"), with stemming (SQLite's porter,
 * PostgreSQL's english configuration, which also drops stop words: a query of stop words only is no query).
 *
 * Relevance with a query, in levels (SEARCH_LEVELS), each course in the highest level it reaches:
 *   5  the course is named exactly as the query (case and outer spaces aside);
 *   4  every word of the query is in the course name;
 *   3  every word is in the name, the educator's name or the keyword;
 *   2  every word is in those or the category or the city;
 *   1  the course matches only thanks to its description.
 * Within a level, and without a query: popularity (rating × review count), then newest, then id.
 * Every sort ends with newest, then id, so pages are stable; ids compare byte by byte on both engines.
 *
 * The total is counted exactly up to the next multiple of SEARCH_COUNT_STEP past the page; when more match,
 * `total` is that number and `total_capped` is true ("100+ courses"). On PostgreSQL, that more match is told by
 * counts kept for up to a minute (a page that comes out short always tells its exact total). Pages end at
 * SEARCH_MAX_RESULTS.
 *
 * Usable at build time by pages: `searchCourses(db, {educatorRefs: [id], size: 11}, {now})`.
 */
import type SQLite from 'better-sqlite3';
import { CompiledQuery, PostgresAdapter, sql } from 'kysely';
import { rawHandlesOf, type Db } from '../client.ts';
import { isBusyError } from '../sqlite-driver.ts';
import { loadCourseCards, type CourseCard } from './course-cards.ts';
import { PRICE_BANDS } from '../migrations/0110_search_facets.ts';
import { isSoldOut } from '../../src/domain/pricing.ts';
import { nextFromUpcoming, salesEndOf, type UpcomingDates } from '../../src/domain/next-date.ts';

export const SEARCH_SORTS = ['relevance', 'newest', 'price_asc', 'price_desc'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];
export const SEARCH_DELIVERIES = ['online', 'in-person', 'hybrid', 'on-demand', 'on-request'] as const;
export type SearchDelivery = (typeof SEARCH_DELIVERIES)[number];
/** course_search.delivery_mask bits (migration 0040). */
export const SEARCH_DELIVERY_BITS: Record<SearchDelivery, number> = { online: 1, 'in-person': 2, hybrid: 4, 'on-demand': 8, 'on-request': 16 };
/** Spec 9: carousels fetch 11. */
export const SEARCH_DEFAULT_SIZE = 11;
export const SEARCH_MAX_SIZE = 50;
/** The total is exact up to the next multiple of this past the page's last result. */
export const SEARCH_COUNT_STEP = 100;
/** No page reaches past this many results (page × size). */
export const SEARCH_MAX_RESULTS = 10_000;
/** Relevance levels, best first (see above). */
export const SEARCH_LEVELS = [5, 4, 3, 2, 1] as const;
type Level = (typeof SEARCH_LEVELS)[number];

/**
 * SQLite's course_search.key: courses in order of (popularity desc, created_at desc) in groups of equal
 * whole popularity and creation hour, key = group × 2^17 + a free slot. FTS5 returns matches in key order,
 * so a page reads rows up to the end of the group of its last row and sorts only those exactly.
 * (Migration 0040 computes it; keys stay below 2^53 so JavaScript reads them exactly.)
 */
export const SEARCH_KEY = { groupShift: 131072 } as const;

export interface CourseSearchParams {
  /** Free text; '' or absent lists everything that passes the filters. */
  query?: string | null;
  /** Only these educators' courses (the spec's filter `educator_ref: [id]`). */
  educatorRefs?: readonly string[] | null;
  categorySlug?: string | null;
  /** Any of these delivery modes. */
  delivery?: readonly SearchDelivery[] | null;
  /**
   * Pence; a course matches when its price range (coursePriceRange) meets [priceMin, priceMax].
   * Courses without a price (price on enquiry) are then left out.
   */
  priceMin?: number | null;
  priceMax?: number | null;
  sort?: SearchSort;
  /** 1-based. */
  page?: number;
  size?: number;
}

export interface CourseSearchResult {
  results: CourseCard[];
  /** Matches counted; a lower bound when total_capped is present. */
  total: number;
  /** Present (true) only when more courses match than `total`. */
  total_capped?: true;
  page: number;
  size: number;
}

/** The words of a query: letters and digits only (so nothing reaches a full-text parser unescaped). */
export function queryTerms(query: string | null | undefined): string[] {
  if (!query) return [];
  return (query.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 12).map((t) => t.slice(0, 50));
}

/** FTS5 MATCH expression: every term, each as a prefix. */
export function ftsMatchExpression(terms: readonly string[]): string {
  return terms.map((t) => `"${t}"*`).join(' AND ');
}

/** PostgreSQL to_tsquery text: every term, each as a prefix. */
export function tsQueryText(terms: readonly string[]): string {
  return terms.map((t) => `${t}:*`).join(' & ');
}

/** Per database: how to_tsquery('english') reads each query's words. */
const pgTsQueries = new WeakMap<object, Map<string, string>>();

/**
 * PostgreSQL: the words as to_tsquery('english') makes them (stemmed prefixes, stop words gone), as tsquery
 * text; '' when only stop words are left. Read once per query and kept: it depends on the words alone.
 */
async function pgTsQuery(db: Db, terms: readonly string[]): Promise<string> {
  const text = tsQueryText(terms);
  const owner = rawHandlesOf(db)?.pgPool ?? db;
  let kept = pgTsQueries.get(owner);
  if (!kept) pgTsQueries.set(owner, (kept = new Map()));
  let tsQuery = kept.get(text);
  if (tsQuery === undefined) {
    const [row] = await read<{ q: string }>(db, new Stmt(true).s(`select to_tsquery('english', `).v(text).s(')::text as q'));
    tsQuery = row?.q ?? '';
    if (kept.size >= 10_000) kept.clear();
    kept.set(text, tsQuery);
  }
  return tsQuery;
}

/** Also true of a transaction on PostgreSQL (dialectOfDb knows only the handles openDb made). */
function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The key of the exact-name level: the query as course_search.name_key holds names. */
function nameKey(query: string | null | undefined): string {
  return (query ?? '').trim().toLowerCase();
}

export interface Filters {
  educatorRefs: readonly string[];
  categorySlug: string | null;
  deliveryMask: number;
  priceMin: number | null;
  priceMax: number | null;
}

export const NO_FILTERS: Filters = { educatorRefs: [], categorySlug: null, deliveryMask: 0, priceMin: null, priceMax: null };

function filtersOf(params: CourseSearchParams): Filters {
  return {
    educatorRefs: params.educatorRefs ?? [],
    categorySlug: params.categorySlug || null,
    deliveryMask: (params.delivery ?? []).reduce((mask, mode) => mask | SEARCH_DELIVERY_BITS[mode], 0),
    priceMin: typeof params.priceMin === 'number' ? params.priceMin : null,
    priceMax: typeof params.priceMax === 'number' ? params.priceMax : null,
  };
}

/**
 * A statement's text and parameters, written without the query builder: search runs several statements per
 * request, and building and compiling them through kysely cost more than SQLite takes to run most of them.
 * The same shape of search always writes the same text, so prepared statements are reused.
 */
class Stmt {
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
async function read<R>(db: Db, st: Stmt): Promise<R[]> {
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
async function readTuples<T extends unknown[]>(db: Db, st: Stmt): Promise<T[]> {
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
async function readColumn<T>(db: Db, st: Stmt): Promise<T[]> {
  return (await readTuples<[T]>(db, st)).map((tuple) => tuple[0]);
}

/** Conditions on course_search `s` (published courses only). `facetsInMatch` leaves out what an FTS5 match already checks. */
function filterConditions(st: Stmt, f: Filters, facetsInMatch = false): Stmt {
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

/**
 * PostgreSQL: whether a level text (`doc`) matches the words (`tsQuery`, as pgTsQuery made it) and the filter's
 * delivery modes and price bands, which every level text carries as facets (migration 0110), so that one GIN
 * condition serves them all (the exact price test stays among the filters: a band is wider than a bound). The
 * tsquery is one parameter of type tsquery, read once per execution, so a plan kept for a statement does not
 * parse it again for every row. `walk`: the function form, which tests the same but which no GIN index can
 * serve (see postgresLevelSelect). A query of stop words only has no lexemes: then every course matches, as
 * with no query (the filters then do all the work).
 */
function pgMatch(st: Stmt, doc: string, tsQuery: string, filters: Filters, walk = false): Stmt {
  if (tsQuery === '') return st.s('true');
  const facets = facetQuery(filters);
  st.s(walk ? `ts_match_vq(${doc}, ` : `${doc} @@ `).v(facets ? `(${tsQuery}) & ${facets}` : tsQuery).s('::tsquery');
  return walk ? st.s(')') : st;
}

/** A price's band among PRICE_BANDS, as PostgreSQL's width_bucket gives it (migration 0110). */
export function priceBand(pence: number): number {
  return PRICE_BANDS.filter((bound) => bound <= pence).length;
}

/**
 * The facet tokens (PostgreSQL: migration 0110; SQLite: 0130) a course must carry to pass the delivery and price
 * filters: a list of groups, each met by any one of its tokens. A price bound's band is only partly in: the exact
 * test stays a filter.
 */
function facetGroups(filters: Pick<Filters, 'deliveryMask' | 'priceMin' | 'priceMax'>): string[][] {
  const bands = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const groups: string[][] = [];
  if (filters.deliveryMask) {
    groups.push(Object.values(SEARCH_DELIVERY_BITS).filter((bit) => filters.deliveryMask & bit).map((bit) => `§d${bit}`));
  }
  if (filters.priceMin !== null) groups.push(bands(priceBand(filters.priceMin), PRICE_BANDS.length).map((band) => `§t${band}`));
  if (filters.priceMax !== null) groups.push(bands(0, priceBand(filters.priceMax)).map((band) => `§f${band}`));
  return groups;
}

/** PostgreSQL: the facet tokens of the delivery and price filters as tsquery text; null when neither is set. */
export function facetQuery(filters: Pick<Filters, 'deliveryMask' | 'priceMin' | 'priceMax'>): string | null {
  const groups = facetGroups(filters);
  return groups.length > 0 ? groups.map((group) => `(${group.map((token) => `'${token}'`).join(' | ')})`).join(' & ') : null;
}

function orderBy(sort: SearchSort, postgres: boolean): string {
  // Byte order for ids on PostgreSQL too, whatever the database's collation, as SQLite compares them.
  const id = postgres ? 's.course_id collate "C"' : 's.course_id';
  const popular = `s.popularity desc, s.created_at desc, ${id}`;
  switch (sort) {
    case 'newest':
      return `s.created_at desc, ${id}`;
    case 'price_asc':
      return `(s.from_price is null), s.from_price, ${popular}`;
    case 'price_desc':
      return `(s.to_price is null), s.to_price desc, ${popular}`;
    default:
      return popular;
  }
}

/** Ids of the matching courses for one page, in order, and how many match (see the total above). */
export async function searchCourseIds(
  db: Db,
  params: CourseSearchParams,
): Promise<{ ids: string[]; total: number; capped: boolean; page: number; size: number }> {
  const { cardRows: _cards, ...found } = await findPage(db, params, false);
  return found;
}

/** A page of ids, the total, and (PostgreSQL, when asked and a statement could read them along) the page's stored cards. */
interface FoundPage {
  ids: string[];
  total: number;
  capped: boolean;
  page: number;
  size: number;
  cardRows?: StoredCardRow[];
}

async function findPage(db: Db, params: CourseSearchParams, withCards: boolean): Promise<FoundPage> {
  const page = Math.max(1, Math.floor(params.page ?? 1));
  const size = Math.min(SEARCH_MAX_SIZE, Math.max(1, Math.floor(params.size ?? SEARCH_DEFAULT_SIZE)));
  const sort = params.sort ?? 'relevance';
  const terms = queryTerms(params.query);
  const filters = filtersOf(params);
  const end = page * size;
  const countTo = Math.ceil((end + 1) / SEARCH_COUNT_STEP) * SEARCH_COUNT_STEP;
  // One row past the count tells whether more match.
  const limit = countTo + 1;
  const postgres = isPostgres(db);

  const offset = (page - 1) * size;
  let found: { ids: string[]; counted: number; cardRows?: StoredCardRow[] };
  if (terms.length === 0 || sort !== 'relevance') {
    found = postgres
      ? await sortedPostgres(db, terms.length > 0 ? await pgTsQuery(db, terms) : null, filters, sort, { offset, end, limit }, withCards)
      : await sorted(db, terms, filters, sort, { offset, size, limit });
  } else {
    if (postgres) {
      // Reading a level through its GIN index costs what the words, delivery modes and price bands match (the
      // index holds them all, migration 0110); walking it in popularity order, what it takes to pass enough
      // courses that match them: both are told by the same counts.
      const tsQuery = await pgTsQuery(db, terms);
      const counts = await postgresLevelCounts(db, tsQuery, params.query, {
        ...NO_FILTERS, deliveryMask: filters.deliveryMask, priceMin: filters.priceMin, priceMax: filters.priceMax,
      });
      // The counts also tell the total (level 1 holds every match): when more courses match than the total
      // counts to, only the page's rows need reading (reading on to the count's limit cost the walks four
      // times the rows of a first page). Counts are kept for a while, so should the page come out short
      // (courses gone since), the rows read are the total.
      const narrower = filters.educatorRefs.length > 0 || filters.categorySlug !== null;
      const everyFilter = narrower ? await postgresLevelCounts(db, tsQuery, params.query, filters) : counts;
      const many = everyFilter[1] > countTo;
      const want = many ? end : limit;
      const window = withCards ? { offset, end } : null;
      const start = (await postgresFewLevels(db, tsQuery, params.query, filters, want, counts, window))
        ?? (await postgresTopLevels(db, tsQuery, params.query, filters, want, counts, window));
      const rows = await ranked(postgresLevels(db, tsQuery, params.query, filters, counts, window), want, start);
      const onPage = rows.slice(offset, end);
      found = {
        ids: onPage.map((r) => r.id),
        counted: many && rows.length >= end ? limit : rows.length,
        ...(withCards ? { cardRows: onPage.flatMap((r) => (r.card ? [r.card] : [])) } : {}),
      };
    } else {
      const ordered = await ranked(sqliteLevels(db, terms, params.query, filters, { offset, end }), limit);
      const ids = ordered.slice(offset, end).map((r) => r.id);
      if (ids.includes('')) throw new Error('a row of the page was read without its id');
      found = { ids, counted: ordered.length };
    }
  }
  return { ids: found.ids, total: Math.min(found.counted, countTo), capped: found.counted > countTo, page, size, cardRows: found.cardRows };
}

/** One page of course cards and the total number of matches. */
export async function searchCourses(db: Db, params: CourseSearchParams, options: { now: number }): Promise<CourseSearchResult> {
  const { ids, total, capped, page, size } = await searchCourseIds(db, params);
  const results = await loadCourseCards(db, ids, options);
  return { results, total, ...(capped ? { total_capped: true as const } : {}), page, size };
}

/**
 * SQLite, no query or a query sorted by newest or price: the matches in that order off an index of
 * course_search, and a count that stops at the limit. A query here sorts every match (no index holds both
 * words and price order), so it costs in proportion to how many courses match.
 */
async function sorted(
  db: Db, terms: string[], filters: Filters, sort: SearchSort, window: { offset: number; size: number; limit: number },
): Promise<{ ids: string[]; counted: number }> {
  let match: string | null = null;
  if (terms.length > 0) {
    match = await sqliteMatch(db, terms, filters);
    if (match === null) return { ids: [], counted: 0 };
  }
  const where = (st: Stmt) => {
    if (match !== null) {
      st.s('s.key in (select rowid from course_search_l1 where course_search_l1 match ').v(match).s(') and ');
      return filterConditions(st, filters, true);
    }
    return filterConditions(st, filters);
  };
  const order = orderBy(sort, false);
  const pageSt = where(new Stmt(false).s('select s.course_id from course_search s where '))
    .s(` order by ${order} limit `).n(window.size).s(' offset ').n(window.offset);
  // Ordered like the page, so the count walks the same (covering) index and stops at the limit.
  const countSt = where(new Stmt(false).s('select count(*) as n from (select 1 from course_search s where '))
    .s(` order by ${order} limit `).n(window.limit).s(') m');
  const [ids, count] = await Promise.all([readColumn<string>(db, pageSt), read<{ n: number | string }>(db, countSt)]);
  return { ids, counted: Number(count[0]?.n ?? 0) };
}

/** What sortedPostgres reads per row. */
interface SortedRow extends Partial<StoredCardRow> {
  course_id: string;
  rn: number | string;
  n: number | string;
}

/**
 * PostgreSQL: `sorted` in one statement, so one round trip and one plan: the first `limit` matches in order,
 * numbered, of which it returns the page's rows (with their stored cards when asked) and the last one, whose
 * number is the count.
 */
async function sortedPostgres(
  db: Db, tsQuery: string | null, filters: Filters, sort: SearchSort, window: { offset: number; end: number; limit: number }, withCards: boolean,
): Promise<{ ids: string[]; counted: number; cardRows?: StoredCardRow[] }> {
  const order = orderBy(sort, true);
  const st = new Stmt(true).s(`select m.course_id, m.rn, m.n${withCards ? ', c.version, c.card, c.upcoming, c.computed_at' : ''}
    from (select s.course_id, row_number() over (order by ${order}) as rn, count(*) over () as n
      from (select s.course_id, s.popularity, s.created_at, s.from_price, s.to_price from course_search s where `);
  if (tsQuery !== null) {
    st.reusePlan = false;
    pgMatch(st, 's.doc_l1', tsQuery, filters).s(' and ');
  }
  filterConditions(st, filters).s(` order by ${order} limit `).n(window.limit).s(') s) m');
  if (withCards) {
    st.s(' left join search_cards c on c.course_id = m.course_id and m.rn > ').n(window.offset).s(' and m.rn <= ').n(window.end);
  }
  st.s(' where (m.rn > ').n(window.offset).s(' and m.rn <= ').n(window.end).s(') or m.rn = m.n order by m.rn');
  const rows = await read<SortedRow>(db, st);
  const onPage = rows.filter((r) => Number(r.rn) > window.offset && Number(r.rn) <= window.end);
  return {
    ids: onPage.map((r) => r.course_id),
    counted: Number(rows[0]?.n ?? 0),
    ...(withCards
      ? { cardRows: onPage.filter((r) => r.version !== null && r.version !== undefined) as StoredCardRow[] }
      : {}),
  };
}

/** A level's matches in rank order: the first `limit` rows that are not among `taken` (the rows of better levels). */
type LevelReader = (level: Level, limit: number, taken: readonly Ranked[]) => Promise<Ranked[]>;
interface Ranked {
  id: string;
  /** SQLite's course_search.key. */
  key?: number;
  /** PostgreSQL: the stored card, read along when the row may be on the page (see pgWithCards). */
  card?: StoredCardRow;
}

/**
 * Relevance: level by level, best first, until `limit` rows are in hand. Levels are nested (a course in
 * level 4 is also in 3, 2 and 1), so each level skips the rows already taken; a lower level is read only
 * when the ones above are exhausted, so `taken` stays shorter than `limit`.
 */
async function ranked(readLevel: LevelReader, limit: number, start: { taken: Ranked[]; levels: readonly Level[] } = { taken: [], levels: SEARCH_LEVELS }): Promise<Ranked[]> {
  const taken = start.taken.slice(0, limit);
  for (const level of start.levels) {
    if (taken.length >= limit) break;
    const rows = await readLevel(level, limit - taken.length, taken);
    taken.push(...rows);
    if (taken.length >= limit) break;
  }
  return taken;
}

/**
 * How search reads, never what it answers (tests set them to take each way). PostgreSQL: a level whose words
 * match at most `postgresFewMatches` courses is read together with the levels above it; `postgresCountCap`: the
 * matches counted per level, at most (a count above postgresFewMatches only says "many").
 */
export const SEARCH_TUNING = { postgresFewMatches: 600, postgresCountCap: 1000 };
/**
 * How long a count of a query's matches per level is trusted. It chooses how to read, never what, and says
 * whether more courses match than a total counts to, which only mass unpublishing could make untrue meanwhile.
 */
const PG_COUNTS_SECONDS = 60;
/** Matches per level; 5, the exact name, only says whether any course has it (PostgreSQL). */
type LevelCounts = Record<1 | 2 | 3 | 4 | 5, number>;
/** Per database (each has its own catalogue), per query and filters. */
const pgLevelCounts = new WeakMap<object, Map<string, { counts: LevelCounts; at: number }>>();

/**
 * How many courses a query's words match at each level (levels 5 to 1) among the courses that pass `filters`, up
 * to SEARCH_TUNING.postgresCountCap, kept for a while per query and filters: one statement of five short counts,
 * each stopping early.
 *
 * Each level's text holds the one above it (name ⊂ name, educator and keyword ⊂ … ⊂ everything, migration 0040)
 * and the words all have to match, so a level matches at least the courses the level above does: once a level
 * reaches the cap, the wider ones below are at the cap too and are not counted. PostgreSQL runs an uncorrelated
 * subquery only when its value is first needed, so each wider count sits in a CASE over the one above, in a derived
 * table of its own (`offset 0`: pulled up into one select, the count above was copied into each CASE and run again
 * for each). A common word's counts went from ~16 to ~5 ms ("course": the name level reaches the cap).
 */
export async function postgresLevelCounts(db: Db, tsQuery: string, query: string | null | undefined, filters: Filters): Promise<LevelCounts> {
  const now = Date.now();
  const cap = Math.max(1, Math.floor(SEARCH_TUNING.postgresCountCap));
  const key = `${cap}\u0000${tsQuery}\u0000${nameKey(query)}\u0000${JSON.stringify(filters)}`;
  const owner = rawHandlesOf(db)?.pgPool ?? db;
  let kept = pgLevelCounts.get(owner);
  if (!kept) pgLevelCounts.set(owner, (kept = new Map()));
  const known = kept.get(key);
  if (known && now - known.at < PG_COUNTS_SECONDS * 1000) return known.counts;
  const st = new Stmt(true);
  st.reusePlan = false;
  const count = (level: 4 | 3 | 2 | 1) => {
    st.s('(select count(*) from (select 1 from course_search s where ');
    filterConditions(pgMatch(st, `s.doc_l${level}`, tsQuery, filters).s(' and '), filters);
    st.s(` limit ${cap}) m)`);
  };
  // From the outside in: level 1's count if level 2's is under the cap, level 2's if level 3's is, and so on.
  const unlessAboveFull = (level: 3 | 2 | 1, known: string) => {
    st.s(`select ${known}, case when c${level + 1} >= ${cap} then ${cap} else `);
    count(level);
    st.s(` end as c${level} from (`);
  };
  unlessAboveFull(1, 'c5, c4, c3, c2');
  unlessAboveFull(2, 'c5, c4, c3');
  unlessAboveFull(3, 'c5, c4');
  st.s('select (select count(*) from (select 1 from course_search s where s.name_key = ').v(nameKey(query)).s(' and ');
  filterConditions(pgMatch(st, 's.doc_l4', tsQuery, filters).s(' and '), filters);
  st.s(` limit ${cap}) m) as c5, `);
  count(4);
  st.s(' as c4 offset 0) l4 offset 0) l3 offset 0) l2');
  const [row] = await read<Record<'c1' | 'c2' | 'c3' | 'c4' | 'c5', number | string>>(db, st);
  const counts = { 5: Number(row?.c5 ?? 0), 4: Number(row?.c4 ?? 0), 3: Number(row?.c3 ?? 0), 2: Number(row?.c2 ?? 0), 1: Number(row?.c1 ?? 0) };
  if (kept.size >= 10_000) kept.clear();
  kept.set(key, { counts, at: now });
  return counts;
}

/** What a level statement gives back per row: the course, and its stored card when read along. */
type LevelRow = { course_id: string } & Partial<Omit<StoredCardRow, 'course_id'>>;

/** Where the page lies among the rows of a search: after `offset` rows, up to `end`. */
interface PageWindow {
  offset: number;
  end: number;
}

/**
 * PostgreSQL: a level statement (`build` appends it; it gives course_id, level, popularity and created_at in rank
 * order) with the stored cards of the rows that may be on the page read along, so that a search with words
 * needs no statement of its own for its page's cards. Each course once, at its best level; the statement's
 * rows are then the new ones in rank order with at most `taken` (rows found by the statements before it) among
 * them, so the row at place p of the statement is at place p to p + taken of the search: those that can
 * reach the page are read along. Without a window, the statement as it is.
 */
function pgWithCards(st: Stmt, page: PageWindow | null, taken: number, build: () => void): Stmt {
  if (!page) {
    build();
    return st;
  }
  st.s(`select x.course_id, c.version, c.card, c.upcoming, c.computed_at from (
    select y.course_id, row_number() over (order by y.level desc, y.popularity desc, y.created_at desc, y.course_id collate "C") as rn
    from (select distinct on (z.course_id) z.* from (`);
  build();
  // The key is null off the window, so those rows cost no look-up (a join filter would look each up first).
  return st.s(') z order by z.course_id, z.level desc) y) x left join search_cards c on c.course_id = case when x.rn > ')
    .n(Math.max(0, page.offset - taken)).s(' and x.rn <= ').n(page.end).s(' then x.course_id end order by x.rn');
}

/** Rows as `ranked` takes them, each with its card when one was read along. */
function rankedRows(rows: LevelRow[]): Ranked[] {
  return rows.map(({ course_id: id, version, card = null, upcoming = null, computed_at = null }) =>
    (version === null || version === undefined ? { id } : { id, card: { course_id: id, version, card, upcoming, computed_at } }));
}

/**
 * PostgreSQL: when few courses match the words at some level, every level from the exact name down to it is
 * read in one statement (through that level's GIN index, each row ranked by the best level it reaches) instead
 * of one statement per level; the levels below are then read one by one as usual. Undefined when even the
 * name level has many matches.
 */
async function postgresFewLevels(
  db: Db, tsQuery: string, query: string | null | undefined, filters: Filters, limit: number, counts: LevelCounts, page: PageWindow | null,
): Promise<{ taken: Ranked[]; levels: Level[] } | undefined> {
  const widest = ([1, 2, 3, 4] as const).find((level) => counts[level] <= SEARCH_TUNING.postgresFewMatches);
  if (widest === undefined) return undefined;
  // Named (see PG_STATEMENT_NAMES): whatever the words, the plan is a bitmap of the widest level's GIN index.
  const st = new Stmt(true);
  const match = (level: number) => pgMatch(st, `s.doc_l${level}`, tsQuery, filters);
  pgWithCards(st, page, 0, () => {
    st.s('select s.course_id, s.popularity, s.created_at, case when s.name_key = ').v(nameKey(query)).s(' and ');
    match(4);
    st.s(' then 5');
    for (const level of [4, 3, 2] as const) {
      if (level <= widest) break;
      st.s(' when ');
      match(level);
      st.s(` then ${level}`);
    }
    st.s(` else ${widest} end as level from course_search s where `);
    match(widest);
    st.s(' and ');
    filterConditions(st, filters).s(` order by level desc, ${orderBy('relevance', true)} limit `).n(limit);
  });
  const rows = await read<LevelRow>(db, st);
  return { taken: rankedRows(rows), levels: SEARCH_LEVELS.filter((level) => level < widest) };
}

/**
 * Appends the select of one level's matches on PostgreSQL: `limit` rows in rank order, with the sort columns.
 * Many matches among the courses that pass the filters the level texts carry (`walkCounts`): walk the popularity
 * index (migration 0042 carries the level texts, so the walk reads the index alone) until the page is full. The
 * function form of @@ is the same test, but the GIN index cannot serve it, so the planner cannot pick a bitmap
 * of thousands of rows to sort, which it does when it underestimates prefix matches. Fewer: the planner chooses.
 */
function postgresLevelSelect(
  st: Stmt, level: Level, tsQuery: string, query: string | null | undefined, filters: Filters, walkCounts: LevelCounts, limit: number,
): Stmt {
  const doc = `s.doc_l${level === 5 ? 4 : level}`;
  const walk = level < 5 && walkCounts[level as 1 | 2 | 3 | 4] > SEARCH_TUNING.postgresFewMatches;
  st.s(`select s.course_id, ${level} as level, s.popularity, s.created_at from course_search s where `);
  // The filters are written first: PostgreSQL tests a row's conditions of equal cost in the order written, and
  // a walk passes thousands of rows whose words cost far more to test than a price or a category.
  filterConditions(st, filters).s(' and ');
  pgMatch(st, doc, tsQuery, filters, walk);
  // The exact name is found by its index whatever the words, and a walk is a walk whatever they are: one plan
  // serves every query (see PG_STATEMENT_NAMES). Else the plan depends on the words.
  if (level === 5) st.s(' and s.name_key = ').v(nameKey(query));
  else if (!walk) st.reusePlan = false;
  return st.s(` order by ${orderBy('relevance', true)} limit `).n(limit);
}

function postgresLevels(db: Db, tsQuery: string, query: string | null | undefined, filters: Filters, walkCounts: LevelCounts, page: PageWindow | null): LevelReader {
  return async (level, limit, taken) => {
    // Asking for `taken` more rows and dropping them keeps the planner's estimates right (a NOT on the
    // better levels would hide how few rows a level really has).
    const st = new Stmt(true);
    pgWithCards(st, page, taken.length, () => postgresLevelSelect(st, level, tsQuery, query, filters, walkCounts, limit + taken.length));
    const rows = await read<LevelRow>(db, st);
    const skip = new Set(taken.map((r) => r.id));
    return rankedRows(rows.filter((r) => !skip.has(r.course_id)).slice(0, limit));
  };
}

/**
 * PostgreSQL, when no level has few matches: the exact name and the name level in one statement (the exact
 * name's read is a look-up by name, so it costs nothing to run it along), as `ranked` would read them one
 * after the other: level 4 reads `limit` rows, of which those not exactly named follow the exact names. When
 * no course has the exact name (the counts say so, as of when they were taken), the name level alone: a walk
 * that one plan serves, where PostgreSQL plans the pair anew for every query (its estimate of a look-up by
 * name makes a kept plan look dearer). A course newly given the exact name then ranks among the name level
 * until the counts are taken again, within PG_COUNTS_SECONDS.
 */
async function postgresTopLevels(
  db: Db, tsQuery: string, query: string | null | undefined, filters: Filters, limit: number, walkCounts: LevelCounts, page: PageWindow | null,
): Promise<{ taken: Ranked[]; levels: Level[] }> {
  const st = new Stmt(true);
  pgWithCards(st, page, 0, () => {
    if (walkCounts[5] === 0) {
      postgresLevelSelect(st, 4, tsQuery, query, filters, walkCounts, limit);
      return;
    }
    st.s('select u.course_id, u.level, u.popularity, u.created_at from ((');
    postgresLevelSelect(st, 5, tsQuery, query, filters, walkCounts, limit).s(') union all (');
    postgresLevelSelect(st, 4, tsQuery, query, filters, walkCounts, limit).s(`)) u order by u.level desc, u.popularity desc, u.created_at desc, u.course_id collate "C"`);
  });
  const rows = await read<LevelRow>(db, st);
  const seen = new Set<string>();
  const unique = rows.filter((row) => !seen.has(row.course_id) && Boolean(seen.add(row.course_id)));
  return { taken: rankedRows(unique).slice(0, limit), levels: [3, 2, 1] };
}

/** Hex of the UTF-8 bytes, as SQLite's hex() writes a facet token's id (migration 0040). */
function facetId(id: string): string {
  return `${Buffer.from(id, 'utf8').toString('hex')}0`;
}

/**
 * The FTS5 match for SQLite's level tables: the words, and the facets the filters name (educator, category,
 * delivery mode, price bands). Null when the category does not exist, so nothing can match.
 */
async function sqliteMatch(db: Db, terms: readonly string[], filters: Filters): Promise<string | null> {
  const parts = [ftsMatchExpression(terms)];
  if (filters.categorySlug) {
    const [category] = await read<{ id: string }>(db, new Stmt(false).s('select id from categories where slug = ').v(filters.categorySlug));
    if (!category) return null;
    parts.push(`"§c${facetId(category.id)}"`);
  }
  if (filters.educatorRefs.length > 0) parts.push(`(${filters.educatorRefs.map((id) => `"§e${facetId(id)}"`).join(' OR ')})`);
  for (const group of facetGroups(filters)) parts.push(`(${group.map((token) => `"${token}"`).join(' OR ')})`);
  return parts.join(' AND ');
}

/**
 * SQLite's levels in rank order. Rows outside the page (`page`, positions among all levels) carry their key
 * alone (an empty id): they are counted and skipped, never shown.
 */
function sqliteLevels(db: Db, terms: string[], query: string | null | undefined, filters: Filters, page: PageWindow): LevelReader {
  let matchPromise: Promise<string | null> | null = null;
  // Only the exact price range is left to check against course_search (the match has its bands); the other
  // filters are facets in the match.
  const hasResidual = filters.priceMin !== null || filters.priceMax !== null;
  const relevance = orderBy('relevance', false);
  return async (level, limit, taken) => {
    const match = await (matchPromise ??= sqliteMatch(db, terms, filters));
    if (match === null || limit <= 0) return [];
    if (level === 5) {
      // Few courses share a name: find them by name, then check each against the name level.
      const st = new Stmt(false).s('select s.key, s.course_id from course_search s indexed by course_search_name where s.name_key = ').v(nameKey(query)).s(' and ');
      filterConditions(st, filters)
        .s(' and exists (select 1 from course_search_l4 f where f.rowid = s.key and f.course_search_l4 match ').v(match)
        .s(`) order by ${relevance} limit `).v(limit);
      const rows = await read<{ key: number; course_id: string }>(db, st);
      return rows.map((r) => ({ id: r.course_id, key: r.key }));
    }
    const table = `course_search_l${level}`;
    // CROSS JOIN keeps FTS5 as the outer loop, handing out matches in key order and stopping at the limit.
    const from = hasResidual ? `from ${table} f cross join course_search s on s.key = f.rowid` : `from ${table} f`;
    // Reads go forward from a key: FTS5 reads a doclist from its start when given an upper rowid bound
    // (and a NOT IN on the rowid slows it as much), so rows already taken are skipped here instead.
    const skip = new Set(taken.map((r) => r.key));
    const keysAfter = async (after: number | null, count: number) => {
      const st = new Stmt(false).s(`select f.rowid as key ${from} where f.${table} match `).v(match);
      if (hasResidual) filterConditions(st.s(' and '), filters, true);
      if (after !== null) st.s(' and f.rowid > ').v(after);
      st.s(' order by f.rowid limit ').v(count);
      return readColumn<number>(db, st);
    };
    // Better levels' rows are in this level too (levels nest), so `taken` more rows hold `limit` new ones.
    const asked = limit + skip.size;
    const got = await keysAfter(null, asked);
    const fresh = got.filter((key) => !skip.has(key));
    const keys = fresh.slice(0, limit);
    if (keys.length === 0) return [];
    // Keys come in rank order but within a group (SEARCH_KEY). Only the rows on the page need their ids and
    // their exact order; the others are only counted, or skipped by key in the levels below (which are read
    // only once this one has run out). So only the groups the page reaches are read from course_search (CROSS
    // JOIN again) and sorted: a lookup costs about a microsecond a row, and a first page counts four times the
    // rows it shows (a deep one, twenty).
    const groupOf = (key: number) => Math.floor(key / SEARCH_KEY.groupShift);
    const counted = (key: number): Ranked => ({ id: '', key });
    const pageFrom = Math.max(0, page.offset - taken.length);
    const pageTo = Math.min(keys.length, page.end - taken.length);
    if (pageFrom >= pageTo) return keys.map(counted);
    let first = pageFrom;
    while (first > 0 && groupOf(keys[first - 1]) === groupOf(keys[pageFrom])) first--;
    let last = pageTo;
    while (last < keys.length && groupOf(keys[last]) === groupOf(keys[pageTo - 1])) last++;
    const sorting = keys.slice(first, last);
    if (last === limit) {
      // The page reaches the group of the level's last row, some of whose rows further on may rank above it:
      // the whole group is sorted.
      const group = groupOf(keys[limit - 1]);
      sorting.push(...fresh.slice(limit).filter((key) => groupOf(key) === group));
      let after = got[got.length - 1];
      for (let more = got.length === asked && groupOf(got[got.length - 1]) === group; more;) {
        const next = await keysAfter(after, GROUP_READ);
        const inGroup = next.filter((key) => groupOf(key) === group);
        sorting.push(...inGroup.filter((key) => !skip.has(key)));
        more = inGroup.length === GROUP_READ;
        after = next[next.length - 1];
      }
    }
    const rows = await readTuples<[number, string]>(db, new Stmt(false)
      .s('select s.key, s.course_id from json_each(').v(JSON.stringify(sorting))
      .s(`) k cross join course_search s on s.key = k.value order by ${relevance}`));
    // A course unpublished between the statements is left out, as it would be from a single statement.
    const exact = rows.map(([key, id]) => ({ id, key }));
    return [...keys.slice(0, first).map(counted), ...exact, ...keys.slice(last).map(counted)].slice(0, limit);
  };
}

/** Rows read at a time while completing a key group. */
const GROUP_READ = 64;

const SQLITE_LEVEL_TABLES = ['course_search_l4', 'course_search_l3', 'course_search_l2', 'course_search_l1'];

/**
 * Empties the search index. Deleting courses keeps it in step anyway; this makes a bulk reset of the
 * catalogue faster on SQLite (one command per FTS5 table instead of a delete per row).
 */
export async function clearSearchIndex(db: Db, options: { cards?: boolean } = {}): Promise<void> {
  if (!isPostgres(db)) {
    for (const table of SQLITE_LEVEL_TABLES) await sql`insert into ${sql.table(table)} (${sql.ref(table)}) values ('delete-all')`.execute(db);
  }
  await sql`delete from course_search`.execute(db);
  // Stored cards too (migration 0041): a reset then spares their triggers a row to touch per deleted row.
  if (options.cards ?? true) await sql`delete from search_cards`.execute(db);
}

/**
 * Rebuilds the whole search index from the view course_search_source (migration 0040). Triggers keep it
 * current on every write, so this is a repair tool (e.g. after loading rows with triggers disabled), and
 * merges SQLite's FTS5 segments for the fastest reads after a bulk load (optimizeSearchIndex).
 */
export async function rebuildSearchIndex(db: Db): Promise<void> {
  await db.transaction().execute(async (tx) => {
    // Stored cards keep their rows: their versions move on, so no card computed before this is stored after it.
    await clearSearchIndex(tx, { cards: false });
    if (!isPostgres(db)) {
      // An empty table: slots count from 0 in each key group; the insert trigger writes the FTS5 rows.
      await sql.raw(`insert into course_search (key, ${FACT_COLUMNS})
        select g * ${SEARCH_KEY.groupShift} + row_number() over (partition by g order by course_id) - 1, ${FACT_COLUMNS}
        from course_search_source`).execute(tx);
    } else {
      const all = `${FACT_COLUMNS}, doc_l4, doc_l3, doc_l2, doc_l1`;
      await sql.raw(`insert into course_search (${all}) select ${all} from course_search_source`).execute(tx);
    }
    // Stored cards (migration 0041) are computed again on their next search.
    await sql`update search_cards set version = version + 1, card = null`.execute(tx);
    await sql`insert into search_cards (course_id) select id from courses where id not in (select course_id from search_cards)`.execute(tx);
  });
  await optimizeSearchIndex(db);
}

const FACT_COLUMNS = 'course_id, published, educator_id, category_id, delivery_mask, from_price, to_price, popularity, created_at, name_key';

/** Merges SQLite's FTS5 segments into one (after bulk loads); PostgreSQL only refreshes its statistics. */
export async function optimizeSearchIndex(db: Db): Promise<void> {
  if (!isPostgres(db)) {
    for (const table of SQLITE_LEVEL_TABLES) await sql`insert into ${sql.table(table)} (${sql.ref(table)}) values ('optimize')`.execute(db);
  } else {
    // Vacuum too: a bulk load leaves dead rows that ordered walks would step over, and cards written twice
    // (filled by triggers, then emptied by the offers and occurrences loaded after them).
    await sql`vacuum analyze course_search`.execute(db);
    await sql`vacuum analyze search_cards`.execute(db);
  }
}

// ------------------------------------------------------------------------------------- stored cards

/** The upcoming dates of courses at `now` (src/domain/next-date.ts; every course given has an entry, maybe empty). */
export async function upcomingDates(db: Db, courseIds: readonly string[], now: number): Promise<Map<string, UpcomingDates>> {
  const result = new Map<string, UpcomingDates>(courseIds.map((id) => [id, []]));
  if (courseIds.length === 0) return result;
  // The same rows nextOccurrenceStarts reads; child sessions that cannot be booked alone never list.
  const occurrences = await db
    .selectFrom('occurrences')
    .select(['id', 'course_id', 'start_datetime', 'parent_ref', 'individually_bookable', 'spaces', 'available_spaces'])
    .where('course_id', 'in', courseIds)
    .where('start_datetime', '>=', now)
    .where('visibility', '=', 'public')
    .orderBy('start_datetime')
    .orderBy('id')
    .execute();
  if (occurrences.length === 0) return result;
  const ids = Array.from(new Set(occurrences.map((o) => o.course_id)));
  const [offers, courses] = await Promise.all([
    db.selectFrom('offers').select(['course_id', 'occurrence_id', 'end_at']).where('course_id', 'in', ids).execute(),
    db.selectFrom('courses').select(['id', 'spaces']).where('id', 'in', ids).execute(),
  ]);
  const courseSpaces = new Map(courses.map((c) => [c.id, c.spaces]));
  const own = new Map<string, Array<{ end_at: number | null }>>();
  const courseWide = new Map<string, Array<{ end_at: number | null }>>();
  for (const o of offers) {
    const [map, key] = o.occurrence_id === null ? [courseWide, o.course_id] : [own, o.occurrence_id];
    const list = map.get(key) ?? [];
    list.push({ end_at: o.end_at === null ? null : Number(o.end_at) });
    map.set(key, list);
  }
  for (const row of occurrences) {
    if (row.parent_ref && !row.individually_bookable) continue;
    if (isSoldOut(row, courseSpaces.get(row.course_id))) continue;
    result.get(row.course_id)?.push([Number(row.start_datetime), salesEndOf(own.get(row.id) ?? [], courseWide.get(row.course_id) ?? [])]);
  }
  return result;
}

interface StoredCardRow {
  course_id: string;
  version: number | string;
  card: string | null;
  upcoming: string | null;
  computed_at: number | string | null;
}

interface PageCard {
  /** The card's JSON with next_occurrence null. */
  card: string;
  upcoming: UpcomingDates;
}

/**
 * The stored card's next date, left null when stored. No string value can hold this text (its quotes would be
 * escaped inside one), so the last occurrence is the card's own key wherever it sits.
 */
const NEXT_NULL = '"next_occurrence":null';

function withNext(card: string, next: number | null): string {
  const at = next === null ? -1 : card.lastIndexOf(NEXT_NULL);
  if (at < 0) return card;
  return `${card.slice(0, at)}"next_occurrence":${next}${card.slice(at + NEXT_NULL.length)}`;
}

/**
 * The cards of courses as stored (migration 0041), computing those not stored yet or changed since, and,
 * with `store`, keeping them for the next search: a card is written only while its row's version is the one
 * read before computing it, so a write that raced the computation leaves the card to be computed again.
 */
async function pageCards(
  db: Db, ids: readonly string[], now: number, store: boolean, prefetched?: StoredCardRow[],
): Promise<Map<string, PageCard>> {
  const cards = new Map<string, PageCard>();
  if (ids.length === 0) return cards;
  // Cards read along with the page's ids; the others (or all) read here.
  const rows = [...(prefetched ?? [])];
  const known = new Set(rows.map((r) => r.course_id));
  const toRead = ids.filter((id) => !known.has(id));
  if (toRead.length > 0) {
    const postgres = isPostgres(db);
    const st = new Stmt(postgres).s('select course_id, version, card, upcoming, computed_at from search_cards where course_id ');
    if (postgres) st.s('= any(').v(toRead).s('::text[])');
    else {
      // A list of parameters (one statement per page size, all cached) reads faster than json_each.
      st.s('in (');
      toRead.forEach((id, i) => (i > 0 ? st.s(', ') : st).v(id));
      st.s(')');
    }
    const tuples = await readTuples<[string, number | string, string | null, string | null, number | string | null]>(db, st);
    for (const [course_id, version, card, upcoming, computed_at] of tuples) rows.push({ course_id, version, card, upcoming, computed_at });
  }
  const versions = new Map<string, number>();
  for (const row of rows) {
    // A card stored at a later time than this request's (a test's clock, a server behind) may lack dates
    // that are upcoming now: computed again.
    if (row.card !== null && row.upcoming !== null && Number(row.computed_at) <= now) {
      cards.set(row.course_id, { card: row.card, upcoming: JSON.parse(row.upcoming) as UpcomingDates });
    } else {
      versions.set(row.course_id, Number(row.version));
    }
  }
  const missing = ids.filter((id) => !cards.has(id));
  if (missing.length === 0) return cards;
  const [computed, upcoming] = await Promise.all([loadCourseCards(db, missing, { now }), upcomingDates(db, missing, now)]);
  const fresh: Array<{ id: string; version: number | undefined } & PageCard> = computed.map((card) => ({
    id: card._id,
    version: versions.get(card._id),
    card: JSON.stringify({ ...card, next_occurrence: null }),
    upcoming: upcoming.get(card._id) ?? [],
  }));
  for (const f of fresh) cards.set(f.id, f);
  if (store) await storeCards(db, fresh, now);
  return cards;
}

/**
 * Keeps computed cards for later searches. Only a saving, so on SQLite it never waits for a lock: a search must not
 * wait behind a writer (a checkout, another process's write transaction) to answer what it already has. The
 * cards are written at once on the writer, in one synchronous transaction, when nothing holds the write lock; when
 * this process has a transaction open, or another process holds the lock, they are left for a later search.
 */
async function storeCards(db: Db, fresh: Array<{ id: string; version: number | undefined } & PageCard>, now: number): Promise<void> {
  const writer = rawHandlesOf(db)?.sqliteWriter;
  if (writer) {
    storeCardsNow(writer, fresh, now);
    return;
  }
  try {
    await db.transaction().execute(async (tx) => {
      for (const f of fresh) {
        if (f.version === undefined) {
          // No row (rows loaded with triggers off): one to fill next time.
          await sql`insert into search_cards (course_id) values (${f.id}) on conflict do nothing`.execute(tx);
          continue;
        }
        await sql`update search_cards set card = ${f.card}, upcoming = ${JSON.stringify(f.upcoming)}, computed_at = ${now}
          where course_id = ${f.id} and version = ${f.version}`.execute(tx);
      }
    });
  } catch {
    // Storing is only a saving: a busy or read-only database answers the search all the same.
  }
}

function storeCardsNow(writer: SQLite.Database, fresh: Array<{ id: string; version: number | undefined } & PageCard>, now: number): void {
  if (writer.inTransaction) return;
  try {
    // busy_timeout is 0 on this connection: a lock held elsewhere answers SQLITE_BUSY at once instead of waiting.
    writer.prepare('begin immediate').run();
  } catch (error) {
    if (isBusyError(error)) return;
    throw error;
  }
  try {
    for (const f of fresh) {
      if (f.version === undefined) writer.prepare('insert into search_cards (course_id) values (?) on conflict do nothing').run(f.id);
      else {
        writer.prepare('update search_cards set card = ?, upcoming = ?, computed_at = ? where course_id = ? and version = ?')
          .run(f.card, JSON.stringify(f.upcoming), now, f.id, f.version);
      }
    }
    writer.prepare('commit').run();
  } catch {
    if (writer.inTransaction) writer.prepare('rollback').run();
  }
}

/**
 * The search API's answer as JSON text (the shape of CourseSearchResult): the page's ids, then their stored
 * cards with the next date of each chosen at `now`. `storeCards` keeps computed cards for later searches.
 */
export async function searchCoursesJson(db: Db, params: CourseSearchParams, options: { now: number; storeCards?: boolean }): Promise<string> {
  const { ids, total, capped, page, size, cardRows } = await findPage(db, params, true);
  const unique = Array.from(new Set(ids));
  const cards = await pageCards(db, unique, options.now, options.storeCards ?? false, cardRows);
  const results: string[] = [];
  for (const id of unique) {
    const c = cards.get(id);
    if (c) results.push(withNext(c.card, nextFromUpcoming(c.upcoming, options.now)));
  }
  return `{"results":[${results.join(',')}],"total":${total}${capped ? ',"total_capped":true' : ''},"page":${page},"size":${size}}`;
}
