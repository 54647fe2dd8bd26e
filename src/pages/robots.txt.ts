/** robots.txt for the marketplace host, pointing to its sitemap. Embed pages stay crawlable so their noindex is seen. */
import type { APIRoute } from 'astro';
import { marketplaceUrl } from '../lib/config.ts';
import { robotsTxt } from '../domain/sitemap.ts';
import { robotsDisallow } from '../domain/crawl.ts';

export const prerender = true;

export const GET: APIRoute = () =>
  new Response(robotsTxt(marketplaceUrl('/sitemap.xml'), robotsDisallow('marketplace')), {
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
