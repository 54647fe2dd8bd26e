/**
 * Search on PostgreSQL (migrations 0040, 0042, 0110): course_search holds a stripped tsvector per relevance level
 * (doc_l4…doc_l1, GIN-indexed, each also carrying delivery and price-band facet lexemes) and B-tree indexes per
 * sort; the popularity-ordered ones carry the texts of levels 4–2, so a walk in popularity order reads the index
 * alone. Per query and filters, counts of the matches at each level (kept a minute) choose how each level is
 * read: the levels of few matches together through the GIN index, the others walked in popularity order.
 */
import { sql } from 'kysely';
import { rawHandlesOf, type Db } from '../../client.ts';
import { PRICE_BANDS } from '../../migrations/0110_search_facets.ts';
import {
  FACT_COLUMNS, NO_FILTERS, SEARCH_LEVELS, SEARCH_TUNING, facetQuery, nameKey, orderBy, priceBand, ranked, tsQueryText,
  type Filters, type Level, type LevelReader, type PageFound, type PageRequest, type PageWindow, type Ranked,
  type SearchEngine, type SearchSort, type StoredCardRow,
} from './engine.ts';
import { Stmt, filterConditions, read } from './statements.ts';

export const postgresSearch: SearchEngine = {
  async findPage(db, request) {
    const { terms, sort, filters, offset, end, limit, withCards } = request;
    if (terms.length === 0 || sort !== 'relevance') {
      // A query of stop words only has no lexemes: every course matches, as with no query.
      const tsQuery = terms.length > 0 ? await pgTsQuery(db, terms) : '';
      if (tsQuery !== '') return sortedWordsPostgres(db, tsQuery, request);
      return sortedPostgres(db, null, filters, sort, { offset, end, limit }, withCards);
    }
    return relevancePostgres(db, request);
  },
  async clearIndex() {
    // course_search and search_cards are all there is.
  },
  async fillIndex(db) {
    const all = `${FACT_COLUMNS}, doc_l4, doc_l3, doc_l2, doc_l1`;
    await sql.raw(`insert into course_search (${all}) select ${all} from course_search_source`).execute(db);
  },
  async optimizeIndex(db) {
    // Refreshes the statistics. Vacuum too: a bulk load leaves dead rows that ordered walks would step over,
    // and cards written twice (filled by triggers, then emptied by the offers and occurrences loaded after them).
    await sql`vacuum analyze course_search`.execute(db);
    await sql`vacuum analyze search_cards`.execute(db);
  },
  async pauseIndex() {
    // Every row's index is written with the row.
  },
  async resumeIndex() {},
};

/** Per database: how to_tsquery('english') reads each query's words. */
const pgTsQueries = new WeakMap<object, Map<string, string>>();

/**
 * The words as to_tsquery('english') makes them (stemmed prefixes, stop words gone), as tsquery text; '' when
 * only stop words are left. Read once per query and kept: it depends on the words alone.
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

/**
 * Whether a level text (`doc`) matches the words (`tsQuery`, as pgTsQuery made it) and the filter's delivery
 * modes and price bands, which every level text carries as facets (migration 0110), so that one GIN condition
 * serves them all (the exact price test stays among the filters: a band is wider than a bound). The tsquery is
 * one parameter of type tsquery, read once per execution, so a plan kept for a statement does not parse it
 * again for every row. `walk`: the function form, which tests the same but which no GIN index can serve (see
 * postgresLevelSelect). A query of stop words only has no lexemes: then every course matches, as with no query
 * (the filters then do all the work).
 */
function pgMatch(st: Stmt, doc: string, tsQuery: string, filters: Filters, walk = false, window: string | null = null): Stmt {
  if (tsQuery === '') return st.s('true');
  st.s(walk ? `ts_match_vq(${doc}, ` : `${doc} @@ `).v(withFacets(doc === WIDEST, tsQuery, filters, window)).s('::tsquery');
  return walk ? st.s(')') : st;
}

