/**
 * The checkout screens in the marketplace (spec 2.14–2.15), every flow completed through the UI with the built-in
 * test provider: booking (a declined card, then a good one; begin_checkout / purchase), order paid by invoice
 * (and its "Pay Invoice" page), booking paid in person (awaiting approval), a calendar-based request paid with the
 * 3-D Secure redirect card, a request by preferred dates started logged out, date and group requests, an
 * application, and a free booking without Payment. Each outcome is checked in the product's database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { catalogueNow, closeBrowser, productDb, url, baseUrl } from './harness.ts';
import type { Db } from '../../db/client.ts';
import { LEARNER_PASSWORD, learnerPage, logIn, makeLearner } from './helpers/learners.ts';
import { fillClayForm, payByCard, pickCalendarSlot } from './helpers/checkout.ts';

/** Polls wait for the island (several browser files share one server). */
const POLL = { timeout: 15_000, interval: 100 };
const PASSWORD = LEARNER_PASSWORD;
let db: Db;

beforeAll(() => {
  db = productDb();
});

afterAll(async () => {
  await closeBrowser();
  await db.destroy();
});

const makeUser = (prefix: string) => makeLearner(db, prefix);
const checkoutPage = (email?: string) => learnerPage(email);

const headingLocator = (page: Page, name: string | RegExp) => page.getByRole('heading', { name, level: 2 }).first();
/** Waits for a step's heading; an error banner instead fails the test with its text. */
const heading = (page: Page, name: string | RegExp) => ({
  async waitFor(): Promise<void> {
    const banner = page.locator('.checkout-error');
    await headingLocator(page, name).or(banner).first().waitFor();
    if (await banner.isVisible() && !(await headingLocator(page, name).isVisible())) throw new Error(`Expected "${name}", the error banner says: ${await banner.textContent()}`);
    await headingLocator(page, name).waitFor();
  },
});
const cont = (page: Page) => page.locator('.checkout-summary__continue').click();
const termsBox = (page: Page) => page.getByRole('checkbox', { name: 'I accept the Terms and Privacy Policy *' });

function isoDay(daysFromCatalogue: number): string {
  return new Date((catalogueNow() + daysFromCatalogue * 86400) * 1000).toISOString().slice(0, 10);
}

async function pickFirstDate(page: Page): Promise<void> {
  await heading(page, 'Select Date').waitFor();
  await page.locator('.date-option:not([disabled])').first().click();
  await heading(page, 'Select Spaces').waitFor();
}

/** The GA4 events queued on the page (window.dataLayer). */
function gaEvents(page: Page): Promise<unknown[]> {
  return page.evaluate(() => ((window as unknown as { dataLayer?: IArguments[] }).dataLayer ?? []).map((a) => Array.from(a)).filter((a) => a[0] === 'event').map((a) => a[1]));
}

function checkoutIdOf(page: Page): string {
  const id = new URL(page.url()).searchParams.get('checkoutId');
  expect(id).toMatch(/^chk_/);
  return id!;
}

