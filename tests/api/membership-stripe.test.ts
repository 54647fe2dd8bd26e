/**
 * Memberships paid through Stripe (docs/gifts-and-memberships.md "Live providers"), against the fake Stripe API
 * (tests/helpers/fake-stripe.ts) — SQLite, or PostgreSQL with TEST_DATABASE_URL:
 * - joining saves the card: a Customer on the educator's connected account and `setup_future_usage: 'off_session'`;
 * - a renewal is an off-session PaymentIntent (`off_session`, `confirm`) with the renewal's idempotency key;
 * - a decline and `authentication_required` are failed renewals under the retry rules (1 and 3 days, then the end);
 * - a renewal whose answer was lost, or that failed before Stripe answered, is tried again with the same key and
 *   charged once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../helpers/fake-stripe.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { IDS, OFFERS, booker, client, contactPayload, seedCheckoutCatalogue } from './checkout-fixtures.ts';
import { PLANS, seedPlans } from './membership-fixtures.ts';
import Stripe from 'stripe';
import { StripePaymentProvider, StripeRecurringProvider, parseStripeCustomerRef, parseStripePaymentId } from '../../api/payments/stripe.ts';

const SECRET_KEY = 'sk_test_fake_memberships';
const WEBHOOK_SECRET = 'whsec_test_fake_memberships';
const ACCOUNT = 'acct_1ClayStudioConnected';
const PI_CREATE = /^\/v1\/payment_intents$/;

let fake: FakeStripe;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeStripe();
  server = await startTestServer({ LOG_LEVEL: 'silent', STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_API_BASE: fake.url, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
  await seedCheckoutCatalogue(server.db, Math.floor(Date.now() / 1000));
  await seedPlans(server);
  await server.db.insertInto('educator_payment_accounts').values({ educator_id: IDS.educator, provider: 'stripe', account_id: ACCOUNT, created_at: 0 }).execute();
}, 60_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

/** Moves the learner's memberships' test clock (and runs the renewals then due); answers the clock's time. */
async function advance(seconds: number, cookie: string): Promise<number> {
  const res = await fetch(`${server.url}/api/test-payments/clock`, { method: 'POST', headers: { origin: server.url, 'content-type': 'application/json', cookie }, body: JSON.stringify({ advanceSeconds: seconds }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { now: number }).now;
}

/** Moves the clock to `at` (never back). */
async function advanceTo(at: number, cookie: string): Promise<void> {
  const now = await advance(0, cookie);
  await advance(Math.max(0, at - now), cookie);
}

async function membership(id: string) {
  return server.db.selectFrom('memberships').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function payments(id: string) {
  return server.db.selectFrom('membership_payments').selectAll().where('membership_id', '=', id).orderBy('created_at').orderBy('attempt').execute();
}

/** Joins the monthly plan paying by card through Stripe; the card the learner uses is `paymentMethod` (a Stripe test payment method id). */
async function joinByStripe(paymentMethod: string) {
  const { cookie, user } = await signUpAndLogin(server);
  const api = client(server, cookie);
  const init = await api.initialise('membership', { educatorId: IDS.educator });
  const id = (init.body as { _id: string })._id;
  expect((await api.submit(id, 'membership plan picked', { planId: PLANS.monthly })).status).toBe(200);
  const method = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
  expect(method.status, JSON.stringify(method.body)).toBe(200);
  const paymentId = (method.body as { stepState: { payment: { state: { paymentId: string } } } }).stepState.payment.state.paymentId;
  const { accountId, intentId } = parseStripePaymentId(paymentId);
  expect(accountId).toBe(ACCOUNT);
  // What Stripe.js and the bank do in the browser: the card pays and is attached to the intent.
  fake.update(intentId, { status: 'succeeded', payment_method: paymentMethod });
  const done = await api.submit(id, 'payment was successful', {});
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  const membershipId = (done.body as { outcome: { id: string } }).outcome.id;
  // The saved card is asked of Stripe after the commit.
  await expect.poll(async () => (await membership(membershipId)).provider_customer_id, { timeout: 5000 }).not.toBeNull();
  return { membershipId, intentId, email: user.email, checkoutId: id, cookie };
}

describe('joining through Stripe', () => {
  it('saves the card for renewals: a Customer on the connected account, setup_future_usage off_session', async () => {
    const { membershipId, intentId, email, checkoutId } = await joinByStripe('pm_card_visa');
    const intent = fake.intent(intentId)!;
    expect(intent.setup_future_usage).toBe('off_session');
    expect(String(intent.customer)).toMatch(/^cus_/);
    const create = fake.requestsTo('POST', PI_CREATE).find((r) => r.form['metadata[checkout_id]'] === checkoutId)!;
    expect(create.headers['stripe-account']).toBe(ACCOUNT);
    expect(create.form).toMatchObject({ setup_future_usage: 'off_session', customer: intent.customer });
    const customerCreate = fake.requestsTo('POST', /^\/v1\/customers$/).find((r) => r.form['metadata[checkout_id]'] === checkoutId)!;
    expect(customerCreate.headers['stripe-account']).toBe(ACCOUNT);
    expect(fake.customer(String(intent.customer))).toMatchObject({ email });
    const m = await membership(membershipId);
    expect(m).toMatchObject({ provider: 'stripe', status: 'active' });
    expect(parseStripeCustomerRef(m.provider_customer_id!)).toEqual({ accountId: ACCOUNT, customerId: intent.customer, paymentMethodId: 'pm_card_visa' });
  });

  it('a course booking is not saved for later (no customer, no setup_future_usage)', async () => {
    const { cookie, user } = await signUpAndLogin(server);
    const api = client(server, cookie);
    const booking = await api.initialise('booking', { courseId: IDS.classCourse, occurrenceId: IDS.classOcc });
    const id = (booking.body as { _id: string })._id;
    await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.standard, quantity: 1 }], selectedAddons: [] });
    await api.submit(id, 'contact details filled', contactPayload(user.email, { bookerFormResponse: booker(user.email, { phone: '07700 900123' }) }));
    const method = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    expect(method.status, JSON.stringify(method.body)).toBe(200);
    const create = fake.requestsTo('POST', PI_CREATE).find((r) => r.form['metadata[checkout_id]'] === id)!;
    expect(create.form.setup_future_usage).toBeUndefined();
    expect(create.form.customer).toBeUndefined();
  });
});

