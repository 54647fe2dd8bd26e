/**
 * One sitemap index per minisite ({slug}.{host}/sitemap.xml) with its children (sitemap-[n].xml.ts beside);
 * which URLs belong is src/domain/crawl.ts minisiteSitemapPaths.
 */
import type { APIRoute } from 'astro';
import { educatorPaths, type EducatorPageProps } from '../../../lib/paths.ts';
import { pageDb } from '../../../lib/db.ts';
import { minisiteSitemaps } from '../../../../db/queries/sitemaps.ts';

export const prerender = true;

export function getStaticPaths() {
  return educatorPaths('minisite');
}

export const GET: APIRoute = async ({ props }) => {
  const { model } = props as EducatorPageProps;
  const sitemaps = await minisiteSitemaps(pageDb(), model.educator.id);
  return new Response(sitemaps!.set.index, { headers: { 'content-type': 'application/xml; charset=utf-8' } });
};