describe('checkout in the marketplace', () => {
  it('books a class: date, spaces, login, contact info, a declined card then a good one, confirmation', async () => {
    const email = await makeUser('booker');
    const { page, context } = await checkoutPage();
    await page.goto(url('/checkout?flow=booking&course=crs_0001_01'));
    await heading(page, 'Select Date').waitFor();
    // Breadcrumb before login: the "Log in or Sign Up" step sits between the groups.
    await expect(page.locator('.checkout-breadcrumb li').allTextContents()).resolves.toEqual([
      '1. Date', '2. Spaces', '3. Log in or Sign Up', '4. Contact Info', '5. Payment', '6. Confirmation',
    ]);
    await pickFirstDate(page);
    const checkoutId = checkoutIdOf(page);
    // begin_checkout went to the educator's GA4 id when the checkout became ready.
    await expect.poll(() => gaEvents(page), POLL).toEqual(['begin_checkout']);
    // … and to its ad pixel, as the pixel's standard event.
    const pixel = await page.evaluate(() => ((window as unknown as { fbq?: { queue?: unknown[][] } }).fbq?.queue ?? []).map((a) => a.slice(0, 3)));
    expect(pixel).toContainEqual(['trackSingle', '100000000000001', 'InitiateCheckout']);
    // The summary: course and educator links, date and delivery lines, cancellation, cost lines and total.
    const summary = page.locator('.checkout-summary');
    await expect(summary.getByRole('link', { name: 'Beginners Wheel Throwing Taster' }).getAttribute('href')).resolves.toMatch(/\/clay-and-kiln-pottery\/beginners-wheel-throwing-taster$/);
    await expect(summary.getByRole('link', { name: 'By Clay & Kiln Pottery Studio' }).isVisible()).resolves.toBe(true);
    await summary.getByText('Free cancellation 1 day prior').waitFor();
    await page.getByRole('button', { name: 'Add one to basket' }).first().click();
    await summary.getByText('Taster place × 2').waitFor();
    await expect(summary.locator('.checkout-summary__total strong').textContent()).resolves.toBe('£90.00');
    await page.getByRole('button', { name: 'Remove one from basket' }).first().click();
    await summary.getByText('Taster place', { exact: true }).waitFor();
    await cont(page);
    await heading(page, 'Log in or Sign Up').waitFor();
    const loginHref = await page.getByRole('link', { name: 'Log in or Sign Up' }).getAttribute('href');
    expect(new URL(loginHref!).searchParams.get('redirect')).toContain(`checkoutId=${checkoutId}`);
    // Marketplace origin: no educator parameter.
    expect(new URL(loginHref!).searchParams.has('educator')).toBe(false);

    await logIn(context, email);
    await page.reload();
    await heading(page, 'Contact Info').waitFor();
    expect(checkoutIdOf(page)).toBe(checkoutId);
    await page.getByText(`You are logged in as ${email}`).waitFor();
    await expect(page.getByRole('link', { name: 'Log out' }).getAttribute('href')).resolves.toContain('/logout?redirect=');
    const emailField = page.getByRole('textbox', { name: 'Email', exact: true });
    await expect(emailField.isDisabled()).resolves.toBe(true);
    await page.getByText('You cannot edit this email address.').waitFor();
    await fillClayForm(page);
    // The course captures guests: booking for someone else asks for their details.
    await page.getByRole('radio', { name: 'No, I am booking for someone else' }).check();
    const attendee = page.locator('section.attendee');
    await attendee.getByRole('heading', { name: 'Attendee 1 Details' }).waitFor();
    await attendee.getByRole('textbox', { name: 'First Name' }).fill('Joan');
    await attendee.getByRole('textbox', { name: 'Last Name' }).fill('Clarke');
    await attendee.getByRole('textbox', { name: 'Email' }).fill('joan.clarke@example.com');
    await attendee.getByRole('radio', { name: 'A few times' }).check();
    await termsBox(page).check();
    await cont(page);

    await heading(page, 'Payment').waitFor();
    await payByCard(page, '4000000000000002');
    const banner = page.locator('.checkout-error');
    await banner.getByText('Payment Error: Your card was declined.').waitFor();
    await expect(banner.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: /^Pay / }).click();

    await heading(page, 'Booking Confirmed').waitFor();
    await page.getByText('Check your inbox for a confirmation email').waitFor();
    const reference = (await page.locator('.confirmation__reference').textContent())!;
    expect(reference).toMatch(/^Booking reference: BKG-/);
    // Spec 2.4: the booking's occurrence page, on this site.
    const manage = await page.getByRole('link', { name: 'View & Manage Booking' }).getAttribute('href');
    expect(manage).toMatch(new RegExp(`^/clay-and-kiln-pottery/beginners-wheel-throwing-taster/details/occ_[^?]+\\?booking=${reference.replace('Booking reference: ', '')}$`));
    await page.getByRole('link', { name: 'Download Receipt' }).waitFor();
    await expect(page.getByRole('link', { name: 'Pay Invoice' }).count()).resolves.toBe(0);
    const ical = await page.getByRole('link', { name: 'Add to Calendar' }).getAttribute('href');
    const calendar = await context.request.get(new URL(ical!, baseUrl()).toString());
    expect(calendar.status()).toBe(200);
    expect(await calendar.text()).toContain('BEGIN:VCALENDAR');
    // The share prompt links to the course page.
    await page.getByRole('heading', { name: 'Share with your network' }).waitFor();
    await page.getByRole('link', { name: 'I just booked Beginners Wheel Throwing Taster with Clay & Kiln Pottery Studio!' }).waitFor();

    // This page load resumed the checkout: no second begin_checkout, and purchase once.
    await expect.poll(() => gaEvents(page), POLL).toEqual(['purchase']);

    const bookingId = reference.replace('Booking reference: ', '');
    const booking = await db.selectFrom('bookings').selectAll().where('id', '=', bookingId).executeTakeFirstOrThrow();
    expect(booking.payment_state).toBe('paid');
    expect(booking.payment_method).toBe('card');
    expect(Number(booking.total_cost)).toBe(4500);
    const contact = booking.contact_details as { booker?: { isAttending?: boolean }; attendees?: { formResponse: Record<string, unknown> }[] };
    expect(contact.booker?.isAttending).toBe(false);
    expect(contact.attendees?.[0].formResponse.system_first_name).toBe('Joan');
    await context.close();
  });

  it('orders an on-demand course paid by invoice, then opens "Pay Invoice"', async () => {
    const email = await makeUser('order');
    const { page, context } = await checkoutPage(email);
    await page.goto(url('/checkout?flow=order&course=crs_0002_02'));
    await heading(page, 'Offers').waitFor();
    await page.locator('.checkout-summary').getByText('On-demand online course').waitFor();
    await cont(page);
    await heading(page, 'Contact Info').waitFor();
    await page.getByLabel('Coding experience').selectOption({ index: 1 });
    await termsBox(page).check();
    await cont(page);
    await heading(page, 'Payment').waitFor();
    // CodeForge takes invoices only: the one method is chosen at once.
    await expect.poll(() => page.getByRole('radio', { name: 'Invoice' }).isChecked(), POLL).toBe(true);
    await page.getByText(/^This invoice will be due by \d{1,2} \w+ \d{4}\.$/).waitFor();
    await page.getByRole('button', { name: 'Pay by Invoice' }).click();
    const banner = page.locator('.checkout-error');
    await banner.getByRole('link', { name: 'Billing Address: is required' }).waitFor();
    await page.getByLabel('Business or Billing Name').fill('Acme Analytics Ltd');
    await page.getByLabel('Your Tax / VAT number').fill('GB123456789');
    await page.getByLabel('Additional billing instructions / PO number').fill('PO-7');
    await page.getByLabel('Billing Address').fill('1 Canal Street\nManchester M1 3HE');
    await page.getByRole('button', { name: 'Pay by Invoice' }).click();

    await heading(page, 'Order Confirmed').waitFor();
    const reference = (await page.locator('.confirmation__reference').textContent())!;
    expect(reference).toMatch(/^Order reference: ORD-/);
    await expect(page.getByRole('link', { name: 'Access Course' }).getAttribute('href')).resolves.toBe(`/codeforge-academy/python-for-data-analysis-self-paced/details?orderId=${reference.replace('Order reference: ', '')}`);
    await page.getByRole('link', { name: 'Download Invoice' }).waitFor();
    // CodeForge hides the social prompts.
    await expect(page.getByRole('heading', { name: 'Share with your network' }).count()).resolves.toBe(0);
    const orderId = reference.replace('Order reference: ', '');
    await page.getByRole('link', { name: 'Pay Invoice' }).click();
    await page.waitForURL(`**/complete-order/${orderId}`);
    await page.getByRole('heading', { name: 'Pay Invoice', level: 1 }).waitFor();
    await page.getByText('Acme Analytics Ltd').waitFor();
    const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(order.payment_method).toBe('invoice');
    expect(order.payment_state).toBe('unpaid');
    await context.close();
  });

  it('books with in-person payment and shows the approval outcome', async () => {
    const email = await makeUser('manual');
    const { page, context } = await checkoutPage(email);
    await page.goto(url('/checkout?flow=booking&course=crs_0003_05'));
    await pickFirstDate(page);
    await cont(page);
    await heading(page, 'Contact Info').waitFor();
    // hide_marketing_consent: no consent box; hide_terms only applies off the marketplace.
    await expect(page.getByRole('checkbox', { name: /occasional/ }).count()).resolves.toBe(0);
    await termsBox(page).check();
    await cont(page);
    await heading(page, 'Payment').waitFor();
    await page.getByRole('radio', { name: 'Pay on the day (cash or card)' }).check();
    await page.getByText('Pay your trainer at registration. We accept cash and contactless card.').waitFor();
    await page.getByRole('button', { name: 'Confirm Payment' }).click();
    await heading(page, 'Your Booking is Awaiting Approval').waitFor();
    const reference = (await page.locator('.confirmation__reference').textContent())!;
    const booking = await db.selectFrom('bookings').selectAll().where('id', '=', reference.replace('Booking reference: ', '')).executeTakeFirstOrThrow();
    expect(booking.status).toBe('awaiting-approval');
    expect(booking.payment_method).toBe('manual');
    await context.close();
  });

  it('requests a calendar-based private party and pays with the redirect (3-D Secure) card', async () => {
    const email = await makeUser('party');
    const { page, context } = await checkoutPage(email);
    await page.goto(url('/checkout?flow=request&course=crs_0001_07'));
    await heading(page, 'Delivery options').waitFor();
    await page.getByRole('radio', { name: /^3 Hours/ }).check();
    await page.getByText('+ £40').waitFor();
    await page.getByLabel('Select a location').selectOption({ index: 2 });
    await cont(page);
    await heading(page, 'Select a Date & Time').waitFor();
    await page.getByText('Select a Date', { exact: true }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Previous month' }).isDisabled(), POLL).toBe(true);
    await expect.poll(() => page.locator('.checkout-summary__continue').isDisabled(), POLL).toBe(true);
    await pickCalendarSlot(page);
    await cont(page);
    await heading(page, 'Message').waitFor();
    await page.getByLabel('Write a message for Clay & Kiln Pottery Studio').fill('A birthday party for six.');
    await cont(page);
    await heading(page, 'Contact Info').waitFor();
    await fillClayForm(page);
    await termsBox(page).check();
    await cont(page);
    await heading(page, 'Payment').waitFor();
    await payByCard(page, '4000002500003155');
    // The provider's page sends the browser back with payment_intent_client_secret and redirect_status.
    await heading(page, 'Booking Confirmed').waitFor();
    expect(new URL(page.url()).searchParams.has('redirect_status')).toBe(false);
    const reference = (await page.locator('.confirmation__reference').textContent())!;
    const booking = await db.selectFrom('bookings').selectAll().where('id', '=', reference.replace('Booking reference: ', '')).executeTakeFirstOrThrow();
    expect(booking.payment_state).toBe('paid');
    expect(booking.occurrence_id).toBeNull();
    expect(Number(booking.end_datetime) - Number(booking.start_datetime)).toBe(180 * 60);
    await context.close();
  });

  it('requests in-company training by preferred dates, logging in half way', async () => {
    const email = await makeUser('company');
    const { page, context } = await checkoutPage();
    await page.goto(url('/checkout?flow=request&course=crs_0005_04'));
    await heading(page, 'Delivery options').waitFor();
    await page.getByRole('radio', { name: 'In-person • I will host Lingua Franca Language School' }).check();
    await page.getByLabel('Enter your address').fill('Acme Ltd, 1 Canal Street, Glasgow');
    await page.getByRole('radio', { name: /Half-day intensive/ }).check();
    await cont(page);
    await heading(page, 'Preferred Dates').waitFor();
    await expect(page.getByRole('button', { name: 'Remove First choice' }).isDisabled()).resolves.toBe(true);
    await page.getByLabel('First choice', { exact: true }).fill(isoDay(20));
    await page.getByRole('button', { name: 'Add Second Choice' }).click();
    await page.getByLabel('Second choice', { exact: true }).fill(isoDay(21));
    await page.getByRole('button', { name: 'Add Third Choice' }).click();
    await expect(page.getByRole('button', { name: /Add .* Choice/ }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Remove Third choice' }).click();
    await cont(page);
    await heading(page, 'Message').waitFor();
    await cont(page);
    await heading(page, 'Log in or Sign Up').waitFor();
    const href = await page.getByRole('link', { name: 'Log in or Sign Up' }).getAttribute('href');
    await logIn(context, email);
    expect(href).toContain('/login?redirect=');
    await page.reload();
    await heading(page, 'Contact Info').waitFor();
    await termsBox(page).check();
    await cont(page);
    await heading(page, 'Request Sent').waitFor();
    await page.getByText('Your request has been sent to Lingua Franca Language School').waitFor();
    const reference = (await page.locator('.confirmation__reference').textContent())!;
    expect(reference).toMatch(/^Request reference: REQ-/);
    const request = await db.selectFrom('booking_requests').selectAll().where('id', '=', reference.replace('Request reference: ', '')).executeTakeFirstOrThrow();
    expect((request.details as { dates?: { preferredDates?: string[] } }).dates?.preferredDates).toEqual([isoDay(20), isoDay(21)]);
    await context.close();
  });

  it('sends a date request, a group request and an application', async () => {
    const email = await makeUser('groups');
    const { page, context } = await checkoutPage(email);
    for (const flow of ['dateBookingRequest', 'groupBookingRequest'] as const) {
      await page.goto(url(`/checkout?flow=${flow}&course=crs_0001_05`));
      await heading(page, 'Dates').waitFor();
      await page.getByLabel('First choice', { exact: true }).fill(isoDay(45));
      await page.getByRole('button', { name: 'Add one to basket' }).first().click();
      await cont(page);
      await heading(page, 'Message').waitFor();
      await page.getByLabel('Write a message for Clay & Kiln Pottery Studio').fill(`${flow}: a team of twelve`);
      await cont(page);
      await heading(page, 'Contact Info').waitFor();
      await fillClayForm(page);
      await termsBox(page).check();
      await cont(page);
      await heading(page, 'Request Sent').waitFor();
      await page.getByText('Clay & Kiln Pottery Studio will be in touch soon').waitFor();
      await page.getByText(/^Request reference: REQ-/).waitFor();
    }
    await page.goto(url('/checkout?flow=bookingApplication&course=crs_0001_05'));
    await pickFirstDate(page);
    await cont(page);
    await heading(page, 'Contact Info').waitFor();
    await fillClayForm(page);
    await termsBox(page).check();
    await cont(page);
    await heading(page, 'Application Sent').waitFor();
    const reference = (await page.locator('.confirmation__reference').textContent())!;
    expect(reference).toMatch(/^Application reference: APP-/);
    await db.selectFrom('booking_applications').select('id').where('id', '=', reference.replace('Application reference: ', '')).executeTakeFirstOrThrow();
    await context.close();
  });

  it('pays with the wallet provider (cancelling once) and with the pay-later provider', async () => {
    const email = await makeUser('wallet');
    const { page, context } = await checkoutPage(email);
    for (const method of ['PayPal', 'Klarna'] as const) {
      await page.goto(url('/checkout?flow=booking&course=crs_0005_01'));
      await pickFirstDate(page);
      await cont(page);
      await heading(page, 'Contact Info').waitFor();
      await termsBox(page).check();
      await cont(page);
      await heading(page, 'Payment').waitFor();
      // Lingua Franca offers every method.
      await expect.poll(async () => (await page.locator('.payment-method .radio-option span').allTextContents()), POLL)
        .toEqual(['Card', 'PayPal', 'Klarna', 'Invoice', 'Pay at reception']);
      await page.getByRole('radio', { name: method }).check();
      if (method === 'PayPal') {
        await page.getByRole('button', { name: 'Pay with PayPal' }).click();
        // Cancelling re-enables the form.
        await page.getByRole('button', { name: 'Cancel' }).click();
        await expect.poll(() => page.getByRole('button', { name: 'Pay with PayPal' }).isEnabled(), POLL).toBe(true);
        await page.getByRole('button', { name: 'Pay with PayPal' }).click();
        await page.getByRole('button', { name: 'Approve' }).click();
      } else {
        // The pay-later provider's pages (the test provider's redirect) bring the learner back.
        await page.locator('#payment-klarna').getByRole('button', { name: 'Continue' }).click();
      }
      await heading(page, 'Booking Confirmed').waitFor();
      const reference = (await page.locator('.confirmation__reference').textContent())!;
      const booking = await db.selectFrom('bookings').selectAll().where('id', '=', reference.replace('Booking reference: ', '')).executeTakeFirstOrThrow();
      expect(booking.payment_method).toBe(method === 'PayPal' ? 'paypal' : 'klarna');
      expect(booking.payment_state).toBe('paid');
    }
    await context.close();
  });

  it('books on the educator\'s minisite, logging in on the main site and coming back', async () => {
    const email = await makeUser('minisite');
    const { page, context } = await checkoutPage();
    const { minisiteUrl } = await import('./harness.ts');
    await page.goto(minisiteUrl('clay-and-kiln-pottery', '/checkout?flow=booking&course=crs_0001_05'));
    await pickFirstDate(page);
    const checkoutId = checkoutIdOf(page);
    await cont(page);
    await heading(page, 'Log in or Sign Up').waitFor();
    const href = new URL((await page.getByRole('link', { name: 'Log in or Sign Up' }).getAttribute('href'))!);
    expect(href.origin).toBe(baseUrl());
    expect(href.searchParams.get('educator')).toBe('edu_0001');
    await page.getByRole('link', { name: 'Log in or Sign Up' }).click();
    await page.locator('html[data-login-ready]').waitFor({ state: 'attached' });
    await page.getByRole('tab', { name: 'Log in' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await heading(page, 'Contact Info').waitFor();
    expect(new URL(page.url()).host).toBe(new URL(minisiteUrl('clay-and-kiln-pottery')).host);
    expect(checkoutIdOf(page)).toBe(checkoutId);
    // Off the marketplace the consent label names the educator.
    await page.getByRole('checkbox', { name: "I'm happy to receive occasional emails from Clay & Kiln Pottery Studio." }).check();
    await fillClayForm(page);
    await termsBox(page).check();
    await cont(page);
    await heading(page, 'Payment').waitFor();
    await payByCard(page, '4242424242424242');
    await heading(page, 'Booking Confirmed').waitFor();
    const reference = (await page.locator('.confirmation__reference').textContent())!;
    const booking = await db.selectFrom('bookings').selectAll().where('id', '=', reference.replace('Booking reference: ', '')).executeTakeFirstOrThrow();
    expect(booking.origin).toBe('landing_page');
    expect((booking.contact_details as { marketingConsent?: boolean }).marketingConsent).toBe(true);
    await context.close();
  });

  it('books a free class without a Payment step or a receipt', async () => {
    const email = await makeUser('free');
    const { page, context } = await checkoutPage(email);
    await page.goto(url('/checkout?flow=booking&course=crs_0004_01'));
    // Twelve dates: 10 per page.
    await heading(page, 'Select Date').waitFor();
    await expect.poll(() => page.locator('.date-option').count(), POLL).toBe(10);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect.poll(() => page.locator('.date-option').count(), POLL).toBe(2);
    await page.getByRole('button', { name: 'Previous', exact: true }).click();
    await pickFirstDate(page);
    await expect(page.locator('.checkout-breadcrumb li').allTextContents()).resolves.toEqual(['1. Date', '2. Spaces', '3. Contact Info', '4. Confirmation']);
    // No offer costs money: no promo code box.
    await expect(page.getByLabel('Apply promo code or gift card').count()).resolves.toBe(0);
    await cont(page);
    await heading(page, 'Contact Info').waitFor();
    await termsBox(page).check();
    await cont(page);
    await heading(page, 'Booking Confirmed').waitFor();
    await expect(page.getByRole('link', { name: /Download (Invoice|Receipt)/ }).count()).resolves.toBe(0);
    await page.getByRole('link', { name: 'Add to Calendar' }).waitFor();
    await context.close();
  });

  it('applies a promo code and hides prices with hide_pricing off the marketplace', async () => {
    const { page, context } = await checkoutPage();
    await page.goto(url('/checkout?flow=booking&course=crs_0001_01'));
    await pickFirstDate(page);
    const promo = page.getByLabel('Apply promo code or gift card');
    await promo.fill('SPRING20');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Invalid Voucher This code has expired.').waitFor();
    await promo.fill('WELCOME10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Voucher applied successfully!').waitFor();
    await page.locator('.checkout-summary').getByText('-£4.50').waitFor();
    // Stillwater hides prices, except on the marketplace origin.
    await page.goto(url('/checkout?flow=booking&course=crs_0004_03'));
    await pickFirstDate(page);
    await page.locator('.checkout-summary__total').waitFor();
    const { minisiteUrl } = await import('./harness.ts');
    await page.goto(minisiteUrl('stillwater-yoga', '/checkout?flow=booking&course=crs_0004_03'));
    await pickFirstDate(page);
    // The offers and the summary render from the same state: once both are there, prices would be too.
    await page.locator('.qty-row').first().waitFor();
    await page.locator('.checkout-summary').first().waitFor();
    await expect(page.locator('.checkout-summary__total').count()).resolves.toBe(0);
    await expect(page.locator('.qty-row__price').count()).resolves.toBe(0);
    await context.close();
  });
});