/** The widest level text, every word of a course: the one that carries the reach of its price (migration 0296). */
const WIDEST = 's.doc_l1';

/**
 * The words and the filters' facets as one tsquery's text for a level text: the widest carries the reach of each
 * course's price (migration 0296), one lexeme per bound, the others the price bands (0110). `window`: the price bands
 * at a sort's end, for the widest (bandWindow).
 */
function withFacets(widest: boolean, tsQuery: string, filters: Filters, window: string | null): string {
  const facets = [widest ? widestFacetQuery(filters) : facetQuery(filters), window].filter(Boolean).join(' & ');
  return facets ? `(${tsQuery}) & ${facets}` : tsQuery;
}

/** facetQuery for doc_l1: the delivery modes as there, each price bound one lexeme of the price's reach. */
function widestFacetQuery(filters: Filters): string | null {
  const groups = [facetQuery({ ...filters, priceMin: null, priceMax: null })];
  if (filters.priceMin !== null) groups.push(`'§tg${priceBand(filters.priceMin)}'`);
  if (filters.priceMax !== null) groups.push(`'§fl${priceBand(filters.priceMax)}'`);
  const present = groups.filter((g): g is string => g !== null);
  return present.length > 0 ? present.join(' & ') : null;
}

/**
 * For a statement whose plan reads level texts through their GIN indexes whatever the words (a named statement, see
 * PG_STATEMENT_NAMES): the common table `words`, pgMatch's tsquery with each prefix read as the few lexemes it
 * begins (migration 0296, `search_expand`), which the GIN index finds without first collecting a bitmap of every
 * lexeme the prefix begins; `q1` for doc_l1, `q` for the narrower levels (their facets differ when a price is
 * filtered). Computed once per statement; a level text is tested against it with wordsMatch. Not where the
 * planner chooses by the words' estimate: it has none for a subquery's value.
 */
function expandedWords(st: Stmt, tsQuery: string, filters: Filters, window: string | null = null): Stmt {
  const widest = withFacets(true, tsQuery, filters, window);
  const narrower = withFacets(false, tsQuery, filters, null);
  st.s('words as materialized (select search_expand(').v(widest).s('::text) as q1, ');
  return (widest === narrower ? st.s('null::tsquery') : st.s('search_expand(').v(narrower).s('::text)')).s(' as q)');
}

/** The test of a level text against `words` (expandedWords). */
function wordsMatch(doc: string): string {
  return doc === WIDEST ? '@@ (select q1 from words)' : '@@ (select coalesce(q, q1) from words)';
}

/** What sortedPostgres reads per row. */
interface SortedRow extends Partial<StoredCardRow> {
  course_id: string;
  rn: number | string;
  n: number | string;
}

/**
 * How sortedPostgres reads matches of words: every match sorted, or the sort's index walked (see sortedWordsPostgres);
 * every match may be narrowed to the price bands at the sort's end (`bands`, tsquery text of their lexemes).
 */
type SortedWay = 'all' | 'walk';

/**
 * The first `limit` matches in order in one statement, so one round trip: numbered, of which it returns the page's
 * rows (with their stored cards when asked) and the last one, whose number is the count. No words (`tsQuery`
 * null): off the sort's index. Words: `way` says how (sortedWordsPostgres).
 */
