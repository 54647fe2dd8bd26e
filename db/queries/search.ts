/**
 * Course search (spec 2.12 carousels, 7 "Course search"): published courses only, filtered by
 * educator, category, delivery and price, sorted by relevance, newest or price, paged.
 *
 * Relevance with a query: first the courses whose name contains every word of the query, then by
 * full-text rank over the search index of migration 0002 (course name weighs most, then educator
 * name and keyword, then category and city, then description): SQLite FTS5 bm25, PostgreSQL ts_rank. Every word of the query must match (as a prefix, so
 * "pott" finds "pottery"). Without a query, relevance is rating × review count, then newest.
 * Ties always fall back to newest, then id, so pages are stable.
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
/** Spec 9: carousels fetch 11. */
export const SEARCH_DEFAULT_SIZE = 11;
export const SEARCH_MAX_SIZE = 50;

function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

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
  total: number;
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
  return terms.map((t) => `"${t}"*`).join(' ');
}

/** PostgreSQL to_tsquery text: every term, each as a prefix. */
export function tsQueryText(terms: readonly string[]): string {
  return terms.map((t) => `${t}:*`).join(' & ');
}

/** Ids of the matching courses for one page, in order, and how many match in all. */
export async function searchCourseIds(db: Db, params: CourseSearchParams): Promise<{ ids: string[]; total: number; page: number; size: number }> {
  const page = Math.max(1, Math.floor(params.page ?? 1));
  const size = Math.min(SEARCH_MAX_SIZE, Math.max(1, Math.floor(params.size ?? SEARCH_DEFAULT_SIZE)));
  const sort = params.sort ?? 'relevance';
  const terms = queryTerms(params.query);

  const conditions: RawBuilder<unknown>[] = [sql`c.published = ${true}`];
  let textJoin: RawBuilder<unknown> = sql``;
  let rank: RawBuilder<unknown> | null = null;
  let nameTier: RawBuilder<unknown> | null = null;
  if (terms.length > 0) {
    if (isPostgres(db)) {
      const q = sql`to_tsquery('english', ${tsQueryText(terms)})`;
      textJoin = sql`join course_search s on s.course_id = c.id`;
      // A query of stop words only ('the') is no query at all.
      conditions.push(sql`(numnode(${q}) = 0 or s.document @@ ${q})`);
      rank = sql`ts_rank(s.document, ${q})`;
    } else {
      textJoin = sql`join (
        select course_id, bm25(course_search, 0, 10, 5, 3, 1, 5, 3) as score from course_search where course_search match ${ftsMatchExpression(terms)}
      ) m on m.course_id = c.id`;
      rank = sql`(0 - m.score)`;
    }
    // The course named exactly as the query comes first, then courses whose name holds every word,
    // whatever the rank says about other columns.
    const exactName = (params.query ?? '').trim().toLowerCase();
    const nameHasAll = sql.join(terms.map((t) => sql`lower(c.name) like ${`%${t}%`}`), sql` and `);
    nameTier = sql`(case when lower(c.name) = ${exactName} then 2 when ${nameHasAll} then 1 else 0 end)`;
  }
  if (params.educatorRefs && params.educatorRefs.length > 0) {
    conditions.push(sql`c.educator_id in (${sql.join(params.educatorRefs.map((id) => sql`${id}`))})`);
  }
  if (params.categorySlug) {
    conditions.push(sql`c.category_id in (select id from categories where slug = ${params.categorySlug})`);
  }
  if (params.delivery && params.delivery.length > 0) {
    // delivery_modes is a JSON array of words; a quoted word matches exactly one element.
    conditions.push(sql`(${sql.join(params.delivery.map((mode) => sql`c.delivery_modes like ${`%"${mode}"%`}`), sql` or `)})`);
  }
  // The price range of db/queries/course-cards.ts coursePriceRange, in SQL; offer prices are
  // aggregated once per query (joined only when a price filter or sort needs them).
  const needsPrices = typeof params.priceMin === 'number' || typeof params.priceMax === 'number' || sort === 'price_asc' || sort === 'price_desc';
  const priceJoin = needsPrices
    ? sql`left join (select course_id, min(coalesce(price, 0)) as min_price, max(coalesce(price, 0)) as max_price from offers group by course_id) op on op.course_id = c.id`
    : sql``;
  const offersMin = sql`op.min_price`;
  const offersMax = sql`op.max_price`;
  const fromPrice = sql`(case when c.pricing_type = 'free' then 0 else coalesce(c.minimum_price, case when c.pricing_type = 'price-offers' then ${offersMin} end, c.maximum_price) end)`;
  const toPrice = sql`(case when c.pricing_type = 'free' then 0 else coalesce(c.maximum_price, case when c.pricing_type = 'price-offers' then ${offersMax} end, c.minimum_price) end)`;
  if (typeof params.priceMin === 'number') conditions.push(sql`${toPrice} >= ${params.priceMin}`);
  if (typeof params.priceMax === 'number') conditions.push(sql`${fromPrice} <= ${params.priceMax}`);

  const popularity = sql`(coalesce(a.rating, 0) * coalesce(a.count, 0))`;
  const newest = sql`c.created_at desc, c.id asc`;
  let orderBy: RawBuilder<unknown>;
  switch (sort) {
    case 'newest':
      orderBy = newest;
      break;
    case 'price_asc':
      orderBy = sql`case when ${fromPrice} is null then 1 else 0 end, ${fromPrice} asc, ${popularity} desc, ${newest}`;
      break;
    case 'price_desc':
      orderBy = sql`case when ${toPrice} is null then 1 else 0 end, ${toPrice} desc, ${popularity} desc, ${newest}`;
      break;
    default:
      orderBy = rank && nameTier
        ? sql`${nameTier} desc, ${rank} desc, ${popularity} desc, ${newest}`
        : sql`${popularity} desc, ${newest}`;
  }

  const from = sql`from courses c
    ${textJoin}
    ${priceJoin}
    left join review_aggregates a on a.subject_type = 'course' and a.subject_id = c.id
    where ${sql.join(conditions, sql` and `)}`;
  const [rows, count] = await Promise.all([
    sql<{ id: string }>`select c.id ${from} order by ${orderBy} limit ${size} offset ${(page - 1) * size}`.execute(db),
    sql<{ total: number | string }>`select count(*) as total ${from}`.execute(db),
  ]);
  return { ids: rows.rows.map((r) => r.id), total: Number(count.rows[0]?.total ?? 0), page, size };
}

/** One page of course cards and the total number of matches. */
export async function searchCourses(db: Db, params: CourseSearchParams, options: { now: number }): Promise<CourseSearchResult> {
  const { ids, total, page, size } = await searchCourseIds(db, params);
  const results = await loadCourseCards(db, ids, options);
  return { results, total, page, size };
}

/**
 * Rebuilds the whole search index from the view course_search_source (migration 0002). Triggers keep
 * it current on every write, so this is only a repair tool (e.g. after loading rows with triggers disabled).
 */
export async function rebuildSearchIndex(db: Db): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await sql`delete from course_search`.execute(tx);
    await sql`insert into course_search (course_id, name, educator_name, category, description, keyword, city)
      select course_id, name, educator_name, category, description, keyword, city from course_search_source`.execute(tx);
  });
}