describe('renewing through Stripe', () => {
  it('renews off-session when the period ends: one PaymentIntent with the renewal’s key, a new period, a paid receipt', async () => {
    const { membershipId, cookie } = await joinByStripe('pm_card_visa');
    const before = await membership(membershipId);
    const saved = parseStripeCustomerRef(before.provider_customer_id!)!;
    await advanceTo(Number(before.current_period_end), cookie);
    const after = await membership(membershipId);
    expect(after).toMatchObject({ status: 'active', period_index: 1, current_period_start: Number(before.current_period_end), credits_left: 2, renewal_attempts: 0 });
    const renewals = fake.intentsOf(saved.customerId).filter((i) => i.metadata && (i.metadata as Record<string, string>).membership_id === membershipId);
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatchObject({ status: 'succeeded', amount: Number(before.price), payment_method: 'pm_card_visa' });
    const request = fake.requestsTo('POST', PI_CREATE).find((r) => r.form['metadata[membership_id]'] === membershipId)!;
    expect(request.headers['idempotency-key']).toBe(`membership_${membershipId}_period_1_attempt_1`);
    expect(request.headers['stripe-account']).toBe(ACCOUNT);
    expect(request.form).toMatchObject({ off_session: 'true', confirm: 'true', customer: saved.customerId, payment_method: 'pm_card_visa' });
    const rows = await payments(membershipId);
    expect(rows.map((p) => [p.kind, p.status])).toEqual([['join', 'paid'], ['renewal', 'paid']]);
    expect(rows[1]!.provider_payment_id).toBe(`${ACCOUNT}:${renewals[0]!.id}`);
    expect(rows[1]!.receipt_number).toMatch(/^INV-/);
  });

  it('a declined renewal is past due and retried after 1 day; a card that works again then renews', async () => {
    const card = `pm_card_visa_decline_${Date.now()}`;
    const { membershipId, cookie } = await joinByStripe(card);
    const before = await membership(membershipId);
    fake.setCardOutcome(card, 'card_declined');
    await advanceTo(Number(before.current_period_end), cookie);
    let m = await membership(membershipId);
    expect(m).toMatchObject({ status: 'past_due', renewal_attempts: 1 });
    expect(Number(m.next_attempt_at)).toBeGreaterThanOrEqual(Number(before.current_period_end) + 23 * 3600);
    let rows = await payments(membershipId);
    expect(rows[1]).toMatchObject({ kind: 'renewal', status: 'failed', failure: 'Your card was declined.', attempt: 1 });
    expect(rows[1]!.provider_payment_id).toMatch(new RegExp(`^${ACCOUNT}:pi_`));
    fake.setCardOutcome(card, 'succeeded');
    await advanceTo(Number(m.next_attempt_at), cookie);
    m = await membership(membershipId);
    expect(m).toMatchObject({ status: 'active', period_index: 1, current_period_start: Number(before.current_period_end), renewal_attempts: 0 });
    rows = await payments(membershipId);
    expect(rows.map((p) => [p.status, p.attempt])).toEqual([['paid', 1], ['failed', 1], ['paid', 2]]);
    const keys = fake.requestsTo('POST', PI_CREATE).filter((r) => r.form['metadata[membership_id]'] === membershipId).map((r) => r.headers['idempotency-key']);
    expect(keys).toEqual([`membership_${membershipId}_period_1_attempt_1`, `membership_${membershipId}_period_1_attempt_2`]);
  });

  it('authentication_required (the member is not there to confirm) fails like a decline; three failures end the membership', async () => {
    const { membershipId, cookie } = await joinByStripe('pm_card_authenticationRequired');
    for (let attempt = 1; attempt <= 3; attempt++) {
      const m = await membership(membershipId);
      await advanceTo(Number(m.next_attempt_at), cookie);
    }
    const m = await membership(membershipId);
    expect(m).toMatchObject({ status: 'ended', end_reason: 'payment_failed', renewal_attempts: 3, next_attempt_at: null });
    const rows = await payments(membershipId);
    expect(rows.map((p) => p.status)).toEqual(['paid', 'failed', 'failed', 'failed']);
    expect(rows[1]!.failure).toMatch(/confirm this payment/);
  });

  it('a renewal whose answer was lost is retried with the same key and charged once', async () => {
    const { membershipId, cookie } = await joinByStripe('pm_card_visa');
    const before = await membership(membershipId);
    const saved = parseStripeCustomerRef(before.provider_customer_id!)!;
    fake.loseNextAnswer({ method: 'POST', path: PI_CREATE, form: { 'metadata[membership_id]': membershipId } });
    await advanceTo(Number(before.current_period_end), cookie);
    expect(await membership(membershipId)).toMatchObject({ status: 'active', period_index: 1 });
    const sent = fake.requestsTo('POST', PI_CREATE).filter((r) => r.form['metadata[membership_id]'] === membershipId);
    expect(sent.length).toBe(2);
    expect(new Set(sent.map((r) => r.headers['idempotency-key']))).toEqual(new Set([`membership_${membershipId}_period_1_attempt_1`]));
    expect(fake.intentsOf(saved.customerId).filter((i) => (i.metadata as Record<string, string>).membership_id === membershipId)).toHaveLength(1);
    expect((await payments(membershipId)).map((p) => p.status)).toEqual(['paid', 'paid']);
  });

  it('a renewal Stripe could not be reached for is not a failed attempt: the next run tries the same attempt again', async () => {
    const { membershipId, cookie } = await joinByStripe('pm_card_visa');
    const before = await membership(membershipId);
    // Stripe fails before doing anything (and says not to retry): the job's attempt throws, nothing is recorded, and the
    // membership is left for the next run (the clock route runs the job again while other renewals were handled).
    fake.failNext({ method: 'POST', path: PI_CREATE, form: { 'metadata[membership_id]': membershipId } }, 500, { type: 'api_error', message: 'Stripe is down' });
    await advanceTo(Number(before.current_period_end), cookie);
    await advance(0, cookie);
    const m = await membership(membershipId);
    expect(m).toMatchObject({ status: 'active', period_index: 1, renewal_attempts: 0, claimed_at: null });
    expect((await payments(membershipId)).map((p) => [p.kind, p.status, p.attempt])).toEqual([['join', 'paid', 1], ['renewal', 'paid', 1]]);
    const sent = fake.requestsTo('POST', PI_CREATE).filter((r) => r.form['metadata[membership_id]'] === membershipId);
    expect(sent.length).toBe(2);
    expect(new Set(sent.map((r) => r.headers['idempotency-key']))).toEqual(new Set([`membership_${membershipId}_period_1_attempt_1`]));
  });
});

