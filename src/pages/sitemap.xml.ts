/**
 * The marketplace sitemap index; its children are /sitemap-{n}.xml (src/pages/sitemap-[n].xml.ts). Which URLs
 * belong is src/domain/crawl.ts; the publisher writes the same files from the same function when the catalogue
 * changes. Minisites have their own (src/pages/minisite/[educator]/sitemap.xml.ts).
 */
import type { APIRoute } from 'astro';
import { marketplaceSitemapFiles } from '../lib/build-data.ts';

export const prerender = true;

export const GET: APIRoute = async () => {
  const { index } = await marketplaceSitemapFiles();
  return new Response(index, { headers: { 'content-type': 'application/xml; charset=utf-8' } });
};
