/**
 * Each of the six flows from initialise to outcome, through HTTP only, with the built-in test provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import {
  ADDONS, CARDS, DAY, IDS, OFFERS, client, contactPayload, payWithCard, seedCheckoutCatalogue, booker, type Client,
} from './checkout-fixtures.ts';
import { addCalendarDays, localDate, zonedWallClock } from '../../src/domain/zone.ts';
import { loadBookingView, loadOrderView } from '../../db/queries/bookings.ts';
import { educatorOutcomeEmail, learnerOutcomeEmail } from '../../api/documents/emails.ts';

let server: TestServer;
let now: number;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_LOGIN_PER_IP: '100000', LOG_LEVEL: 'silent' });
  now = Math.floor(Date.now() / 1000);
  await seedCheckoutCatalogue(server.db, now);
});
afterAll(async () => server?.close());

async function learner(): Promise<{ api: Client; email: string; userId: string }> {
  const { cookie, user } = await signUpAndLogin(server);
  return { api: client(server, cookie), email: user.email, userId: user.id };
}

async function occurrenceSpaces(id: string): Promise<number> {
  const row = await server.db.selectFrom('occurrences').select('available_spaces').where('id', '=', id).executeTakeFirstOrThrow();
  return Number(row.available_spaces);
}

/**
 * The completing transaction writes an outcome's e-mails from the rows it has in hand: they must be the e-mails a
 * full read of the booking or order gives once it is committed (the learner's and the educator's, word for word).
 */
async function expectMailsAsTheTablesTellThem(kind: 'booking' | 'order', id: string, title: string): Promise<void> {
  const view = kind === 'booking' ? await loadBookingView(server.db, id) : await loadOrderView(server.db, id);
  expect(view).not.toBeNull();
  const expected = [learnerOutcomeEmail(view!, title, server.config), educatorOutcomeEmail(view!)].filter((m) => m !== null);
  expect(expected).toHaveLength(2);
  for (const mail of expected) {
    const stored = await server.db.selectFrom('outbox_messages').selectAll().where('to_address', '=', mail.to).where('subject', '=', mail.subject).execute();
    expect(stored, mail.subject).toHaveLength(1);
    expect(stored[0]).toMatchObject({ text_body: mail.text, html_body: mail.html ?? null });
    // Attachments are stored with their content in base64.
    const raw = stored[0]!.attachments;
    const attachments = ((typeof raw === 'string' ? JSON.parse(raw) : raw) ?? []) as { filename: string; contentType: string; base64: string }[];
    expect(attachments.map(({ base64, ...a }) => ({ ...a, content: Buffer.from(base64, 'base64').toString('utf8') }))).toEqual(mail.attachments ?? []);
  }
}

/** A calendar slot two days ahead at 11:00 London time (opening hours start at 09:00; 2-hour and 30-minute slots). */
function tomorrowAtTen(daysAhead = 2): string {
  return new Date(zonedWallClock(addCalendarDays(localDate(now), daysAhead), 11 * 3600) * 1000).toISOString();
}

