/**
 * The educator admin's courses (docs/admin.md "Courses"), relative to /admin/educators/{educatorId}:
 *
 *   GET    /courses?q=&status=published|draft&after=   the educator's courses by name, 50 a page (keyset)
 *   POST   /courses                                    a new course (a draft) → 201 the editor's data
 *   GET    /course-options                             categories, forms and locations the editor offers
 *   GET    /courses/{courseId}                         the editor's data (the course, its offers, add-ons, FAQs…)
 *   PUT    /courses/{courseId}                         save (names the revision it was made on; 409 when stale)
 *   POST   /courses/{courseId}/publish | /unpublish    { revision }
 *   POST   /courses/{courseId}/duplicate               → 201 { id } (a draft copy)
 *   DELETE /courses/{courseId}?revision=               refused (409, with the reason) while learners hold it
 *
 * Every route is for the educator's admins only (api/admin/access.ts, before this router); a course id of another
 * educator answers 404 here, as an unknown one does. Bodies are parsed with the editor's own schema
 * (src/domain/admin/course.ts), problems carry a message per field (spec 8). The course's audit log is
 * GET /changes?entity=course&entityId={courseId} (api/admin/routes.ts).
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseParams, parseQuery, readJson } from '../http/parse.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import {
  COURSE_SLUG_TAKEN_MESSAGE, courseInputSchema, courseProperty, courseRuleProblems, issuesToProperties, type CourseInput,
} from '../../src/domain/admin/course.ts';
import { adminEducatorId } from './access.ts';
import {
  createCourse, deleteCourse, duplicateCourse, editorData, editorOptions, listCourses, parseCursor, setPublished, updateCourse,
  type SaveContext,
} from './courses-store.ts';

const courseIdParams = z.object({
  educatorId: z.string(),
  courseId: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'is not a course id'),
});
const revisionSchema = z.number({ error: (i) => (i.input === undefined ? 'is required' : 'must be a number') })
  .int({ error: 'must be a whole number' }).min(1, { error: 'must be at least 1' });

function saveContext(c: Context<AppEnv>): SaveContext {
  const deps = c.var.deps;
  return { educatorId: adminEducatorId(c), userId: c.var.user!.id, now: deps.now(), dialect: deps.dialect, config: deps.config };
}

/** The editor's body: the course's fields, checked field by field and then against each other. */
function parseCourse(body: unknown): CourseInput {
  const parsed = courseInputSchema.safeParse(body);
  if (!parsed.success) throw new ProblemError(problems.validation(issuesToProperties(parsed.error.issues)));
  const rules = courseRuleProblems(parsed.data);
  if (rules.length) throw new ProblemError(problems.validation(rules));
  return parsed.data;
}

function parseRevision(body: unknown): number {
  const parsed = revisionSchema.safeParse((body as { revision?: unknown } | null)?.revision);
  if (!parsed.success) throw new ProblemError(problems.validation([courseProperty('revision', parsed.error.issues[0]!.message)]));
  return parsed.data;
}

/** Two saves racing for one slug: the database's unique constraint answers, as the check would have. */
async function slugRace<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const e = error as { code?: string; message?: string };
    if (e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed: courses\.educator_id, courses\.slug/.test(String(e?.message))) {
      throw new ProblemError(problems.validation([courseProperty('slug', COURSE_SLUG_TAKEN_MESSAGE)]));
    }
    throw error;
  }
}

export function courseAdminRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get('/courses', async (c) => {
    const q = parseQuery(c, z.object({
      q: z.string().trim().max(150, { error: 'must be at most 150 characters' }).optional(),
      status: z.enum(['published', 'draft', 'all'], { error: 'must be published, draft or all' }).optional(),
      after: z.string().max(600).optional(),
    }));
    const status = q.status === 'all' ? undefined : q.status;
    return c.json(await listCourses(c.var.deps.db, adminEducatorId(c), { q: q.q || undefined, status, after: parseCursor(q.after), now: c.var.deps.now() }));
  });

  app.get('/course-options', async (c) => c.json(await editorOptions(c.var.deps.db, adminEducatorId(c))));

  app.post('/courses', async (c) => {
    const ctx = saveContext(c);
    const input = parseCourse(await readJson(c));
    const id = await slugRace(() => createCourse(c.var.deps.db, ctx, input));
    return c.json(await editorData(c.var.deps.db, ctx.educatorId, id, ctx.now), 201);
  });

  app.get('/courses/:courseId', async (c) => {
    const { courseId } = parseParams(c, courseIdParams);
    return c.json(await editorData(c.var.deps.db, adminEducatorId(c), courseId, c.var.deps.now()));
  });

  app.put('/courses/:courseId', async (c) => {
    const { courseId } = parseParams(c, courseIdParams);
    const ctx = saveContext(c);
    const body = await readJson(c);
    const revision = parseRevision(body);
    const input = parseCourse(body);
    await slugRace(() => updateCourse(c.var.deps.db, ctx, courseId, revision, input));
    return c.json(await editorData(c.var.deps.db, ctx.educatorId, courseId, ctx.now));
  });

  for (const [path, published] of [['publish', true], ['unpublish', false]] as const) {
    app.post(`/courses/:courseId/${path}`, async (c) => {
      const { courseId } = parseParams(c, courseIdParams);
      const ctx = saveContext(c);
      const revision = parseRevision(await readJson(c));
      await setPublished(c.var.deps.db, ctx, courseId, revision, published);
      return c.json(await editorData(c.var.deps.db, ctx.educatorId, courseId, ctx.now));
    });
  }

  app.post('/courses/:courseId/duplicate', async (c) => {
    const { courseId } = parseParams(c, courseIdParams);
    const ctx = saveContext(c);
    const id = await slugRace(() => duplicateCourse(c.var.deps.db, ctx, courseId));
    return c.json({ id }, 201);
  });

  app.delete('/courses/:courseId', async (c) => {
    const { courseId } = parseParams(c, courseIdParams);
    const ctx = saveContext(c);
    const { revision } = parseQuery(c, z.object({ revision: z.coerce.number({ error: 'is required' }).int({ error: 'must be a whole number' }).min(1, { error: 'must be at least 1' }) }));
    const outcome = await deleteCourse(c.var.deps.db, ctx, courseId, revision);
    return c.json({ outcome });
  });

  return app;
}
