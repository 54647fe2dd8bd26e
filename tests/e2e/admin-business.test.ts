/**
 * The business screens of the educator admin in the browser (docs/admin.md "Reviews", "Registers", "Inbox",
 * "Numbers"): axe (WCAG 2.2 AA) with 0 violations on each, at desktop width and on a 390px-wide phone, with data
 * on every screen (a review with a response, a date with a booking, an opened enquiry, figures). The educator is
 * made for this file, so the demo catalogue the other browser tests read is untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { adminPageAs, axeViolations, educatorAdminUrl, seedEducatorAdmin } from './helpers/admin.ts';
import { closeBrowser, productDb } from './harness.ts';
import { COURSE_PAGE_VIEW } from '../../src/domain/analytics.ts';
import type { Db } from '../../db/client.ts';

const suffix = Date.now().toString(36);
const EDUCATOR = `edu_e2e_biz_${suffix}`;
const COURSE = `crs_e2e_biz_${suffix}`;
const DATE = `occ_e2e_biz_${suffix}`;
const NOW = Math.floor(Date.now() / 1000);

let db: Db;
let email: string;
const adminUrl = (path: string) => educatorAdminUrl(EDUCATOR, path);

beforeAll(async () => {
  db = productDb();
  const seeded = await seedEducatorAdmin(db, 'adm-biz', { id: EDUCATOR, slug: `e2e-biz-${suffix}`, name: 'Kiln Lane Pottery' }, { id: COURSE, slug: 'wheel-throwing', name: 'Wheel Throwing', spaces: 8 });
  email = seeded.email;
  const user = seeded.user;
  await db.insertInto('occurrences').values({ id: DATE, course_id: COURSE, start_datetime: NOW + 5 * 86_400, end_datetime: NOW + 5 * 86_400 + 7200, delivery: 'online', address: null, spaces: 8, available_spaces: 7, parent_ref: null, series_id: null }).execute();
  await db.insertInto('checkouts').values({
    id: `chk_${DATE}`, flow: 'booking', origin: 'marketplace', course_id: COURSE, educator_id: EDUCATOR, occurrence_id: DATE, user_id: user.id, student_id: user.student_id,
    current_step: 'confirmation', step_state: { date: { status: 'complete', state: {} } }, utms: null, booked_on_url: null, booking_id: `bkg_${DATE}`, order_id: null, request_id: null, application_id: null,
    outcome_kind: null, outcome_id: null, total_cost: 0, cost_summary: null, payment_provider: null, payment_id: null, created_at: NOW - 60, updated_at: NOW - 60, completed_at: NOW - 60,
  }).execute();
  await db.insertInto('bookings').values({
    id: `bkg_${DATE}`, checkout_id: `chk_${DATE}`, flow: 'booking', course_id: COURSE, educator_id: EDUCATOR, user_id: user.id, student_id: user.student_id, origin: 'marketplace',
    lines: {}, contact_details: { booker: { isAttending: true, formResponse: { system_first_name: 'Lee', system_last_name: 'Learner', system_email: 'lee@example.com', diet: 'Vegan' } }, attendees: [] },
    total_cost: 0, created_at: NOW - 60, status: 'confirmed', details: {}, occurrence_id: DATE, spaces: 1, start_datetime: null, end_datetime: null,
    payment_method: null, payment_state: 'free', payment_id: null, invoice_details: null, due_date: null, manual_note: null,
  }).execute();
  await db.insertInto('reviews').values({
    id: `rev_${suffix}`, educator_id: EDUCATOR, course_id: COURSE, entity: 'course', rating: 5, breakdown: null, verified: false, source_key: 'marketplace', source_label: 'Marketplace',
    external_url: null, reviewer_id: user.student_id, reviewer_name: 'Lee Learner', public_message: 'Lovely class', response_message: 'Thank you!', response_created_at: NOW - 30, created_at: NOW - 120, archived_at: null,
  }).execute();
  await db.insertInto('enquiries').values({
    id: `enq_${suffix}`, type: 'message', educator_id: EDUCATOR, course_id: null, first_name: 'Sam', last_name: 'Sender', email: 'sam@example.com', phone: '+447700900123',
    message: 'Do you provide aprons?', enquiry_type: null, occurrence_ref: null, course_slug: null, course_name: null, embedded: false, context: 'marketplace', site: 'localhost', user_id: null, ip_hash: null, created_at: NOW - 90,
  }).execute();
  await db.insertInto('analytics_events').values({ id: `evt_${suffix}`, name: COURSE_PAGE_VIEW, educator_id: EDUCATOR, course_id: COURSE, properties: {}, context: 'marketplace', created_at: NOW - 100 }).execute();
});

afterAll(async () => {
  await db?.destroy();
  await closeBrowser();
});

const adminPage = (width: number) => adminPageAs(email, width);


const SCREENS: Array<{ path: string; ready: string; open?: (page: Page) => Promise<void> }> = [
  { path: '/reviews', ready: '[data-testid="reviews-screen"]' },
  { path: '/registers', ready: '[data-testid="registers-list"]' },
  { path: `/registers/${DATE}`, ready: '[data-testid="register-screen"]' },
  { path: '/inbox', ready: '[data-testid="inbox-screen"] .biz-card', open: async (page) => {
    await page.getByRole('button', { name: /Sam Sender/ }).click();
    await page.getByRole('heading', { name: 'Enquiry from Sam Sender' }).waitFor();
  } },
  { path: '/numbers', ready: '[data-testid="numbers-screen"] table' },
];

describe('admin business screens', () => {
  for (const width of [1280, 390]) {
    it(`pass axe with 0 violations at ${width}px`, async () => {
      const { page, close } = await adminPage(width);
      try {
        for (const screen of SCREENS) {
          await page.goto(adminUrl(screen.path));
          await page.locator(screen.ready).first().waitFor();
          await screen.open?.(page);
          expect(await axeViolations(page), `${screen.path} at ${width}px`).toEqual([]);
        }
      } finally {
        await close();
      }
    }, 120_000);
  }
});