describe('Stripe’s webhook for a renewal', () => {
  it('is no checkout’s payment: ignored, never refunded (the renewal job recorded it)', async () => {
    const { membershipId, cookie } = await joinByStripe('pm_card_visa');
    const before = await membership(membershipId);
    await advanceTo(Number(before.current_period_end), cookie);
    const saved = parseStripeCustomerRef(before.provider_customer_id!)!;
    const renewal = fake.intentsOf(saved.customerId).find((i) => (i.metadata as Record<string, string>).membership_id === membershipId)!;
    const event = {
      id: `evt_renewal_${membershipId}`, object: 'event', type: 'payment_intent.succeeded', api_version: '2026-10-28.endive', created: 1_700_000_000,
      livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, account: ACCOUNT, data: { object: renewal },
    };
    const payload = JSON.stringify(event);
    const refundsBefore = fake.requestsTo('POST', /^\/v1\/refunds$/).length;
    const res = await fetch(`${server.url}/api/payments/webhooks/stripe`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) }, body: payload,
    });
    expect(res.status).toBe(200);
    expect(fake.requestsTo('POST', /^\/v1\/refunds$/).length).toBe(refundsBefore);
    expect((await payments(membershipId)).map((p) => p.status)).toEqual(['paid', 'paid']);
  });
});

