/**
 * Gift vouchers in the browser, as a new user would try them (docs/gifts-and-memberships.md "## Gift vouchers"):
 * - on a minisite, a learner buys a £50 gift voucher for a friend with the test card, logging in on the main site
 *   between Amount and Gift Details; the friend reads the code in the e-mail (the outbox), spends part of it on one
 *   booking (the card pays all of it: no Payment step) and the rest on another (a negative "Gift card" line in the
 *   cost summary, the rest paid by card); both see the balance on /profile;
 * - in an embed on another origin, a learner buys one through the embed's gift checkout (login window);
 * - a calendar-based request (an instant booking) takes a gift card on Delivery options;
 * - the minisite's course-page header shows the Gift Vouchers tab only for an educator who sells them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrameLocator, Page } from 'playwright-core';
import { baseUrl, closeBrowser, minisiteUrl, productDb, url } from './harness.ts';
import type { Db } from '../../db/client.ts';
import { fillClayForm, payByCard, pickCalendarSlot } from './helpers/checkout.ts';
import { LEARNER_PASSWORD, learnerPage, makeLearner } from './helpers/learners.ts';
import { startFramingSite, type FramingSite } from './helpers/partner.ts';
import { CLAY, httpGet } from './helpers/public.ts';
import { formatPence } from '../../src/domain/money.ts';

const TASTER_COURSE = 'crs_0001_01';
/** The recipient e-mail's fact line with the code, shown as XXXX-XXXX-XXXX-XXXX. */
const CODE_LINE = /Gift card code: ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})/;
let db: Db;
let partner: FramingSite;

beforeAll(async () => {
  db = productDb();
  partner = await startFramingSite('checkout');
});
afterAll(async () => {
  await closeBrowser();
  await db.destroy();
  await partner.close();
});

type Root = Page | FrameLocator;
const heading = (root: Root, name: string | RegExp) => root.getByRole('heading', { name, level: 2 }).first();
const cont = (root: Root) => root.locator('.checkout-summary__continue').click();

/** Waits for a heading, failing with the checkout's error banner when that shows instead. */
async function waitHeading(root: Root, name: string | RegExp): Promise<void> {
  const banner = root.locator('.checkout-error');
  await heading(root, name).or(banner).first().waitFor({ timeout: 20_000 });
  if (await banner.isVisible() && !(await heading(root, name).isVisible())) throw new Error(`Expected "${name}", the error banner says: ${await banner.textContent()}`);
}

