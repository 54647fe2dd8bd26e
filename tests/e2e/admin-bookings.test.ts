/**
 * The educator admin's bookings and approvals in the browser (docs/admin.md): a learner books an approval-required
 * course through the checkout; the educator approves it on /requests and the learner's confirmation e-mail is in
 * the outbox; another, paid, booking is cancelled from its page with a partial refund — the button clicked twice —
 * and the test provider made one refund; a group request answered with a date and a price on /requests is booked and
 * paid by the learner through the link in their e-mail. /bookings (bookings and orders), /bookings/{id} and /requests
 * have 0 axe violations (WCAG 2.2 AA) at desktop width and at 390 px, and nothing is wider than the window.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { closeBrowser, newPage, productDb, url, baseUrl } from './harness.ts';
import type { Db } from '../../db/client.ts';
import { LEARNER_PASSWORD, learnerPage, makeLearner } from './helpers/learners.ts';
import { fillClayForm, payByCard } from './helpers/checkout.ts';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
/** Lifeline First Aid (approval-required course crs_0003_05) and Clay & Kiln (crs_0001_01, paid by card). */
const LIFELINE = 'edu_0003';
const CLAY = 'edu_0001';

let db: Db;
let adminEmail: string;

beforeAll(async () => {
  db = productDb();
  adminEmail = await makeLearner(db, 'admin', { firstName: 'Ada', lastName: 'Admin' });
  const admin = await db.selectFrom('users').select('id').where('email', '=', adminEmail).executeTakeFirstOrThrow();
  const now = Math.floor(Date.now() / 1000);
  await db.insertInto('educator_admins').values([LIFELINE, CLAY].map((educator_id) => ({ user_id: admin.id, educator_id, created_at: now }))).execute();
});

afterAll(async () => {
  await closeBrowser();
  await db.destroy();
});

/** The admin host of the running product: admin.localhost on the same port. */
function adminUrl(path: string): string {
  const base = new URL(baseUrl());
  return `${base.protocol}//admin.localhost:${base.port}${path}`;
}

async function adminPage(width = 1280): Promise<{ page: Page; context: BrowserContext }> {
  // bypassCSP: axe is injected as an inline script, which the admin's own policy rightly refuses.
  const { page, context } = await newPage({ viewport: { width, height: 900 }, bypassCSP: true });
  // Signed in on the admin host through the accounts API from one of its pages (the browser resolves admin.localhost;
  // the test's own HTTP client does not).
  await page.goto(adminUrl('/login'));
  const status = await page.evaluate(async (body) => (await fetch('/api/auth/login', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin',
  })).status, { email: adminEmail, password: LEARNER_PASSWORD });
  expect(status).toBe(200);
  return { page, context };
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} (${(n.failureSummary ?? '').split('\n').slice(1, 2).join('').trim()})`).join(' | ')}`);
  }, WCAG_TAGS);
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name, level: 2 }).first();
const cont = (page: Page) => page.locator('.checkout-summary__continue').click();

/** The learner books the approval-required first-aid course, paying in person: awaiting approval. */
async function bookAwaitingApproval(email: string): Promise<string> {
  const { page, context } = await learnerPage(email);
  await page.goto(url('/checkout?flow=booking&course=crs_0003_05'));
  await heading(page, 'Select Date').waitFor();
  await page.locator('.date-option:not([disabled])').first().click();
  await heading(page, 'Select Spaces').waitFor();
  await cont(page);
  await heading(page, 'Contact Info').waitFor();
  await page.getByRole('checkbox', { name: 'I accept the Terms and Privacy Policy *' }).check();
  await cont(page);
  await heading(page, 'Payment').waitFor();
  await page.getByRole('radio', { name: 'Pay on the day (cash or card)' }).check();
  await page.getByRole('button', { name: 'Confirm Payment' }).click();
  await heading(page, 'Your Booking is Awaiting Approval').waitFor();
  const reference = (await page.locator('.confirmation__reference').textContent())!.replace('Booking reference: ', '').trim();
  await context.close();
  return reference;
}

/** The learner books a Clay & Kiln taster and pays by card. */
async function bookPaid(email: string): Promise<string> {
  const { page, context } = await learnerPage(email);
  await page.goto(url('/checkout?flow=booking&course=crs_0001_01'));
  await heading(page, 'Select Date').waitFor();
  await page.locator('.date-option:not([disabled])').first().click();
  await heading(page, 'Select Spaces').waitFor();
  await cont(page);
  await heading(page, 'Contact Info').waitFor();
  await fillClayForm(page);
  await page.getByRole('checkbox', { name: 'I accept the Terms and Privacy Policy *' }).check();
  await cont(page);
  await heading(page, 'Payment').waitFor();
  await payByCard(page, '4242 4242 4242 4242');
  await heading(page, 'Booking Confirmed').waitFor();
  const reference = (await page.locator('.confirmation__reference').textContent())!.replace('Booking reference: ', '').trim();
  await context.close();
  return reference;
}

