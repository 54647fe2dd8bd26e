/**
 * The built site as a browser gets it: pages and scripts arrive compressed (the build's precompressed
 * siblings, chosen by the browser's Accept-Encoding), and a reload revalidates the page with its ETag and
 * gets 304 — on the marketplace and on a minisite host.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Request, Response } from 'playwright-core';
import { closeBrowser, minisiteUrl, newPage, url } from './harness.ts';
import { CODEFORGE } from './helpers/public.ts';
import { MIN_COMPRESS_BYTES } from '../../src/lib/site-files.ts';

afterAll(async () => {
  await closeBrowser();
});

/** The coding the browser should get: brotli when it offers it, else gzip. */
async function expectedCoding(request: Request): Promise<string> {
  // allHeaders(): the headers as sent, with those the network stack adds (headers() lacks Accept-Encoding).
  return /\bbr\b/.test((await request.allHeaders())['accept-encoding'] ?? '') ? 'br' : 'gzip';
}

describe('static pages in the browser', () => {
  const pages = [
    ['marketplace course page', url(`/${CODEFORGE.slug}/${CODEFORGE.bootcamp.slug}/`)],
    ['minisite course page', minisiteUrl(CODEFORGE.slug, `/${CODEFORGE.bootcamp.slug}/`)],
  ] as const;

  for (const [label, address] of pages) {
    it(`sends the ${label} and its scripts compressed, and answers a reload with 304`, async () => {
      const { page, context } = await newPage();
      try {
        const scripts: Response[] = [];
        page.on('response', (res) => {
          if (new URL(res.url()).pathname.startsWith('/_astro/') && res.url().endsWith('.js')) scripts.push(res);
        });
        const first = await page.goto(address);
        expect(first?.status()).toBe(200);
        const headers = await first!.allHeaders();
        expect(headers['content-encoding']).toBe(await expectedCoding(first!.request()));
        expect(headers.vary).toBe('Accept-Encoding');
        expect(headers.etag).toMatch(/^"[^"]+"$/);
        await page.waitForLoadState('networkidle');
        expect(scripts.length).toBeGreaterThan(0);
        let compressed = 0;
        for (const script of scripts) {
          const h = await script.allHeaders();
          // Files too small to be worth compressing have no siblings (src/lib/site-files.ts).
          if (Number(h['content-length']) < MIN_COMPRESS_BYTES && !h['content-encoding']) continue;
          // (Playwright does not always report the Accept-Encoding of preloaded module requests.)
          expect(h['content-encoding'], script.url()).toMatch(/^(br|gzip)$/);
          compressed++;
        }
        expect(compressed).toBeGreaterThan(0);

        // What came over the wire: Playwright reports a revalidated page with the cached 200, the DevTools
        // protocol's raw response headers show the 304 itself.
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        const wire: Array<{ status: number; etag: string | undefined }> = [];
        cdp.on('Network.responseReceivedExtraInfo', (event) => {
          const etag = Object.entries(event.headers).find(([name]) => name.toLowerCase() === 'etag')?.[1];
          wire.push({ status: event.statusCode, etag });
        });
        const again = await page.reload();
        expect(await again!.request().headerValue('if-none-match')).toBe(headers.etag);
        await expect.poll(() => wire.find((r) => r.etag === headers.etag)?.status).toBe(304);
        // The page shown is the cached one, whole.
        await expect.poll(() => page.locator('h1').first().textContent()).toContain(CODEFORGE.bootcamp.name);
      } finally {
        await context.close();
      }
    });
  }
});
