/**
 * Saved courses (spec 2.12, 4 "Saved course", 7), for the signed-in learner only:
 *
 *   POST   /student/me/saved-courses                   {courseId}   AddCourseToSavedCourses      → {courseId, saved: true}
 *   DELETE /student/me/saved-courses/{courseId}                     RemoveCourseFromSavedCourses → {courseId, saved: false}
 *   GET    /student/me/saved-courses/by-course-id?courseIds=a,b    → {a: true, b: false}  (spec 3 "Saved status")
 *   GET    /student/me/saved-courses                               → {courses: CourseCard[]} (the Saved page)
 *
 * "me" is always the session's own learner: there is no way to name another learner.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseJson, parseParams, parseQuery } from '../http/parse.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { requireUser } from '../auth/middleware.ts';
import { listSavedCourses, saveCourse, savedStatus, unsaveCourse } from '../../db/queries/saved-courses.ts';

const courseId = z.string().trim().min(1).max(200);
const MAX_IDS = 200;

export function savedCoursesRoutes() {
  const app = new Hono<AppEnv>();

  app.get('/student/me/saved-courses/by-course-id', async (c) => {
    const user = requireUser(c);
    const { courseIds } = parseQuery(c, z.object({ courseIds: z.string().max(20_000).default('') }));
    const ids = courseIds.split(',').map((id) => id.trim()).filter(Boolean);
    if (ids.length > MAX_IDS) {
      throw new ProblemError(problems.validation([{ key: 'courseIds', name: 'Course ids', message: `must list at most ${MAX_IDS} ids` }]));
    }
    const status = await savedStatus(c.var.deps.db, user.studentId, ids);
    return c.json(status, 200, { 'cache-control': 'no-store' });
  });

  app.get('/student/me/saved-courses', async (c) => {
    const user = requireUser(c);
    const courses = await listSavedCourses(c.var.deps.db, user.studentId, c.var.deps.now());
    return c.json({ courses }, 200, { 'cache-control': 'no-store' });
  });

  app.post('/student/me/saved-courses', async (c) => {
    const user = requireUser(c);
    const body = await parseJson(c, z.object({ courseId }));
    const { db } = c.var.deps;
    const course = await db.selectFrom('courses').select(['id', 'published']).where('id', '=', body.courseId).executeTakeFirst();
    if (!course || !course.published) throw new ProblemError(problems.notFound('No course has this id.'));
    await saveCourse(db, user.studentId, course.id, c.var.deps.now());
    return c.json({ courseId: course.id, saved: true }, 200, { 'cache-control': 'no-store' });
  });

  app.delete('/student/me/saved-courses/:courseId', async (c) => {
    const user = requireUser(c);
    const params = parseParams(c, z.object({ courseId }));
    await unsaveCourse(c.var.deps.db, user.studentId, params.courseId);
    return c.json({ courseId: params.courseId, saved: false }, 200, { 'cache-control': 'no-store' });
  });

  return app;
}
