/**
 * The checkout inside an embed (spec 2.14, DESIGN 5): an educator's page on ANOTHER site (a small node:http server
 * on 127.0.0.1 while the product is on localhost, so the frame gets no first-party cookies) frames
 * /embed/checkout. Every flow is completed inside the frame with the test provider; the login happens in a
 * first-party window that hands the frame a one-time code, a 3-D Secure redirect opens in a window of its own,
 * the checkout id is posted to the parent, "Back to Website" links to it, and Back on the first step returns to
 * the embedded course page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { baseUrl, catalogueNow, closeBrowser, newPage, productDb } from './harness.ts';
import type { Db } from '../../db/client.ts';
import { learnerPage, makeLearner } from './helpers/learners.ts';
import { startFramingSite, type FramingSite } from './helpers/partner.ts';

/** Polls wait for the island (several browser files share one server). */
const POLL = { timeout: 15_000, interval: 100 };
let db: Db;
let partner: FramingSite;
let partnerOrigin: string;

beforeAll(async () => {
  db = productDb();
  // The educator's own site: frames the URL given in ?src and records the messages the frame posts.
  partner = await startFramingSite('checkout');
  partnerOrigin = partner.origin;
});

afterAll(async () => {
  await closeBrowser();
  await db.destroy();
  await partner.close();
});

const makeUser = (prefix: string) => makeLearner(db, prefix, { firstName: 'Grace', lastName: 'Hopper' });
/**
 * The learner is logged in on the main site (first-party cookie in this browser); the embed still has to
 * get its own token through the login window.
 */
const embedSession = (email: string) => learnerPage(email, 1000);

async function openEmbed(page: Page, query: string): Promise<FrameLocator> {
  const src = `${baseUrl()}/embed/checkout?${query}&parent_origin=${encodeURIComponent(partnerOrigin)}&parent_window_url=${encodeURIComponent(`${partnerOrigin}/courses`)}`;
  await page.goto(partner.framing(src));
  return page.frameLocator('#checkout');
}

const heading = (f: FrameLocator, name: string | RegExp) => f.getByRole('heading', { name, level: 2 }).first();
const cont = (f: FrameLocator) => f.locator('.checkout-summary__continue').click();
const termsBox = (f: FrameLocator) => f.getByRole('checkbox', { name: 'I accept the Terms and Privacy Policy *' });

function isoDay(days: number): string {
  return new Date((catalogueNow() + days * 86400) * 1000).toISOString().slice(0, 10);
}

/** The "Log in or Sign Up" step: a first-party window logs in (already signed in there), posts a code and closes. */
async function logInThroughWindow(context: BrowserContext, f: FrameLocator): Promise<void> {
  await heading(f, 'Log in or Sign Up').waitFor();
  const [popup] = await Promise.all([context.waitForEvent('page'), f.getByRole('button', { name: 'Log in or Sign Up' }).click()]);
  expect(new URL(popup.url()).origin).toBe(baseUrl());
  expect(new URL(popup.url()).searchParams.get('mode')).toBe('embed');
  await popup.waitForEvent('close', { timeout: 15_000 });
  await heading(f, 'Contact Info').waitFor();
}

async function fillClayForm(f: FrameLocator): Promise<void> {
  await f.getByLabel('Mobile number').fill('07700 900123');
  await f.getByRole('radio', { name: 'Never' }).first().check();
}

async function cardDetails(f: FrameLocator, card: string): Promise<void> {
  await f.getByRole('radio', { name: 'Card' }).check();
  await f.getByLabel('Card number').fill(card);
  await f.getByLabel('Expiry date').fill('12 / 34');
  await f.getByLabel('Security code (CVC)').fill('123');
}