describe('booking flow', () => {
  it('goes Date → Spaces → login → Contact Info → Payment → Confirmation and records a paid, confirmed booking', async () => {
    const anonymous = client(server);
    let res = await anonymous.initialise('booking', { courseId: IDS.classCourse });
    expect(res.status).toBe(201);
    const id = res.body._id;
    expect(res.body).toMatchObject({ flow: 'booking', origin: 'marketplace', currentStep: 'date', courseId: IDS.classCourse, educatorId: IDS.educator });
    expect(res.body.steps).toEqual(['date', 'spaces', 'login', 'contactDetails', 'payment', 'confirmation']);
    expect(res.body.utms).toEqual({ utm_source: 'test' });

    const opened = res.body.version as number;
    expect(opened).toBe(1);
    res = await anonymous.submit(id, 'occurrence picked', { occurrence_id: IDS.classOcc });
    expect(res.status).toBe(200);
    expect(res.body.currentStep).toBe('spaces');
    // Every saved change moves the version the answers carry (the page keeps the later of two answers); a GET
    // changes nothing and answers the same version.
    expect(res.body.version).toBeGreaterThan(opened);
    expect((await anonymous.get(`/checkout/${id}`)).body.version).toBe(res.body.version);
    expect(res.body.stepState.date).toMatchObject({ status: 'complete', state: { selectedDate: { _id: IDS.classOcc } } });
    expect(res.body.defaults.price.offers).toEqual([{ offerId: OFFERS.standard, quantity: 1 }]);

    res = await anonymous.submit(id, 'pricing options picked', {
      selectedOffers: [{ offerId: OFFERS.standard, quantity: 2 }], selectedAddons: [{ addonId: ADDONS.apron, quantity: 1 }], appliedPromoCode: 'FIVER',
    });
    expect(res.status).toBe(200);
    expect(res.body.currentStep).toBe('login');
    expect(res.body.stepState.price.state).toMatchObject({ spacesRequested: 2, voucherId: 'vch_fiver' });
    // 2 × £30 + £5 − £5 = £60; fees absorbed by default.
    expect(res.body.costSummary).toMatchObject({ subtotal: 6500, total_cost: 6000, fees_absorbed: true });

    // Contact details while signed out: "Unknown user".
    res = await anonymous.submit(id, 'contact details filled', contactPayload('x@example.com'));
    expect(res.status).toBe(401);
    expect(res.body.title).toBe('Unknown user');

    const { api, email } = await learner();
    res = await api.get(`/checkout/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.currentStep).toBe('contactDetails');
    expect(res.body.steps).toEqual(['date', 'spaces', 'contactDetails', 'payment', 'confirmation']);

    const before = await occurrenceSpaces(IDS.classOcc);
    res = await api.submit(id, 'contact details filled', contactPayload(email, { bookerFormResponse: booker(email, { phone: '07700 900123' }), marketingConsent: true }));
    expect(res.status).toBe(200);
    expect(res.body.currentStep).toBe('payment');
    expect(res.body.totalCost).toBe(6000);
    expect(res.body.hold).toMatchObject({ spaces: 2, status: 'held' });
    expect(await occurrenceSpaces(IDS.classOcc)).toBe(before - 2);

    res = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    expect(res.status).toBe(200);
    const payment = res.body.stepState.payment.state;
    expect(payment).toMatchObject({ paymentMethod: 'card', paymentStatus: 'requires_payment_method' });
    expect(payment.clientSecret).toMatch(/_secret_/);

    // The browser's word alone is not enough: the provider says the payment has not succeeded.
    res = await api.submit(id, 'payment was successful', {});
    expect(res.status).toBe(500);
    expect(res.body.detail).toBe('An error occurred while processing your payment. Please try again.');

    const declined = await payWithCard(server, res.status === 500 ? (await api.get(`/checkout/${id}`)).body : res.body, CARDS.declined);
    expect(declined.status).toBe(400);
    expect(declined.body.detail).toBe('Your card was declined.');
    res = await api.submit(id, 'payment was successful', {});
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('Your card was declined.');

    const state = (await api.get(`/checkout/${id}`)).body;
    // Only the browser holding the client secret confirms the payment.
    const stranger = await payWithCard(server, { stepState: { payment: { state: { ...state.stepState.payment.state, clientSecret: 'tpi_other_secret_x' } } } }, CARDS.success);
    expect(stranger.status).toBe(404);
    expect((await api.submit(id, 'payment was successful', {})).body.detail).toBe('Your card was declined.');
    const paid = await payWithCard(server, state, CARDS.success);
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe('succeeded');
    res = await api.submit(id, 'payment was successful', {});
    expect(res.status).toBe(200);
    expect(res.body.currentStep).toBe('confirmation');
    expect(res.body.status).toBe('completed');
    expect(res.body.bookingId).toMatch(/^BKG-/);
    expect(res.body.outcome).toMatchObject({ kind: 'booking', title: 'Booking Confirmed', status: 'confirmed', paymentState: 'paid', totalCost: 6000 });

    // Confirming again records nothing more.
    const again = await api.submit(id, 'payment was successful', {});
    expect(again.status).toBe(200);
    expect(again.body.bookingId).toBe(res.body.bookingId);
    const bookings = await server.db.selectFrom('bookings').selectAll().where('checkout_id', '=', id).execute();
    expect(bookings).toHaveLength(1);
    expect(bookings[0]).toMatchObject({ status: 'confirmed', payment_state: 'paid', total_cost: 6000, spaces: 2, occurrence_id: IDS.classOcc });
    const charged = await server.db.selectFrom('test_payments').selectAll().where('id', '=', payment.paymentId).executeTakeFirstOrThrow();
    expect(Number(charged.amount)).toBe(6000);
    expect(await occurrenceSpaces(IDS.classOcc)).toBe(before - 2);
    const voucher = await server.db.selectFrom('vouchers').select('uses').where('id', '=', 'vch_fiver').executeTakeFirstOrThrow();
    expect(Number(voucher.uses)).toBe(1);

    // Mail: the learner and the educator.
    const mails = await server.db.selectFrom('outbox_messages').selectAll().execute();
    expect(mails.some((m) => m.to_address === email.toLowerCase())).toBe(true);
    expect(mails.some((m) => m.to_address === 'clay-studio@example.com')).toBe(true);
    await expectMailsAsTheTablesTellThem('booking', res.body.bookingId, res.body.outcome.title);

    // Links: calendar file and receipt, and /profile's list.
    const ical = await fetch(`${server.url}${res.body.outcome.links.ical}`);
    expect(ical.status).toBe(200);
    expect(ical.headers.get('content-type')).toContain('text/calendar');
    expect(await ical.text()).toContain('BEGIN:VEVENT');
    const pdf = await fetch(`${server.url}${res.body.outcome.links.invoice}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const forged = await fetch(`${server.url}/api/bookings/${res.body.bookingId}/ical?token=nope`);
    expect(forged.status).toBe(404);
    const mine = await api.get('/bookings/mine');
    expect(mine.body.bookings.map((b: { reference: string }) => b.reference)).toContain(res.body.bookingId);
  });

  it('completes with a 3-D Secure redirect, verified with the provider', async () => {
    const { api, email } = await learner();
    let res = await api.initialise('booking', { courseId: IDS.classCourse, occurrenceId: IDS.classOcc });
    expect(res.body.currentStep).toBe('spaces');
    const id = res.body._id;
    res = await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.standard, quantity: 1 }], selectedAddons: [] });
    expect(res.body.currentStep).toBe('contactDetails');
    await api.submit(id, 'contact details filled', contactPayload(email, { bookerFormResponse: booker(email, { phone: '07700900123' }) }));
    res = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    const confirm = await payWithCard(server, res.body, CARDS.threeDS);
    expect(confirm.body.status).toBe('requires_action');
    // Returning with the wrong client secret (or before authorising) is a failed redirect.
    res = await api.submit(id, 'payment was successful', { payment_intent_client_secret: 'wrong', redirect_status: 'succeeded' });
    expect(res.status).toBe(500);
    expect(res.body.detail).toBe('An error occurred while processing your payment. Please try again.');
    const redirect = confirm.body.next_action.redirect_to_url.url as string;
    expect(redirect).toContain('/api/test-payments/');
    const auth = await fetch(redirect, { redirect: 'manual' });
    expect(auth.status).toBe(302);
    const back = new URL(auth.headers.get('location')!, server.url);
    expect(back.pathname).toBe('/checkout/return');
    expect(back.searchParams.get('redirect_status')).toBe('succeeded');
    res = await api.submit(id, 'payment was successful', {
      payment_intent_client_secret: back.searchParams.get('payment_intent_client_secret')!, redirect_status: back.searchParams.get('redirect_status')!,
    });
    expect(res.status).toBe(200);
    expect(res.body.bookingId).toMatch(/^BKG-/);
  });

  it('a failed 3-D Secure step is the failed-redirect problem, and the learner can pay again', async () => {
    const { api, email } = await learner();
    let res = await api.initialise('booking', { courseId: IDS.classCourse, occurrenceId: IDS.classOcc });
    const id = res.body._id;
    await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.standard, quantity: 1 }] });
    await api.submit(id, 'contact details filled', contactPayload(email, { bookerFormResponse: booker(email, { phone: '07700900123' }) }));
    res = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    const confirm = await payWithCard(server, res.body, CARDS.threeDS);
    const auth = await fetch(`${confirm.body.next_action.redirect_to_url.url}?result=fail`, { redirect: 'manual' });
    const back = new URL(auth.headers.get('location')!, server.url);
    expect(back.searchParams.get('redirect_status')).toBe('failed');
    res = await api.submit(id, 'payment was successful', {
      payment_intent_client_secret: back.searchParams.get('payment_intent_client_secret')!, redirect_status: 'failed',
    });
    expect(res.status).toBe(500);
    expect(res.body.detail).toBe('An error occurred while processing your payment. Please try again.');
    const state = (await api.get(`/checkout/${id}`)).body;
    expect(state.currentStep).toBe('payment');
    await payWithCard(server, state, CARDS.success);
    res = await api.submit(id, 'payment was successful', {});
    expect(res.status).toBe(200);
    expect(res.body.bookingId).toMatch(/^BKG-/);
  });

  it('confirms as unpaid by invoice, with its due date', async () => {
    const { api, email } = await learner();
    let res = await api.initialise('booking', { courseId: IDS.classCourse, occurrenceId: IDS.classOcc });
    const id = res.body._id;
    await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.standard, quantity: 1 }] });
    await api.submit(id, 'contact details filled', contactPayload(email, { bookerFormResponse: booker(email, { phone: '07700900123' }) }));
    res = await api.submit(id, 'invoice details added', { billing_name: '', billing_address: '' });
    expect(res.status).toBe(400);
    expect(res.body.properties.map((p: { key: string }) => p.key)).toEqual(['payload.billing_name', 'payload.billing_address']);
    res = await api.submit(id, 'invoice details added', { billing_name: 'Acme Ltd', billing_address: '1 Road, Bristol', vat_number: 'GB123' });
    expect(res.status).toBe(200);
    expect(res.body.outcome).toMatchObject({ paymentMethod: 'invoice', paymentState: 'unpaid' });
    expect(res.body.outcome.dueDate).toBeGreaterThanOrEqual(now + 14 * DAY);
    expect(res.body.outcome.links.payInvoice).toBe(`/complete-booking/${res.body.bookingId}`);
    expect(res.body.stepState.payment.state.invoiceDetails).toMatchObject({ billing_name: 'Acme Ltd', vat_number: 'GB123' });
  });

  it('confirms as unpaid for in-person payment, with the educator\u2019s note', async () => {
    const { api, email } = await learner();
    const res0 = await api.initialise('booking', { courseId: IDS.classCourse, occurrenceId: IDS.classOcc });
    const id = res0.body._id;
    await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.standard, quantity: 1 }] });
    await api.submit(id, 'contact details filled', contactPayload(email, { bookerFormResponse: booker(email, { phone: '07700900123' }) }));
    const res = await api.submit(id, 'manual payment confirmed', {});
    expect(res.status).toBe(200);
    expect(res.body.outcome).toMatchObject({ paymentMethod: 'manual', paymentState: 'unpaid', manualNote: 'Bring cash on the day.' });
  });

  it('drops Payment when nothing costs money, and awaits approval with approval_required', async () => {
    const { api, email } = await learner();
    let res = await api.initialise('booking', { courseId: IDS.freeCourse, occurrenceId: IDS.freeOcc });
    expect(res.body.steps).toEqual(['date', 'spaces', 'contactDetails', 'confirmation']);
    const id = res.body._id;
    await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.free, quantity: 1 }] });
    res = await api.submit(id, 'contact details filled', contactPayload(email));
    expect(res.status).toBe(200);
    expect(res.body.currentStep).toBe('confirmation');
    expect(res.body.outcome).toMatchObject({ kind: 'booking', paymentState: 'free', status: 'confirmed' });
    expect(await occurrenceSpaces(IDS.freeOcc)).toBe(2);

    const second = await learner();
    res = await second.api.initialise('booking', { courseId: IDS.guestsCourse, occurrenceId: IDS.guestsOcc });
    const gid = res.body._id;
    await second.api.submit(gid, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.guests, quantity: 2 }] });
    await second.api.submit(gid, 'contact details filled', contactPayload(second.email, {
      bookerIsAttending: true, attendeeFormResponses: [booker('friend@example.com', { system_first_name: 'Grace' })],
    }));
    res = await second.api.submit(gid, 'manual payment confirmed', {});
    expect(res.status).toBe(200);
    expect(res.body.outcome).toMatchObject({ title: 'Your Booking is Awaiting Approval', status: 'awaiting-approval' });
  });
});