async function sortedPostgres(
  db: Db, tsQuery: string | null, filters: Filters, sort: SearchSort, window: { offset: number; end: number; limit: number }, withCards: boolean,
  way: SortedWay = 'walk', bands: string | null = null,
): Promise<PageFound> {
  const order = orderBy(sort, true);
  const st = new Stmt(true).s(`select m.course_id, m.rn, m.n${withCards ? ', c.version, c.card, c.upcoming, c.computed_at' : ''}
    from (select s.course_id, row_number() over (order by ${order}) as rn, count(*) over () as n from `);
  if (tsQuery !== null && way === 'all') {
    // Materialized: every match first (a bitmap of the GIN index), then sorted; never a walk of the sort's index.
    expandedWords(st.s('(with '), tsQuery, filters, bands)
      .s(`, w as materialized (select s.course_id, s.popularity, s.created_at, s.from_price, s.to_price from course_search s where ${WIDEST} ${wordsMatch(WIDEST)} and `);
    filterConditions(st, filters).s(`) select s.* from w s order by ${order} limit `).n(window.limit).s(') s) m');
  } else {
    st.s('(select s.course_id, s.popularity, s.created_at, s.from_price, s.to_price from course_search s where ');
    // The filters first: PostgreSQL tests a row's conditions of equal cost in the order written, and the words
    // cost the most (the widest level text, about 500 bytes a course).
    filterConditions(st, filters);
    if (tsQuery !== null) pgMatch(st.s(' and '), 's.doc_l1', tsQuery, filters, true);
    st.s(` order by ${order} limit `).n(window.limit).s(') s) m');
  }
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

/**
 * Words sorted by newest or price. No index holds both the words and this order, so one of two statements, each
 * one plan for every query (named): every match read through the GIN index and sorted (about 2 µs a match), or the
 * sort's index walked until the page is full, testing each row's level text (ts_match_vq, which no GIN index
 * serves: a heap row fetched and its widest level text tested, about 4 µs). A walk passes about `end` × courses
 * ÷ matches rows, so the count of matches (kept a minute, as relevance's level counts) chooses: every match when
 * matches² < 2 × end × courses.
 * Before, the planner chose for each query's words and misjudged prefix matches: "first aid" by newest walked
 * 1,533 rows for a count of 101 (24 ms, with 13 ms of planning).
 *
 * By price, the walk is long when the words' courses sit at the other end of the order ("yoga" by price down
 * passed thousands of dearer courses: 28–33 ms). The level texts carry each course's price bands (migration 0110),
 * so there the matches are counted per band (kept a minute, up to PG_BAND_COUNT_CAP), and when few enough lie in
 * the bands at the sort's end to fill the page, only those are read: one lexeme of the price's reach (migration
 * 0296) joins the GIN condition, and every course outside them sorts after every course inside (nulls last), so the
 * page is the same.
 *
 * The same counts tell the total: when more courses match than the total counts to, only the page's rows are read
 * (a page that comes out short tells its exact total), as relevance does.
 */
async function sortedWordsPostgres(db: Db, tsQuery: string, request: PageRequest): Promise<PageFound> {
  const { filters, sort, offset, end, countTo, limit, withCards } = request;
  const { matches, courses } = await postgresSortCounts(db, tsQuery, filters);
  const many = matches > countTo;
  // Only when the total need not be counted: a window's rows are not all the matches.
  const bands = many && (sort === 'price_asc' || sort === 'price_desc') ? await bandWindow(db, tsQuery, filters, sort, end) : null;
  // A count at its cap only says "at least": then the walk.
  const forced = SEARCH_TUNING.postgresSortedWay === 'bands' ? 'all' : SEARCH_TUNING.postgresSortedWay;
  const way: SortedWay = forced ?? (bands !== null || (matches < PG_SORT_COUNT_CAP && matches * matches < 2 * end * courses) ? 'all' : 'walk');
  const read = (inBands: string | null) => sortedPostgres(db, tsQuery, filters, sort, { offset, end, limit: many ? end : limit }, withCards, way, inBands);
  let found = await read(way === 'all' ? bands : null);
  // The bands were counted a while ago: should they hold fewer than the page now, every match is read.
  if (way === 'all' && bands !== null && found.counted < end) found = await read(null);
  return { ...found, counted: many && found.counted >= end ? limit : found.counted };
}

/** Matches counted per price band, at most (a bitmap of the GIN index: ~10 ms at 100,000 courses, once a minute). */
const PG_BAND_COUNT_CAP = 10_000;

/**
 * For words sorted by price with more matches than the total counts to: the price bands at the sort's end that hold
 * at least `end` matches, as the one lexeme of doc_l1's price reach that stands for them (tsquery text), when
 * reading those matches costs less than walking the sort's index through those bands' courses to the page's end (about 2 µs a match, and for the GIN index a
 * millisecond and 0.3 µs a course of the bands' posting lists, against 4 µs a course walked, by the published
 * courses per band); else null.
 */
async function bandWindow(db: Db, tsQuery: string, filters: Filters, sort: 'price_asc' | 'price_desc', end: number): Promise<string | null> {
  const column = sort === 'price_asc' ? 'from_price' : 'to_price';
  const perBand = await postgresBandCounts(db, tsQuery, filters, column);
  if (perBand === null) return null;
  const coursesPerBand = await postgresBandCounts(db, null, NO_FILTERS, column);
  // Bands in the sort's order: up from the cheapest band, or down from the dearest.
  const order = perBand.map((_, band) => band);
  if (sort === 'price_desc') order.reverse();
  let held = 0;
  let walked = 0;
  let inWindow = 0;
  const window: number[] = [];
  for (const band of order) {
    window.push(band);
    const need = end - held;
    held += perBand[band];
    inWindow += coursesPerBand?.[band] ?? 0;
    // The walk passes the band's courses, or the share of them that holds what the page still needs.
    walked += (coursesPerBand?.[band] ?? 0) * (perBand[band] > need ? need / perBand[band] : 1);
    if (held >= end) break;
  }
  const all = perBand.reduce((sum, n) => sum + n, 0);
  // The GIN index reads the posting list of every band in the window: about 0.3 µs a course.
  if (held < end || held >= all) return null;
  if (SEARCH_TUNING.postgresSortedWay !== 'bands' && held * 2 + inWindow * 0.3 + 1000 >= walked * 4) return null;
  // The window as one lexeme of doc_l1's price reach (migration 0296): from at most its dearest band, or to at
  // least its cheapest.
  return sort === 'price_asc' ? `'§fl${Math.max(...window)}'` : `'§tg${Math.min(...window)}'`;
}

/**
 * Per database, per words (null: every published course), filters and price column: courses per band (index = band),
 * or null past PG_BAND_COUNT_CAP matches of words.
 */
const pgBandCounts = new WeakMap<object, Map<string, { perBand: number[] | null; at: number }>>();

async function postgresBandCounts(db: Db, tsQuery: string | null, filters: Filters, column: 'from_price' | 'to_price'): Promise<number[] | null> {
  const owner = rawHandlesOf(db)?.pgPool ?? db;
  let kept = pgBandCounts.get(owner);
  if (!kept) pgBandCounts.set(owner, (kept = new Map()));
  const key = `${column}\u0000${tsQuery}\u0000${JSON.stringify(filters)}`;
  const now = Date.now();
  const known = kept.get(key);
  if (known && now - known.at < PG_COUNTS_SECONDS * 1000) return known.perBand;
  const st = new Stmt(true).s(`select width_bucket(m.p, array[${PRICE_BANDS.join(', ')}]) as band, count(*) as n
    from (select s.${column} as p from course_search s where `);
  st.reusePlan = false;
  if (tsQuery !== null) pgMatch(st, 's.doc_l1', tsQuery, filters).s(' and ');
  filterConditions(st, filters).s(tsQuery !== null ? ` limit ${PG_BAND_COUNT_CAP}) m group by 1` : ') m group by 1');
  const rows = await read<{ band: number | null; n: number | string }>(db, st);
  const counted = rows.reduce((sum, r) => sum + Number(r.n), 0);
  const perBand = tsQuery !== null && counted >= PG_BAND_COUNT_CAP ? null : PRICE_BANDS.map(() => 0).concat(0);
  // Courses without a price have no band: they sort after every band, so no window holds them.
  for (const r of rows) if (perBand && r.band !== null) perBand[Number(r.band)] += Number(r.n);
  if (kept.size >= 10_000) kept.clear();
  kept.set(key, { perBand, at: now });
  return perBand;
}

/** Matches counted for sortedWordsPostgres, at most (about 6 ms at 100,000 courses, once a minute per query). */
const PG_SORT_COUNT_CAP = 3000;
/** Per database, per words and filters: how many courses match (up to PG_SORT_COUNT_CAP); '' the published courses. */
const pgSortCounts = new WeakMap<object, Map<string, { n: number; at: number }>>();

async function postgresSortCounts(db: Db, tsQuery: string, filters: Filters): Promise<{ matches: number; courses: number }> {
  const owner = rawHandlesOf(db)?.pgPool ?? db;
  let kept = pgSortCounts.get(owner);
  if (!kept) pgSortCounts.set(owner, (kept = new Map()));
  const counts = kept;
  const now = Date.now();
  const count = async (key: string, st: Stmt): Promise<number> => {
    const known = counts.get(key);
    if (known && now - known.at < PG_COUNTS_SECONDS * 1000) return known.n;
    const [row] = await read<{ n: number | string }>(db, st);
    if (counts.size >= 10_000) counts.clear();
    counts.set(key, { n: Number(row?.n ?? 0), at: now });
    return Number(row?.n ?? 0);
  };
  const matchSt = new Stmt(true).s('select count(*) as n from (select 1 from course_search s where ');
  matchSt.reusePlan = false;
  filterConditions(pgMatch(matchSt, 's.doc_l1', tsQuery, filters).s(' and '), filters).s(` limit ${PG_SORT_COUNT_CAP}) m`);
  const matches = await count(`${tsQuery}\u0000${JSON.stringify(filters)}`, matchSt);
  // The planner's estimate of the table's rows is enough to choose a way.
  const courses = await count('', new Stmt(true).s(`select greatest(reltuples, 1)::bigint as n from pg_class where oid = 'course_search'::regclass`));
  return { matches, courses: Math.max(courses, matches, 1) };
}

/**
 * Relevance with words. Reading a level through its GIN index costs what the words, delivery modes and price
 * bands match (the index holds them all, migration 0110); walking it in popularity order, what it takes to pass
 * enough courses that match them: both are told by the same counts.
 */
async function relevancePostgres(db: Db, request: PageRequest): Promise<PageFound> {
  const { terms, query, filters, offset, end, countTo, limit, withCards } = request;
  const tsQuery = await pgTsQuery(db, terms);
  const counts = await postgresLevelCounts(db, tsQuery, query, {
    ...NO_FILTERS, deliveryMask: filters.deliveryMask, priceMin: filters.priceMin, priceMax: filters.priceMax,
  });
  // The counts also tell the total (level 1 holds every match): when more courses match than the total
  // counts to, only the page's rows need reading (reading on to the count's limit cost the walks four
  // times the rows of a first page). Counts are kept for a while, so should the page come out short
  // (courses gone since), the rows read are the total.
  const narrower = filters.educatorRefs.length > 0 || filters.categorySlug !== null;
  const everyFilter = narrower ? await postgresLevelCounts(db, tsQuery, query, filters) : counts;
  const many = everyFilter[1] > countTo;
  const want = many ? end : limit;
  const window = withCards ? { offset, end } : null;
  const start = (await postgresFewLevels(db, tsQuery, query, filters, want, counts, window))
    ?? (await postgresTopLevels(db, tsQuery, query, filters, want, counts, window));
  const rows = await ranked(postgresLevels(db, tsQuery, query, filters, counts, window), want, start);
  const onPage = rows.slice(offset, end);
  return {
    ids: onPage.map((r) => r.id),
    counted: many && rows.length >= end ? limit : rows.length,
    ...(withCards ? { cardRows: onPage.flatMap((r) => (r.card ? [r.card] : [])) } : {}),
  };
}

/**
 * How long a count of a query's matches per level is trusted. It chooses how to read, never what, and says
 * whether more courses match than a total counts to, which only mass unpublishing could make untrue meanwhile.
 */
const PG_COUNTS_SECONDS = 60;
/** Matches per level; 5, the exact name, only says whether any course has it. */
export type LevelCounts = Record<1 | 2 | 3 | 4 | 5, number>;
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
  const [row] = await read<Record<'c1' | 'c2' | 'c3' | 'c4' | 'c5', number | string>>(db, levelCountsStatement(tsQuery, query, filters, cap));
  const counts = { 5: Number(row?.c5 ?? 0), 4: Number(row?.c4 ?? 0), 3: Number(row?.c3 ?? 0), 2: Number(row?.c2 ?? 0), 1: Number(row?.c1 ?? 0) };
  if (kept.size >= 10_000) kept.clear();
  kept.set(key, { counts, at: now });
  return counts;
}

