/**
 * Whether an admin's saves are live: every save writes the catalogue, whose triggers queue the affected pages in
 * the change feed (migration 0030); the publisher removes a row once its pages are written. So the educator's
 * pages are fresh when no row of theirs is queued, and a row that has been tried and given back (attempts > 0, not
 * held) is a page that failed and will be retried.
 */
import type { Deps } from '../deps.ts';
import { livePages, type LivePages } from '../../src/domain/admin-publish.ts';

export interface PublishStatus {
  live: boolean;
  /** Changes queued for the publisher. */
  pending: number;
  /** Changes whose publishing failed at least once (retried with back-off). */
  failing: number;
  /** The educator's (or the course's) pages in the three contexts. */
  pages: LivePages | null;
}

export async function publishStatus(deps: Deps, educatorId: string, courseId: string | null): Promise<PublishStatus> {
  const { db, config } = deps;
  const now = deps.now();
  const [queued, educator, course] = await Promise.all([
    db.selectFrom('page_changes')
      .select((eb) => [
        eb.fn.countAll<number>().as('pending'),
        eb.fn.sum<number>(
          eb.case().when(eb.and([eb('attempts', '>', 0), eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)])])).then(1).else(0).end(),
        ).as('failing'),
      ])
      .where('educator_id', '=', educatorId)
      .executeTakeFirst(),
    db.selectFrom('educators').select(['slug']).where('id', '=', educatorId).executeTakeFirst(),
    courseId
      ? db.selectFrom('courses').select(['slug', 'published']).where('id', '=', courseId).where('educator_id', '=', educatorId).executeTakeFirst()
      : Promise.resolve(undefined),
  ]);
  const pending = Number(queued?.pending ?? 0);
  const pages = educator
    ? livePages({ host: config.PUBLIC_HOST, protocol: config.PUBLIC_PROTOCOL, educatorSlug: educator.slug, courseSlug: course?.published ? course.slug : null })
    : null;
  return { live: pending === 0, pending, failing: Number(queued?.failing ?? 0), pages };
}
