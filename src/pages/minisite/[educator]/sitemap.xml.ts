/** One sitemap per minisite ({slug}.{host}/sitemap.xml); which URLs belong is src/domain/crawl.ts minisiteSitemapPaths. */
import type { APIRoute } from 'astro';
import { educatorPaths, type EducatorPageProps } from '../../../lib/paths.ts';
import { minisiteSitemapPaths } from '../../../domain/crawl.ts';
import { minisiteUrl } from '../../../lib/config.ts';
import { sitemapXml } from '../../../lib/sitemap.ts';

export const prerender = true;

export function getStaticPaths() {
  return educatorPaths('minisite');
}

export const GET: APIRoute = ({ props }) => {
  const { model } = props as EducatorPageProps;
  const slug = model.educator.slug;
  const urls = minisiteSitemapPaths({ slug, courseSlugs: model.courses.map((c) => c.course.slug) }).map((path) => minisiteUrl(slug, path));
  return new Response(sitemapXml(urls), { headers: { 'content-type': 'application/xml; charset=utf-8' } });
};