/** The statement of postgresLevelCounts: columns c5…c1. */
function levelCountsStatement(tsQuery: string, query: string | null | undefined, filters: Filters, cap: number): Stmt {
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
  return st.s(' as c4 offset 0) l4 offset 0) l3 offset 0) l2');
}

/** What a level statement gives back per row: the course, and its stored card when read along. */
type LevelRow = { course_id: string } & Partial<Omit<StoredCardRow, 'course_id'>>;

/**
 * A level statement (`build` appends it; it gives course_id, level, popularity and created_at in rank order) with
 * the stored cards of the rows that may be on the page read along, so that a search with words needs no
 * statement of its own for its page's cards. Each course once, at its best level; the statement's rows are then
 * the new ones in rank order with at most `taken` (rows found by the statements before it) among them, so the row
 * at place p of the statement is at place p to p + taken of the search: those that can reach the page are read
 * along. Without a window, the statement as it is.
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
 * When few courses match the words at some level, every level from the exact name down to it is read in one
 * statement (through that level's GIN index, each row ranked by the best level it reaches) instead of one
 * statement per level; the levels below are then read one by one as usual. Undefined when even the name level
 * has many matches.
 */
async function postgresFewLevels(
  db: Db, tsQuery: string, query: string | null | undefined, filters: Filters, limit: number, counts: LevelCounts, page: PageWindow | null,
): Promise<{ taken: Ranked[]; levels: Level[] } | undefined> {
  const widest = ([1, 2, 3, 4] as const).find((level) => counts[level] <= SEARCH_TUNING.postgresFewMatches);
  if (widest === undefined) return undefined;
  // Named (see PG_STATEMENT_NAMES): whatever the words, the plan is a bitmap of the widest level's GIN index.
  const st = expandedWords(new Stmt(true).s('with '), tsQuery, filters).s(' ');
  const match = (level: number) => st.s(`s.doc_l${level} ${wordsMatch(`s.doc_l${level}`)}`);
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
 * Appends the select of one level's matches: `limit` rows in rank order, with the sort columns. Many matches
 * among the courses that pass the filters the level texts carry (`walkCounts`): walk the popularity index
 * (migration 0042 carries the level texts, so the walk reads the index alone) until the page is full. The
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
 * When no level has few matches: the exact name and the name level in one statement (the exact name's read is a
 * look-up by name, so it costs nothing to run it along), as `ranked` would read them one after the other: level 4
 * reads `limit` rows, of which those not exactly named follow the exact names. When no course has the exact name
 * (the counts say so, as of when they were taken), the name level alone: a walk that one plan serves, where
 * PostgreSQL plans the pair anew for every query (its estimate of a look-up by name makes a kept plan look
 * dearer). A course newly given the exact name then ranks among the name level until the counts are taken again,
 * within PG_COUNTS_SECONDS.
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
