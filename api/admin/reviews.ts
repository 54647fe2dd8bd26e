/**
 * The educator's reviews in the admin (docs/admin.md "Reviews"), relative to /admin/educators/{educatorId}:
 *
 *   GET    /reviews?before=CURSOR          → the reviews, newest first, a page at a time ({reviews, next})
 *   PUT    /reviews/{reviewId}/response    → the educator's response {message} (new or edited)
 *   DELETE /reviews/{reviewId}/response    → the response removed
 *   POST   /reviews/{reviewId}/report      → a report of abuse {reason}, for the platform team
 *
 * The response is the review's `response_message` / `response_created_at`, which the public pages already show
 * (spec 2.11); the reviews table's triggers queue the educator's and the course's pages (migration 0030), so the
 * publisher puts it live in all three contexts. Each write is one transaction with its audit entry.
 */
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../deps.ts';
import { parseJson, parseQuery } from '../http/parse.ts';
import { newId } from '../shared/ids.ts';
import { adminEducatorId } from './access.ts';
import { audit, notYours, pathId, type Trx } from './catalogue-saves.ts';
import { listEducatorReviews } from '../../db/queries/admin-reviews.ts';
import { reviewCursorSchema, reviewReportSchema, reviewResponseSchema } from '../../src/domain/admin/reviews.ts';

async function ownedReview(c: Context<AppEnv>, trx: Trx) {
  const id = pathId.safeParse(c.req.param('reviewId'));
  if (!id.success) throw notYours('No review of yours has this id.');
  const row = await trx.selectFrom('reviews').select(['id', 'response_message', 'response_created_at'])
    .where('id', '=', id.data).where('educator_id', '=', adminEducatorId(c)).where('archived_at', 'is', null).executeTakeFirst();
  if (!row) throw notYours('No review of yours has this id.');
  return row;
}

export function reviewsAdminRoutes() {
  const app = new Hono<AppEnv>();

  app.get('/reviews', async (c) => {
    const q = parseQuery(c, reviewCursorSchema);
    return c.json(await listEducatorReviews(c.var.deps.db, adminEducatorId(c), q.before));
  });

  app.put('/reviews/:reviewId/response', async (c) => {
    const { message } = await parseJson(c, reviewResponseSchema);
    const now = c.var.deps.now();
    const response = await c.var.deps.db.transaction().execute(async (trx) => {
      const before = await ownedReview(c, trx);
      await trx.updateTable('reviews').set({ response_message: message, response_created_at: now }).where('id', '=', before.id).execute();
      await audit(trx, c, {
        entity: 'review', entityId: before.id, action: before.response_message ? 'update-response' : 'respond',
        changes: { response: [before.response_message, message] },
      });
      return { reviewId: before.id, response: { message, createdAt: now } };
    });
    return c.json(response);
  });

  app.delete('/reviews/:reviewId/response', async (c) => {
    await c.var.deps.db.transaction().execute(async (trx) => {
      const before = await ownedReview(c, trx);
      if (before.response_message === null) return;
      await trx.updateTable('reviews').set({ response_message: null, response_created_at: null }).where('id', '=', before.id).execute();
      await audit(trx, c, { entity: 'review', entityId: before.id, action: 'remove-response', changes: { response: [before.response_message, null] } });
    });
    return c.body(null, 204);
  });

  app.post('/reviews/:reviewId/report', async (c) => {
    const { reason } = await parseJson(c, reviewReportSchema);
    const report = await c.var.deps.db.transaction().execute(async (trx) => {
      const review = await ownedReview(c, trx);
      const row = { id: newId('rrp'), review_id: review.id, educator_id: adminEducatorId(c), user_id: c.var.user?.id ?? null, reason, created_at: c.var.deps.now(), resolved_at: null };
      await trx.insertInto('review_reports').values(row).execute();
      await audit(trx, c, { entity: 'review', entityId: review.id, action: 'report', changes: { report: [null, reason] } });
      return { id: row.id, reviewId: review.id, reason, createdAt: row.created_at };
    });
    return c.json(report, 201);
  });

  return app;
}
