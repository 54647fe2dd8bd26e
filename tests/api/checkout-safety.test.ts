/**
 * Checkout defects and money-safety rules, through HTTP only: money that is not whole pence, vouchers and
 * spaces held by lapsed checkouts, the cap on a checkout's total hold time, resuming after logging out at
 * Payment, and terms recorded only when they were shown.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { logIn, signUpAndLogin, DEFAULT_PASSWORD } from '../helpers/auth.ts';
import { DAY, IDS, OFFERS, client, contactPayload, problemType, raceOccurrences, seedCheckoutCatalogue, type Client } from './checkout-fixtures.ts';

const HOLD = 900;
const HOLD_CAP = 1800;
let server: TestServer;
let now: number;
/** A fresh dated occurrence of the race course, so tests do not share spaces. */
let freshOccurrence: (spaces: number) => Promise<string>;

beforeAll(async () => {
  server = await startTestServer({
    RATE_LIMIT_LOGIN_PER_IP: '100000', LOG_LEVEL: 'silent', CHECKOUT_HOLD_SECONDS: String(HOLD), CHECKOUT_HOLD_MAX_SECONDS: String(HOLD_CAP),
  });
  now = Math.floor(Date.now() / 1000);
  await seedCheckoutCatalogue(server.db, now);
  freshOccurrence = raceOccurrences(server.db, 'occ_safety', () => now);
  await server.db.insertInto('vouchers').values([
    { id: 'vch_single', educator_id: IDS.educator, course_id: null, code: 'SINGLE', kind: 'percent', amount: 10, currency: 'GBP', expires_at: null, max_uses: 1, uses: 0, created_at: now - DAY },
  ]).execute();
});
afterAll(async () => server?.close());
beforeEach(() => server.setNow(now));


async function learner(): Promise<{ api: Client; email: string; cookie: string }> {
  const { cookie, user } = await signUpAndLogin(server);
  return { api: client(server, cookie), email: user.email, cookie };
}

/** A logged-in learner's booking checkout on Payment, holding `quantity` spaces (and a voucher when given). */
async function toPayment(api: Client, email: string, occurrenceId: string, quantity: number, promo?: string): Promise<string> {
  const init = await api.initialise('booking', { courseId: IDS.raceCourse, occurrenceId });
  expect(init.status).toBe(201);
  const id = init.body._id as string;
  const priced = await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.race, quantity }], ...(promo ? { appliedPromoCode: promo } : {}) });
  expect(priced.status).toBe(200);
  const contact = await api.submit(id, 'contact details filled', contactPayload(email));
  expect(contact.status).toBe(200);
  expect(contact.body.currentStep).toBe('payment');
  return id;
}

async function courseData(occurrenceId: string): Promise<number | null> {
  const res = await client(server).get(`/get-course-data-ids/${IDS.educator}/${IDS.raceCourse}`);
  expect(res.status).toBe(200);
  const occ = res.body.occurrences.find((o: { _id: string }) => o._id === occurrenceId);
  return occ ? occ.available_spaces : null;
}

describe('money that is not whole pence (spec 5)', () => {
  it('an extra costing 4500.5 is generic/invalid-currency, not a validation error', async () => {
    const res = await client(server).post('/custom/get-checkout-summary', {
      course_ref: IDS.requestCal, offers: [{ _id: OFFERS.requestCal, quantity: 1 }], extras: [{ label: '2 Hours', cost: 4500.5, quantity: 1 }],
    });
    expect(res.status).toBe(400);
    expect(problemType(res.body)).toBe('generic/invalid-currency');
    expect(res.body.title).toBe('Invalid Currency');
  });
});

describe('holds that lapsed give their spaces and voucher uses back at once', () => {
  it('course data shows the spaces of a lapsed hold without waiting for another checkout', async () => {
    const occ = await freshOccurrence(5);
    const { api, email } = await learner();
    await toPayment(api, email, occ, 2);
    expect(await courseData(occ)).toBe(3);
    server.setNow(now + HOLD + 1);
    expect(await courseData(occ)).toBe(5);
  });

  it('POST /vouchers/validate agrees with the checkout about a use held by a lapsed checkout', async () => {
    const occ = await freshOccurrence(5);
    const first = await learner();
    await toPayment(first.api, first.email, occ, 1, 'SINGLE');
    const body = { code: 'SINGLE', course_ref: IDS.raceCourse, educator_ref: IDS.educator, origin: 'marketplace' };
    // While the first checkout holds the only use, the code is used up.
    const held = await client(server).post('/vouchers/validate', body);
    expect(held.status).toBe(400);
    server.setNow(now + HOLD + 1);
    const validated = await client(server).post('/vouchers/validate', body);
    expect(validated.status).toBe(200);
    expect(validated.body.voucher_id).toBe('vch_single');
    // …and the checkout agrees.
    const second = await learner();
    const id = await toPayment(second.api, second.email, occ, 1, 'SINGLE');
    expect(id).toMatch(/^chk_/);
  });
});

