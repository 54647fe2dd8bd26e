/**
 * What both search engines share (db/queries/search.ts states the rules): the parameters and answers, the
 * constants, the interface each engine implements (SQLite's FTS5 in ./sqlite.ts, PostgreSQL's tsvectors in
 * ./postgres.ts), and the pure parts: the words of a query, the filters, the sort orders, the facet tokens of the
 * filters and relevance's walk over the levels. No I/O here.
 */
import type { Db } from '../../client.ts';
import { PRICE_BANDS } from '../../migrations/0110_search_facets.ts';

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
/** Relevance levels, best first (see db/queries/search.ts). */
export const SEARCH_LEVELS = [5, 4, 3, 2, 1] as const;
export type Level = (typeof SEARCH_LEVELS)[number];

/**
 * SQLite's course_search.key: courses in order of (popularity desc, created_at desc) in groups of equal
 * whole popularity and creation hour, key = group × 2^17 + a free slot. FTS5 returns matches in key order,
 * so a page reads rows up to the end of the group of its last row and sorts only those exactly.
 * (Migration 0040 computes it; keys stay below 2^53 so JavaScript reads them exactly.)
 */
export const SEARCH_KEY = { groupShift: 131072 } as const;

/**
 * How search reads, never what it answers (tests set them to take each way). PostgreSQL: a level whose words
 * match at most `postgresFewMatches` courses is read together with the levels above it; `postgresCountCap`: the
 * matches counted per level, at most (a count above postgresFewMatches only says "many"). PostgreSQL's words in
 * another order than relevance: null lets the counts choose how to read them (./postgres.ts sortedWordsPostgres);
 * tests name a way to take it ('bands': every match of the price bands at the sort's end, wherever they fill the page).
 */
export const SEARCH_TUNING: {
  postgresFewMatches: number;
  postgresCountCap: number;
  postgresSortedWay: 'all' | 'walk' | 'bands' | null;
} = { postgresFewMatches: 600, postgresCountCap: 1000, postgresSortedWay: null };

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

export interface Filters {
  educatorRefs: readonly string[];
  categorySlug: string | null;
  deliveryMask: number;
  priceMin: number | null;
  priceMax: number | null;
}

export const NO_FILTERS: Filters = { educatorRefs: [], categorySlug: null, deliveryMask: 0, priceMin: null, priceMax: null };

export function filtersOf(params: CourseSearchParams): Filters {
  return {
    educatorRefs: params.educatorRefs ?? [],
    categorySlug: params.categorySlug || null,
    deliveryMask: (params.delivery ?? []).reduce((mask, mode) => mask | SEARCH_DELIVERY_BITS[mode], 0),
    priceMin: typeof params.priceMin === 'number' ? params.priceMin : null,
    priceMax: typeof params.priceMax === 'number' ? params.priceMax : null,
  };
}

/** A row of search_cards (migration 0041): a course's card as the API answers it, and its upcoming dates. */
export interface StoredCardRow {
  course_id: string;
  version: number | string;
  card: string | null;
  upcoming: string | null;
  computed_at: number | string | null;
}

/** One page asked of an engine: what to find, and where the page lies among the matches. */
export interface PageRequest {
  /** queryTerms of the query; empty: no words. */
  terms: string[];
  /** The query as typed (the exact-name level compares it whole). */
  query: string | null | undefined;
  filters: Filters;
  sort: SearchSort;
  /** The page is the rows after `offset`, up to `end` (offset + size). */
  offset: number;
  size: number;
  end: number;
  /** The total is exact up to this; `limit` is one past it (one row more tells whether more match). */
  countTo: number;
  limit: number;
  /** Whether the page's stored cards may be read along (PostgreSQL does where a statement can). */
  withCards: boolean;
}

/** An engine's answer: the page's ids in order, the matches counted (up to the request's limit), cards read along. */
export interface PageFound {
  ids: string[];
  counted: number;
  cardRows?: StoredCardRow[];
}

/** What each engine does its own way. */
export interface SearchEngine {
  findPage(db: Db, request: PageRequest): Promise<PageFound>;
  /** Empties the engine's own index structures (course_search and search_cards are emptied by the caller). */
  clearIndex(db: Db): Promise<void>;
  /** Fills the emptied course_search from the view course_search_source. */
  fillIndex(db: Db): Promise<void>;
  /** Makes the index fastest to read after a bulk load. */
  optimizeIndex(db: Db): Promise<void>;
  /**
   * Around a bulk load: what would be kept row by row is left until `resumeIndex`, which writes it at once.
   * `resumeIndex` does nothing unless paused.
   */
  pauseIndex(db: Db): Promise<void>;
  resumeIndex(db: Db): Promise<void>;
}

/** Columns both engines copy from course_search_source into course_search. */
export const FACT_COLUMNS = 'course_id, published, educator_id, category_id, delivery_mask, from_price, to_price, popularity, created_at, name_key';

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

/** The key of the exact-name level: the query as course_search.name_key holds names. */
export function nameKey(query: string | null | undefined): string {
  return (query ?? '').trim().toLowerCase();
}

/** The ORDER BY of a sort over course_search `s`. */
export function orderBy(sort: SearchSort, postgres: boolean): string {
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

/** A price's band among PRICE_BANDS, as PostgreSQL's width_bucket gives it (migration 0110). */
export function priceBand(pence: number): number {
  return PRICE_BANDS.filter((bound) => bound <= pence).length;
}

/**
 * The facet tokens (PostgreSQL: migration 0110; SQLite: 0130) a course must carry to pass the delivery and price
 * filters: a list of groups, each met by any one of its tokens. A price bound's band is only partly in: the exact
 * test stays a filter.
 */
export function facetGroups(filters: Pick<Filters, 'deliveryMask' | 'priceMin' | 'priceMax'>): string[][] {
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

/** A level's matches in rank order: the first `limit` rows that are not among `taken` (the rows of better levels). */
export type LevelReader = (level: Level, limit: number, taken: readonly Ranked[]) => Promise<Ranked[]>;
export interface Ranked {
  id: string;
  /** SQLite's course_search.key. */
  key?: number;
  /** PostgreSQL: the stored card, read along when the row may be on the page. */
  card?: StoredCardRow;
}

/** Where the page lies among the rows of a search: after `offset` rows, up to `end`. */
export interface PageWindow {
  offset: number;
  end: number;
}

/**
 * Relevance: level by level, best first, until `limit` rows are in hand. Levels are nested (a course in
 * level 4 is also in 3, 2 and 1), so each level skips the rows already taken; a lower level is read only
 * when the ones above are exhausted, so `taken` stays shorter than `limit`.
 */
export async function ranked(readLevel: LevelReader, limit: number, start: { taken: Ranked[]; levels: readonly Level[] } = { taken: [], levels: SEARCH_LEVELS }): Promise<Ranked[]> {
  const taken = start.taken.slice(0, limit);
  for (const level of start.levels) {
    if (taken.length >= limit) break;
    const rows = await readLevel(level, limit - taken.length, taken);
    taken.push(...rows);
    if (taken.length >= limit) break;
  }
  return taken;
}
