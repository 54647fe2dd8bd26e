/**
 * Public review listings (spec 7 "Public pages", 8 "Public page errors").
 *
 * GET /api/reviews/list/{educatorSlug}?context=marketplace|minisite|embed&pageToken=
 *   → {reviews[], nextPageToken}. `page_token` is accepted too (ListPublicEducatorReviews).
 *   embed is treated as minisite (spec 4 "App context"); the listing is the same in both contexts.
 *   Unknown educator → 404; reviews not public (db/queries/reviews.ts educatorReviewsArePublic:
 *   unclaimed and nothing published) → 423.
 * GET /api/reviews/{educatorSlug}/{courseSlug}/list?pageToken= → {reviews[], nextPageToken};
 *   unknown or unpublished course → 404.
 * A pageToken that is not one we issued → generic/validation-error (400).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseParams, parseQuery } from '../http/parse.ts';
import { ProblemError, problemType, problems, type Problem } from '../../src/domain/problems.ts';
import { decodeReviewsPageToken, educatorReviewsArePublic, listReviewsPage } from '../../db/queries/reviews.ts';

export const REVIEWS_LOCKED_SLUG = 'reviews/locked';
/** 423: the educator exists but its reviews are not public. */
export function reviewsLocked(): Problem {
  return {
    type: problemType(REVIEWS_LOCKED_SLUG),
    title: 'Reviews Not Available',
    status: 423,
    detail: 'This educator’s reviews are not public.',
  };
}

const slug = z.string().min(1).max(200);
const pageToken = z.string().max(400).optional();

const educatorListQuery = z.object({
  context: z.enum(['marketplace', 'minisite', 'embed']).optional(),
  pageToken,
  page_token: pageToken,
});
const courseListQuery = z.object({ pageToken, page_token: pageToken });

function cursorFrom(token: string | undefined) {
  if (token === undefined || token === '') return null;
  const cursor = decodeReviewsPageToken(token);
  if (!cursor) throw new ProblemError(problems.validation([{ key: 'pageToken', name: 'Page token', message: 'is not valid' }]));
  return cursor;
}

export function reviewsRoutes() {
  const app = new Hono<AppEnv>();

  app.get('/reviews/list/:educatorSlug', async (c) => {
    const { educatorSlug } = parseParams(c, z.object({ educatorSlug: slug }));
    const query = parseQuery(c, educatorListQuery);
    // `context` is validated only: embed counts as minisite, and both contexts list the same reviews.
    const after = cursorFrom(query.pageToken ?? query.page_token);
    const { db } = c.var.deps;
    const educator = await db.selectFrom('educators').select(['id', 'claimed']).where('slug', '=', educatorSlug).executeTakeFirst();
    if (!educator) throw new ProblemError(problems.notFound('No educator has this address.'));
    if (!(await educatorReviewsArePublic(db, educator))) throw new ProblemError(reviewsLocked());
    const page = await listReviewsPage(db, { educatorId: educator.id, after });
    c.header('cache-control', 'no-store');
    return c.json(page);
  });

  app.get('/reviews/:educatorSlug/:courseSlug/list', async (c) => {
    const { educatorSlug, courseSlug } = parseParams(c, z.object({ educatorSlug: slug, courseSlug: slug }));
    const query = parseQuery(c, courseListQuery);
    const after = cursorFrom(query.pageToken ?? query.page_token);
    const { db } = c.var.deps;
    const course = await db
      .selectFrom('courses as c')
      .innerJoin('educators as e', 'e.id', 'c.educator_id')
      .select(['c.id', 'c.published'])
      .where('e.slug', '=', educatorSlug)
      .where('c.slug', '=', courseSlug)
      .executeTakeFirst();
    if (!course || !course.published) throw new ProblemError(problems.notFound('No course has this address.'));
    const page = await listReviewsPage(db, { courseId: course.id, after });
    c.header('cache-control', 'no-store');
    return c.json(page);
  });

  return app;
}
