/**
 * What the sitemaps list, read in a few narrow queries (slugs and dates, never the page models), so the full
 * build and the publisher produce them at any catalogue size. lastmod comes from the data: the latest of the
 * educator's and its courses' creation and the last change the change feed saw (educator_lastmod).
 * The files themselves (layout, URLs, XML) are src/lib/sitemaps.ts.
 */
import type { Db } from '../client.ts';

export interface SitemapEducatorEntry { id: string; slug: string; lastmod: number; courseSlugs: string[]; hasMembershipPlans: boolean }

/** About how many marketplace URLs the educators have (three pages each and their courses): enough to size the buckets. */
export async function marketplaceUrlCount(db: Db): Promise<number> {
  const [educators, courses] = await Promise.all([
    db.selectFrom('educators').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    db.selectFrom('courses').select((eb) => eb.fn.countAll<number>().as('n')).where('published', '=', true).executeTakeFirstOrThrow(),
  ]);
  return 3 * Number(educators.n) + Number(courses.n);
}

/** Every educator's id. */
export async function allEducatorIds(db: Db): Promise<string[]> {
  return (await db.selectFrom('educators').select('id').execute()).map((r) => r.id);
}

/** Slugs of the categories with a published course: an empty listing is noindex (src/components/views/CategoryView.astro). */
export async function listedCategorySlugs(db: Db): Promise<string[]> {
  const categories = await db.selectFrom('categories').select('slug')
    .where((eb) => eb.exists(eb.selectFrom('courses').select('courses.id').whereRef('courses.category_id', '=', 'categories.id').where('courses.published', '=', true)))
    .orderBy('name').execute();
  return categories.map((c) => c.slug);
}

/** What the sitemaps list of each educator (all of them, or those named). */
export async function sitemapEducatorEntries(db: Db, educatorIds?: ReadonlyArray<string>): Promise<SitemapEducatorEntry[]> {
  let educators = db.selectFrom('educators').leftJoin('educator_lastmod', 'educator_lastmod.educator_id', 'educators.id')
    .select(['educators.id', 'educators.slug', 'educators.created_at', 'educator_lastmod.modified_at']);
  let courses = db.selectFrom('courses').select(['educator_id', 'slug', 'created_at']).where('published', '=', true);
  // Educators with membership plans listed: their memberships page has content.
  let plans = db.selectFrom('membership_plans').select('educator_id').distinct().where('listed', '=', true);
  if (educatorIds !== undefined) {
    if (educatorIds.length === 0) return [];
    educators = educators.where('educators.id', 'in', educatorIds);
    courses = courses.where('educator_id', 'in', educatorIds);
    plans = plans.where('educator_id', 'in', educatorIds);
  }
  const [educatorRows, courseRows, planRows] = await Promise.all([
    educators.orderBy('educators.slug').execute(),
    // The catalogue's course order (db/queries/pages.ts).
    courses.orderBy('created_at').orderBy('id').execute(),
    plans.execute(),
  ]);
  const withPlans = new Set(planRows.map((r) => r.educator_id));
  const byEducator = new Map<string, { slugs: string[]; newest: number }>();
  for (const c of courseRows) {
    const entry = byEducator.get(c.educator_id) ?? { slugs: [], newest: 0 };
    entry.slugs.push(c.slug);
    entry.newest = Math.max(entry.newest, Number(c.created_at));
    byEducator.set(c.educator_id, entry);
  }
  return educatorRows.map((e) => {
    const own = byEducator.get(e.id);
    return {
      id: e.id, slug: e.slug, courseSlugs: own?.slugs ?? [], hasMembershipPlans: withPlans.has(e.id),
      lastmod: Math.max(Number(e.created_at), own?.newest ?? 0, Number(e.modified_at ?? 0)),
    };
  });
}
