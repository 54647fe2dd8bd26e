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
 * `total` is that number and `total_capped` is true ("100+ courses"). Pages end at SEARCH_MAX_RESULTS.
 *
 * Usable at build time by pages: `searchCourses(db, {educatorRefs: [id], size: 11}, {now})`.
 */
import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { Db } from '../client.ts';
import { loadCourseCards, type CourseCard } from './course-cards.ts';

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

/** Also true of a transaction on PostgreSQL (dialectOfDb knows only the handles openDb made). */
function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The key of the exact-name level: the query as course_search.name_key holds names. */
function nameKey(query: string | null | undefined): string {
  return (query ?? '').trim().toLowerCase();
}

interface Filters {
  educatorRefs: readonly string[];
  categorySlug: string | null;
  deliveryMask: number;
  priceMin: number | null;
  priceMax: number | null;
}

function filtersOf(params: CourseSearchParams): Filters {
  return {
    educatorRefs: params.educatorRefs ?? [],
    categorySlug: params.categorySlug || null,
    deliveryMask: (params.delivery ?? []).reduce((mask, mode) => mask | SEARCH_DELIVERY_BITS[mode], 0),
    priceMin: typeof params.priceMin === 'number' ? params.priceMin : null,
    priceMax: typeof params.priceMax === 'number' ? params.priceMax : null,
  };
}

/** Conditions on course_search `s` (published courses only). `facetsInMatch` leaves out what an FTS5 match already checks. */
function filterConditions(f: Filters, facetsInMatch = false): RawBuilder<unknown>[] {
  const conditions: RawBuilder<unknown>[] = [sql`s.published`];
  if (!facetsInMatch) {
    if (f.educatorRefs.length > 0) conditions.push(sql`s.educator_id in (${sql.join(f.educatorRefs.map((id) => sql`${id}`))})`);
    if (f.categorySlug) conditions.push(sql`s.category_id = (select id from categories where slug = ${f.categorySlug})`);
    if (f.deliveryMask) conditions.push(sql`(s.delivery_mask & ${f.deliveryMask}) <> 0`);
  }
  if (f.priceMin !== null) conditions.push(sql`s.to_price >= ${f.priceMin}`);
  if (f.priceMax !== null) conditions.push(sql`s.from_price <= ${f.priceMax}`);
  return conditions;
}

function orderBy(sort: SearchSort, postgres: boolean): RawBuilder<unknown> {
  // Byte order for ids on PostgreSQL too, whatever the database's collation, as SQLite compares them.
  const id = postgres ? sql`s.course_id collate "C"` : sql`s.course_id`;
  const popular = sql`s.popularity desc, s.created_at desc, ${id}`;
  switch (sort) {
    case 'newest':
      return sql`s.created_at desc, ${id}`;
    case 'price_asc':
      return sql`(s.from_price is null), s.from_price, ${popular}`;
    case 'price_desc':
      return sql`(s.to_price is null), s.to_price desc, ${popular}`;
    default:
      return popular;
  }
}

/** Ids of the matching courses for one page, in order, and how many match (see the total above). */
export async function searchCourseIds(
  db: Db,
  params: CourseSearchParams,
): Promise<{ ids: string[]; total: number; capped: boolean; page: number; size: number }> {
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
  let found: { ids: string[]; counted: number };
  if (terms.length === 0 || sort !== 'relevance') {
    found = await sorted(db, terms, filters, sort, { offset, size, limit }, postgres);
  } else {
    const read = postgres ? postgresLevels(db, terms, params.query, filters) : sqliteLevels(db, terms, params.query, filters);
    const ordered = await ranked(read, limit);
    found = { ids: ordered.slice(offset, end), counted: ordered.length };
  }
  return { ids: found.ids, total: Math.min(found.counted, countTo), capped: found.counted > countTo, page, size };
}

/** One page of course cards and the total number of matches. */
export async function searchCourses(db: Db, params: CourseSearchParams, options: { now: number }): Promise<CourseSearchResult> {
  const { ids, total, capped, page, size } = await searchCourseIds(db, params);
  const results = await loadCourseCards(db, ids, options);
  return { results, total, ...(capped ? { total_capped: true as const } : {}), page, size };
}

/**
 * No query, or a query sorted by newest or price: the matches in that order off an index of course_search,
 * and a count that stops at the limit. A query here sorts every match (no index holds both words and price
 * order), so it costs in proportion to how many courses match.
 */
