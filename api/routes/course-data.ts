/**
 * GET /api/get-course-data-ids/{educatorId}/{courseId} → {occurrences[]} (spec 7 "Checkout"):
 * the course's listed occurrences (db/queries/occurrences.ts), not yet started first, sorted by start,
 * each with its offers (its own, else the course-wide ones) and add-ons, and live space counts
 * (`cache-control: no-store`). A course that is not this educator's, or is unpublished → 404.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseParams } from '../http/parse.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { listCourseOccurrences } from '../../db/queries/occurrences.ts';

const params = z.object({ educatorId: z.string().min(1).max(200), courseId: z.string().min(1).max(200) });

export function courseDataRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/get-course-data-ids/:educatorId/:courseId', async (c) => {
    const { educatorId, courseId } = parseParams(c, params);
    const { db, now } = c.var.deps;
    const course = await db
      .selectFrom('courses')
      .select(['id', 'published'])
      .where('id', '=', courseId)
      .where('educator_id', '=', educatorId)
      .executeTakeFirst();
    if (!course || !course.published) throw new ProblemError(problems.notFound('No course of this educator has this id.'));
    const occurrences = await listCourseOccurrences(db, course.id, now());
    c.header('cache-control', 'no-store');
    return c.json({ occurrences });
  });
  return app;
}
