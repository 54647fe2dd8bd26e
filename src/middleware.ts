/**
 * Valid HTML: Astro writes `<style>astro-island,…{display:contents}</style>` in front of a page's
 * first island, wherever that is in the body, and a <style> element is not allowed there (HTML
 * validators report it). The same rule lives in global.css, so the inline copy is dropped from every
 * HTML page, pre-rendered or on demand.
 */
import { defineMiddleware } from 'astro:middleware';

const ISLAND_STYLE = /<style>astro-island,astro-slot,astro-static-slot\{display:contents\}<\/style>/g;

export const onRequest = defineMiddleware(async (_context, next) => {
  const response = await next();
  if (!(response.headers.get('content-type') ?? '').includes('text/html')) return response;
  const html = await response.text();
  return new Response(html.replace(ISLAND_STYLE, ''), { status: response.status, statusText: response.statusText, headers: response.headers });
});