describe('order flow', () => {
  it('goes Offers → Contact Info → Payment → Confirmation and records an order', async () => {
    const { api, email } = await learner();
    let res = await api.initialise('order', { courseId: IDS.onDemand });
    expect(res.status).toBe(201);
    expect(res.body.steps).toEqual(['offers', 'contactDetails', 'payment', 'confirmation']);
    const id = res.body._id;
    res = await api.submit(id, 'order pricing options picked', {
      selectedOffers: [{ offerId: OFFERS.onDemand, quantity: 1 }], selectedAddons: [{ addonId: ADDONS.notes, quantity: 1 }], appliedPromoCode: 'tenoff',
    });
    expect(res.status).toBe(200);
    expect(res.body.currentStep).toBe('contactDetails');
    // £20 + £8 = £28, 10% off = £25.20
    expect(res.body.costSummary.total_cost).toBe(2520);
    // capture_guests: booker attending, 1 space → no attendee forms.
    res = await api.submit(id, 'order contact details filled', contactPayload(email));
    expect(res.status).toBe(200);
    expect(res.body.currentStep).toBe('payment');
    // The wallet provider (the test wallet without PayPal keys): the order is approved in the browser and
    // captured by the server when the learner comes back (spec 4: success only when the capture is COMPLETED).
    res = await api.submit(id, 'payment method selected', { paymentMethod: 'paypal' });
    expect(res.status).toBe(200);
    expect(res.body.stepState.payment.state.paypalOrderId).toBeTruthy();
    res = await api.submit(id, 'payment was successful', {});
    expect(res.status).toBe(200);
    expect(res.body.orderId).toMatch(/^ORD-/);
    expect(res.body.outcome).toMatchObject({ kind: 'order', title: 'Order Confirmed', paymentState: 'paid', totalCost: 2520 });
    await expectMailsAsTheTablesTellThem('order', res.body.orderId, res.body.outcome.title);
    const pdf = await fetch(`${server.url}${res.body.outcome.links.invoice}`);
    expect(pdf.status).toBe(200);
  });

  it('refuses the order contact action name in the booking flow and vice versa', async () => {
    const { api, email } = await learner();
    const res0 = await api.initialise('order', { courseId: IDS.onDemand });
    const id = res0.body._id;
    await api.submit(id, 'order pricing options picked', { selectedOffers: [{ offerId: OFFERS.onDemand, quantity: 1 }] });
    const res = await api.submit(id, 'contact details filled', contactPayload(email));
    expect(res.status).toBe(400);
    expect(res.body.title).toBe('There was an issue submitting your response, check if there are any required fields that you have missed');
  });
});

