import type { Db } from '../client.ts';
import { safeImageUrl } from '../../src/domain/urls.ts';

/** Educators for the marketplace home page, best rated first. */
export async function listHomeEducators(db: Db, limit = 60) {
  return db
    .selectFrom('educators as e')
    .leftJoin('review_aggregates as a', (j) => j.onRef('a.subject_id', '=', 'e.id').on('a.subject_type', '=', 'educator'))
    .select(['e.id', 'e.slug', 'e.name', 'e.logo_url', 'e.address', 'a.count as review_count', 'a.rating as review_rating'])
    .orderBy('a.count', 'desc')
    .orderBy('e.name')
    .orderBy('e.id')
    .limit(limit)
    .execute()
    // A logo written before the database refused unsafe URLs never reaches the page.
    .then((rows) => rows.map((row) => ({ ...row, logo_url: safeImageUrl(row.logo_url, null) })));
}

/** Categories with the number of published courses in each. */
export async function listCategoriesWithCounts(db: Db) {
  return db
    .selectFrom('categories as c')
    .leftJoin('courses as co', (j) => j.onRef('co.category_id', '=', 'c.id').on('co.published', '=', true))
    .select((eb) => ['c.id', 'c.slug', 'c.name', eb.fn.count<number>('co.id').as('course_count')])
    .groupBy(['c.id', 'c.slug', 'c.name'])
    .orderBy('c.name')
    .execute();
}
