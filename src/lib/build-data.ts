/**
 * What the pre-rendered catalogue-wide pages (home, categories, search, the marketplace sitemaps) read while
 * `astro build` renders them: the one place those pages reach the database. Reads only, through db/queries
 * (and src/lib/sitemaps.ts), for the moment the build renders for (pagesNow); nothing here writes — what the
 * build records beside its pages (the category carousels) the full build does itself (api/publish/full-build.ts).
 * On-demand pages ask the server instead (src/lib/page-services.ts); educator pages are rendered by the publisher.
 */
import { listCategories, loadCategoryPageModel, loadHomeModel, type CategoryModel, type CategoryPageModel, type HomeModel } from '../../db/queries/pages.ts';
import { pageDb } from './db.ts';
import { pagesNow } from './paths.ts';
import { marketplaceSitemaps } from './sitemaps.ts';
import type { SitemapSet } from '../domain/sitemap.ts';

/** Every category, by name (the search page's filter and the category pages' paths). */
export function categories(): Promise<CategoryModel[]> {
  return listCategories(pageDb());
}

/** The marketplace home. */
export function homePage(): Promise<HomeModel> {
  return loadHomeModel(pageDb(), pagesNow());
}

/** A category's listing page (null when there is no such category). */
export function categoryPage(categoryId: string): Promise<CategoryPageModel | null> {
  return loadCategoryPageModel(pageDb(), categoryId, pagesNow());
}

/** The marketplace's sitemap index and its children. */
export function marketplaceSitemapFiles(): Promise<SitemapSet> {
  return marketplaceSitemaps(pageDb());
}
