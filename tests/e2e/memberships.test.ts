/**
 * Memberships in the browser (docs/gifts-and-memberships.md "## Memberships"): the plans page in every context
 * (spec 2.1 "memberships"); joining through the checkout by test card in the marketplace, a minisite and an embed;
 * booking with a credit, the renewal after moving the test clock, and cancelling from /profile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { baseUrl, closeBrowser, minisiteUrl, newPage, productDb, url } from './harness.ts';
import { CLAY, CODEFORGE, CONTEXTS, STILLWATER, httpGet, pageUrl } from './helpers/public.ts';
import { fillClayForm, payByCard } from './helpers/checkout.ts';
import { learnerPage, makeLearner } from './helpers/learners.ts';
import type { Db } from '../../db/client.ts';

let db: Db;
beforeAll(() => {
  db = productDb();
});
afterAll(async () => {
  await db?.destroy();
  await closeBrowser();
});

const PLANS_PATH = { marketplace: `/${STILLWATER.slug}/memberships`, minisite: '/memberships', embed: `/embed/${STILLWATER.slug}/memberships` } as const;
const CLAY_PLANS = { marketplace: `/${CLAY.slug}/memberships`, minisite: '/memberships', embed: `/embed/${CLAY.slug}/memberships` } as const;
const DAY = 86400;

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name, level: 2 }).first();
const cont = (page: Page) => page.locator('.checkout-summary__continue').click();

/** Waits for a heading, failing with the checkout's error banner when that shows instead. */
async function waitHeading(page: Page, name: string | RegExp): Promise<void> {
  const banner = page.locator('.checkout-error');
  await heading(page, name).or(banner).first().waitFor({ timeout: 20_000 });
  if (await banner.isVisible() && !(await heading(page, name).isVisible())) throw new Error(`Expected "${name}", the error banner says: ${await banner.textContent()}`);
}

/** Moves the signed-in learner's own test clock (the browser's session moves it). */
async function moveClock(page: Page, seconds: number): Promise<void> {
  const cookie = (await page.context().cookies(url('/'))).map((c) => `${c.name}=${c.value}`).join('; ');
  const res = await fetch(url('/api/test-payments/clock'), { method: 'POST', headers: { origin: baseUrl(), 'content-type': 'application/json', cookie }, body: JSON.stringify({ advanceSeconds: seconds }) });
  expect(res.status).toBe(200);
}

/** From a plans page: Join Clay Club, confirm the plan, pay by test card, see the welcome. */
async function joinClayClub(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Join Clay Club' }).click();
  await waitHeading(page, 'Membership Plan');
  await expect.poll(() => page.getByRole('radio', { name: /Clay Club/ }).isChecked()).toBe(true);
  await cont(page);
  await waitHeading(page, 'Payment');
  await expect.poll(() => page.locator('.checkout-summary').textContent()).toContain('Clay Club (£39 / month)');
  await payByCard(page, '4242 4242 4242 4242');
  await waitHeading(page, 'Welcome, You Are a Member');
  await page.getByText(/Membership reference: mem_/).waitFor();
}

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
        expect(await first.textContent()).toContain('£49 / month');
        expect(await first.textContent()).toContain('8 credits a month, each one space on all courses');
        expect(await first.textContent()).toContain('20% off all courses');
        expect(await plans.nth(2).textContent()).toContain('£55 for 3 months');
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

describe('memberships tab and page of an educator without plans', () => {
  const CODEFORGE_PLANS = { marketplace: `/${CODEFORGE.slug}/memberships`, minisite: '/memberships', embed: `/embed/${CODEFORGE.slug}/memberships` } as const;
  const ABOUT = { marketplace: `/${CODEFORGE.slug}`, minisite: '/about', embed: `/embed/${CODEFORGE.slug}` } as const;

  it('has no Memberships tab in any context, and its empty page is noindex without a canonical; one with plans keeps both', async () => {
    expect(await db.selectFrom('membership_plans').select('id').where('educator_id', '=', CODEFORGE.id).where('listed', '=', true).execute()).toEqual([]);
    for (const context of CONTEXTS) {
      const about = await httpGet(pageUrl(context, CODEFORGE.slug, ABOUT[context]));
      expect(about.status, context).toBe(200);
      expect(about.body, context).not.toContain('data-tab="memberships"');
      const withPlans = await httpGet(pageUrl(context, STILLWATER.slug, context === 'minisite' ? '/about' : `/${context === 'embed' ? 'embed/' : ''}${STILLWATER.slug}`));
      expect(withPlans.body, context).toContain('data-tab="memberships"');
      const empty = await httpGet(pageUrl(context, CODEFORGE.slug, CODEFORGE_PLANS[context]));
      expect(empty.status, context).toBe(200);
      expect(empty.body, context).toContain('has no membership plans at the moment');
      expect(empty.body, context).toContain('<meta name="robots" content="noindex">');
      expect(empty.body, context).not.toContain('rel="canonical"');
    }
    for (const context of ['marketplace', 'minisite'] as const) {
      const full = await httpGet(pageUrl(context, STILLWATER.slug, PLANS_PATH[context]));
      expect(full.body, context).not.toContain('<meta name="robots" content="noindex">');
      expect(full.body, context).toContain('rel="canonical"');
    }
  });
});

describe('the booking box’s credit line', () => {
  it('tells a signed-out visitor what a credit is, and offers none', async () => {
    const { page, context } = await learnerPage();
    try {
      await page.goto(url(`/${CLAY.slug}/${CLAY.taster.slug}`));
      const line = page.getByTestId('member-price');
      await expect.poll(() => line.textContent()).toBe('Clay Club members book a space with 1 credit');
      expect(await line.getByRole('link').getAttribute('href')).toBe(CLAY_PLANS.marketplace);
    } finally {
      await context.close();
    }
  });
});

