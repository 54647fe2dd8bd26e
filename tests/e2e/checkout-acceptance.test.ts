/**
 * The payments and documents acceptance scenario, end to end in Chromium with nothing configured (built-in test provider,
 * outbox mailer): a learner books a dated class (Clay & Kiln's "Pottery Date Night") with TWO offers
 * ("Couple (2 places)" + "Single place") and a demo voucher, pays with the test card 4242 4242 4242 4242,
 * sees "Booking Confirmed", downloads the receipt PDF and the calendar file, finds the booking under /profile,
 * and the confirmation e-mail is in the outbox. Then the same inside an embed on another origin: the course
 * page framed by a tiny partner site, Book Now in the frame, the checkout in the frame (login in a popup).
 */
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { baseUrl, catalogueNow, closeBrowser, productDb, url } from './harness.ts';
import type { Db } from '../../db/client.ts';
import { learnerPage, makeLearner } from './helpers/learners.ts';
import { startFramingSite, type FramingSite } from './helpers/partner.ts';
import { continueCheckout, setQuantity, stepHeading as heading } from './helpers/checkout.ts';

const POLL = { timeout: 15_000, interval: 100 };
const COURSE = { id: 'crs_0001_06', educator: 'clay-and-kiln-pottery', slug: 'pottery-date-night', name: 'Pottery Date Night' };
const COUPLE = 'Couple (2 places)';
const SINGLE = 'Single place';
/** Couple £110 + Single £58. */
const SUBTOTAL = 11000 + 5800;

let db: Db;
let partner: FramingSite;

beforeAll(async () => {
  db = productDb();
  partner = await startFramingSite('course');
});

afterAll(async () => {
  await closeBrowser();
  await db.destroy();
  await partner.close();
});

const makeUser = (prefix: string) => makeLearner(db, prefix);

type Root = Page | FrameLocator;
const cont = continueCheckout;
const summaryTotal = (root: Root) => root.locator('.checkout-summary__total strong').textContent();

