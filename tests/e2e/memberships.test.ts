/**
 * Memberships in the browser (docs/gifts-and-memberships.md "## Memberships"): the plans page in every context
 * (spec 2.1 "memberships"), with the tab, the plans and a Join button that opens the checkout's membership flow.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeBrowser, newPage } from './harness.ts';
import { CONTEXTS, STILLWATER, pageUrl } from './helpers/public.ts';

afterAll(async () => {
  await closeBrowser();
});

const PLANS_PATH = { marketplace: `/${STILLWATER.slug}/memberships`, minisite: '/memberships', embed: `/embed/${STILLWATER.slug}/memberships` } as const;

describe('the memberships page', () => {
  for (const context of CONTEXTS) {
    it(`lists the plans with prices, benefits and Join in the ${context}`, async () => {
      const { page, context: browser } = await newPage();
      try {
        expect((await page.goto(pageUrl(context, STILLWATER.slug, PLANS_PATH[context])))?.status()).toBe(200);
        await expect.poll(() => page.locator('nav.tabs a[data-tab="memberships"]').getAttribute('aria-current')).toBe('page');
        const plans = page.locator('li[data-plan]');
        expect(await plans.locator('h3').allTextContents()).toEqual(['Unlimited Calm', 'Annual Friend', 'Five-Class Pass']);
        const first = plans.first();
        expect(await first.textContent()).toContain('£49.00 / month');
        expect(await first.textContent()).toContain('8 credits a month, each one space on all courses');
        expect(await first.textContent()).toContain('20% off all courses');
        expect(await plans.nth(2).textContent()).toContain('£55.00 for 3 months');
        expect(await plans.nth(2).textContent()).toContain('Yin Yoga Evening');
        const join = await first.getByRole('link', { name: 'Join Unlimited Calm' }).getAttribute('href');
        const query = `flow=membership&educator=${STILLWATER.slug}&plan=plan_0004_1`;
        const expected = context === 'embed' ? `/embed/checkout?${query}&origin=embed`
          : context === 'minisite' ? `/checkout?${query}&origin=landing_page` : `/checkout?${query}`;
        expect(join).toBe(expected);
      } finally {
        await browser.close();
      }
    });
  }
});
