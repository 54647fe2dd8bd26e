/**
 * What the sitemaps list, read in a few narrow queries (slugs and dates, never the page models), so the full
 * build and the publisher produce them at any catalogue size. lastmod comes from the data: the latest of the
 * educator's and its courses' creation and the last change the change feed saw (educator_lastmod).
 */
import type { Db } from '../client.ts';
import { marketplaceEducatorSitemapPaths, minisiteSitemapPaths } from '../../src/domain/crawl.ts';
import { marketplaceUrl, minisiteUrl } from '../../src/lib/config.ts';
import { sitemapSet, type SitemapSet, type SitemapUrl } from '../../src/lib/sitemap.ts';

interface EducatorEntry { id: string; slug: string; lastmod: number; courseSlugs: string[] }

async function educatorEntries(db: Db, educatorId?: string): Promise<EducatorEntry[]> {
  let educators = db.selectFrom('educators').leftJoin('educator_lastmod', 'educator_lastmod.educator_id', 'educators.id')
    .select(['educators.id', 'educators.slug', 'educators.created_at', 'educator_lastmod.modified_at']);
  let courses = db.selectFrom('courses').select(['educator_id', 'slug', 'created_at']).where('published', '=', true);
  if (educatorId !== undefined) {
    educators = educators.where('educators.id', '=', educatorId);
    courses = courses.where('educator_id', '=', educatorId);
  }
  const [educatorRows, courseRows] = await Promise.all([
    educators.orderBy('educators.slug').execute(),
    // The catalogue's course order (db/queries/pages.ts).
    courses.orderBy('created_at').orderBy('id').execute(),
  ]);
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
      id: e.id, slug: e.slug, courseSlugs: own?.slugs ?? [],
      lastmod: Math.max(Number(e.created_at), own?.newest ?? 0, Number(e.modified_at ?? 0)),
    };
  });
}

/** The marketplace's sitemap index (/sitemap.xml) and its children (/sitemap-{n}.xml). */
export async function marketplaceSitemaps(db: Db, limits?: { maxUrls?: number }): Promise<SitemapSet> {
  const [categories, educators] = await Promise.all([
    db.selectFrom('categories').select('slug').orderBy('name').execute(),
    educatorEntries(db),
  ]);
  const urls: SitemapUrl[] = [{ loc: marketplaceUrl('/') }, ...categories.map((c) => ({ loc: marketplaceUrl(`/courses/${c.slug}`) }))];
  for (const e of educators) {
    for (const path of marketplaceEducatorSitemapPaths({ slug: e.slug, courseSlugs: e.courseSlugs })) urls.push({ loc: marketplaceUrl(path), lastmod: e.lastmod });
  }
  return sitemapSet(urls, (name) => marketplaceUrl(`/${name}`), limits);
}

/** One minisite's sitemap index ({slug}.{host}/sitemap.xml) and children; null when the educator is gone. */
export async function minisiteSitemaps(db: Db, educatorId: string): Promise<{ slug: string; set: SitemapSet } | null> {
  const [e] = await educatorEntries(db, educatorId);
  if (!e) return null;
  const urls = minisiteSitemapPaths({ slug: e.slug, courseSlugs: e.courseSlugs }).map((path) => ({ loc: minisiteUrl(e.slug, path), lastmod: e.lastmod }));
  return { slug: e.slug, set: sitemapSet(urls, (name) => minisiteUrl(e.slug, `/${name}`)) };
}
