/**
 * Category carousels: the first cards of a category in relevance order, which every course page of the category
 * shows (less the page's own). The publisher keeps a digest of each as published (published_carousels), so it
 * can tell when a change elsewhere in the category means its course pages must be written again; the full build
 * records them all (recordCategoryCarousels), in its own process rather than while a page renders.
 */
import type { Db } from '../../db/client.ts';
import {
  CATEGORY_CAROUSEL_SOURCE, carouselDigest, listCategories, recordCarousel, topCards, type PublicCatalogue,
} from '../../db/queries/pages.ts';
import type { CourseCard } from '../../db/queries/course-cards.ts';

/** The cards of one category's carousel, read from the search read model, never from the whole catalogue. */
export function categoryCarousel(db: Db, categoryId: string, now: number): Promise<CourseCard[]> {
  return topCards(db, { categoryId, limit: CATEGORY_CAROUSEL_SOURCE, now });
}

/**
 * The first cards of each category's carousel (what a course page of that category shows), read from the
 * search read model per category, never from the whole catalogue; kept for the life of the cache.
 */
export function carouselCache(db: Db, now: number) {
  const cards = new Map<string, Promise<CourseCard[]>>();
  const of = (categoryId: string) => {
    let pending = cards.get(categoryId);
    if (!pending) {
      pending = categoryCarousel(db, categoryId, now);
      cards.set(categoryId, pending);
    }
    return pending;
  };
  return {
    of,
    /** Fills `data.cardsByCategory` for every category its educators' courses are in. */
    async fill(data: PublicCatalogue, categorySlug: (id: string) => string | undefined): Promise<void> {
      const ids = new Set(data.educators.flatMap((m) => m.courses.flatMap((c) => (c.course.category_id ? [c.course.category_id] : []))));
      for (const id of ids) {
        const slug = categorySlug(id);
        if (slug) data.cardsByCategory.set(slug, await of(id));
      }
    },
  };
}

/** The digest of a category's carousel as its course pages were last written (null: none recorded). */
export async function publishedCarousel(db: Db, categoryId: string): Promise<string | null> {
  const row = await db.selectFrom('published_carousels').select('digest').where('category_id', '=', categoryId).executeTakeFirst();
  return row?.digest ?? null;
}

/** Records every category's carousel as a full build renders it, for the publisher's later comparisons. */
export async function recordCategoryCarousels(db: Db, now: number): Promise<void> {
  for (const { id } of await listCategories(db)) await recordCarousel(db, id, carouselDigest(await categoryCarousel(db, id, now)));
}
