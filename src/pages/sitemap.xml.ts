/**
 * The marketplace sitemap; which URLs belong is src/domain/crawl.ts marketplaceSitemapPaths.
 * Minisites have their own (src/pages/minisite/[educator]/sitemap.xml.ts).
 */
import type { APIRoute } from 'astro';
import { catalogue } from '../lib/paths.ts';
import { marketplaceSitemapPaths } from '../domain/crawl.ts';
import { marketplaceUrl } from '../lib/config.ts';
import { sitemapXml } from '../lib/sitemap.ts';

export const prerender = true;

export const GET: APIRoute = async () => {
  const data = await catalogue();
  const urls = marketplaceSitemapPaths({
    categorySlugs: data.categories.map((c) => c.slug),
    educators: data.educators.map((m) => ({ slug: m.educator.slug, courseSlugs: m.courses.map((c) => c.course.slug) })),
  }).map(marketplaceUrl);
  return new Response(sitemapXml(urls), { headers: { 'content-type': 'application/xml; charset=utf-8' } });
};