/** "£151.20" for 15120 pence (checked against the summary the product renders). */
const pounds = (pence: number) => `£${(pence / 100).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The date in the list that is `days` after the catalogue anchor (its London day text). */
async function occurrenceAt(days: number): Promise<{ id: string; start: number; end: number }> {
  const from = catalogueNow() + days * 86400;
  const occ = await db.selectFrom('occurrences').select(['id', 'start_datetime', 'end_datetime'])
    .where('course_id', '=', COURSE.id).where('start_datetime', '>=', from).where('start_datetime', '<', from + 86400)
    .executeTakeFirstOrThrow();
  return { id: occ.id, start: Number(occ.start_datetime), end: Number(occ.end_datetime) };
}

const londonDay = (epoch: number) => new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(epoch * 1000));

/** '20260710T190000': the wall-clock time in Europe/London, computed here independently of the product. */
function londonStamp(epoch: number): string {
  const p = Object.fromEntries(new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  }).formatToParts(new Date(epoch * 1000)).map((x) => [x.type, x.value]));
  return `${p.year}${p.month}${p.day}T${p.hour}${p.minute}${p.second}`;
}

/** The text of a pdfkit PDF: the hex strings of every TJ operator in every (deflated) content stream. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const runs: string[] = [];
  for (const m of raw.matchAll(/<<([^]*?)>>\s*stream\r?\n/g)) {
    const length = Number(/\/Length (\d+)/.exec(m[1])?.[1] ?? -1);
    if (length < 0) continue;
    let bytes = pdf.subarray(m.index! + m[0].length, m.index! + m[0].length + length);
    if (/\/FlateDecode/.test(m[1])) {
      try { bytes = inflateSync(bytes); } catch { continue; }
    }
    for (const tj of bytes.toString('latin1').matchAll(/\[((?:<[0-9a-fA-F]*>|[-\d.\s])*)\]\s*TJ/g)) {
      runs.push([...tj[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1], 'hex').toString('latin1')).join(''));
    }
  }
  return runs.join('\n');
}

/** Date → two offers + voucher → Contact Info (booker + two guests) → card 4242 → "Booking Confirmed". Returns the summary total. */
async function bookTwoOffersWithVoucher(root: Root, occurrenceDayText: string, voucher: string, onLogin: () => Promise<void>): Promise<{ reference: string; total: string }> {
  await heading(root, 'Select Date');
  await root.locator('.date-option:not([disabled])').filter({ hasText: occurrenceDayText }).click();
  await heading(root, 'Select Spaces');
  await setQuantity(root, COUPLE, 1);
  await setQuantity(root, SINGLE, 1);
  const summary = root.locator('.checkout-summary');
  await expect.poll(() => summaryTotal(root), POLL).toBe(pounds(SUBTOTAL));
  await root.getByLabel('Apply promo code or gift card').fill(voucher);
  await root.getByRole('button', { name: 'Apply' }).click();
  await root.getByText('Voucher applied successfully!').waitFor();
  const discount = voucher === 'WELCOME10' ? SUBTOTAL / 10 : 1000;
  await summary.getByText(`-${pounds(discount)}`).waitFor();
  await expect.poll(() => summaryTotal(root), POLL).toBe(pounds(SUBTOTAL - discount));
  await cont(root);
  await onLogin();

  await heading(root, 'Contact Info');
  await root.getByLabel('Mobile number').fill('07700 900123');
  await root.getByRole('radio', { name: 'Never' }).first().check();
  // Three spaces, the booker attends: two guests' details.
  const guests = root.locator('section.attendee');
  await expect.poll(() => guests.count(), POLL).toBe(2);
  for (const [i, name] of [['Joan', 'Clarke'], ['Alan', 'Turing']].entries()) {
    const g = guests.nth(i);
    await g.getByRole('textbox', { name: 'First Name' }).fill(name[0]);
    await g.getByRole('textbox', { name: 'Last Name' }).fill(name[1]);
    await g.getByRole('textbox', { name: 'Email' }).fill(`${name[0].toLowerCase()}@example.com`);
    await g.getByRole('radio', { name: 'A few times' }).check();
  }
  await root.getByRole('checkbox', { name: 'I accept the Terms and Privacy Policy *' }).check();
  await cont(root);

  await heading(root, 'Payment');
  await root.getByRole('radio', { name: 'Card' }).check();
  await root.getByLabel('Card number').fill('4242 4242 4242 4242');
  await root.getByLabel('Expiry date').fill('12 / 34');
  await root.getByLabel('Security code (CVC)').fill('123');
  await root.getByRole('button', { name: /^Pay / }).click();

  await heading(root, 'Booking Confirmed');
  const reference = (await root.locator('.confirmation__reference').textContent())!.replace('Booking reference: ', '');
  expect(reference).toMatch(/^BKG-/);
  return { reference, total: (await summaryTotal(root))! };
}

/** The booking row, the receipt PDF, the .ics and the outbox e-mail, checked against each other. */
async function checkOutcome(root: Root, context: BrowserContext, email: string, reference: string, total: string, occ: { id: string; start: number; end: number }, origin: string, voucherCode: string): Promise<void> {
  const booking = await db.selectFrom('bookings').selectAll().where('id', '=', reference).executeTakeFirstOrThrow();
  expect(booking.status).toBe('confirmed');
  expect(booking.origin).toBe(origin);
  expect(booking.payment_method).toBe('card');
  expect(booking.payment_state).toBe('paid');
  expect(booking.occurrence_id).toBe(occ.id);
  expect(Number(booking.spaces)).toBe(3);
  const offers = ((booking.lines as { offers?: { name: string; quantity: number }[] }).offers ?? []).map((o) => [o.name, Number(o.quantity)]);
  expect(offers.sort()).toEqual([[COUPLE, 1], [SINGLE, 1]]);
  const voucher = await db.selectFrom('vouchers').select('id').where('code', '=', voucherCode).where('educator_id', '=', 'edu_0001').executeTakeFirstOrThrow();
  expect((booking.details as { voucherId?: string | null }).voucherId).toBe(voucher.id);
  // The total the learner was shown is the booking's total_cost.
  expect(total).toBe(pounds(Number(booking.total_cost)));
  expect(Number(booking.total_cost)).toBe(voucherCode === 'WELCOME10' ? SUBTOTAL - SUBTOTAL / 10 : SUBTOTAL - 1000);

  // Receipt: fetched with the page's request context, as the link gives it.
  const receiptHref = await root.getByRole('link', { name: 'Download Receipt' }).getAttribute('href');
  const receipt = await context.request.get(new URL(receiptHref!, baseUrl()).toString());
  expect(receipt.status()).toBe(200);
  expect(receipt.headers()['content-type']).toMatch(/^application\/pdf/);
  const pdf = await receipt.body();
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const text = pdfText(pdf);
  expect(text).toContain(reference);
  expect(text).toContain(total);

  // Calendar file: one VEVENT at the occurrence's start and end, wall-clock in Europe/London.
  const icalHref = await root.getByRole('link', { name: 'Add to Calendar' }).getAttribute('href');
  const ics = await context.request.get(new URL(icalHref!, baseUrl()).toString());
  expect(ics.status()).toBe(200);
  const lines = (await ics.text()).replace(/\r\n[ \t]/g, '').split(/\r\n/);
  expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
  const event = lines.slice(lines.indexOf('BEGIN:VEVENT'), lines.indexOf('END:VEVENT'));
  expect(event).toContain(`DTSTART;TZID=Europe/London:${londonStamp(occ.start)}`);
  expect(event).toContain(`DTEND;TZID=Europe/London:${londonStamp(occ.end)}`);
  // Date night starts at 19:00 London time and lasts two hours.
  expect(londonStamp(occ.start)).toMatch(/T190000$/);
  expect(londonStamp(occ.end)).toMatch(/T210000$/);

  // The learner's confirmation e-mail, sent after the booking committed.
  await expect.poll(async () => (await db.selectFrom('outbox_messages').select(['subject', 'text_body', 'tag'])
    .where('to_address', '=', email).execute()).filter((m) => m.subject.includes(reference) || m.text_body.includes(reference)).map((m) => m.tag), POLL)
    .toContain('booking-confirmation');

  // /profile "My Courses & Bookings" lists it (first-party page, the session cookie of this context).
  const profile = await context.newPage();
  await profile.goto(url('/profile'));
  const item = profile.locator(`li.profile-item[data-id="${reference}"]`);
  await item.waitFor();
  await item.getByRole('link', { name: COURSE.name }).waitFor();
  await expect(item.textContent()).resolves.toContain(total);
  await profile.close();
}

describe('acceptance: a dated class with two offers and a voucher', () => {
  it('books in the marketplace: card 4242, receipt PDF, calendar file, /profile, confirmation e-mail', async () => {
    const email = await makeUser('accept');
    const occ = await occurrenceAt(11);
    const { page, context } = await learnerPage(email, 1000);
    await page.goto(url(`/checkout?flow=booking&course=${COURSE.id}`));
    const { reference, total } = await bookTwoOffersWithVoucher(page, londonDay(occ.start), 'WELCOME10', async () => {});
    await checkOutcome(page, context, email, reference, total, occ, 'marketplace', 'WELCOME10');
    await context.close();
  });

  it('books the same inside an embed on another origin: Book Now in the frame, login popup, confirmation in the frame', async () => {
    const email = await makeUser('accept-embed');
    const occ = await occurrenceAt(25);
    const { page, context } = await learnerPage(email, 1000);
    await page.goto(partner.framing(`${baseUrl()}/embed/${COURSE.educator}/${COURSE.slug}`));
    const f = page.frameLocator('#course');
    await f.getByRole('link', { name: 'Book Now' }).click();
    await expect.poll(() => page.frames().map((fr) => fr.url()).find((u) => u.includes('/embed/checkout')), POLL).toBeTruthy();
    const { reference, total } = await bookTwoOffersWithVoucher(f, londonDay(occ.start), 'TENOFF', async () => {
      // The frame gets no first-party cookie: a first-party window logs in and hands it a code.
      await heading(f, 'Log in or Sign Up');
      const [popup] = await Promise.all([context.waitForEvent('page'), f.getByRole('button', { name: 'Log in or Sign Up' }).click()]);
      expect(new URL(popup.url()).origin).toBe(baseUrl());
      await popup.waitForEvent('close', { timeout: 15_000 });
    });
    await checkOutcome(f, context, email, reference, total, occ, 'embed', 'TENOFF');
    await context.close();
  });
});