describe('request flow', () => {
  it('calendar-based, priced: instant booking with payment', async () => {
    const { api, email } = await learner();
    let res = await api.initialise('request', { courseId: IDS.requestCal });
    expect(res.status).toBe(201);
    expect(res.body.steps).toEqual(['delivery', 'dates', 'message', 'contactDetails', 'confirmation']);
    expect(res.body.defaults.delivery).toMatchObject({ selectedDurationId: 'dur_60', delivery: { type: 'Online' }, pricing: { type: 'offers', offers: { [OFFERS.requestCal]: 1 } } });
    const id = res.body._id;
    res = await api.submit(id, 'request delivery configured', {
      selectedDurationId: 'dur_120', delivery: { type: 'Online' }, pricing: { type: 'offers', offers: { [OFFERS.requestCal]: 2 }, addOns: {} },
    });
    expect(res.status).toBe(200);
    expect(res.body.currentStep).toBe('dates');
    expect(res.body.stepState.delivery.state).toMatchObject({ requestedSpaces: 2, payableCost: 10000 });
    expect(res.body.rules).toMatchObject({ calendarBased: true, instantBooking: true, paymentRequired: true });
    expect(res.body.steps).toEqual(['delivery', 'dates', 'message', 'contactDetails', 'payment', 'confirmation']);

    // Preferred dates are not the calendar's action.
    res = await api.submit(id, 'request preferred dates selected', { preferredDates: ['2030-01-01'] });
    expect(res.status).toBe(400);
    res = await api.submit(id, 'request available date selected', { availableDate: new Date((now - 3600) * 1000).toISOString() });
    expect(res.status).toBe(400);
    expect(res.body.properties[0]).toMatchObject({ key: 'payload.availableDate', message: 'must be in the future' });

    const slots = await api.get(`/courses/clay-studio/crs-req-cal/availability/slots?from=${encodeURIComponent(new Date(now * 1000).toISOString())}&to=${encodeURIComponent(new Date((now + 5 * DAY) * 1000).toISOString())}&duration=7200`);
    expect(slots.status).toBe(200);
    const slot = tomorrowAtTen();
    expect(slots.body.map((s: { from: string }) => s.from)).toContain(slot);

    res = await api.submit(id, 'request available date selected', { availableDate: slot });
    expect(res.status).toBe(200);
    expect(res.body.currentStep).toBe('message');
    res = await api.submit(id, 'request message filled', { message: 'See you then' });
    expect(res.body.currentStep).toBe('contactDetails');
    res = await api.submit(id, 'contact details filled', contactPayload(email));
    expect(res.body.currentStep).toBe('payment');
    expect(res.body.totalCost).toBe(10000);
    res = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    await payWithCard(server, res.body, CARDS.success);
    res = await api.submit(id, 'payment was successful', {});
    expect(res.status).toBe(200);
    expect(res.body.bookingId).toMatch(/^BKG-/);
    expect(res.body.requestId).toBeNull();
    expect(res.body.outcome.title).toBe('Booking Confirmed');

    // The slot is taken now.
    const after = await api.get(`/courses/clay-studio/crs-req-cal/availability/slots?from=${encodeURIComponent(new Date(now * 1000).toISOString())}&to=${encodeURIComponent(new Date((now + 5 * DAY) * 1000).toISOString())}&duration=7200`);
    expect(after.body.map((s: { from: string }) => s.from)).not.toContain(slot);
  });

  it('calendar-based and free: instant booking without payment', async () => {
    const { api, email } = await learner();
    let res = await api.initialise('request', { courseId: IDS.requestFree });
    const id = res.body._id;
    res = await api.submit(id, 'request delivery configured', {});
    expect(res.status).toBe(200);
    expect(res.body.rules).toMatchObject({ instantBooking: true, paymentRequired: false });
    res = await api.submit(id, 'request available date selected', { availableDate: tomorrowAtTen(3) });
    expect(res.status).toBe(200);
    await api.submit(id, 'request message filled', { message: '' });
    res = await api.submit(id, 'contact details filled', contactPayload(email));
    expect(res.status).toBe(200);
    expect(res.body.currentStep).toBe('confirmation');
    expect(res.body.outcome).toMatchObject({ kind: 'booking', title: 'Booking Confirmed', paymentState: 'free' });
  });

  it('an instant booking of an approval-required course awaits approval and says so', async () => {
    await server.db.updateTable('courses').set({ approval_required: true }).where('id', '=', IDS.requestFree).execute();
    try {
      const { api, email } = await learner();
      let res = await api.initialise('request', { courseId: IDS.requestFree });
      const id = res.body._id;
      await api.submit(id, 'request delivery configured', {});
      res = await api.submit(id, 'request available date selected', { availableDate: tomorrowAtTen(4) });
      expect(res.status).toBe(200);
      await api.submit(id, 'request message filled', { message: '' });
      res = await api.submit(id, 'contact details filled', contactPayload(email));
      expect(res.body.outcome).toMatchObject({ kind: 'booking', title: 'Your Booking is Awaiting Approval', status: 'awaiting-approval' });
      // Without an occurrence the booking's page is the course's dates page (spec 2.4), not /profile.
      expect(res.body.outcome.links.manage).toBe(`/clay-studio/crs-req-free/dates?booking=${res.body.bookingId}`);
    } finally {
      await server.db.updateTable('courses').set({ approval_required: false }).where('id', '=', IDS.requestFree).execute();
    }
  });

  it('skipping available dates turns it into a request with preferred dates', async () => {
    const { api, email } = await learner();
    let res = await api.initialise('request', { courseId: IDS.requestCal });
    const id = res.body._id;
    await api.submit(id, 'request delivery configured', {});
    res = await api.submit(id, 'skip available dates', {});
    expect(res.status).toBe(200);
    expect(res.body.currentStep).toBe('dates');
    expect(res.body.rules).toMatchObject({ calendarBased: false, instantBooking: false, paymentRequired: false });
    expect(res.body.steps).not.toContain('payment');
    res = await api.submit(id, 'request preferred dates selected', { preferredDates: ['2099-03-01', '2099-03-08'] });
    expect(res.status).toBe(200);
    await api.submit(id, 'request message filled', { message: 'Weekends please' });
    res = await api.submit(id, 'contact details filled', contactPayload(email));
    expect(res.status).toBe(200);
    expect(res.body.requestId).toMatch(/^REQ-/);
    expect(res.body.outcome).toMatchObject({ kind: 'request', title: 'Request Sent' });
  });

  it('a long duration is not calendar-based; delivery defaults and validation', async () => {
    const { api } = await learner();
    let res = await api.initialise('request', { courseId: IDS.requestCal });
    const id = res.body._id;
    res = await api.submit(id, 'request delivery configured', { selectedDurationId: 'dur_2d' });
    expect(res.body.rules.calendarBased).toBe(false);

    res = await api.initialise('request', { courseId: IDS.requestPref });
    expect(res.body.defaults.delivery.delivery).toEqual({ type: 'Educator travels', address: '' });
    const pid = res.body._id;
    res = await api.submit(pid, 'request delivery configured', {});
    expect(res.status).toBe(400);
    expect(res.body.properties[0]).toMatchObject({ key: 'payload.delivery.address' });
    res = await api.submit(pid, 'request delivery configured', { delivery: { type: 'Online' } });
    expect(res.status).toBe(400);
    expect(res.body.properties[0]).toMatchObject({ key: 'payload.delivery.type' });
    res = await api.submit(pid, 'request delivery configured', { delivery: { type: 'Student travels', location_ref: '' }, pricing: { type: 'spaces', quantity: 3 } });
    expect(res.status).toBe(200);
    expect(res.body.stepState.delivery.state).toMatchObject({ delivery: { type: 'Student travels', location_ref: IDS.locA }, requestedSpaces: 3 });
    res = await api.submit(pid, 'request preferred dates selected', { preferredDates: [] });
    expect(res.status).toBe(400);
    res = await api.submit(pid, 'request preferred dates selected', { preferredDates: ['2099-01-01', '2099-01-02', '2099-01-03', '2099-01-04'] });
    expect(res.status).toBe(400);
    res = await api.submit(pid, 'request preferred dates selected', { preferredDates: ['2099-01-01', ''] });
    expect(res.status).toBe(400);
    expect(res.body.properties[0]).toMatchObject({ key: 'payload.preferredDates.1', name: 'Second choice' });
  });

  it('preferred dates are London calendar days: today is fine just after midnight BST, yesterday and impossible days are refused', async () => {
    const year = new Date().getUTCFullYear() + 1;
    // 00:30 BST on 2 July is 23:30 UTC on 1 July: in London it is already the 2nd.
    try {
      server.setNow(Date.UTC(year, 6, 1, 23, 30) / 1000);
      const { api } = await learner();
      const id = (await api.initialise('request', { courseId: IDS.requestPref })).body._id;
      let res = await api.submit(id, 'request delivery configured', { delivery: { type: 'Student travels', location_ref: '' }, pricing: { type: 'spaces', quantity: 1 } });
      expect(res.status).toBe(200);
      res = await api.submit(id, 'request preferred dates selected', { preferredDates: [`${year}-07-01`] });
      expect(res.status).toBe(400);
      expect(res.body.properties[0]).toMatchObject({ key: 'payload.preferredDates.0', name: 'First choice', message: 'must not be in the past' });
      res = await api.submit(id, 'request preferred dates selected', { preferredDates: [`${year}-02-30`] });
      expect(res.status).toBe(400);
      expect(res.body.properties[0]).toMatchObject({ key: 'payload.preferredDates.0', message: 'is not a valid date' });
      res = await api.submit(id, 'request preferred dates selected', { preferredDates: [`${year}-07-02`, `${year}-07-09`] });
      expect(res.status).toBe(200);
      expect(res.body.stepState.dates.state.preferredDates).toEqual([`${year}-07-02`, `${year}-07-09`]);
    } finally {
      server.setNow(null);
    }
  });
});

