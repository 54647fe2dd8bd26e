/** robots.txt of a minisite host, pointing to the minisite's own sitemap. */
import type { APIRoute } from 'astro';
import { educatorPaths, type EducatorPageProps } from '../../../lib/paths.ts';
import { minisiteUrl } from '../../../lib/config.ts';
import { robotsTxt } from '../../../lib/sitemap.ts';
import { robotsDisallow } from '../../../domain/crawl.ts';

export const prerender = true;

export function getStaticPaths() {
  return educatorPaths('minisite');
}

export const GET: APIRoute = ({ props }) => {
  const { model } = props as EducatorPageProps;
  return new Response(robotsTxt(minisiteUrl(model.educator.slug, '/sitemap.xml'), robotsDisallow('minisite')), {
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
};
