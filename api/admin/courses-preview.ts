/**
 * The admin's preview of a course (draft or published) as its page will be in each context: the props the
 * publisher hands the course view (api/publish/educator.ts), read the same way (db/queries/pages.ts for this one
 * educator), with the course read as if published. The admin page src/pages/admin-app/courses/[courseId]/preview.astro
 * renders them with the same view (src/components/views/CourseView.astro); nothing is written anywhere.
 */
import type { Deps } from '../deps.ts';
import { loadEducatorCatalogue } from '../../db/queries/pages.ts';
import type { CoursePageProps } from '../../src/lib/paths.ts';
import { carouselCache } from '../publish/carousels.ts';
import { findCourse } from './courses-store.ts';

export async function coursePreviewProps(deps: Deps, educatorId: string, courseId: string): Promise<CoursePageProps | null> {
  const { db } = deps;
  const course = await findCourse(db, educatorId, courseId);
  if (!course) return null;
  const now = deps.now();
  const catalogue = await loadEducatorCatalogue(db, [educatorId], now, { draftCourseIds: [courseId] });
  const categories = await db.selectFrom('categories').select(['id', 'slug']).execute();
  const slugOf = new Map(categories.map((c) => [c.id, c.slug]));
  await carouselCache(db, now).fill(catalogue, (id) => slugOf.get(id));
  const model = catalogue.educators.find((m) => m.educator.id === educatorId);
  const courseModel = model?.courses.find((m) => m.course.id === courseId);
  return model && courseModel ? { model, courseModel, catalogue } : null;
}