describe('a member’s journey in the marketplace', () => {
  it('joins, books with a credit, sees the renewal after the test clock moves, and cancels', async () => {
    const email = await makeLearner(db, 'member');
    const { page, context } = await learnerPage(email);
    try {
      // The course page's aside: signed in but not a member, told what a credit is; once a member, offered one.
      await page.goto(url(`/${CLAY.slug}/${CLAY.taster.slug}`));
      await page.waitForLoadState('networkidle');
      await expect.poll(() => page.getByTestId('member-price').textContent()).toBe('Clay Club members book a space with 1 credit');
      await page.goto(url(CLAY_PLANS.marketplace));
      await joinClayClub(page);
      await page.goto(url(`/${CLAY.slug}/${CLAY.taster.slug}`));
      await expect.poll(() => page.getByTestId('member-price').textContent()).toBe('Use 1 credit (Clay Club: 2 left)');
      expect(await page.getByTestId('member-price').getByRole('link').getAttribute('href')).toContain('credit=1');

      // Book the taster with a credit: nothing to pay, so no Payment step.
      await page.goto(url('/checkout?flow=booking&course=crs_0001_01'));
      await waitHeading(page, 'Select Date');
      await page.locator('.date-option:not([disabled])').first().click();
      await waitHeading(page, 'Select Spaces');
      // The preview shows member prices before Continue, then the credit once it is asked for.
      await expect.poll(() => page.locator('.checkout-summary').textContent()).toContain('Member price (10% off)');
      await page.getByRole('checkbox', { name: /Use 1 credit \(Clay Club: 2 left\)/ }).check();
      await expect.poll(() => page.locator('.checkout-summary').textContent()).toContain('Membership credit (1 space)');
      await expect.poll(() => page.locator('.checkout-summary__total strong').textContent()).toBe('£0.00');
      await cont(page);
      await waitHeading(page, 'Contact Info');
      // Nothing to pay: the breadcrumb has no Payment step.
      await expect.poll(() => page.locator('.checkout-breadcrumb li').allTextContents()).toEqual(['1. Date', '2. Spaces', '3. Contact Info', '4. Confirmation']);
      await fillClayForm(page);
      await page.getByRole('checkbox', { name: 'I accept the Terms and Privacy Policy *' }).check();
      await cont(page);
      await waitHeading(page, 'Booking Confirmed');

      // /profile: one credit left, the next renewal a month after joining.
      await page.goto(url('/profile'));
      const membership = page.locator('[data-testid="profile-memberships"] li[data-membership]');
      await membership.getByText('Clay Club').first().waitFor();
      await expect.poll(() => membership.getByTestId('membership-credits').textContent()).toBe('Credits left: 1');
      const firstRenewal = await membership.getByTestId('membership-renewal').textContent();

      // A month and a bit later (the test clock): renewed, the credits back, a second receipt.
      await moveClock(page, 32 * DAY);
      await page.reload();
      await expect.poll(() => membership.getByTestId('membership-credits').textContent()).toBe('Credits left: 2');
      await expect.poll(() => membership.getByTestId('membership-renewal').textContent()).not.toBe(firstRenewal);
      await membership.getByText(/Renewed/).waitFor();
      expect(await membership.getByRole('link', { name: /^Receipt INV-/ }).count()).toBe(2);

      // Cancel: it stays active until the period ends.
      page.once('dialog', (dialog) => void dialog.accept());
      await membership.getByRole('button', { name: 'Cancel membership' }).click();
      await membership.getByText(/Cancelled: active until/).waitFor();
      expect(await membership.getByRole('button', { name: 'Cancel membership' }).count()).toBe(0);
      const row = await db.selectFrom('memberships as m').innerJoin('users as u', 'u.id', 'm.user_id').select(['m.cancel_at_period_end', 'm.status'])
        .where('u.email', '=', email).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'active' });
      expect(Boolean(row.cancel_at_period_end)).toBe(true);
    } finally {
      await context.close();
    }
  });
});

describe('joining on a minisite and in an embed', () => {
  it('joins from the minisite’s plans page, logging in on the main site between Plan and Payment', async () => {
    const email = await makeLearner(db, 'member-minisite');
    const { page, context } = await learnerPage();
    try {
      await page.goto(minisiteUrl(CLAY.slug, CLAY_PLANS.minisite));
      await page.getByRole('link', { name: 'Join Clay Club' }).click();
      await waitHeading(page, 'Membership Plan');
      await expect.poll(() => page.getByRole('radio', { name: /Clay Club/ }).isChecked()).toBe(true);
      await cont(page);
      await waitHeading(page, 'Log in or Sign Up');
      await page.getByRole('link', { name: 'Log in or Sign Up' }).click();
      await page.locator('html[data-login-ready]').waitFor({ state: 'attached' });
      await page.getByRole('tab', { name: 'Log in' }).click();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('a sturdy checkout password');
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await waitHeading(page, 'Payment');
      expect(new URL(page.url()).host).toBe(new URL(minisiteUrl(CLAY.slug)).host);
      await expect.poll(() => page.locator('.checkout-summary').textContent()).toContain('Clay Club (£39 / month)');
      await payByCard(page, '4242 4242 4242 4242');
      await waitHeading(page, 'Welcome, You Are a Member');
    } finally {
      await context.close();
    }
  });

  it('joins from the embed’s plans page (the embed’s own checkout)', async () => {
    const email = await makeLearner(db, 'member-embed');
    const { page, context } = await learnerPage(email);
    try {
      await page.goto(url(CLAY_PLANS.embed));
      await joinClayClub(page);
      expect(new URL(page.url()).pathname).toBe('/embed/checkout');
    } finally {
      await context.close();
    }
  });
});
