/** One sitemap per minisite ({slug}.{host}/sitemap.xml): its courses list, about, reviews, enquiry and course pages. */
import type { APIRoute } from 'astro';
import { educatorPaths, RESERVED_MINISITE_PAGES, type EducatorPageProps } from '../../../lib/paths.ts';
import { minisiteUrl } from '../../../lib/config.ts';
import { sitemapXml } from '../../../lib/sitemap.ts';

export const prerender = true;

export function getStaticPaths() {
  return educatorPaths('minisite');
}

export const GET: APIRoute = ({ props }) => {
  const { model } = props as EducatorPageProps;
  const slug = model.educator.slug;
  const urls = ['/', '/about', '/reviews', '/enquiry', ...model.courses.filter((c) => !RESERVED_MINISITE_PAGES.has(c.course.slug)).map((c) => `/${c.course.slug}`)]
    .map((path) => minisiteUrl(slug, path));
  return new Response(sitemapXml(urls), { headers: { 'content-type': 'application/xml; charset=utf-8' } });
};
