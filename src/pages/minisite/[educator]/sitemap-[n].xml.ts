/** A minisite's child sitemaps, named by its index (sitemap.xml.ts beside). */
import type { APIRoute } from 'astro';
import { educatorPaths } from '../../../lib/paths.ts';
import { pageDb } from '../../../lib/db.ts';
import { minisiteSitemaps } from '../../../../db/queries/sitemaps.ts';

export const prerender = true;

export async function getStaticPaths() {
  const paths = [];
  for (const { params, props } of await educatorPaths('minisite')) {
    const sitemaps = await minisiteSitemaps(pageDb(), props.model.educator.id);
    for (const [name, xml] of sitemaps?.set.children ?? []) {
      paths.push({ params: { educator: params.educator, n: name.slice('sitemap-'.length, -'.xml'.length) }, props: { xml } });
    }
  }
  return paths;
}

export const GET: APIRoute = ({ props }) =>
  new Response((props as { xml: string }).xml, { headers: { 'content-type': 'application/xml; charset=utf-8' } });
