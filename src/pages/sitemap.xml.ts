/**
 * The marketplace sitemap: home, search, categories, and every educator's marketplace pages and
 * course pages. Minisites have their own (src/pages/minisite/[educator]/sitemap.xml.ts); embed pages
 * are noindex and not listed; waitlist pages are noindex.
 */
import type { APIRoute } from 'astro';
import { catalogue, RESERVED_EDUCATOR_PAGES, RESERVED_TOP_LEVEL } from '../lib/paths.ts';
import { marketplaceUrl } from '../lib/config.ts';
import { sitemapXml } from '../lib/sitemap.ts';

export const prerender = true;

export const GET: APIRoute = async () => {
  const data = await catalogue();
  const urls: string[] = [marketplaceUrl('/'), marketplaceUrl('/search')];
  for (const c of data.categories) urls.push(marketplaceUrl(`/courses/${c.slug}`));
  for (const m of data.educators) {
    const slug = m.educator.slug;
    if (RESERVED_TOP_LEVEL.has(slug)) continue;
    urls.push(marketplaceUrl(`/${slug}`), marketplaceUrl(`/${slug}/courses`), marketplaceUrl(`/${slug}/reviews`), marketplaceUrl(`/${slug}/enquiry`));
    for (const c of m.courses) if (!RESERVED_EDUCATOR_PAGES.has(c.course.slug)) urls.push(marketplaceUrl(`/${slug}/${c.course.slug}`));
  }
  return new Response(sitemapXml(urls), { headers: { 'content-type': 'application/xml; charset=utf-8' } });
};
