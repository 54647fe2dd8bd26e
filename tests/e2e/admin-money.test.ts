/**
 * The Money screen and a message to a date's learners in the browser (docs/admin.md "Money", "Messages"): axe
 * (WCAG 2.2 AA) with 0 violations at desktop width and on a 390px-wide phone with data on every table (a paid
 * booking, a gift card, a member whose renewal failed); the tables scroll in focusable regions; an admin writes to
 * the learners of a date with the keyboard only, the e-mail lands in the outbox and the booking's page shows the
 * message. The educator is made for this file, so the demo catalogue the other browser tests read is untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPageAs, axeViolations, educatorAdminUrl, seedEducatorAdmin } from './helpers/admin.ts';
import { closeBrowser, productDb } from './harness.ts';
import type { Db } from '../../db/client.ts';

const suffix = Date.now().toString(36);
const EDUCATOR = `edu_e2e_money_${suffix}`;
const COURSE = `crs_e2e_money_${suffix}`;
const DATE = `occ_e2e_money_${suffix}`;
const BOOKING = `bkg_e2e_money_${suffix}`;
const LEARNER_EMAIL = `lee-${suffix}@example.com`;
const NOW = Math.floor(Date.now() / 1000);
const DAY = 86_400;

let db: Db;
let email: string;
const adminUrl = (path: string) => educatorAdminUrl(EDUCATOR, path);

beforeAll(async () => {
  db = productDb();
  const seeded = await seedEducatorAdmin(db, 'adm-money', { id: EDUCATOR, slug: `e2e-money-${suffix}`, name: 'Kiln Lane Money' }, { id: COURSE, slug: 'wheel-money', name: 'Wheel Throwing', spaces: 8 });
  email = seeded.email;
  const user = seeded.user;
  await db.insertInto('occurrences').values({ id: DATE, course_id: COURSE, start_datetime: NOW + 5 * DAY, end_datetime: NOW + 5 * DAY + 7200, delivery: 'online', address: null, spaces: 8, available_spaces: 7, parent_ref: null, series_id: null }).execute();
  await db.insertInto('checkouts').values({
    id: `chk_${BOOKING}`, flow: 'booking', origin: 'marketplace', course_id: COURSE, educator_id: EDUCATOR, occurrence_id: DATE, user_id: user.id, student_id: user.student_id,
    current_step: 'confirmation', step_state: {}, utms: null, booked_on_url: null, booking_id: BOOKING, order_id: null, request_id: null, application_id: null,
    outcome_kind: null, outcome_id: null, total_cost: 3090, cost_summary: { platform_fee: 90, fees_absorbed: false }, payment_provider: 'test', payment_id: `tp_${suffix}`,
    created_at: NOW - 600, updated_at: NOW - 600, completed_at: NOW - 600,
  }).execute();
  await db.insertInto('bookings').values({
    id: BOOKING, checkout_id: `chk_${BOOKING}`, flow: 'booking', course_id: COURSE, educator_id: EDUCATOR, user_id: user.id, student_id: user.student_id, origin: 'marketplace',
    lines: {}, contact_details: { booker: { isAttending: true, formResponse: { system_first_name: 'Lee', system_last_name: 'Learner', system_email: LEARNER_EMAIL } }, attendees: [] },
    total_cost: 3090, created_at: NOW - 600, status: 'confirmed', details: {}, occurrence_id: DATE, spaces: 1, start_datetime: null, end_datetime: null,
    payment_method: 'card', payment_state: 'paid', payment_id: `tp_${suffix}`, invoice_details: null, due_date: null, manual_note: null,
  }).execute();
  await db.insertInto('checkout_payments').values({
    id: `cpay_${suffix}`, checkout_id: `chk_${BOOKING}`, provider: 'test', provider_payment_id: `tp_${suffix}`, amount: 3090, currency: 'GBP', status: 'succeeded', created_at: NOW - 600, updated_at: NOW - 600, checked_at: null,
  }).execute();
  await db.insertInto('gift_cards').values({
    id: `gc_${suffix}`, educator_id: EDUCATOR, code: `GIFT-E2E-${suffix.toUpperCase()}`, amount: 5000, balance: 2000, checkout_id: null, buyer_user_id: null, buyer_name: 'Bea Buyer',
    buyer_email: 'bea@example.com', recipient_name: 'Rita Recipient', recipient_email: 'rita@example.com', send_at: NOW - DAY, recipient_sent_at: NOW - DAY, expires_at: NOW + 300 * DAY,
    design_colour: null, payment_method: 'card', payment_id: null, created_at: NOW - DAY,
  }).execute();
  await db.insertInto('membership_plans').values({ id: `pln_${suffix}`, educator_id: EDUCATOR, name: 'Monthly Club', interval: 'month', pass_months: null, price: 1500, course_ids: null, created_at: NOW - 90 * DAY }).execute();
  await db.insertInto('memberships').values({
    id: `mem_${suffix}`, plan_id: `pln_${suffix}`, educator_id: EDUCATOR, user_id: user.id, checkout_id: null, status: 'past_due', payment_method: 'card', provider: 'test-recurring',
    provider_customer_id: null, provider_subscription_id: null, price: 1500, currency: 'GBP', anchor_at: NOW - 40 * DAY, current_period_start: NOW - 10 * DAY, current_period_end: NOW + 20 * DAY,
    cancel_requested_at: null, ended_at: null, end_reason: null, next_attempt_at: NOW + DAY, claimed_at: null, created_at: NOW - 40 * DAY, updated_at: NOW - DAY, renewal_attempts: 2,
  }).execute();
  await db.insertInto('membership_payments').values({
    id: `mpay_${suffix}`, membership_id: `mem_${suffix}`, educator_id: EDUCATOR, kind: 'renewal', period_index: 1, attempt: 2, period_start: NOW - 10 * DAY, period_end: NOW + 20 * DAY,
    amount: 1500, currency: 'GBP', status: 'failed', provider: 'test-recurring', provider_payment_id: null, receipt_number: null, failure: 'Your card was declined.', created_at: NOW - DAY,
  }).execute();
});

afterAll(async () => {
  await db?.destroy();
  await closeBrowser();
});

const adminPage = (width: number) => adminPageAs(email, width);

describe('the Money screen', () => {
  for (const width of [1280, 390]) {
    it(`shows payouts, fees, gift cards and members to chase, with 0 axe violations at ${width}px`, async () => {
      const { page, close } = await adminPage(width);
      try {
        await page.goto(adminUrl('/money'));
        const screen = page.locator('[data-testid="money-screen"]');
        await screen.getByRole('region', { name: 'Payouts per provider table', exact: true }).waitFor();
        await screen.getByRole('region', { name: 'Members table', exact: true }).waitFor();
        await expect(screen.getByRole('region', { name: 'Payouts per provider table', exact: true }).innerText()).resolves.toContain('£30.90');
        await expect(screen.getByRole('region', { name: 'Platform fees table', exact: true }).innerText()).resolves.toContain('£0.90');
        await expect(screen.getByRole('region', { name: 'Gift cards sold table', exact: true }).innerText()).resolves.toContain(`…${`GIFT-E2E-${suffix.toUpperCase()}`.slice(-4)}`);
        await page.getByLabel('Show').selectOption('chase');
        await expect(screen.getByRole('region', { name: 'Members table', exact: true }).getByText('Your card was declined.', { exact: false }).waitFor()).resolves.toBeUndefined();
        await expect(page.getByRole('link', { name: 'Stripe and other payment options' }).getAttribute('href')).resolves.toContain('/payments?educator-context=');
        await expect(page.locator('nav').getByRole('link', { name: 'Money' }).getAttribute('aria-current')).resolves.toBe('page');
        await expect(page.locator('nav').getByRole('link', { name: 'Registers' }).count()).resolves.toBe(1);
        // A table wider than a phone scrolls inside its region, which the keyboard can reach and scroll.
        const region = screen.getByRole('region', { name: 'Gift cards sold table', exact: true });
        await region.focus();
        await expect(region.evaluate((el) => el === document.activeElement && el.getAttribute('tabindex') === '0')).resolves.toBe(true);
        if (width === 390) {
          const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
          expect(fits, 'the page itself does not scroll sideways on a phone').toBe(true);
        }
        expect(await axeViolations(page), `/money at ${width}px`).toEqual([]);
      } finally {
        await close();
      }
    }, 120_000);
  }
});

describe('messaging the learners of a date', () => {
  it('is done with the keyboard from the register, e-mails the learner through the outbox and shows on the booking\'s page (0 axe violations at both widths)', async () => {
    const { page, close } = await adminPage(1280);
    try {
      await page.goto(adminUrl(`/registers/${DATE}`));
      await page.locator('[data-testid="register-screen"]').waitFor();
      const form = page.locator('[data-testid="message-learners"]');
      await form.getByLabel('Subject').focus();
      await page.keyboard.type('Room change');
      await page.keyboard.press('Tab');
      await page.keyboard.type('We are in Room 2 on Saturday.');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      // The confirmation takes the focus: Enter sends.
      await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Send now');
      expect(await axeViolations(page), 'register with the confirmation open').toEqual([]);
      await page.keyboard.press('Enter');
      await form.getByText('Sent to 1 learner.').waitFor();
      await form.getByText('We are in Room 2 on Saturday.').waitFor();
      const mails = await db.selectFrom('outbox_messages').select(['to_address', 'subject', 'text_body']).where('tag', '=', 'learner-message').where('to_address', '=', LEARNER_EMAIL).execute();
      expect(mails).toEqual([expect.objectContaining({ subject: `Room change (${BOOKING})` })]);
      expect(mails[0]!.text_body).toContain('We are in Room 2 on Saturday.');
      expect(await axeViolations(page), 'register after sending').toEqual([]);
      await page.goto(adminUrl(`/bookings/${BOOKING}`));
      await page.locator('[data-testid="booking-detail"]').waitFor();
      await page.getByRole('list', { name: 'Messages sent to the learner' }).getByText('Message “Room change” sent by Ada Admin').waitFor();
      await page.setViewportSize({ width: 390, height: 900 });
      await page.goto(adminUrl(`/registers/${DATE}`));
      await page.locator('[data-testid="message-learners"] .biz-card').waitFor();
      expect(await axeViolations(page), 'register at 390px').toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);
});