describe('checkout inside an embed on another site', () => {
  it('books a class: login window, the 3-D Secure window, confirmation; the parent hears the checkout id', async () => {
    const email = await makeUser('embed-booker');
    const { page, context } = await embedSession(email);
    const f = await openEmbed(page, 'flow=booking&course=crs_0001_01');
    await heading(f, 'Select Date').waitFor();
    // "Back to Website" links to the parent page; the Powered-by banner shows (not white-labelled).
    await expect(f.getByRole('link', { name: /Back to Website/ }).getAttribute('href')).resolves.toBe(`${partnerOrigin}/courses`);
    await expect(f.getByRole('link', { name: /Back to Website/ }).getAttribute('target')).resolves.toBe('_top');
    await f.getByText('Powered by Course Marketplace').waitFor();
    await f.locator('.date-option:not([disabled])').first().click();
    await heading(f, 'Select Spaces').waitFor();
    const checkoutMessages = async () => (await page.evaluate(() => (window as unknown as { __messages: { origin: string; data: { type?: string; checkoutId?: string } }[] }).__messages))
      .filter((m) => m.data?.type === 'marketplace:checkout');
    await expect.poll(async () => (await checkoutMessages()).length, POLL).toBeGreaterThan(0);
    const posted = await checkoutMessages();
    expect(posted[0].origin).toBe(baseUrl());
    expect(posted[0].data.checkoutId).toMatch(/^chk_/);
    // Course and educator links open the educator's minisite in a new tab.
    await expect(f.locator('.checkout-summary__course a').getAttribute('target')).resolves.toBe('_blank');
    await cont(f);
    await logInThroughWindow(context, f);
    await fillClayForm(f);
    await termsBox(f).check();
    await cont(f);
    await heading(f, 'Payment').waitFor();
    await cardDetails(f, '4000002500003155');
    const [payment] = await Promise.all([context.waitForEvent('page'), f.getByRole('button', { name: /^Pay / }).click()]);
    await payment.waitForEvent('close', { timeout: 15_000 });
    await heading(f, 'Booking Confirmed').waitFor();
    const reference = (await f.locator('.confirmation__reference').textContent())!;
    // Spec 2.4: from an embed the booking's page opens on the educator's minisite, in a new tab.
    const manage = f.getByRole('link', { name: 'View & Manage Booking' });
    await expect(manage.getAttribute('href')).resolves.toMatch(/^http:\/\/clay-and-kiln-pottery\.localhost:\d+\/beginners-wheel-throwing-taster\/details\/occ_/);
    await expect(manage.getAttribute('target')).resolves.toBe('_blank');
    const booking = await db.selectFrom('bookings').selectAll().where('id', '=', reference.replace('Booking reference: ', '')).executeTakeFirstOrThrow();
    expect(booking.origin).toBe('embed');
    expect(booking.payment_state).toBe('paid');
    await context.close();
  });

  it('orders an on-demand course paid by card', async () => {
    const email = await makeUser('embed-order');
    const { page, context } = await embedSession(email);
    const f = await openEmbed(page, 'flow=order&course=crs_0005_06');
    await heading(f, 'Offers').waitFor();
    await cont(f);
    await logInThroughWindow(context, f);
    await termsBox(f).check();
    await cont(f);
    await heading(f, 'Payment').waitFor();
    await cardDetails(f, '4242424242424242');
    await f.getByRole('button', { name: /^Pay / }).click();
    await heading(f, 'Order Confirmed').waitFor();
    await f.getByRole('link', { name: 'Download Receipt' }).waitFor();
    await context.close();
  });

  it('requests a calendar-based party (paid) and in-company training by preferred dates', async () => {
    const email = await makeUser('embed-request');
    const { page, context } = await embedSession(email);
    let f = await openEmbed(page, 'flow=request&course=crs_0001_07');
    await heading(f, 'Delivery options').waitFor();
    await cont(f);
    await heading(f, 'Select a Date & Time').waitFor();
    // The last free day and time of the month (other tests take the first ones).
    await f.locator('.calendar__grid[aria-busy="false"]').waitFor();
    let day = f.locator('.calendar__day:not([aria-disabled="true"])').last();
    if (!(await day.count())) {
      await f.getByRole('button', { name: 'Next month' }).click();
      await f.locator('.calendar__grid[aria-busy="false"]').waitFor();
      day = f.locator('.calendar__day:not([aria-disabled="true"])').last();
    }
    await day.click();
    await f.locator('.slot').last().click();
    await cont(f);
    await heading(f, 'Message').waitFor();
    await cont(f);
    await logInThroughWindow(context, f);
    await fillClayForm(f);
    await termsBox(f).check();
    await cont(f);
    await heading(f, 'Payment').waitFor();
    await cardDetails(f, '4242424242424242');
    await f.getByRole('button', { name: /^Pay / }).click();
    await heading(f, 'Booking Confirmed').waitFor();

    f = await openEmbed(page, 'flow=request&course=crs_0005_04');
    await heading(f, 'Delivery options').waitFor();
    await f.getByRole('radio', { name: 'Online' }).check();
    await cont(f);
    await heading(f, 'Preferred Dates').waitFor();
    await f.getByLabel('First choice', { exact: true }).fill(isoDay(25));
    await cont(f);
    await heading(f, 'Message').waitFor();
    await cont(f);
    await logInThroughWindow(context, f);
    await termsBox(f).check();
    await cont(f);
    await heading(f, 'Request Sent').waitFor();
    await f.getByText('Your request has been sent to Lingua Franca Language School').waitFor();
    await context.close();
  });

  it('sends date and group requests and an application; hide_terms pre-accepts the terms off the marketplace', async () => {
    const email = await makeUser('embed-groups');
    const { page, context } = await embedSession(email);
    for (const flow of ['dateBookingRequest', 'groupBookingRequest'] as const) {
      const f = await openEmbed(page, `flow=${flow}&course=crs_0003_05`);
      await heading(f, 'Dates').waitFor();
      await f.getByLabel('First choice', { exact: true }).fill(isoDay(50));
      await cont(f);
      await heading(f, 'Message').waitFor();
      await cont(f);
      await logInThroughWindow(context, f);
      // Lifeline: hide_terms (embed origin → pre-accepted and hidden) and hide_marketing_consent.
      await expect(termsBox(f).count()).resolves.toBe(0);
      await expect(f.getByRole('checkbox').count()).resolves.toBe(0);
      await cont(f);
      await heading(f, 'Request Sent').waitFor();
      await f.getByText('Lifeline First Aid Training will be in touch soon').waitFor();
    }
    const f = await openEmbed(page, 'flow=bookingApplication&course=crs_0003_05');
    await heading(f, 'Select Date').waitFor();
    await f.locator('.date-option:not([disabled])').first().click();
    await heading(f, 'Select Spaces').waitFor();
    await cont(f);
    await logInThroughWindow(context, f);
    await cont(f);
    await heading(f, 'Application Sent').waitFor();
    await f.getByText(/^Application reference: APP-/).waitFor();
    await context.close();
  });

  it('goes back to the embedded course page from the first step', async () => {
    const { page, context } = await newPage();
    const f = await openEmbed(page, 'flow=booking&course=crs_0001_01');
    await heading(f, 'Select Date').waitFor();
    await f.getByRole('button', { name: 'Back' }).first().click();
    await expect.poll(() => page.frames().map((fr) => fr.url()).find((u) => u.includes('/embed/')), POLL).toContain('/embed/clay-and-kiln-pottery/beginners-wheel-throwing-taster');
    await context.close();
  });
});