describe('date and group booking requests', () => {
  for (const [slug, flow] of [['date-booking-request', 'dateBookingRequest'], ['group-booking-request', 'groupBookingRequest']] as const) {
    it(`${flow}: Dates → Message → Contact Info → Confirmation`, async () => {
      const { api, email } = await learner();
      let res = await api.initialise(slug, { courseId: IDS.classCourse });
      expect(res.status).toBe(201);
      expect(res.body.flow).toBe(flow);
      expect(res.body.steps).toEqual(['dates', 'message', 'contactDetails', 'confirmation']);
      const id = res.body._id;
      await server.db.insertInto('offers').values({ id: `off_wide_${flow}`, course_id: IDS.classCourse, occurrence_id: null, position: 0, name: 'Group seat', description: null, price: 2500, spaces: 1, start_at: null, end_at: null }).execute();
      // Spec 4 "Defaults": the Dates step starts from the first course-wide offer on sale.
      expect((await api.get(`/checkout/${id}`)).body.defaults.price.offers).toEqual([{ offerId: `off_wide_${flow}`, quantity: 1 }]);
      res = await api.submit(id, 'dates and prices selected', { selectedDates: ['2099-05-01'], selectedOffers: [], selectedAddons: [] });
      expect(res.status).toBe(400);
      expect(res.body.properties[0]).toMatchObject({ key: 'payload.selectedOffers', message: 'must include at least one space' });
      res = await api.submit(id, 'dates and prices selected', { selectedDates: ['2099-05-01'], selectedOffers: [{ offerId: 'off_unknown', quantity: 1 }] });
      expect(res.status).toBe(400);
      expect(res.body.properties[0]).toMatchObject({ key: 'payload.selectedOffers.0.offerId' });
      res = await api.submit(id, 'dates and prices selected', { selectedDates: [], selectedOffers: [{ offerId: `off_wide_${flow}`, quantity: 1 }] });
      expect(res.status).toBe(400);
      expect(res.body.properties[0]).toMatchObject({ key: 'payload.selectedDates' });
      res = await api.submit(id, 'dates and prices selected', { selectedDates: ['2099-05-01', '2099-05-02'], selectedOffers: [{ offerId: `off_wide_${flow}`, quantity: 12 }] });
      expect(res.status).toBe(200);
      expect(res.body.stepState.dates.state).toMatchObject({ type: 'preferred dates', spacesRequested: 12 });
      res = await api.submit(id, 'message filled', { message: 'A team day' });
      expect(res.body.currentStep).toBe('contactDetails');
      res = await api.submit(id, 'contact details filled', contactPayload(email, { bookerFormResponse: booker(email, { phone: '07700900123' }) }));
      expect(res.status).toBe(200);
      expect(res.body.requestId).toMatch(/^REQ-/);
      expect(res.body.outcome).toMatchObject({ kind: 'request', title: 'Request Sent' });
      await server.db.deleteFrom('offers').where('id', '=', `off_wide_${flow}`).execute();
    });
  }
});

describe('booking application flow', () => {
  it('Date → Spaces → Contact Info → Confirmation records an application', async () => {
    const { api, email } = await learner();
    let res = await api.initialise('booking-application', { courseId: IDS.blendedCourse, occurrenceId: IDS.blendedOcc });
    expect(res.status).toBe(201);
    expect(res.body.flow).toBe('bookingApplication');
    expect(res.body.steps).toEqual(['date', 'spaces', 'contactDetails', 'confirmation']);
    expect(res.body.currentStep).toBe('spaces');
    const id = res.body._id;
    await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.blended, quantity: 1 }] });
    res = await api.submit(id, 'contact details filled', contactPayload(email));
    expect(res.status).toBe(200);
    expect(res.body.applicationId).toMatch(/^APP-/);
    expect(res.body.outcome).toMatchObject({ kind: 'application', title: 'Application Sent' });
    const mine = await api.get('/bookings/mine');
    expect(mine.body.applications).toHaveLength(1);
  });
});
