/**
 * Saved courses (spec 3 "Saved status", 4 "Saved course", 7 AddCourseToSavedCourses /
 * RemoveCourseFromSavedCourses / saved-courses by-course-id). Keyed by the learner's studentId.
 */
import type { Db } from '../client.ts';
import { loadCourseCards, type CourseCard } from './course-cards.ts';

/** Spec 3 "Saved status": course id → saved, for exactly the ids asked about. */
export async function savedStatus(db: Db, studentId: string, courseIds: readonly string[]): Promise<Record<string, boolean>> {
  const ids = Array.from(new Set(courseIds));
  const status: Record<string, boolean> = Object.fromEntries(ids.map((id) => [id, false]));
  if (ids.length === 0) return status;
  const rows = await db.selectFrom('saved_courses').select('course_id').where('student_id', '=', studentId).where('course_id', 'in', ids).execute();
  for (const row of rows) status[row.course_id] = true;
  return status;
}

/** Saves a course (idempotent). */
export async function saveCourse(db: Db, studentId: string, courseId: string, now: number): Promise<void> {
  await db
    .insertInto('saved_courses')
    .values({ student_id: studentId, course_id: courseId, created_at: now })
    .onConflict((oc) => oc.columns(['student_id', 'course_id']).doNothing())
    .execute();
}

/** Unsaves a course (idempotent). */
export async function unsaveCourse(db: Db, studentId: string, courseId: string): Promise<void> {
  await db.deleteFrom('saved_courses').where('student_id', '=', studentId).where('course_id', '=', courseId).execute();
}

/** The learner's saved, published courses as course cards, most recently saved first. */
export async function listSavedCourses(db: Db, studentId: string, now: number): Promise<CourseCard[]> {
  const rows = await db
    .selectFrom('saved_courses as s')
    .innerJoin('courses as c', 'c.id', 's.course_id')
    .select('s.course_id')
    .where('s.student_id', '=', studentId)
    .where('c.published', '=', true)
    .orderBy('s.created_at', 'desc')
    .orderBy('s.course_id')
    .execute();
  return loadCourseCards(db, rows.map((r) => r.course_id), { now });
}