describe('the educator admin\'s bookings', () => {
  it('approves a booking that awaits approval: confirmed, and the learner\'s confirmation is in the outbox', async () => {
    const learner = await makeLearner(db, 'awaiting', { firstName: 'Wendy', lastName: 'Waiting' });
    const bookingId = await bookAwaitingApproval(learner);
    const { page, context } = await adminPage();
    await page.goto(adminUrl(`/requests?educator-context=${LIFELINE}`));
    const item = page.locator(`[data-booking="${bookingId}"]`);
    await item.getByRole('heading', { name: /Wendy Waiting/ }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await item.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('status').getByText(/Approved: Wendy Waiting/).waitFor();
    await item.waitFor({ state: 'detached' });
    const booking = await db.selectFrom('bookings').select(['status', 'occurrence_id', 'spaces']).where('id', '=', bookingId).executeTakeFirstOrThrow();
    expect(booking.status).toBe('confirmed');
    const mail = await db.selectFrom('outbox_messages').select(['subject', 'tag']).where('to_address', '=', learner).where('tag', '=', 'booking-approved').execute();
    expect(mail).toEqual([{ subject: expect.stringMatching(new RegExp(`^Booking Confirmed: .*\\(${bookingId}\\)$`)), tag: 'booking-approved' }]);
    // The booking's page says so, with its history.
    await page.goto(adminUrl(`/bookings/${bookingId}?educator-context=${LIFELINE}`));
    await page.getByTestId('booking-detail').and(page.locator('[data-status="confirmed"]')).waitFor();
    await page.getByText(/Approve by Ada Admin/).waitFor();
    await context.close();
  });

  it('cancels a paid booking with a partial refund: a double click makes one refund', async () => {
    const learner = await makeLearner(db, 'refund', { firstName: 'Rita', lastName: 'Refund' });
    const bookingId = await bookPaid(learner);
    const paymentId = (await db.selectFrom('bookings').select('payment_id').where('id', '=', bookingId).executeTakeFirstOrThrow()).payment_id!;
    const { page, context } = await adminPage();
    // Found through the list's search, then opened.
    await page.goto(adminUrl(`/bookings?educator-context=${CLAY}`));
    await page.getByLabel('Search by learner name or e-mail').fill('rita ref');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('status').getByText('Page 1: 1 booking.').waitFor();
    await page.getByRole('link', { name: 'Rita Refund' }).click();
    await page.getByTestId('booking-detail').waitFor();
    await page.getByRole('heading', { name: 'Learner', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Cancel booking…' }).click();
    await page.getByRole('radio', { name: 'Part of it' }).check();
    await page.getByLabel('Amount to refund (£)').fill('10');
    await page.getByLabel('Message to the learner (optional)').fill('The studio flooded');
    await page.getByRole('button', { name: 'Cancel booking', exact: true }).dblclick();
    await page.getByRole('status').getByText('Booking cancelled. £10.00 refunded.').waitFor();
    await page.locator('[data-testid="booking-detail"][data-status="cancelled"]').waitFor();
    const refunds = await db.selectFrom('test_refunds').select(['amount']).where('payment_id', '=', paymentId).execute();
    expect(refunds.map((r) => Number(r.amount))).toEqual([1000]);
    expect(await db.selectFrom('refunds').select('amount').where('booking_id', '=', bookingId).execute()).toHaveLength(1);
    await page.getByTestId('refunds').getByText('Refunded').waitFor();
    const mail = await db.selectFrom('outbox_messages').select('text_body').where('to_address', '=', learner).where('tag', '=', 'booking-cancelled-by-educator').execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text_body).toContain('£10.00 has been refunded to your Card.');
    await context.close();
  });

  it('keeps a search submitted the moment the list has hydrated', async () => {
    // React hydrates an island in a transition: its commit and its passive effects run in different tasks, and an
    // event can land in between. This page submits the search in that gap, found through React's own markers on
    // the island (the root's state says when hydration has committed); the filters must not be replaced by the address's.
    const { page, context } = await adminPage();
    await page.addInitScript(() => {
      if (location.pathname !== '/bookings') return;
      const started = performance.now();
      const poll = () => {
        const input = document.getElementById('bf-q') as HTMLInputElement | null;
        const island = input?.closest('astro-island') as (Element & Record<string, { stateNode?: { current: { memoizedState?: { isDehydrated?: boolean } } } }>) | null;
        const key = island ? Object.keys(island).find((k) => k.startsWith('__reactContainer$')) : undefined;
        const hydrated = key ? island![key]!.stateNode?.current.memoizedState?.isDehydrated === false : false;
        const w = window as unknown as { searchSubmitted?: string };
        if (hydrated) {
          input!.value = 'nobody by this name';
          input!.form!.requestSubmit();
          w.searchSubmitted = 'in the gap';
        } else if (performance.now() - started > 20_000) w.searchSubmitted = 'never: React\'s markers were not found';
        else setTimeout(poll, 0);
      };
      poll();
    });
    await page.goto(adminUrl(`/bookings?educator-context=${CLAY}`));
    await page.waitForFunction(() => (window as unknown as { searchSubmitted?: string }).searchSubmitted);
    expect(await page.evaluate(() => (window as unknown as { searchSubmitted?: string }).searchSubmitted)).toBe('in the gap');
    await page.getByRole('status').getByText('No bookings match.').waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('nobody by this name');
    expect(await page.getByLabel('Search by learner name or e-mail').inputValue()).toBe('nobody by this name');
    await context.close();
  });

  it('answers a group request with a date and a price; the learner books it through the link in the e-mail', async () => {
    const learner = await makeLearner(db, 'group', { firstName: 'Greta', lastName: 'Group' });
    const { page: lp, context: lc } = await learnerPage(learner);
    await lp.goto(url('/checkout?flow=groupBookingRequest&course=crs_0001_05'));
    await heading(lp, 'Dates').waitFor();
    await lp.getByLabel('First choice', { exact: true }).fill(new Date(Date.now() + 40 * 86400_000).toISOString().slice(0, 10));
    await lp.getByRole('button', { name: 'Add one to basket' }).first().click();
    await cont(lp);
    await heading(lp, 'Message').waitFor();
    await lp.getByLabel('Write a message for Clay & Kiln Pottery Studio').fill('A team of four');
    await cont(lp);
    await heading(lp, 'Contact Info').waitFor();
    await fillClayForm(lp);
    await lp.getByRole('checkbox', { name: 'I accept the Terms and Privacy Policy *' }).check();
    await cont(lp);
    await heading(lp, 'Request Sent').waitFor();
    const requestId = (await lp.locator('.confirmation__reference').textContent())!.replace('Request reference: ', '').trim();

    const { page, context } = await adminPage();
    await page.goto(adminUrl(`/requests?educator-context=${CLAY}`));
    const item = page.locator(`[data-request="${requestId}"]`);
    await item.getByRole('button', { name: 'Answer with a date and price…' }).click();
    const day = new Date(Date.now() + 50 * 86400_000).toISOString().slice(0, 10);
    await item.getByLabel('Date', { exact: true }).fill(day);
    await item.getByLabel('Starts (UK time)').fill('10:00');
    await item.getByLabel('Ends (UK time)').fill('13:00');
    await item.getByLabel('Price for all the spaces (£)').fill('120');
    await item.getByLabel('Message to the learner (optional)').fill('The big studio is yours');
    await item.getByRole('button', { name: 'Send the answer' }).click();
    await page.getByRole('status').getByText(/Answer sent: Greta Group/).waitFor();
    await context.close();

    const mail = await db.selectFrom('outbox_messages').select('text_body').where('to_address', '=', learner).where('tag', '=', 'request-answered').executeTakeFirstOrThrow();
    const link = /Book Now: (\S+)/.exec(mail.text_body)![1]!;
    expect(link).toContain('checkoutId=');
    await lp.goto(link);
    await heading(lp, 'Contact Info').waitFor();
    await fillClayForm(lp);
    await lp.getByRole('checkbox', { name: 'I accept the Terms and Privacy Policy *' }).check();
    await cont(lp);
    await heading(lp, 'Payment').waitFor();
    await payByCard(lp, '4242 4242 4242 4242');
    await heading(lp, 'Booking Confirmed').waitFor();
    const bookingId = (await lp.locator('.confirmation__reference').textContent())!.replace('Booking reference: ', '').trim();
    const booking = await db.selectFrom('bookings').select(['status', 'total_cost', 'payment_state', 'start_datetime']).where('id', '=', bookingId).executeTakeFirstOrThrow();
    expect(booking).toMatchObject({ status: 'confirmed', payment_state: 'paid' });
    expect(Number(booking.total_cost)).toBeGreaterThanOrEqual(12000);
    await lc.close();
  });

  for (const width of [1280, 390]) {
    it(`has no axe violations on /bookings, /bookings/{id} and /requests at ${width} px`, async () => {
      const booking = await db.selectFrom('bookings').select('id').where('educator_id', '=', CLAY).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
      const { page, context } = await adminPage(width);
      const failures: Record<string, string[]> = {};
      for (const [name, path, ready] of [
        ['bookings', `/bookings?educator-context=${CLAY}`, '[data-testid="bookings-list"] .bookings-table'],
        ['orders', `/bookings?educator-context=${CLAY}&show=orders`, '[data-testid="bookings-list"] .bookings-count:not(:empty)'],
        ['booking', `/bookings/${booking.id}?educator-context=${CLAY}`, '[data-testid="booking-detail"]'],
        ['requests', `/requests?educator-context=${LIFELINE}`, '[data-testid="requests"]'],
      ] as const) {
        await page.goto(adminUrl(path));
        await page.locator(ready).first().waitFor();
        const violations = await axeViolations(page);
        if (violations.length) failures[name] = violations;
        // Nothing wider than the screen.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (overflow > 1) failures[`${name} overflow`] = [`${overflow}px wider than the window`];
      }
      expect(failures).toEqual({});
      await context.close();
    });
  }
});
