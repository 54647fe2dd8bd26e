/** The marketplace's child sitemaps, named by its index (src/pages/sitemap.xml.ts). */
import type { APIRoute } from 'astro';
import { marketplaceSitemapFiles } from '../lib/build-data.ts';

export const prerender = true;

export async function getStaticPaths() {
  const { children } = await marketplaceSitemapFiles();
  return [...children].map(([name, xml]) => ({ params: { n: name.slice('sitemap-'.length, -'.xml'.length) }, props: { xml } }));
}

export const GET: APIRoute = ({ props }) =>
  new Response((props as { xml: string }).xml, { headers: { 'content-type': 'application/xml; charset=utf-8' } });
