/**
 * Money that reached a provider but not the checkout: the payment reconciler (api/checkout/reconciler.ts) and a
 * Stripe webhook completing a real checkout end to end — the real Stripe SDK against the local fake Stripe, a
 * signed event, the real engine — on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import type { Deps } from '../../api/deps.ts';
import { reconcilePayments } from '../../api/checkout/reconciler.ts';
import { providerNamed } from '../../api/payments/registry.ts';
import { TEST_CARD_PROVIDER, TestPaymentProvider } from '../../api/payments/test-provider.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { startFakeStripe, type FakeStripe } from '../helpers/fake-stripe.ts';
import { PAYMENT_PROCESSING_MESSAGE } from '../../src/domain/problems.ts';
import { CARDS, DAY, IDS, OFFERS, client, contactPayload, seedCheckoutCatalogue, type Client } from './checkout-fixtures.ts';

const WEBHOOK_SECRET = 'whsec_reconcile_e2e';

function depsOf(server: TestServer, now: () => number): Deps {
  return { db: server.db, dialect: server.testDb.dialect, config: server.config, now };
}

/** A logged-in learner on Payment of a £10 booking, with the card method chosen (a provider payment exists). */
async function toCardPayment(server: TestServer, occurrenceId: string): Promise<{ api: Client; id: string; state: Record<string, any> }> {
  const { cookie, user } = await signUpAndLogin(server);
  const api = client(server, cookie);
  const init = await api.initialise('booking', { courseId: IDS.raceCourse, occurrenceId });
  const id = init.body._id as string;
  expect((await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.race, quantity: 1 }] })).status).toBe(200);
  expect((await api.submit(id, 'contact details filled', contactPayload(user.email))).body.currentStep).toBe('payment');
  const chosen = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
  expect(chosen.status).toBe(200);
  return { api, id, state: chosen.body };
}

async function newOccurrence(server: TestServer, id: string, start: number): Promise<string> {
  await server.db.insertInto('occurrences').values({
    id, course_id: IDS.raceCourse, visibility: 'public', start_datetime: start, end_datetime: start + 3600, timezone: 'Europe/London',
    delivery: 'in-person', address: null, spaces: 5, available_spaces: 5, parent_ref: null, individually_bookable: true,
  }).execute();
  return id;
}

describe('the reconciler, with the test provider', () => {
  let server: TestServer;
  let now: number;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_LOGIN_PER_IP: '100000', LOG_LEVEL: 'silent' });
    now = Math.floor(Date.now() / 1000);
    await seedCheckoutCatalogue(server.db, now);
  });
  afterAll(async () => server?.close());
  beforeEach(() => server.setNow(now));

  /** The provider confirms the card, as if the process died before it could tell the checkout. */
  async function providerConfirms(paymentId: string, clientSecret: string): Promise<void> {
    const provider = providerNamed(depsOf(server, () => now), TEST_CARD_PROVIDER);
    if (!(provider instanceof TestPaymentProvider)) throw new Error('the test provider is not active');
    const result = await provider.confirm(paymentId, { cardNumber: CARDS.success, clientSecret, returnUrl: () => null, redirectBase: server.url });
    expect(result?.ok).toBe(true);
  }

  it('completes an open checkout whose payment succeeded at the provider, once', async () => {
    const occ = await newOccurrence(server, 'occ_reconcile_1', now + 30 * DAY);
    const { api, id, state } = await toCardPayment(server, occ);
    const paymentId = state.stepState.payment.state.paymentId as string;
    await providerConfirms(paymentId, state.stepState.payment.state.clientSecret as string);
    expect((await api.get(`/checkout/${id}`)).body.status).toBe('open');

    // Inside the grace period the browser and the webhook are left to it.
    expect((await reconcilePayments(depsOf(server, () => now + 10))).results).toEqual([]);
    const later = () => now + 600;
    server.setNow(later());
    const pass = await reconcilePayments(depsOf(server, later));
    expect(pass.results).toEqual(['completed']);
    const after = await api.get(`/checkout/${id}`);
    expect(after.body).toMatchObject({ status: 'completed', currentStep: 'confirmation' });
    const booking = await server.db.selectFrom('bookings').selectAll().where('checkout_id', '=', id).execute();
    expect(booking).toHaveLength(1);
    expect(booking[0]).toMatchObject({ payment_state: 'paid', payment_id: paymentId, total_cost: 1000 });
    // Settled: nothing left to check, however often it runs; the browser's late return finds it done.
    expect((await reconcilePayments(depsOf(server, () => later() + 3600))).results).toEqual([]);
    expect((await api.submit(id, 'payment was successful', {})).body.status).toBe('completed');
    expect(await server.db.selectFrom('bookings').select('id').where('checkout_id', '=', id).execute()).toHaveLength(1);
  });

  it('refunds a payment that succeeded after the learner left the checkout', async () => {
    const occ = await newOccurrence(server, 'occ_reconcile_2', now + 31 * DAY);
    const { api, id, state } = await toCardPayment(server, occ);
    const paymentId = state.stepState.payment.state.paymentId as string;
    await providerConfirms(paymentId, state.stepState.payment.state.clientSecret as string);
    // The learner abandons before the success reached us: the spaces go back, the money must too.
    expect((await api.post(`/checkout/${id}/abandon`)).body.status).toBe('abandoned');
    const later = () => now + 600;
    const pass = await reconcilePayments(depsOf(server, later));
    expect(pass.results).toEqual(['refunded']);
    const provider = await server.db.selectFrom('test_payments').select('status').where('id', '=', paymentId).executeTakeFirstOrThrow();
    expect(provider.status).toBe('refunded');
    const record = await server.db.selectFrom('checkout_payments').select('status').where('provider_payment_id', '=', paymentId).executeTakeFirstOrThrow();
    expect(record.status).toBe('refunded');
    expect(await server.db.selectFrom('bookings').select('id').where('checkout_id', '=', id).execute()).toHaveLength(0);
    expect((await reconcilePayments(depsOf(server, () => later() + 3600))).results).toEqual([]);
  });

  it('leaves a payment that has not succeeded to be asked again later', async () => {
    const occ = await newOccurrence(server, 'occ_reconcile_3', now + 32 * DAY);
    const { id } = await toCardPayment(server, occ);
    expect((await reconcilePayments(depsOf(server, () => now + 600))).results).toEqual(['pending']);
    expect((await reconcilePayments(depsOf(server, () => now + 700))).results).toEqual([]);
    expect((await reconcilePayments(depsOf(server, () => now + 1000))).results).toEqual(['pending']);
    const row = await server.db.selectFrom('checkouts').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('open');
  });
});