describe('the Stripe recurring adapter', () => {
  it('the same idempotency key twice is one charge; a saved card it cannot read is no charge', async () => {
    const recurring = new StripeRecurringProvider(StripePaymentProvider.fromConfig(server.db, { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_API_BASE: fake.url }));
    const { membershipId } = await joinByStripe('pm_card_visa');
    const ref = (await membership(membershipId)).provider_customer_id!;
    const input = { customerId: ref, amount: 2750, currency: 'GBP', idempotencyKey: `adapter_test_${membershipId}`, metadata: { membership_id: `adapter-${membershipId}` } };
    const first = await recurring.chargeRenewal(input);
    const second = await recurring.chargeRenewal(input);
    expect(first).toMatchObject({ ok: true, failure: null });
    expect(second).toEqual(first);
    expect(fake.intentsOf().filter((i) => (i.metadata as Record<string, string>).membership_id === `adapter-${membershipId}`)).toHaveLength(1);
    expect(await recurring.chargeRenewal({ ...input, customerId: 'tcus_4242', idempotencyKey: 'adapter_test_bad' })).toEqual({ ok: false, paymentId: null, failure: 'No payment method on file' });
    // A payment that was not made for renewals has no saved card.
    expect(await recurring.customerFromPayment(`${ACCOUNT}:pi_does_not_exist`).catch(() => 'error')).toBe('error');
  });
});
