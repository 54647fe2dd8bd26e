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
import { sql } from 'kysely';
import type { Db } from '../client.ts';
import { loadCourseCards, type CourseCard } from './course-cards.ts';
import { nextFromUpcoming } from '../../src/domain/next-date.ts';
import {
  SEARCH_COUNT_STEP, SEARCH_DEFAULT_SIZE, SEARCH_MAX_SIZE, filtersOf, queryTerms,
  type CourseSearchParams, type PageFound, type SearchEngine,
} from './search/engine.ts';
import { isPostgres } from './search/statements.ts';
import { sqliteSearch } from './search/sqlite.ts';
import { postgresSearch } from './search/postgres.ts';
import { pageCards, withNext, type KeepCards } from './search/cards.ts';

// The parts live per engine (./search/sqlite.ts, ./search/postgres.ts) behind one interface (./search/engine.ts),
// with the stored cards in ./search/cards.ts; this module is what the rest of the code calls.
export {
  NO_FILTERS, SEARCH_COUNT_STEP, SEARCH_DEFAULT_SIZE, SEARCH_DELIVERIES, SEARCH_DELIVERY_BITS, SEARCH_KEY, SEARCH_LEVELS,
  SEARCH_MAX_RESULTS, SEARCH_MAX_SIZE, SEARCH_SORTS, SEARCH_TUNING, facetQuery, ftsMatchExpression, priceBand, queryTerms,
  tsQueryText,
} from './search/engine.ts';
export type { CourseSearchParams, Filters, SearchDelivery, SearchSort } from './search/engine.ts';
export { postgresLevelCounts } from './search/postgres.ts';
export { storeComputedCards, upcomingDates } from './search/cards.ts';
export type { ComputedCard } from './search/cards.ts';

export interface CourseSearchResult {
  results: CourseCard[];
  /** Matches counted; a lower bound when total_capped is present. */
  total: number;
  /** Present (true) only when more courses match than `total`. */
  total_capped?: true;
  page: number;
  size: number;
}

function engineOf(db: Db): SearchEngine {
  return isPostgres(db) ? postgresSearch : sqliteSearch;
}

/** Ids of the matching courses for one page, in order, and how many match (see the total above). */
export async function searchCourseIds(
  db: Db,
  params: CourseSearchParams,
): Promise<{ ids: string[]; total: number; capped: boolean; page: number; size: number }> {
  const { cardRows: _cards, ...found } = await findPage(db, params, false);
  return found;
}

/** A page of ids, the total, and (when asked and a statement could read them along) the page's stored cards. */
interface FoundPage extends Omit<PageFound, 'counted'> {
  total: number;
  capped: boolean;
  page: number;
  size: number;
}

async function findPage(db: Db, params: CourseSearchParams, withCards: boolean): Promise<FoundPage> {
  const page = Math.max(1, Math.floor(params.page ?? 1));
  const size = Math.min(SEARCH_MAX_SIZE, Math.max(1, Math.floor(params.size ?? SEARCH_DEFAULT_SIZE)));
  const end = page * size;
  const countTo = Math.ceil((end + 1) / SEARCH_COUNT_STEP) * SEARCH_COUNT_STEP;
  const found = await engineOf(db).findPage(db, {
    terms: queryTerms(params.query),
    query: params.query,
    filters: filtersOf(params),
    sort: params.sort ?? 'relevance',
    offset: (page - 1) * size,
    size,
    end,
    countTo,
    // One row past the count tells whether more match.
    limit: countTo + 1,
    withCards,
  });
  return { ids: found.ids, total: Math.min(found.counted, countTo), capped: found.counted > countTo, page, size, cardRows: found.cardRows };
}

/** One page of course cards and the total number of matches. */
export async function searchCourses(db: Db, params: CourseSearchParams, options: { now: number }): Promise<CourseSearchResult> {
  const { ids, total, capped, page, size } = await searchCourseIds(db, params);
  const results = await loadCourseCards(db, ids, options);
  return { results, total, ...(capped ? { total_capped: true as const } : {}), page, size };
}

/**
 * Empties the search index. Deleting courses keeps it in step anyway; this makes a bulk reset of the
 * catalogue faster on SQLite (one command per FTS5 table instead of a delete per row).
 */
export async function clearSearchIndex(db: Db, options: { cards?: boolean } = {}): Promise<void> {
  await engineOf(db).clearIndex(db);
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
    const engine = engineOf(db);
    await engine.pauseIndex(tx);
    // Stored cards keep their rows: their versions move on, so no card computed before this is stored after it.
    await clearSearchIndex(tx, { cards: false });
    await engine.fillIndex(tx);
    await engine.resumeIndex(tx);
    // Stored cards (migration 0041) are computed again on their next search.
    await sql`update search_cards set version = version + 1, card = null`.execute(tx);
    await sql`insert into search_cards (course_id) select id from courses where id not in (select course_id from search_cards)`.execute(tx);
  });
  await optimizeSearchIndex(db);
}

/**
 * Around a bulk load of the catalogue: SQLite's sort tables (migration 0250) are then written once by
 * resumeSearchIndex instead of row by row (resuming when not paused does nothing).
 */
export async function pauseSearchIndex(db: Db): Promise<void> {
  await engineOf(db).pauseIndex(db);
}

export async function resumeSearchIndex(db: Db): Promise<void> {
  await engineOf(db).resumeIndex(db);
}

/** Merges SQLite's FTS5 segments into one (after bulk loads); PostgreSQL only refreshes its statistics. */
export async function optimizeSearchIndex(db: Db): Promise<void> {
  await engineOf(db).optimizeIndex(db);
}

/**
 * The search API's answer as JSON text (the shape of CourseSearchResult): the page's ids, then their stored
 * cards with the next date of each chosen at `now`. `storeCards` keeps computed cards for later searches
 * (search/cards.ts KeepCards: stored at once, or handed to a function).
 */
export async function searchCoursesJson(db: Db, params: CourseSearchParams, options: { now: number; storeCards?: KeepCards }): Promise<string> {
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