describe('a checkout\u2019s total hold time is capped', () => {
  it('renewing the hold cannot keep the spaces past the cap; the learner is told, and the spaces come back', async () => {
    const occ = await freshOccurrence(3);
    const { api, email } = await learner();
    const id = await toPayment(api, email, occ, 3);
    expect(await courseData(occ)).toBe(0);
    // Renewals inside the cap move the expiry, but never past the cap.
    server.setNow(now + HOLD - 100);
    let res = await api.submit(id, 'payment method selected', { paymentMethod: 'invoice' });
    expect(res.status).toBe(200);
    expect(res.body.hold.expiresAt).toBe(now + HOLD - 100 + HOLD);
    server.setNow(now + HOLD_CAP - 100);
    res = await api.submit(id, 'payment method selected', { paymentMethod: 'invoice' });
    expect(res.status).toBe(200);
    expect(res.body.hold.expiresAt).toBe(now + HOLD_CAP);
    // Past the cap: no renewal, a clear message, and the spaces are free for others.
    server.setNow(now + HOLD_CAP + 1);
    res = await api.submit(id, 'payment method selected', { paymentMethod: 'invoice' });
    expect(res.status).toBe(409);
    expect(problemType(res.body)).toBe('checkout/hold-lapsed');
    expect(res.body.detail).toContain('30 minutes');
    expect(await courseData(occ)).toBe(3);
    expect((await api.get(`/checkout/${id}`)).body.status).toBe('abandoned');
    const other = await learner();
    await toPayment(other.api, other.email, occ, 3);
  });
});

describe('logging out at Payment and reopening the checkout (spec 2.14)', () => {
  it('shows the login step in place of Payment, then resumes at Payment after login with the hold kept', async () => {
    const occ = await freshOccurrence(4);
    const { api, email, cookie } = await learner();
    const id = await toPayment(api, email, occ, 2);
    expect(await courseData(occ)).toBe(2);
    // Logged out: the page reopens the same checkout id.
    await fetch(`${server.url}/api/auth/logout`, { method: 'POST', headers: { origin: server.url, cookie } });
    const anonymous = client(server);
    const reopened = await anonymous.initialise('booking', { checkoutId: id, courseId: IDS.raceCourse, occurrenceId: occ });
    expect(reopened.status).toBe(201);
    expect(reopened.body._id).toBe(id);
    expect(reopened.body.currentStep).toBe('payment');
    expect(reopened.body.loginRequired).toBe(true);
    // Nothing of the learner's is shown to whoever holds the link.
    expect(reopened.body.stepState).toEqual({});
    expect(reopened.body.outcome).toBeNull();
    // Submitting anything while logged out is refused; the hold stays.
    const refused = await anonymous.submit(id, 'payment method selected', { paymentMethod: 'invoice' });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(await courseData(occ)).toBe(2);
    // Logging in again resumes at Payment with the choices made.
    const again = client(server, await logIn(server, email, DEFAULT_PASSWORD));
    const resumed = await again.initialise('booking', { checkoutId: id, courseId: IDS.raceCourse, occurrenceId: occ });
    expect(resumed.body._id).toBe(id);
    expect(resumed.body.currentStep).toBe('payment');
    expect(resumed.body.loginRequired).toBe(false);
    expect(resumed.body.stepState.price.state.offers).toEqual([{ offerId: OFFERS.race, quantity: 2 }]);
    expect(resumed.body.hold).toMatchObject({ spaces: 2, status: 'held' });
    const paid = await again.submit(id, 'invoice details added', { billing_name: 'Ada', billing_address: '1 Lane' });
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe('completed');
  });

  it('another learner who has the link is not shown the checkout either', async () => {
    const occ = await freshOccurrence(4);
    const owner = await learner();
    const id = await toPayment(owner.api, owner.email, occ, 1);
    const stranger = await learner();
    const res = await stranger.api.initialise('booking', { checkoutId: id, courseId: IDS.raceCourse, occurrenceId: occ });
    expect(res.status).toBe(201);
    expect(res.body._id).not.toBe(id);
    expect(res.body.currentStep).toBe('spaces');
  });
});

describe('terms are recorded as accepted only when they were shown (spec 5)', () => {
  it('an educator with hide_terms, a client declaring the embed origin: the hidden terms are not recorded as accepted', async () => {
    const { api, email } = await learner();
    const init = await api.initialise('booking', { courseId: IDS.vatCourse, occurrenceId: IDS.vatOcc, origin: 'embed' });
    expect(init.body.rules.termsPreAccepted).toBe(true);
    const id = init.body._id as string;
    await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.vat, quantity: 1 }] });
    const res = await api.submit(id, 'contact details filled', contactPayload(email, { termsAccepted: true }));
    expect(res.status).toBe(200);
    expect(res.body.stepState.contactDetails.state).toMatchObject({ termsShown: false, termsAccepted: false });
  });

  it('on the marketplace the same educator\u2019s terms are shown and must be accepted', async () => {
    const { api, email } = await learner();
    const init = await api.initialise('booking', { courseId: IDS.vatCourse, occurrenceId: IDS.vatOcc, origin: 'marketplace' });
    const id = init.body._id as string;
    await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.vat, quantity: 1 }] });
    const refused = await api.submit(id, 'contact details filled', contactPayload(email, { termsAccepted: false }));
    expect(refused.status).toBe(400);
    const res = await api.submit(id, 'contact details filled', contactPayload(email, { termsAccepted: true }));
    expect(res.body.stepState.contactDetails.state).toMatchObject({ termsShown: true, termsAccepted: true });
  });
});
