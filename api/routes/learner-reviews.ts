/**
 * Reviews written by signed-in learners (spec 2.3 add-review screens, 2.11, 3 "Review", 4 "Review deletion"):
 *
 *   POST   /reviews       {educatorSlug, courseSlug?, rating 1–5, breakdown?, message} → 201 Review (spec 3 shape)
 *   DELETE /reviews/{id}  ArchiveReview: the author archives their own review        → {id, archived: true}
 *
 * A review is `verified` when its author has an attended or paid booking, or a paid order (src/domain/review-verification.ts), for that course (course review) or with that
 * educator (educator review). Every write rebuilds the educator's review aggregates (and its courses').
 * Only the author may archive a review: anyone else gets 403, whatever the page shows or hides.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseJson, parseParams } from '../http/parse.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { requireUser } from '../auth/middleware.ts';
import { authProblems } from '../auth/problems.ts';
import { newId } from '../shared/ids.ts';
import { rebuildReviewAggregates } from '../../db/queries/review-aggregates.ts';
import { hasBookingOrOrder } from '../../db/queries/accounts.ts';
import type { ReviewJson } from '../../db/queries/reviews.ts';

const part = z.number().int().min(1).max(5).nullable().optional();

export const newReviewSchema = z.object({
  educatorSlug: z.string().trim().min(1).max(200),
  courseSlug: z.string().trim().min(1).max(200).optional().nullable(),
  rating: z.number().int().min(1, 'must be between 1 and 5').max(5, 'must be between 1 and 5'),
  breakdown: z
    .strictObject({ material: part, facilitator: part, organiser: part, resources: part, delivery: part, communication: part })
    .optional()
    .nullable(),
  message: z.string().trim().min(1, 'is required').max(5000, 'must be at most 5000 characters'),
});

/** The name shown with a review: first and last name, or 'Learner' when the account has neither. */
export function reviewerName(firstName: string, lastName: string): string {
  return `${firstName} ${lastName}`.trim() || 'Learner';
}

export function learnerReviewsRoutes() {
  const app = new Hono<AppEnv>();
  app.post('/reviews', postReview);
  // ArchiveReview (spec 7): URL parameter id.
  app.delete('/reviews/:id', archiveReview);
  return app;
}

type NewReview = z.output<typeof newReviewSchema>;
type Db = AppEnv['Variables']['deps']['db'];
interface ReviewEducator { id: string; name: string; slug: string }
interface ReviewCourse { id: string; name: string; slug: string; published: boolean }

/** What the review is of: the educator, and the course when one is named (it must be published). */
async function reviewSubject(db: Db, body: NewReview): Promise<{ educator: ReviewEducator; course: ReviewCourse | undefined }> {
  const educator = await db.selectFrom('educators').select(['id', 'name', 'slug']).where('slug', '=', body.educatorSlug).executeTakeFirst();
  if (!educator) throw new ProblemError(problems.notFound('No educator has this address.'));
  let course: ReviewCourse | undefined;
  if (body.courseSlug) {
    course = await db
      .selectFrom('courses')
      .select(['id', 'name', 'slug', 'published'])
      .where('educator_id', '=', educator.id)
      .where('slug', '=', body.courseSlug)
      .executeTakeFirst();
    if (!course || !course.published) throw new ProblemError(problems.notFound('No course has this address.'));
  }
  return { educator, course };
}

/** Refuses a second live review of the same subject by the same learner. */
async function refuseSecondReview(db: Db, studentId: string, educator: ReviewEducator, course: ReviewCourse | undefined): Promise<void> {
  // One live review per learner and subject: a second one would count the same voice twice in the rating.
  let existing = db
    .selectFrom('reviews')
    .select('id')
    .where('reviewer_id', '=', studentId)
    .where('educator_id', '=', educator.id)
    .where('archived_at', 'is', null)
    .where('source_key', '=', 'marketplace');
  existing = course ? existing.where('course_id', '=', course.id) : existing.where('course_id', 'is', null);
  if (await existing.executeTakeFirst()) {
    throw new ProblemError(authProblems.conflict('Already Reviewed', course
      ? `You have already reviewed ${course.name}. Delete that review to write a new one.`
      : `You have already reviewed ${educator.name}. Delete that review to write a new one.`));
  }
}

/** POST /reviews: a review of an educator or of one of its courses, verified when the learner booked it. */
async function postReview(c: Context<AppEnv>) {
  const user = requireUser(c);
  const body = await parseJson(c, newReviewSchema);
  const { db } = c.var.deps;
  const now = c.var.deps.now();
  const { educator, course } = await reviewSubject(db, body);
  await refuseSecondReview(db, user.studentId, educator, course);
  const verified = await hasBookingOrOrder(db, user.studentId, { courseId: course?.id ?? null, educatorId: educator.id }, c.var.deps.now());
  const breakdown = body.breakdown && Object.values(body.breakdown).some((v) => typeof v === 'number')
    ? Object.fromEntries(Object.entries(body.breakdown).map(([k, v]) => [k, v ?? null]))
    : null;
  const id = newId('rev');
  const name = reviewerName(user.firstName, user.lastName);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('reviews')
      .values({
        id,
        educator_id: educator.id,
        course_id: course?.id ?? null,
        entity: course ? 'course' : 'educator',
        rating: body.rating,
        breakdown,
        verified,
        source_key: 'marketplace',
        source_label: 'Marketplace',
        external_url: null,
        reviewer_id: user.studentId,
        reviewer_name: name,
        public_message: body.message,
        response_message: null,
        response_created_at: null,
        created_at: now,
        archived_at: null,
      })
      .execute();
    await rebuildReviewAggregates(trx, { educatorId: educator.id });
  });

  const review: ReviewJson = {
    id,
    createdAt: now,
    rating: body.rating,
    verified,
    sourceKey: 'marketplace',
    sourceLabel: 'Marketplace',
    externalUrl: null,
    entity: course ? 'course' : 'educator',
    course: course ? { name: course.name, slug: course.slug, published: Boolean(course.published) } : null,
    reviewer: { id: user.studentId, name },
    publicMessage: body.message,
    educatorResponse: null,
  };
  return c.json({ ...review, breakdown }, 201, { 'cache-control': 'no-store' });
}

/** DELETE /reviews/{id}: the author archives their own review. */
async function archiveReview(c: Context<AppEnv>) {
  const user = requireUser(c);
  const { id } = parseParams(c, z.object({ id: z.string().min(1).max(200) }));
  const { db } = c.var.deps;
  const now = c.var.deps.now();
  const review = await db.selectFrom('reviews').select(['id', 'educator_id', 'reviewer_id', 'archived_at']).where('id', '=', id).executeTakeFirst();
  if (!review || review.archived_at !== null) throw new ProblemError(problems.notFound('No review has this id.'));
  if (review.reviewer_id !== user.studentId) throw new ProblemError(authProblems.forbidden('Only the author of a review can delete it.'));
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('reviews').set({ archived_at: now }).where('id', '=', id).where('archived_at', 'is', null).execute();
    await rebuildReviewAggregates(trx, { educatorId: review.educator_id });
  });
  return c.json({ id, archived: true }, 200, { 'cache-control': 'no-store' });
}
