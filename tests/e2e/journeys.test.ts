/**
 * What a learner sees on the way through: the embedded checkout opened before the course page's scripts ran
 * (no hydration error, "Back to Website" only to the embedding page's own origin), the application flow's
 * button, the minisite header and save modal, the embed's login window, and the confirmations of an
 * in-person payment and of a booking without a date (its spec 2.4 dates page).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { baseUrl, closeBrowser, minisiteUrl, newPage, productDb, url } from './harness.ts';
import type { Db } from '../../db/client.ts';
import { learnerPage, makeLearner } from './helpers/learners.ts';
import { CLAY, HARMONY, hydrated } from './helpers/public.ts';
import { startFramingSite, type FramingSite } from './helpers/partner.ts';
import { fillClayForm, payByCard, pickCalendarSlot } from './helpers/checkout.ts';

const POLL = { timeout: 15_000, interval: 100 };
let db: Db;
let partner: FramingSite;

beforeAll(async () => {
  db = productDb();
  partner = await startFramingSite('checkout', 1400);
});

afterAll(async () => {
  await closeBrowser();
  await db.destroy();
  await partner.close();
});

const heading = (scope: Pick<Page, 'getByRole'>, name: string | RegExp) => scope.getByRole('heading', { name, level: 2 }).first();

/** Every console error and uncaught exception of the page and its frames. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return errors;
}

function framed(query: string): string {
  return partner.framing(`${baseUrl()}/embed/checkout?${query}`);
}

describe('the checkout inside an embed', () => {
  it('opened from a Book Now clicked before the course page hydrated (no parent_window_url): no hydration error, Back to Website to the parent page', async () => {
    const { page, context } = await learnerPage();
    const errors = collectErrors(page);
    // What the embed's link script adds to a link clicked before the island ran: the parent's origin and page.
    await page.goto(framed(`flow=booking&course=crs_0001_01&parent_origin=${encodeURIComponent(partner.origin)}&parent_url=${encodeURIComponent(`${partner.origin}/courses`)}`));
    const f = page.frameLocator('#checkout');
    await heading(f, 'Select Date').waitFor();
    const back = f.getByRole('link', { name: /Back to Website/ });
    await expect.poll(() => back.count(), POLL).toBe(1);
    await expect(back.getAttribute('href')).resolves.toBe(`${partner.origin}/courses`);
    expect(errors.filter((e) => /#418|hydrat/i.test(e))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Back to Website never leads to a URL the embedding page does not own, nor outside a frame', async () => {
    const { page, context } = await learnerPage();
    const errors = collectErrors(page);
    // Framed by the partner, but the address names another site (and claims it as the parent origin).
    const evil = 'https://evil.example/login';
    await page.goto(framed(`flow=booking&course=crs_0001_01&parent_origin=${encodeURIComponent('https://evil.example')}&parent_window_url=${encodeURIComponent(evil)}`));
    const f = page.frameLocator('#checkout');
    await heading(f, 'Select Date').waitFor();
    await expect(f.locator('.back-to-website').count()).resolves.toBe(0);
    // Framed by the partner with the partner's own page: shown.
    await page.goto(framed(`flow=booking&course=crs_0001_01&parent_window_url=${encodeURIComponent(`${partner.origin}/book`)}`));
    await heading(page.frameLocator('#checkout'), 'Select Date').waitFor();
    await expect.poll(() => page.frameLocator('#checkout').getByRole('link', { name: /Back to Website/ }).getAttribute('href'), POLL).toBe(`${partner.origin}/book`);
    // The same address opened on its own (a link sent to someone): no banner at all.
    await page.goto(url(`/embed/checkout?flow=booking&course=crs_0001_01&parent_origin=${encodeURIComponent('https://evil.example')}&parent_window_url=${encodeURIComponent(evil)}`));
    await heading(page, 'Select Date').waitFor();
    await expect(page.locator('.back-to-website').count()).resolves.toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the login window carries the embed's redirect and the educator", async () => {
    const { page, context } = await newPage();
    await page.goto(framed('flow=booking&course=crs_0001_01'));
    const f = page.frameLocator('#checkout');
    await heading(f, 'Select Date').waitFor();
    await f.locator('.date-option:not([disabled])').first().click();
    await heading(f, 'Select Spaces').waitFor();
    await f.locator('.checkout-summary__continue').click();
    await heading(f, 'Log in or Sign Up').waitFor();
    const [popup] = await Promise.all([context.waitForEvent('page'), f.getByRole('button', { name: 'Log in or Sign Up' }).click()]);
    const login = new URL(popup.url());
    expect(login.origin + login.pathname).toBe(url('/login'));
    expect(login.searchParams.get('mode')).toBe('embed');
    expect(login.searchParams.get('educator')).toBe(CLAY.id);
    const redirect = new URL(login.searchParams.get('redirect') ?? 'http://missing.invalid/');
    expect(redirect.origin + redirect.pathname).toBe(url('/embed/checkout'));
    expect(redirect.searchParams.get('checkoutId')).toMatch(/^chk_/);
    await context.close();
  });
});

describe('course pages', () => {
  it('a class that requires approval offers the application flow from its page', async () => {
    const { page, context } = await newPage();
    await page.goto(url('/lifeline-first-aid-training/emergency-first-aid-at-work-public-course'));
    const apply = page.locator('.booking-aside').getByRole('link', { name: 'Apply Now' });
    await hydrated(apply);
    const href = new URL((await apply.getAttribute('href'))!, baseUrl());
    expect(href.pathname).toBe('/checkout');
    expect(href.searchParams.get('flow')).toBe('bookingApplication');
    expect(href.searchParams.get('course')).toBe('crs_0003_05');
    await expect(page.locator('.booking-aside').getByRole('link', { name: 'Book Now' }).count()).resolves.toBe(0);
    // Following it: Date, Spaces, then the application's own steps.
    await apply.click();
    await heading(page, 'Select Date').waitFor();
    await expect(page.locator('.checkout-breadcrumb li').allTextContents()).resolves.toEqual([
      '1. Date', '2. Spaces', '3. Log in or Sign Up', '4. Contact Info', '5. Confirmation',
    ]);
    // A class without approval keeps Book Now.
    await page.goto(url(`/${CLAY.slug}/${CLAY.taster.slug}`));
    await hydrated(page.locator('.booking-aside').getByRole('link', { name: 'Book Now' }));
    await context.close();
  });

  it("the minisite course page's header has the Contact tab (not for an educator who cannot be contacted)", async () => {
    const { page, context } = await newPage();
    await page.goto(minisiteUrl(CLAY.slug, `/${CLAY.taster.slug}`));
    const nav = page.locator('header.site-header nav');
    await expect(nav.getByRole('link').allTextContents()).resolves.toEqual(expect.arrayContaining(['Courses', 'About', 'Reviews', 'Contact']));
    await expect(nav.getByRole('link', { name: 'Contact' }).getAttribute('href')).resolves.toBe('/enquiry');
    const harmonyCourse = await db.selectFrom('courses').select('slug').where('educator_id', '=', 'edu_0008').where('published', '=', true).executeTakeFirstOrThrow();
    await page.goto(minisiteUrl(HARMONY.slug, `/${harmonyCourse.slug}`));
    await page.locator('header.site-header nav').getByRole('link', { name: 'Reviews' }).waitFor();
    await expect(page.locator('header.site-header nav').getByRole('link', { name: 'Contact' }).count()).resolves.toBe(0);
    await context.close();
  });

  it("the save modal's login on a minisite carries the educator", async () => {
    const { page, context } = await newPage();
    await page.goto(minisiteUrl(CLAY.slug, '/'));
    const heart = page.getByTestId('save-heart').first();
    await heart.waitFor();
    await heart.click();
    const modal = page.getByTestId('save-login-modal');
    await modal.getByRole('heading', { name: 'Log in to save this course' }).waitFor();
    await Promise.all([page.waitForURL(/\/login\?/), modal.getByRole('button', { name: 'Log in or Sign Up' }).click()]);
    const login = new URL(page.url());
    expect(login.origin).toBe(baseUrl());
    expect(login.searchParams.get('educator')).toBe(CLAY.id);
    expect(login.searchParams.get('redirect')).toBe(minisiteUrl(CLAY.slug, '/'));
    await context.close();
  });
});

describe('confirmations', () => {
  it('an in-person payment offers the invoice for the amount due, not a receipt', async () => {
    const email = await makeLearner(db, 'in-person');
    const { page, context } = await learnerPage(email);
    await page.goto(url('/checkout?flow=booking&course=crs_0003_05'));
    await heading(page, 'Select Date').waitFor();
    await page.locator('.date-option:not([disabled])').first().click();
    await heading(page, 'Select Spaces').waitFor();
    await page.locator('.checkout-summary__continue').click();
    await heading(page, 'Contact Info').waitFor();
    await page.getByRole('checkbox', { name: 'I accept the Terms and Privacy Policy *' }).check();
    await page.locator('.checkout-summary__continue').click();
    await heading(page, 'Payment').waitFor();
    await page.getByRole('radio', { name: 'Pay on the day (cash or card)' }).check();
    await page.getByRole('button', { name: 'Confirm Payment' }).click();
    await heading(page, 'Your Booking is Awaiting Approval').waitFor();
    await page.getByRole('link', { name: 'Download Invoice' }).waitFor();
    await expect(page.getByRole('link', { name: 'Download Receipt' }).count()).resolves.toBe(0);
    await context.close();
  });

  it('View & Manage for a booking without a date opens its dates page (spec 2.4), not /profile', async () => {
    const email = await makeLearner(db, 'no-date');
    const { page, context } = await learnerPage(email);
    await page.goto(url('/checkout?flow=request&course=crs_0001_07'));
    await heading(page, 'Delivery options').waitFor();
    await page.getByLabel('Select a location').selectOption({ index: 1 });
    await page.locator('.checkout-summary__continue').click();
    await heading(page, 'Select a Date & Time').waitFor();
    await pickCalendarSlot(page, { day: 1, slot: 1 });
    await page.locator('.checkout-summary__continue').click();
    await heading(page, 'Message').waitFor();
    await page.locator('.checkout-summary__continue').click();
    await heading(page, 'Contact Info').waitFor();
    await fillClayForm(page);
    await page.getByRole('checkbox', { name: 'I accept the Terms and Privacy Policy *' }).check();
    await page.locator('.checkout-summary__continue').click();
    await heading(page, 'Payment').waitFor();
    await payByCard(page, '4242424242424242');
    await heading(page, 'Booking Confirmed').waitFor();
    const bookingId = (await page.locator('.confirmation__reference').textContent())!.replace('Booking reference: ', '');
    const manage = page.getByRole('link', { name: 'View & Manage Booking' });
    await expect(manage.getAttribute('href')).resolves.toBe(`/${CLAY.slug}/private-pottery-party/dates?booking=${bookingId}`);
    await manage.click();
    await page.waitForURL((u) => u.pathname.endsWith('/dates'));
    await page.getByText(`Booking reference: ${bookingId}`).waitFor();
    // On the educator's minisite the same page exists (its session arrives by the login hand-off).
    const onMinisite = await page.goto(minisiteUrl(CLAY.slug, `/private-pottery-party/dates?booking=${bookingId}`));
    expect(onMinisite?.status()).toBe(200);
    await page.getByText(`Booking reference: ${bookingId}`).or(page.getByTestId('booking-signed-out')).first().waitFor();
    // Someone else's booking, or a made-up one: not found.
    const other = await learnerPage(await makeLearner(db, 'other'));
    const res = await other.page.goto(url(`/${CLAY.slug}/private-pottery-party/dates?booking=${bookingId}`));
    expect(res?.status()).toBe(404);
    await other.context.close();
    await context.close();
  });
});