async function sorted(
  db: Db, terms: string[], filters: Filters, sort: SearchSort, window: { offset: number; size: number; limit: number }, postgres: boolean,
): Promise<{ ids: string[]; counted: number }> {
  let conditions = filterConditions(filters);
  if (terms.length > 0 && postgres) {
    const q = sql`to_tsquery('english', ${tsQueryText(terms)})`;
    conditions = [sql`(numnode(${q}) = 0 or s.doc_l1 @@ ${q})`, ...conditions];
  } else if (terms.length > 0) {
    const match = await sqliteMatch(db, terms, filters);
    if (match === null) return { ids: [], counted: 0 };
    conditions = [sql`s.key in (select rowid from course_search_l1 where course_search_l1 match ${match})`, ...filterConditions(filters, true)];
  }
  const where = sql.join(conditions, sql` and `);
  const [page, count] = await Promise.all([
    sql<{ course_id: string }>`select s.course_id from course_search s where ${where}
      order by ${orderBy(sort, postgres)} limit ${window.size} offset ${window.offset}`.execute(db),
    // Ordered like the page, so the count walks the same (covering) index and stops at the limit.
    sql<{ n: number | string }>`select count(*) as n from (select 1 from course_search s where ${where}
      order by ${orderBy(sort, postgres)} limit ${window.limit}) m`.execute(db),
  ]);
  return { ids: page.rows.map((r) => r.course_id), counted: Number(count.rows[0]?.n ?? 0) };
}

/** A level's matches in rank order: the first `limit` rows that are not among `taken` (the rows of better levels). */
type LevelReader = (level: Level, limit: number, taken: readonly Ranked[]) => Promise<Ranked[]>;
interface Ranked {
  id: string;
  /** SQLite's course_search.key. */
  key?: number;
}

/**
 * Relevance: level by level, best first, until `limit` rows are in hand. Levels are nested (a course in
 * level 4 is also in 3, 2 and 1), so each level skips the rows already taken; a lower level is read only
 * when the ones above are exhausted, so `taken` stays shorter than `limit`.
 */
async function ranked(read: LevelReader, limit: number): Promise<string[]> {
  const taken: Ranked[] = [];
  for (const level of SEARCH_LEVELS) {
    const rows = await read(level, limit - taken.length, taken);
    taken.push(...rows);
    if (taken.length >= limit) break;
  }
  return taken.map((r) => r.id);
}

function postgresLevels(db: Db, terms: string[], query: string | null | undefined, filters: Filters): LevelReader {
  const tsQuery = tsQueryText(terms);
  const conditions = filterConditions(filters);
  return async (level, limit, taken) => {
    const q = sql`to_tsquery('english', ${tsQuery})`;
    const doc = sql.ref(`s.doc_l${level === 5 ? 4 : level}`);
    // A query of stop words only has no lexemes: then every course matches, as with no query.
    const match = sql`(numnode(${q}) = 0 or ${doc} @@ ${q})`;
    const exact = level === 5 ? sql` and s.name_key = ${nameKey(query)}` : sql``;
    // Asking for `taken` more rows and dropping them keeps the planner's estimates right (a NOT on the
    // better levels would hide how few rows a level really has).
    const { rows } = await sql<{ course_id: string }>`select s.course_id from course_search s
      where ${match}${exact} and ${sql.join(conditions, sql` and `)}
      order by ${orderBy('relevance', true)} limit ${limit + taken.length}`.execute(db);
    const skip = new Set(taken.map((r) => r.id));
    return rows.filter((r) => !skip.has(r.course_id)).slice(0, limit).map((r) => ({ id: r.course_id }));
  };
}

/** Hex of the UTF-8 bytes, as SQLite's hex() writes a facet token's id (migration 0040). */
function facetId(id: string): string {
  return `${Buffer.from(id, 'utf8').toString('hex')}0`;
}

/**
 * The FTS5 match for SQLite's level tables: the words, and the facets the filters name (educator, category,
 * delivery mode). Null when the category does not exist, so nothing can match.
 */
async function sqliteMatch(db: Db, terms: readonly string[], filters: Filters): Promise<string | null> {
  const parts = [ftsMatchExpression(terms)];
  if (filters.categorySlug) {
    const category = await db.selectFrom('categories').select('id').where('slug', '=', filters.categorySlug).executeTakeFirst();
    if (!category) return null;
    parts.push(`"§c${facetId(category.id)}"`);
  }
  if (filters.educatorRefs.length > 0) parts.push(`(${filters.educatorRefs.map((id) => `"§e${facetId(id)}"`).join(' OR ')})`);
  if (filters.deliveryMask) {
    const bits = Object.values(SEARCH_DELIVERY_BITS).filter((bit) => filters.deliveryMask & bit);
    parts.push(`(${bits.map((bit) => `"§d${bit}"`).join(' OR ')})`);
  }
  return parts.join(' AND ');
}

