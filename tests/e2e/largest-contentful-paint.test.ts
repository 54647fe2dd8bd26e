/**
 * Every public page type has a Largest Contentful Paint, as Chromium measures it. Search engines read LCP from real
 * Chrome visitors: a page with none has no Core Web Vitals, and Lighthouse scores it 0 (NO_LCP). Chromium stops
 * looking for the LCP at the visitor's first input or scroll, and counts a scroll the compositor runs (a smooth
 * scroll, such as a scroll-snap container snapping itself on load) as the visitor's; so a carousel that moves by
 * itself while the page loads leaves the page with none. Read at a phone's viewport (Lighthouse's mobile default)
 * and a desktop one, with the buffered `largest-contentful-paint` entries of a fresh page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { closeBrowser, minisiteUrl, newContext, productDb, url } from './harness.ts';
import { CLAY } from './helpers/public.ts';

/** Lighthouse's mobile emulation (a Moto G Power) and a laptop. */
const VIEWPORTS = {
  phone: { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1350, height: 940 } },
} as const;

/** How long a page has to report its first entry: paints are reported once presented, shortly after load. */
const WAIT_FOR_ENTRY_MS = 3_000;

let category: string;

beforeAll(async () => {
  const db = productDb();
  // The category of the showcase educator's taster: one with courses, so its page has cards as well as its title.
  category = (await db
    .selectFrom('courses as c')
    .innerJoin('educators as e', 'e.id', 'c.educator_id')
    .innerJoin('categories as k', 'k.id', 'c.category_id')
    .select('k.slug')
    .where('e.slug', '=', CLAY.slug)
    .where('c.slug', '=', CLAY.taster.slug)
    .executeTakeFirstOrThrow()).slug;
  await db.destroy();
});

afterAll(closeBrowser);

function pageTypes(): Record<string, string> {
  return {
    home: url('/'),
    'educator profile (marketplace)': url(`/${CLAY.slug}`),
    'educator profile (minisite)': minisiteUrl(CLAY.slug, '/about'),
    'educator courses (minisite home)': minisiteUrl(CLAY.slug, '/'),
    'course (marketplace)': url(`/${CLAY.slug}/${CLAY.taster.slug}`),
    'course (minisite)': minisiteUrl(CLAY.slug, `/${CLAY.taster.slug}`),
    'reviews (marketplace)': url(`/${CLAY.slug}/reviews`),
    'reviews (minisite)': minisiteUrl(CLAY.slug, '/reviews'),
    category: url(`/courses/${category}`),
    search: url('/search?q=pottery'),
  };
}

interface LcpEntry { size: number; element: string }

/** The page's LCP entries so far (buffered), waiting a little for the first one to be reported. */
function lcpEntries(page: Page): Promise<LcpEntry[]> {
  return page.evaluate((waitMs) => new Promise<LcpEntry[]>((resolve) => {
    const seen: LcpEntry[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { size: number; element: Element | null })[]) {
        seen.push({ size: entry.size, element: entry.element?.tagName.toLowerCase() ?? '' });
      }
      if (seen.length > 0) finish();
    });
    const timer = setTimeout(() => finish(), waitMs);
    function finish() {
      clearTimeout(timer);
      observer.disconnect();
      resolve(seen);
    }
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
  }), WAIT_FOR_ENTRY_MS);
}

describe('Largest Contentful Paint', () => {
  for (const [viewportName, options] of Object.entries(VIEWPORTS)) {
    it(`every page type has one (${viewportName})`, async () => {
      const context = await newContext(options);
      const missing: string[] = [];
      try {
        for (const [name, address] of Object.entries(pageTypes())) {
          // A fresh page each time: Chromium reports LCP for a document's first load only.
          const page = await context.newPage();
          const response = await page.goto(address, { waitUntil: 'load' });
          expect(response?.status(), `${name}: ${address}`).toBe(200);
          const entries = await lcpEntries(page);
          if (entries.length === 0) missing.push(`${name} (${address})`);
          else expect(entries.at(-1)!.size, name).toBeGreaterThan(0);
          await page.close();
        }
      } finally {
        await context.close();
      }
      expect(missing, 'pages without a Largest Contentful Paint').toEqual([]);
    });
  }
});