describe('Stripe end to end: the real SDK, the fake Stripe, a signed webhook, the real engine', () => {
  let fake: FakeStripe;
  let server: TestServer;
  let now: number;
  beforeAll(async () => {
    fake = await startFakeStripe();
    server = await startTestServer({
      STRIPE_SECRET_KEY: 'sk_test_e2e', STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e', STRIPE_API_BASE: fake.url, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      RATE_LIMIT_LOGIN_PER_IP: '100000', LOG_LEVEL: 'silent',
    });
    now = Math.floor(Date.now() / 1000);
    await seedCheckoutCatalogue(server.db, now);
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  function deliver(event: object) {
    const payload = JSON.stringify(event);
    return fetch(`${server.url}/api/payments/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) },
      body: payload,
    });
  }

  it('a payment_intent.succeeded webhook completes the checkout waiting for it, once; the browser then finds it done', async () => {
    const occ = await newOccurrence(server, 'occ_stripe_e2e', now + 33 * DAY);
    const { api, id, state } = await toCardPayment(server, occ);
    const payment = state.stepState.payment.state;
    expect(payment.paymentId).toMatch(/^pi_/);
    expect(state.stepState.payment.state.clientSecret).toBe(fake.intent(payment.paymentId)?.client_secret);
    // The Payment Element and the bank confirm it at Stripe…
    fake.update(payment.paymentId, { status: 'succeeded' });
    const intent = fake.intent(payment.paymentId)!;
    const event = { id: `evt_e2e_${id}`, object: 'event', type: 'payment_intent.succeeded', created: now, livemode: false, data: { object: intent } };
    // …and Stripe tells us.
    const first = await deliver(event);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ received: true, outcome: 'handled' });
    const done = await api.get(`/checkout/${id}`);
    expect(done.body).toMatchObject({ status: 'completed', currentStep: 'confirmation' });
    expect(done.body.outcome).toMatchObject({ kind: 'booking', paymentState: 'paid', paymentMethod: 'card', totalCost: 1000 });
    expect(done.body.hold).toMatchObject({ status: 'committed', spaces: 1 });
    // A redelivery and the browser's return change nothing.
    expect(await (await deliver(event)).json()).toMatchObject({ outcome: 'duplicate' });
    const returned = await api.submit(id, 'payment was successful', { payment_intent_client_secret: payment.clientSecret, redirect_status: 'succeeded' });
    expect(returned.status).toBe(200);
    expect(returned.body.status).toBe('completed');
    expect(await server.db.selectFrom('bookings').select('id').where('checkout_id', '=', id).execute()).toHaveLength(1);
    expect(fake.requestsTo('POST', /\/v1\/refunds/)).toHaveLength(0);
  });

  it('a succeeded Stripe payment whose webhook never came is completed by the reconciler', async () => {
    const occ = await newOccurrence(server, 'occ_stripe_reconcile', now + 34 * DAY);
    const { api, id, state } = await toCardPayment(server, occ);
    fake.update(state.stepState.payment.state.paymentId, { status: 'succeeded' });
    const pass = await reconcilePayments(depsOf(server, () => Math.floor(Date.now() / 1000) + 600));
    expect(pass.results).toEqual(['completed']);
    expect((await api.get(`/checkout/${id}`)).body.status).toBe('completed');
  });

  it('the browser\'s return is refused when Stripe holds the payment for another amount (spec 4: never taken from the browser)', async () => {
    const occ = await newOccurrence(server, 'occ_stripe_amount', now + 35 * DAY);
    const { api, id, state } = await toCardPayment(server, occ);
    const payment = state.stepState.payment.state;
    fake.update(payment.paymentId, { status: 'succeeded', amount: 999 });
    const returned = await api.submit(id, 'payment was successful', { payment_intent_client_secret: payment.clientSecret, redirect_status: 'succeeded' });
    expect(returned.status).toBe(500);
    expect(returned.body.detail).toBe(PAYMENT_PROCESSING_MESSAGE);
    expect((await api.get(`/checkout/${id}`)).body.status).toBe('open');
    expect(await server.db.selectFrom('bookings').select('id').where('checkout_id', '=', id).execute()).toHaveLength(0);
    // Money taken that no checkout can accept goes back: the reconciler refunds it at Stripe.
    fake.reset();
    const pass = await reconcilePayments(depsOf(server, () => Math.floor(Date.now() / 1000) + 600));
    expect(pass.results).toEqual(['refunded']);
    expect(fake.requestsTo('POST', /\/v1\/refunds/)).toHaveLength(1);
  });
});