function sqliteLevels(db: Db, terms: string[], query: string | null | undefined, filters: Filters): LevelReader {
  let matchPromise: Promise<string | null> | null = null;
  // Only the price range is left to check against course_search; the other filters are facets in the match.
  const residual = filterConditions(filters, true);
  const hasResidual = residual.length > 1;
  return async (level, limit, taken) => {
    const match = await (matchPromise ??= sqliteMatch(db, terms, filters));
    if (match === null || limit <= 0) return [];
    if (level === 5) {
      // Few courses share a name: find them by name, then check each against the name level.
      const { rows } = await sql<{ key: number; course_id: string }>`select s.key, s.course_id from course_search s indexed by course_search_name
        where s.name_key = ${nameKey(query)} and ${sql.join(filterConditions(filters), sql` and `)}
          and exists (select 1 from course_search_l4 f where f.rowid = s.key and f.course_search_l4 match ${match})
        order by ${orderBy('relevance', false)} limit ${limit}`.execute(db);
      return rows.map((r) => ({ id: r.course_id, key: r.key }));
    }
    const table = sql.table(`course_search_l${level}`);
    const ftsMatch = sql`f.${sql.ref(`course_search_l${level}`)} match ${match}`;
    // CROSS JOIN keeps FTS5 as the outer loop, handing out matches in key order and stopping at the limit.
    const from = hasResidual ? sql`from ${table} f cross join course_search s on s.key = f.rowid` : sql`from ${table} f`;
    const where = hasResidual ? sql`${ftsMatch} and ${sql.join(residual, sql` and `)}` : ftsMatch;
    // Reads go forward from a key: FTS5 reads a doclist from its start when given an upper rowid bound
    // (and a NOT IN on the rowid slows it as much), so rows already taken are skipped here instead.
    const skip = new Set(taken.map((r) => r.key));
    const keysAfter = async (after: number | null, count: number) => {
      const { rows } = await sql<{ key: number }>`select f.rowid as key ${from}
        where ${where}${after === null ? sql`` : sql` and f.rowid > ${after}`} order by f.rowid limit ${count}`.execute(db);
      return rows.map((r) => r.key);
    };
    // Better levels' rows are in this level too (levels nest), so `taken` more rows hold `limit` new ones.
    const read = await keysAfter(null, limit + skip.size);
    const keys = read.filter((key) => !skip.has(key));
    if (keys.length >= limit) {
      keys.length = limit;
      // Rows of the last row's group may rank above it: take the whole group, then sort exactly.
      const group = Math.floor(keys[limit - 1] / SEARCH_KEY.groupShift);
      let after = read[read.length - 1];
      for (;;) {
        const more = await keysAfter(after, GROUP_READ);
        const inGroup = more.filter((key) => Math.floor(key / SEARCH_KEY.groupShift) === group);
        keys.push(...inGroup.filter((key) => !skip.has(key)));
        if (inGroup.length < GROUP_READ) break;
        after = more[more.length - 1];
      }
    }
    if (keys.length === 0) return [];
    // From the key list into course_search (CROSS JOIN again), then the exact order.
    const { rows } = await sql<{ key: number; course_id: string }>`select s.key, s.course_id
      from json_each(${JSON.stringify(keys)}) k cross join course_search s on s.key = k.value
      order by ${orderBy('relevance', false)} limit ${limit}`.execute(db);
    return rows.map((r) => ({ id: r.course_id, key: r.key }));
  };
}

/** Rows read at a time while completing a key group. */
const GROUP_READ = 64;

const SQLITE_LEVEL_TABLES = ['course_search_l4', 'course_search_l3', 'course_search_l2', 'course_search_l1'];

/**
 * Empties the search index. Deleting courses keeps it in step anyway; this makes a bulk reset of the
 * catalogue faster on SQLite (one command per FTS5 table instead of a delete per row).
 */
export async function clearSearchIndex(db: Db): Promise<void> {
  if (!isPostgres(db)) {
    for (const table of SQLITE_LEVEL_TABLES) await sql`insert into ${sql.table(table)} (${sql.ref(table)}) values ('delete-all')`.execute(db);
  }
  await sql`delete from course_search`.execute(db);
}

/**
 * Rebuilds the whole search index from the view course_search_source (migration 0040). Triggers keep it
 * current on every write, so this is a repair tool (e.g. after loading rows with triggers disabled), and
 * merges SQLite's FTS5 segments for the fastest reads after a bulk load (optimizeSearchIndex).
 */
export async function rebuildSearchIndex(db: Db): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await clearSearchIndex(tx);
    if (!isPostgres(db)) {
      // An empty table: slots count from 0 in each key group; the insert trigger writes the FTS5 rows.
      await sql.raw(`insert into course_search (key, ${FACT_COLUMNS})
        select g * ${SEARCH_KEY.groupShift} + row_number() over (partition by g order by course_id) - 1, ${FACT_COLUMNS}
        from course_search_source`).execute(tx);
    } else {
      const all = `${FACT_COLUMNS}, doc_l4, doc_l3, doc_l2, doc_l1`;
      await sql.raw(`insert into course_search (${all}) select ${all} from course_search_source`).execute(tx);
    }
  });
  await optimizeSearchIndex(db);
}

const FACT_COLUMNS = 'course_id, published, educator_id, category_id, delivery_mask, from_price, to_price, popularity, created_at, name_key';

/** Merges SQLite's FTS5 segments into one (after bulk loads); PostgreSQL only refreshes its statistics. */
export async function optimizeSearchIndex(db: Db): Promise<void> {
  if (!isPostgres(db)) {
    for (const table of SQLITE_LEVEL_TABLES) await sql`insert into ${sql.table(table)} (${sql.ref(table)}) values ('optimize')`.execute(db);
  } else {
    // Vacuum too: a bulk load leaves dead rows that ordered walks would step over.
    await sql`vacuum analyze course_search`.execute(db);
  }
}
