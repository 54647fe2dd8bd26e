/**
 * Pages as a new learner (and a crawler) meets them:
 * - the gift voucher checkout writes nothing until the learner picks an amount, is kept from crawlers and names
 *   what it sells in its title; an educator who does not sell gift vouchers has no such page (404, the site's
 *   not-found page), on the minisite and in the embed; embed.js mounts it with data-page="vouchers";
 * - a sold-out date offers its waitlist, never a Select, and the booking box says the chosen date is sold out;
 * - a chosen date is kept when Book Now is tapped before the booking box has hydrated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, closeBrowser, minisiteUrl, productDb, url } from './harness.ts';
import { CLAY, httpGet, startHostSite } from './helpers/public.ts';
import { learnerPage } from './helpers/learners.ts';
import { stepHeading } from './helpers/checkout.ts';
import type { Db } from '../../db/client.ts';

let db: Db;
beforeAll(() => {
  db = productDb();
});
afterAll(async () => {
  await db?.destroy();
  await closeBrowser();
});

const TASTER_COURSE = 'crs_0001_01';

async function giftCheckouts(educatorId: string): Promise<number> {
  const row = await db.selectFrom('checkouts').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('educator_id', '=', educatorId).where('flow', '=', 'giftVoucher').executeTakeFirstOrThrow();
  return Number(row.n);
}

/** An educator of the catalogue who does not sell gift vouchers. */
async function nonSeller(): Promise<{ id: string; slug: string }> {
  const sellers = (await db.selectFrom('gift_voucher_settings').select('educator_id').where('enabled', '=', 1).execute()).map((r) => r.educator_id);
  return db.selectFrom('educators').select(['id', 'slug']).where('id', 'not in', sellers).orderBy('id').executeTakeFirstOrThrow();
}

describe('the gift voucher checkout', () => {
  it('shows the Amount step without writing a checkout; picking an amount writes it', async () => {
    const before = await giftCheckouts(CLAY.id);
    const { page, context } = await learnerPage();
    try {
      const res = await page.goto(minisiteUrl(CLAY.slug, '/gift-checkout'));
      expect(res?.status()).toBe(200);
      expect(await page.title()).toBe(`Gift Voucher – ${CLAY.name}`);
      await page.getByRole('heading', { name: 'Amount', level: 2 }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await giftCheckouts(CLAY.id)).toBe(before);
      expect(new URL(page.url()).searchParams.get('checkoutId')).toBeNull();
      await page.locator('.checkout-summary__continue').click();
      await page.getByRole('heading', { name: 'Log in or Sign Up', level: 2 }).waitFor();
      expect(await giftCheckouts(CLAY.id)).toBe(before + 1);
      expect(new URL(page.url()).searchParams.get('checkoutId')).toMatch(/^chk_/);
    } finally {
      await context.close();
    }
  });

  it('is kept from crawlers: robots.txt on the minisite and the marketplace, and noindex', async () => {
    const robots = (await httpGet(minisiteUrl(CLAY.slug, '/robots.txt'))).body;
    expect(robots).toMatch(/^Disallow: \/gift-checkout$/m);
    expect((await httpGet(url('/robots.txt'))).body).toMatch(/^Disallow: \/embed\/\*\/gift-checkout$/m);
    expect((await httpGet(minisiteUrl(CLAY.slug, '/gift-checkout'))).body).toContain('<meta name="robots" content="noindex">');
  });

  it('answers 404 with the site’s not-found page for an educator who does not sell gift vouchers (minisite, embed)', async () => {
    const other = await nonSeller();
    const before = await giftCheckouts(other.id);
    for (const target of [minisiteUrl(other.slug, '/gift-checkout'), url(`/embed/${other.slug}/gift-checkout`)]) {
      const res = await httpGet(target);
      expect(res.status, target).toBe(404);
      expect(res.body, target).toContain('<title>Page not found</title>');
      expect(res.body, target).toContain('<h1>404 - Not found</h1>');
      expect(res.body, target).not.toContain('Loading the checkout');
    }
    expect(await giftCheckouts(other.id)).toBe(before);
  });

  it('is mounted by embed.js with data-page="vouchers"', async () => {
    const host = await startHostSite(baseUrl(), CLAY.slug);
    const { page, context } = await learnerPage();
    try {
      await page.goto(host.pageUrl({ page: 'vouchers' }));
      const src = await page.locator('#embed iframe').getAttribute('src');
      expect(new URL(src!).pathname).toBe(`/embed/${CLAY.slug}/gift-checkout`);
      await page.frameLocator('#embed iframe').getByRole('heading', { name: 'Amount', level: 2 }).waitFor();
      await page.goto(host.pageUrl({ page: 'memberships' }));
      expect(new URL((await page.locator('#embed iframe').getAttribute('src'))!).pathname).toBe(`/embed/${CLAY.slug}/memberships`);
    } finally {
      await context.close();
      await host.close();
    }
  });
});

