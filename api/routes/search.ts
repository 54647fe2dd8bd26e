/**
 * GET /api/courses/search (spec 7 "Course search", 2.12 carousels)
 *   query=                      free text ('' lists everything)
 *   educator_ref=id[,id…]       (repeatable)
 *   category_slug=
 *   context=marketplace|minisite|embed   validated; embed counts as minisite; the results are the same
 *   page=1  size=11 (1..50); page × size at most SEARCH_MAX_RESULTS
 *   sort=relevance|newest|price_asc|price_desc
 *   delivery=online|in-person|hybrid|on-demand|on-request[,…]   any of them
 *   price_min=, price_max=      pence (min_price=, max_price= accepted as aliases)
 * → {results, total, page, size}: total is exact up to a cap past the page; when more match, total is the cap
 *   and `total_capped: true` is added (db/queries/search.ts).
 * Bad parameters → generic/validation-error (400). See db/queries/search.ts for the ranking.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseWith } from '../http/parse.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import {
  SEARCH_DEFAULT_SIZE, SEARCH_DELIVERIES, SEARCH_MAX_RESULTS, SEARCH_MAX_SIZE, SEARCH_SORTS, searchCoursesJson,
  type CourseSearchParams,
} from '../../db/queries/search.ts';

const list = <T extends z.ZodType<unknown, string>>(item: T) =>
  z
    .string()
    .max(4000)
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(item).max(50))
    .optional();

const pence = z
  .string()
  .regex(/^\d{1,10}$/, 'must be a whole number of pence')
  .transform(Number)
  .optional();

const searchQuery = z.object({
  query: z.string().max(200).optional(),
  educator_ref: list(z.string().min(1).max(200)),
  category_slug: z.string().min(1).max(200).optional(),
  context: z.enum(['marketplace', 'minisite', 'embed']).optional(),
  page: z
    .string()
    .regex(/^\d{1,6}$/, 'must be a positive whole number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'must be a positive whole number'))
    .optional(),
  size: z
    .string()
    .regex(/^\d{1,3}$/, `must be a whole number from 1 to ${SEARCH_MAX_SIZE}`)
    .transform(Number)
    .pipe(z.number().int().min(1).max(SEARCH_MAX_SIZE))
    .optional(),
  sort: z.enum(SEARCH_SORTS).optional(),
  delivery: list(z.enum(SEARCH_DELIVERIES)),
  price_min: pence,
  price_max: pence,
  /** Aliases of price_min / price_max. */
  min_price: pence,
  max_price: pence,
});

export function searchRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/courses/search', async (c) => {
    // Repeated parameters (educator_ref=a&educator_ref=b) count as a comma-separated list.
    const raw: Record<string, string> = {};
    for (const [key, values] of Object.entries(c.req.queries())) raw[key] = values.join(',');
    const q = parseWith(searchQuery, raw);
    const page = q.page ?? 1;
    const size = q.size ?? SEARCH_DEFAULT_SIZE;
    // Deeper pages would cost in proportion to their depth; nobody pages that far.
    if (page * size > SEARCH_MAX_RESULTS) {
      throw new ProblemError(problems.validation([{ key: 'page', name: 'Page', message: `must not reach past result ${SEARCH_MAX_RESULTS}` }]));
    }
    const priceMin = q.price_min ?? q.min_price;
    const priceMax = q.price_max ?? q.max_price;
    if (priceMin !== undefined && priceMax !== undefined && priceMin > priceMax) {
      throw new ProblemError(problems.validation([{ key: 'price_max', name: 'Maximum price', message: 'must not be below the minimum price' }]));
    }
    const { db, now, searchThreads } = c.var.deps;
    const params: CourseSearchParams = {
      query: q.query ?? '',
      educatorRefs: q.educator_ref,
      categorySlug: q.category_slug,
      delivery: q.delivery,
      priceMin,
      priceMax,
      sort: q.sort ?? 'relevance',
      page,
      size,
    };
    const at = now();
    // Cards come as stored JSON (migration 0041), spliced into the answer without decoding them. On SQLite a search
    // thread answers when one can; else (and on PostgreSQL) this request's own turn of the loop.
    const body = (await searchThreads?.search(params, at)) ?? (await searchCoursesJson(db, params, { now: at, storeCards: true }));
    return c.body(body, 200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  });
  return app;
}