/** The checkout's "Log in or Sign Up" step on a minisite: the main site's login page, then back to the checkout. */
async function logInFromCheckout(page: Page, email: string): Promise<void> {
  await waitHeading(page, 'Log in or Sign Up');
  await page.getByRole('link', { name: 'Log in or Sign Up' }).click();
  await page.locator('html[data-login-ready]').waitFor({ state: 'attached' });
  await page.getByRole('tab', { name: 'Log in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(LEARNER_PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

/** Amount → Gift Details on an open gift checkout (a page or the embed's frame). */
async function chooseAmount(root: Root, amount: string): Promise<void> {
  await waitHeading(root, 'Choose an Amount');
  await root.getByRole('radio', { name: amount, exact: true }).check();
  await cont(root);
}

async function fillGiftDetails(root: Root, recipient: { name: string; email: string }): Promise<void> {
  await waitHeading(root, 'Who is it for?');
  await root.getByLabel("Recipient's name").fill(recipient.name);
  await root.getByLabel("Recipient's email").fill(recipient.email);
  await root.getByLabel('Message (optional)').fill('Happy birthday!');
  await cont(root);
}

/** The code in the recipient's e-mail (queued in the outbox, sent at once when the send date is today). */
async function codeFromOutbox(email: string): Promise<string> {
  let body = '';
  await expect.poll(async () => {
    const row = await db.selectFrom('outbox_messages').select('text_body').where('to_address', '=', email).where('tag', '=', 'gift-voucher-recipient').executeTakeFirst();
    body = row?.text_body ?? '';
    return body;
  }, { timeout: 15_000 }).toMatch(CODE_LINE);
  return CODE_LINE.exec(body)![1]!;
}

async function cardOf(email: string) {
  return db.selectFrom('gift_cards').selectAll().where('recipient_email', '=', email).executeTakeFirstOrThrow();
}

/** On the minisite's booking checkout (logged in): the taster's first free date, `places` places and the code applied. */
async function bookTasterWithCode(page: Page, code: string, places: number): Promise<void> {
  await page.goto(minisiteUrl(CLAY.slug, `/checkout?flow=booking&course=${TASTER_COURSE}`));
  await waitHeading(page, 'Select Date');
  await page.locator('.date-option:not([disabled])').first().click();
  await waitHeading(page, 'Select Spaces');
  for (let i = 1; i < places; i++) await page.getByRole('button', { name: 'Add one to basket' }).first().click();
  await page.getByLabel('Apply promo code or gift card').fill(code);
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await page.getByText('Voucher applied successfully!').waitFor();
  // The summary shows what the card pays before Continue (the preview), as a negative line.
  await page.locator('.cost-line--giftCard', { hasText: `Gift card ••••${code.slice(-4)}` }).waitFor();
  await cont(page);
}

describe('buying a gift voucher on a minisite and spending it on two bookings', () => {
  it('buys with the test card; the recipient spends part on one booking and the rest on another; /profile shows the balances', async () => {
    const buyer = await makeLearner(db, 'gift-buyer');
    const friend = await makeLearner(db, 'gift-friend', { firstName: 'Grace', lastName: 'Hopper' });

    // The buyer, not logged in, on the minisite's gift checkout (the "vouchers" link of the header).
    const { page, context } = await learnerPage();
    try {
      await page.goto(minisiteUrl(CLAY.slug, '/'));
      await page.locator('nav a[data-tab="vouchers"]').first().click();
      expect(new URL(page.url()).pathname).toBe('/gift-checkout');
      await chooseAmount(page, '£50.00');
      await logInFromCheckout(page, buyer);
      await waitHeading(page, 'Who is it for?');
      expect(new URL(page.url()).host).toBe(new URL(minisiteUrl(CLAY.slug)).host);
      await fillGiftDetails(page, { name: 'Grace Hopper', email: friend });
      await waitHeading(page, 'Payment');
      await expect.poll(() => page.locator('.checkout-summary').textContent()).toContain('Gift voucher');
      await payByCard(page, '4242 4242 4242 4242');
      await waitHeading(page, 'Gift Voucher Purchased');
      await page.getByText(/Grace Hopper will receive the gift card by e-mail today/).waitFor();
      await page.getByRole('link', { name: 'Download Gift Card' }).waitFor();
    } finally {
      await context.close();
    }
    const card = await cardOf(friend);
    expect(card).toMatchObject({ amount: 5000, balance: 5000, payment_method: 'card' });
    const code = await codeFromOutbox(friend);

    // The friend, on the minisite: one taster place, paid all by the gift card (no Payment step).
    const { page: p2, context: c2 } = await learnerPage();
    try {
      await bookTasterWithCode(p2, code, 1);
      await logInFromCheckout(p2, friend);
      await waitHeading(p2, 'Contact Info');
      await expect.poll(() => p2.locator('.checkout-breadcrumb li').allTextContents()).toEqual(['1. Date', '2. Spaces', '3. Contact Info', '4. Confirmation']);
      await expect.poll(() => p2.locator('.checkout-summary__total strong').textContent()).toBe('£0.00');
      await fillClayForm(p2);
      await p2.getByRole('checkbox', { name: 'I accept the Terms and Privacy Policy *' }).check();
      await cont(p2);
      await waitHeading(p2, 'Booking Confirmed');
      const first = await db.selectFrom('gift_card_redemptions').select(['amount', 'status']).where('gift_card_id', '=', card.id).execute();
      expect(first).toHaveLength(1);
      expect(first[0]!.status).toBe('committed');
      const firstPaid = Number(first[0]!.amount);
      expect(firstPaid).toBeGreaterThanOrEqual(4500);
      expect(firstPaid).toBeLessThan(5000);
      const firstBooking = (await p2.locator('.confirmation__reference').textContent())!.replace('Booking reference: ', '');

      // /profile (the main site): part of it left; the booking it paid is priced and paid by gift card, not "Free".
      await p2.goto(url('/profile'));
      await expect.poll(() => p2.locator(`[data-testid="profile-items"] li[data-id="${firstBooking}"] [data-testid="profile-item-price"]`).textContent())
        .toBe(`${formatPence(firstPaid)} (${formatPence(firstPaid)} by gift card)`);
      await expect.poll(() => p2.locator(`[data-testid="gift-cards"] li[data-id="${card.id}"] [data-testid="gift-card-balance"]`).textContent())
        .toBe(`${formatPence(5000 - firstPaid)} left of £50.00`);

      // Another place: the card pays what is left (a negative line), the test card pays the rest.
      await bookTasterWithCode(p2, code, 1);
      await waitHeading(p2, 'Contact Info');
      await fillClayForm(p2);
      await p2.getByRole('checkbox', { name: 'I accept the Terms and Privacy Policy *' }).check();
      await cont(p2);
      await waitHeading(p2, 'Payment');
      const giftLine = p2.locator('.cost-line--giftCard');
      await expect.poll(() => giftLine.locator('dd').textContent()).toMatch(new RegExp(`^[−-]${formatPence(5000 - firstPaid).replace(/[.$]/g, '\\$&')}$`));
      const total = (await p2.locator('.checkout-summary__total strong').textContent())!;
      expect(total).not.toBe('£0.00');
      await payByCard(p2, '4242 4242 4242 4242');
      await waitHeading(p2, 'Booking Confirmed');
      const booking = await db.selectFrom('bookings').select(['payment_method', 'payment_state', 'total_cost'])
        .where('id', '=', (await p2.locator('.confirmation__reference').textContent())!.replace('Booking reference: ', '')).executeTakeFirstOrThrow();
      expect(booking).toMatchObject({ payment_method: 'card', payment_state: 'paid' });
      expect(formatPence(Number(booking.total_cost))).toBe(total);
      const secondBooking = (await p2.locator('.confirmation__reference').textContent())!.replace('Booking reference: ', '');
      const secondGift = 5000 - firstPaid;

      // Spent: nothing left, on the friend's /profile and on the buyer's.
      await p2.goto(url('/profile'));
      await expect.poll(() => p2.locator(`[data-testid="gift-cards"] li[data-id="${card.id}"] [data-testid="gift-card-balance"]`).textContent())
        .toBe('£0.00 left of £50.00');
      expect(await p2.locator(`[data-testid="gift-cards"] li[data-id="${card.id}"]`).getAttribute('data-role')).toBe('received');
      // Paid in part by the card: what it cost in all, and how.
      expect(await p2.locator(`[data-testid="profile-items"] li[data-id="${secondBooking}"] [data-testid="profile-item-price"]`).textContent())
        .toBe(`${formatPence(Number(booking.total_cost) + secondGift)} (${total} by Card and ${formatPence(secondGift)} by gift card)`);
    } finally {
      await c2.close();
    }
    expect(Number((await cardOf(friend)).balance)).toBe(0);
    const { page: p3, context: c3 } = await learnerPage(buyer);
    try {
      await p3.goto(url('/profile'));
      const bought = p3.locator(`[data-testid="gift-cards"] li[data-id="${card.id}"]`);
      await expect.poll(() => bought.getByTestId('gift-card-balance').textContent()).toBe('£0.00 left of £50.00');
      expect(await bought.getAttribute('data-role')).toBe('bought');
      expect(await bought.textContent()).toContain('Bought for Grace Hopper');
    } finally {
      await c3.close();
    }
  });
});

describe('buying a gift voucher in an embed on another origin', () => {
  it('opens the embed’s gift checkout on its Amount step', async () => {
    const { page, context } = await learnerPage();
    try {
      await page.goto(url(`/embed/${CLAY.slug}/gift-checkout`));
      await waitHeading(page, 'Choose an Amount');
      await expect(page.getByRole('radio', { name: 'Another amount' }).count()).resolves.toBe(1);
      await page.locator('.checkout-summary__course', { hasText: 'Gift Voucher' }).waitFor();
      // The summary shows the price as the buyer chooses, before Continue.
      await page.getByRole('radio', { name: '£50.00' }).check();
      await expect.poll(() => page.locator('.checkout-summary').textContent()).toMatch(/Gift voucher[\s\S]*£50\.00/);
      await page.getByRole('radio', { name: '£100.00' }).check();
      await expect.poll(() => page.locator('.checkout-summary').textContent()).toMatch(/Gift voucher[\s\S]*£100\.00/);
    } finally {
      await context.close();
    }
  });

  it('buys one in the frame (login window, test card); the buyer’s /profile lists it with its balance and expiry', async () => {
    const buyer = await makeLearner(db, 'gift-embed');
    const friend = `gift-embed-friend-${Date.now().toString(36)}@example.com`;
    // Logged in on the main site: the frame still gets its own token through the login window.
    const { page, context } = await learnerPage(buyer, 1000);
    try {
      const src = `${baseUrl()}/embed/${CLAY.slug}/gift-checkout?parent_origin=${encodeURIComponent(partner.origin)}&parent_window_url=${encodeURIComponent(`${partner.origin}/gifts`)}`;
      await page.goto(partner.framing(src));
      const f = page.frameLocator('#checkout');
      await waitHeading(f, 'Choose an Amount');
      await f.getByRole('radio', { name: 'Another amount' }).check();
      await f.getByLabel(/^Amount in pounds/).fill('35');
      await cont(f);
      await waitHeading(f, 'Log in or Sign Up');
      const [popup] = await Promise.all([context.waitForEvent('page'), f.getByRole('button', { name: 'Log in or Sign Up' }).click()]);
      expect(new URL(popup.url()).origin).toBe(baseUrl());
      await popup.waitForEvent('close', { timeout: 15_000 });
      await fillGiftDetails(f, { name: 'Alan Turing', email: friend });
      await waitHeading(f, 'Payment');
      await payByCard(f, '4242 4242 4242 4242');
      await waitHeading(f, 'Gift Voucher Purchased');
      await f.getByRole('link', { name: 'Download Receipt' }).waitFor();
    } finally {
      await context.close();
    }
    const card = await cardOf(friend);
    expect(card).toMatchObject({ amount: 3500, balance: 3500 });
    const checkout = await db.selectFrom('checkouts').select(['origin']).where('id', '=', card.checkout_id).executeTakeFirstOrThrow();
    expect(checkout.origin).toBe('embed');

    const { page: p2, context: c2 } = await learnerPage(buyer);
    try {
      await p2.goto(url('/profile'));
      const item = p2.locator(`[data-testid="gift-cards"] li[data-id="${card.id}"]`);
      await expect.poll(() => item.getByTestId('gift-card-balance').textContent()).toBe('£35.00 left of £35.00');
      expect(await item.textContent()).toContain('Bought for Alan Turing');
      expect(await item.textContent()).toMatch(/Valid until/);
    } finally {
      await c2.close();
    }
  });
});

describe('a calendar-based request (an instant booking, paid at checkout)', () => {
  it('takes a gift card on Delivery options: it pays part, the rest is paid by card', async () => {
    // A £20 card of Clay & Kiln's, as a purchase would have issued it.
    const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
    const code = Array.from({ length: 16 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
    const now = Math.floor(Date.now() / 1000);
    const id = `GFT-E2E${code.slice(0, 6)}`;
    await db.insertInto('gift_cards').values({
      id, educator_id: CLAY.id, code, amount: 2000, balance: 2000, currency: 'GBP', checkout_id: null, buyer_user_id: null, buyer_name: 'Ada',
      buyer_email: 'ada@example.com', recipient_name: 'Grace', recipient_email: 'grace@example.com', message: '', send_at: now, recipient_sent_at: now,
      expires_at: now + 400 * 86400, design_colour: null, payment_method: 'card', payment_id: null, total_paid: 2000, created_at: now,
    }).execute();
    const shown = `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8, 12)}-${code.slice(12)}`;
    const email = await makeLearner(db, 'gift-request');
    const { page, context } = await learnerPage(email);
    try {
      await page.goto(url('/checkout?flow=request&course=crs_0001_07'));
      await waitHeading(page, 'Delivery options');
      await page.getByLabel('Apply promo code or gift card').fill(shown);
      await page.getByRole('button', { name: 'Apply', exact: true }).click();
      await page.getByText('Voucher applied successfully!').waitFor();
      await page.locator('.cost-line--giftCard', { hasText: `Gift card ••••${code.slice(-4)}` }).waitFor();
      await cont(page);
      await waitHeading(page, 'Select a Date & Time');
      await pickCalendarSlot(page, { day: 1, slot: 1 });
      await cont(page);
      await waitHeading(page, 'Message');
      await cont(page);
      await waitHeading(page, 'Contact Info');
      await fillClayForm(page);
      await page.getByRole('checkbox', { name: 'I accept the Terms and Privacy Policy *' }).check();
      await cont(page);
      await waitHeading(page, 'Payment');
      await expect.poll(() => page.locator('.cost-line--giftCard dd').textContent()).toMatch(/^[−-]£20\.00$/);
      await payByCard(page, '4242 4242 4242 4242');
      await waitHeading(page, 'Booking Confirmed');
      const bookingId = (await page.locator('.confirmation__reference').textContent())!.replace('Booking reference: ', '');
      const spent = await db.selectFrom('gift_card_redemptions').select(['amount', 'status', 'outcome_id']).where('gift_card_id', '=', id).execute();
      expect(spent).toEqual([{ amount: 2000, status: 'committed', outcome_id: bookingId }]);
      const booking = await db.selectFrom('bookings').select(['payment_state', 'payment_method']).where('id', '=', bookingId).executeTakeFirstOrThrow();
      expect(booking).toMatchObject({ payment_state: 'paid', payment_method: 'card' });
    } finally {
      await context.close();
    }
  });
});

describe('the minisite course-page header', () => {
  it('shows Gift Vouchers only for an educator who sells them', async () => {
    // An educator of the demo catalogue with gift vouchers off, and one of its published courses.
    const selling = db.selectFrom('gift_voucher_settings').select('educator_id').where('enabled', '=', 1);
    const other = await db.selectFrom('courses as c').innerJoin('educators as e', 'e.id', 'c.educator_id')
      .select(['e.slug as educator', 'c.slug as course']).where('c.published', '=', true).where('e.id', 'not in', selling)
      .orderBy('e.id').executeTakeFirstOrThrow();
    const header = (html: string) => /<header class="site-header">([\s\S]*?)<\/header>/.exec(html)?.[1] ?? '';

    const without = await httpGet(minisiteUrl(other.educator, `/${other.course}`));
    expect(without.status).toBe(200);
    expect(header(without.body)).toContain('data-tab="courses"');
    expect(header(without.body)).not.toContain('data-tab="vouchers"');

    const withVouchers = await httpGet(minisiteUrl(CLAY.slug, `/${CLAY.taster.slug}`));
    expect(withVouchers.status).toBe(200);
    expect(header(withVouchers.body)).toContain('data-tab="vouchers"');
  });
});