describe('a sold-out date', () => {
  it('offers its waitlist instead of Select, and the booking box says the chosen date is sold out', async () => {
    const soldOut = await db.selectFrom('occurrences').select('id').where('course_id', '=', TASTER_COURSE).where('available_spaces', '=', 0)
      .where('start_datetime', '>', Math.floor(Date.now() / 1000)).executeTakeFirstOrThrow();
    const { page, context } = await learnerPage();
    try {
      await page.goto(url(`/${CLAY.slug}/${CLAY.taster.slug}?occurrence=${soldOut.id}`));
      await page.waitForLoadState('networkidle');
      const row = page.locator('.date-item', { has: page.locator(`a[href*="occurrence=${soldOut.id}"]`) });
      await expect.poll(() => row.count()).toBe(1);
      await expect.poll(() => row.getByText('Sold out').count()).toBe(1);
      expect(await row.getByRole('link', { name: /^Select/ }).count()).toBe(0);
      expect(await row.getByText('Selected', { exact: true }).count()).toBe(0);
      const waitlist = row.getByRole('link', { name: /^Join Waitlist for/ });
      expect(await waitlist.getAttribute('href')).toContain(`occurrence=${soldOut.id}`);

      const aside = page.locator('.booking-aside');
      await expect.poll(() => aside.textContent()).toContain('Sold out');
      expect(await aside.textContent()).toContain('Selected date:');
      expect(await aside.locator(`a[href*="/checkout?"][href*="occurrence=${soldOut.id}"]`).count()).toBe(0);
      expect(await aside.getByRole('link', { name: 'Join Waitlist' }).getAttribute('href')).toContain(`occurrence=${soldOut.id}`);
    } finally {
      await context.close();
    }
  });
});

describe('a chosen date', () => {
  it('is kept when Book Now is tapped before the booking box has hydrated: the checkout opens at it', async () => {
    const open = await db.selectFrom('occurrences').select('id').where('course_id', '=', TASTER_COURSE).where('available_spaces', '>', 0)
      .where('start_datetime', '>', Math.floor(Date.now() / 1000) + 86_400).orderBy('start_datetime', 'desc').executeTakeFirstOrThrow();
    const { page, context } = await learnerPage();
    try {
      // The islands' scripts never arrive, as on a phone still fetching them: the page is as pre-rendered.
      const islandScripts = /\/_astro\/.*\.js$/;
      await page.route(islandScripts, (route) => route.abort());
      await page.goto(url(`/${CLAY.slug}/${CLAY.taster.slug}?occurrence=${open.id}`));
      await page.waitForLoadState('networkidle');
      await page.unroute(islandScripts);
      const book = page.locator('.booking-aside').getByRole('link', { name: 'Book Now' });
      expect(await book.locator('xpath=ancestor::astro-island[1]').getAttribute('ssr'), 'not hydrated').not.toBeNull();
      expect(await book.getAttribute('href'), 'the pre-rendered link cannot know the date').not.toContain('occurrence=');
      await book.click();
      await page.waitForURL((u) => u.pathname === '/checkout');
      expect(new URL(page.url()).searchParams.get('occurrence')).toBe(open.id);
      await stepHeading(page, 'Select Spaces');
    } finally {
      await context.close();
    }
  });
});
