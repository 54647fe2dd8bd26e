/**
 * The Stripe provider against a fake Stripe API on 127.0.0.1 (tests/helpers/fake-stripe.ts), and the
 * Stripe webhook through the real server. No network.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import Stripe from 'stripe';
import { startFakeStripe, type FakeStripe } from '../helpers/fake-stripe.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ProblemError, CARD_DETAILS_MESSAGE, PAYMENT_AUTH_FAILED_MESSAGE, PAYMENT_PROCESSING_MESSAGE, problems } from '../../src/domain/problems.ts';
import {
  StripePaymentProvider,
  parseStripePaymentId,
  stripeHostOptions,
} from '../../api/payments/stripe.ts';
import { isPaymentSuccessful } from '../../api/payments/types.ts';

const events = vi.hoisted(() => ({
  onPaymentSucceeded: vi.fn(async (..._args: unknown[]) => {}),
  onPaymentFailed: vi.fn(async (..._args: unknown[]) => {}),
}));
vi.mock('../../api/payments/events.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/payments/events.ts')>()),
  onPaymentSucceeded: events.onPaymentSucceeded,
  onPaymentFailed: events.onPaymentFailed,
}));

const SECRET_KEY = 'sk_test_fake_123';
const WEBHOOK_SECRET = 'whsec_test_fake_456';
const ACCOUNT = 'acct_1EducatorConnected';
const EDUCATOR = 'edu-stripe-1';
const EDUCATOR_WITHOUT_ACCOUNT = 'edu-stripe-2';

let fake: FakeStripe;
let testDb: TestDb;
let provider: StripePaymentProvider;
let server: TestServer;

async function insertEducator(id: string): Promise<void> {
  await testDb.db
    .insertInto('educators')
    .values({
      id, slug: id, name: `Educator ${id}`, cover_url: null, logo_url: null, address: null, phone_number: null, email: null, tos: null,
      cancellation_allowed: null, color_brand: null, on_color_brand: null, form_ref: null, created_at: 1_700_000_000,
      feature_flags: { hide_marketing_consent: false, hide_terms: false, hide_pricing: false, hide_social_prompts: false },
      third_party_codes: {}, vat_settings: { enabled: false, is_vat_absorbed: false }, links: {}, working_hours: {}, enquiry_types: [],
    })
    .execute();
}

/** Runs `fn` and returns the problem it threw. */
async function problemOf(fn: () => Promise<unknown>) {
  try {
    await fn();
  } catch (err) {
    if (err instanceof ProblemError) return err.problem;
    throw err;
  }
  throw new Error('expected a problem');
}

beforeAll(async () => {
  fake = await startFakeStripe();
  testDb = await createTestDb();
  await insertEducator(EDUCATOR);
  await insertEducator(EDUCATOR_WITHOUT_ACCOUNT);
  await testDb.db.insertInto('educator_payment_accounts').values({ educator_id: EDUCATOR, provider: 'stripe', account_id: ACCOUNT, created_at: 1_700_000_000 }).execute();
  provider = StripePaymentProvider.fromConfig(testDb.db, { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_API_BASE: fake.url });
  server = await startTestServer({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_API_BASE: fake.url, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET }, testDb);
});

afterAll(async () => {
  await server?.close();
  await testDb?.close();
  await fake?.close();
});

beforeEach(() => {
  fake.reset();
  events.onPaymentSucceeded.mockReset();
  events.onPaymentSucceeded.mockImplementation(async () => {});
  events.onPaymentFailed.mockReset();
});

describe('configuration', () => {
  it('turns STRIPE_API_BASE into the SDK host, port and protocol', () => {
    expect(stripeHostOptions('http://127.0.0.1:4010')).toEqual({ host: '127.0.0.1', port: 4010, protocol: 'http' });
    expect(stripeHostOptions('https://api.stripe.com')).toEqual({ host: 'api.stripe.com', port: 443, protocol: 'https' });
  });

  it('reads ids from payment ids and client secrets', () => {
    expect(parseStripePaymentId('acct_1:pi_2')).toEqual({ accountId: 'acct_1', intentId: 'pi_2' });
    expect(parseStripePaymentId('pi_2')).toEqual({ accountId: null, intentId: 'pi_2' });
  });
});

describe('PaymentIntent creation', () => {
  it('creates it on the educator’s connected account: Stripe-Account, amount in pence, gbp, automatic methods, checkout id, idempotency key', async () => {
    const payment = await provider.createPayment(1234, 'GBP', { checkout_id: 'chk_1', educator_id: EDUCATOR });
    const [req] = fake.requestsTo('POST', /^\/v1\/payment_intents$/);
    expect(req).toBeDefined();
    expect(req!.headers['stripe-account']).toBe(ACCOUNT);
    expect(req!.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(req!.headers['idempotency-key']).toBe('checkout_chk_1_payment_1234_gbp');
    expect(req!.form.amount).toBe('1234');
    expect(req!.form.currency).toBe('gbp');
    expect(req!.form['automatic_payment_methods[enabled]']).toBe('true');
    expect(req!.form['metadata[checkout_id]']).toBe('chk_1');
    expect(req!.form['metadata[educator_id]']).toBe(EDUCATOR);

    expect(payment.id).toBe(`${ACCOUNT}:${payment.intentId}`);
    expect(payment.intentId).toMatch(/^pi_/);
    expect(payment.accountId).toBe(ACCOUNT);
    expect(payment.kind).toBe('payment');
    expect(payment.clientSecret).toMatch(new RegExp(`^${payment.intentId}_secret_`));
    expect(payment).toMatchObject({ status: 'requires_payment_method', amount: 1234, currency: 'GBP', metadata: { checkout_id: 'chk_1' } });
  });

  it('gives the same intent for the same checkout and amount, a new one for a new amount', async () => {
    const before = fake.intentCount;
    const a = await provider.createPayment(2000, 'GBP', { checkout_id: 'chk_same', educator_id: EDUCATOR });
    const b = await provider.createPayment(2000, 'GBP', { checkout_id: 'chk_same', educator_id: EDUCATOR });
    expect(b.id).toBe(a.id);
    expect(fake.intentCount).toBe(before + 1);
    const c = await provider.createPayment(2500, 'GBP', { checkout_id: 'chk_same', educator_id: EDUCATOR });
    expect(c.id).not.toBe(a.id);
    expect(fake.requestsTo('POST', /^\/v1\/payment_intents$/).map((r) => r.headers['idempotency-key'])).toEqual([
      'checkout_chk_same_payment_2000_gbp',
      'checkout_chk_same_payment_2000_gbp',
      'checkout_chk_same_payment_2500_gbp',
    ]);
  });

  it('starts a fresh intent when the key replays one that was canceled meanwhile', async () => {
    const first = await provider.createPayment(3000, 'GBP', { checkout_id: 'chk_cancel', educator_id: EDUCATOR });
    await provider.cancelPayment(first.id);
    expect(fake.intent(first.intentId)?.status).toBe('canceled');
    const second = await provider.createPayment(3000, 'GBP', { checkout_id: 'chk_cancel', educator_id: EDUCATOR });
    expect(second.id).not.toBe(first.id);
    expect(second.status).toBe('requires_payment_method');
    const again = await provider.createPayment(3000, 'GBP', { checkout_id: 'chk_cancel', educator_id: EDUCATOR });
    expect(again.id).toBe(second.id);
  });

  it('charges the platform account (no Stripe-Account header) for an educator without a connected account', async () => {
    const payment = await provider.createPayment(500, 'GBP', { checkout_id: 'chk_platform', educator_id: EDUCATOR_WITHOUT_ACCOUNT });
    const [req] = fake.requestsTo('POST', /^\/v1\/payment_intents$/);
    expect(req!.headers['stripe-account']).toBeUndefined();
    expect(payment.id).toBe(payment.intentId);
    expect(payment.accountId).toBeNull();
    expect((await provider.retrievePayment(payment.id))?.status).toBe('requires_payment_method');
  });

  it('refuses amounts that are not positive whole pence, and a payment without a checkout id', async () => {
    await expect(provider.createPayment(0, 'GBP', { checkout_id: 'x' })).rejects.toThrow();
    await expect(provider.createPayment(12.5, 'GBP', { checkout_id: 'x' })).rejects.toThrow();
    await expect(provider.createPayment(100, 'GBP', {})).rejects.toThrow(/checkout_id/);
    expect(fake.requests).toHaveLength(0);
  });
});

// The checkout's payment step (api/checkout/steps/payment.ts) decides from Stripe's answer: success for
// isPaymentSuccessful, otherwise the card problem of the payment's last error. These check what the adapter
// reads back from Stripe, which that decision rests on.
describe('reading a payment back from Stripe (spec 4)', () => {
  it.each(['succeeded', 'requires_capture'])('a payment Stripe says is %s counts as paid, asked on the connected account', async (status) => {
    const payment = await provider.createPayment(4200, 'GBP', { checkout_id: `chk_ok_${status}`, educator_id: EDUCATOR });
    fake.update(payment.intentId, { status });
    fake.reset();
    const read = await provider.retrievePayment(payment.id);
    expect(read).toMatchObject({ id: payment.id, status, amount: 4200, currency: 'GBP' });
    expect(isPaymentSuccessful(read!.status)).toBe(true);
    const [get] = fake.requestsTo('GET', new RegExp(`^/v1/payment_intents/${payment.intentId}$`));
    expect(get!.headers['stripe-account']).toBe(ACCOUNT);
  });

  it.each(['requires_payment_method', 'requires_action', 'processing', 'canceled'])('%s is not paid, and without an error it is the processing problem', async (status) => {
    const payment = await provider.createPayment(4300, 'GBP', { checkout_id: `chk_no_${status}`, educator_id: EDUCATOR });
    fake.update(payment.intentId, { status });
    const read = await provider.retrievePayment(payment.id);
    expect(isPaymentSuccessful(read!.status)).toBe(false);
    expect(problems.cardProvider(read!.lastError ?? null)).toMatchObject({ status: 500, detail: PAYMENT_PROCESSING_MESSAGE });
  });

  it('a declined card (requires_payment_method with a card_error) is 400 with Stripe’s message', async () => {
    const payment = await provider.createPayment(4400, 'GBP', { checkout_id: 'chk_declined', educator_id: EDUCATOR });
    fake.update(payment.intentId, {
      status: 'requires_payment_method',
      last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
    });
    const read = await provider.retrievePayment(payment.id);
    expect(problems.cardProvider(read!.lastError ?? null)).toMatchObject({ status: 400, detail: 'Your card was declined.' });
  });

  it('a failed 3-D Secure authentication is 500 "There was an error with your payment. Please try again."', async () => {
    const payment = await provider.createPayment(4500, 'GBP', { checkout_id: 'chk_3ds', educator_id: EDUCATOR });
    fake.update(payment.intentId, {
      status: 'requires_payment_method',
      last_payment_error: { type: 'invalid_request_error', code: 'payment_intent_authentication_failure', message: 'Authentication failed' },
    });
    const read = await provider.retrievePayment(payment.id);
    expect(problems.cardProvider(read!.lastError ?? null)).toMatchObject({ status: 500, detail: PAYMENT_AUTH_FAILED_MESSAGE });
  });

  it('an intent Stripe does not know (or on another account) is not found', async () => {
    const payment = await provider.createPayment(4700, 'GBP', { checkout_id: 'chk_acct', educator_id: EDUCATOR });
    expect(await provider.retrievePayment('pi_does_not_exist')).toBeNull();
    expect(await provider.retrievePayment(`acct_someone_else:${payment.intentId}`)).toBeNull();
  });
});

describe('Stripe errors → spec 8 card problems', () => {
  const create = () => provider.createPayment(999, 'GBP', { checkout_id: `chk_err_${Math.random()}`, educator_id: EDUCATOR });

  it('card_error → 400 with the provider’s message', async () => {
    fake.failNext({ method: 'POST' }, 402, { type: 'card_error', code: 'card_declined', message: 'Your card has insufficient funds.' });
    expect(await problemOf(create)).toMatchObject({ status: 400, title: 'Payment Error', detail: 'Your card has insufficient funds.' });
  });

  it('card_error without a message → 400 "There was an error with your card details. Please try again."', async () => {
    fake.failNext({ method: 'POST' }, 402, { type: 'card_error', code: 'card_declined', message: '' });
    expect(await problemOf(create)).toMatchObject({ status: 400, detail: CARD_DETAILS_MESSAGE });
    expect(CARD_DETAILS_MESSAGE).toBe('There was an error with your card details. Please try again.');
  });

  it('validation_error (the card element’s own check) → 400 with its message', async () => {
    const payment = await create();
    fake.update(payment.intentId, { last_payment_error: { type: 'validation_error', code: 'invalid_number', message: 'Your card number is invalid.' } });
    const read = await provider.retrievePayment(payment.id);
    expect(problems.cardProvider(read!.lastError ?? null)).toMatchObject({ status: 400, detail: 'Your card number is invalid.' });
  });

  it('invalid_request_error payment_intent_authentication_failure → 500 "There was an error with your payment. Please try again."', async () => {
    fake.failNext({ method: 'POST' }, 400, { type: 'invalid_request_error', code: 'payment_intent_authentication_failure', message: 'x' });
    expect(await problemOf(create)).toMatchObject({ status: 500, detail: 'There was an error with your payment. Please try again.' });
  });

  it.each([
    ['invalid_request_error (other code)', 400, { type: 'invalid_request_error', code: 'parameter_invalid_integer', message: 'Invalid integer: abc' }],
    ['api_error', 500, { type: 'api_error', message: 'Something went wrong on Stripe’s end.' }],
    ['rate_limit_error', 429, { type: 'rate_limit_error', message: 'Too many requests' }],
    ['authentication_error', 401, { type: 'authentication_error', message: 'Invalid API Key provided' }],
  ] as const)('%s → 500 "An error occurred while processing your payment. Please try again."', async (_name, status, error) => {
    fake.failNext({ method: 'POST' }, status, error);
    const problem = await problemOf(create);
    expect(problem).toMatchObject({ status: 500, detail: 'An error occurred while processing your payment. Please try again.' });
    expect(JSON.stringify(problem)).not.toContain(error.message);
  });

  it('an unreachable Stripe → 500 processing message', async () => {
    const down = StripePaymentProvider.fromConfig(testDb.db, { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_API_BASE: 'http://127.0.0.1:1' });
    const problem = await problemOf(() => down.createPayment(100, 'GBP', { checkout_id: 'chk_down' }));
    expect(problem).toMatchObject({ status: 500, detail: PAYMENT_PROCESSING_MESSAGE });
  });
});

describe('redirect return (spec 2.14 / 4)', () => {
  // The checkout compares the client secret the browser brings back with the one Stripe holds for the
  // payment (cardRedirectOutcome, tested in tests/unit/checkout/outcomes.test.ts), then asks Stripe.
  it('reads back the client secret it handed out, and the status Stripe holds', async () => {
    const payment = await provider.createPayment(5000, 'GBP', { checkout_id: 'chk_redirect_ok', educator_id: EDUCATOR });
    fake.update(payment.intentId, { status: 'succeeded' });
    const read = await provider.retrievePayment(payment.id);
    expect(read!.clientSecret).toBe(payment.clientSecret);
    expect(read!.status).toBe('succeeded');
  });
});

describe('SetupIntents (nothing charged now)', () => {
  it('creates one on the connected account and verifies it when succeeded', async () => {
    const setup = await provider.createSetup({ checkout_id: 'chk_setup', educator_id: EDUCATOR });
    const [req] = fake.requestsTo('POST', /^\/v1\/setup_intents$/);
    expect(req!.headers['stripe-account']).toBe(ACCOUNT);
    expect(req!.headers['idempotency-key']).toBe('checkout_chk_setup_setup');
    expect(req!.form['automatic_payment_methods[enabled]']).toBe('true');
    expect(req!.form['metadata[checkout_id]']).toBe('chk_setup');
    expect(setup).toMatchObject({ kind: 'setup', accountId: ACCOUNT, amount: 0, status: 'requires_payment_method' });
    expect(setup.id).toBe(`${ACCOUNT}:${setup.intentId}`);
    expect(setup.intentId).toMatch(/^seti_/);

    const notYet = await provider.retrievePayment(setup.id);
    expect(isPaymentSuccessful(notYet!.status)).toBe(false);

    fake.update(setup.intentId, { status: 'succeeded' });
    const read = await provider.retrievePayment(setup.id);
    expect(read).toMatchObject({ kind: 'setup', status: 'succeeded', amount: 0 });
    expect(isPaymentSuccessful(read!.status)).toBe(true);
    expect(fake.requestsTo('GET', new RegExp(`^/v1/setup_intents/${setup.intentId}$`)).at(-1)!.headers['stripe-account']).toBe(ACCOUNT);
  });

  it('a setup stuck in requires_capture-like states is not a success', async () => {
    const setup = await provider.createSetup({ checkout_id: 'chk_setup_2', educator_id: EDUCATOR });
    fake.update(setup.intentId, { status: 'requires_action' });
    const read = await provider.retrievePayment(setup.id);
    expect(isPaymentSuccessful(read!.status)).toBe(false);
    expect(problems.cardProvider(read!.lastError ?? null).status).toBe(500);
  });
});

describe('cancel and refund', () => {
  it('refunds a succeeded payment once, on its account', async () => {
    const payment = await provider.createPayment(6000, 'GBP', { checkout_id: 'chk_refund', educator_id: EDUCATOR });
    fake.update(payment.intentId, { status: 'succeeded' });
    await provider.refundPayment(payment.id);
    const [refund] = fake.requestsTo('POST', /^\/v1\/refunds$/);
    expect(refund!.form.payment_intent).toBe(payment.intentId);
    expect(refund!.headers['stripe-account']).toBe(ACCOUNT);
    expect(refund!.headers['idempotency-key']).toBe(`refund_${payment.intentId}`);
  });

  it('cancelling a succeeded payment is a no-op', async () => {
    const payment = await provider.createPayment(6100, 'GBP', { checkout_id: 'chk_cancel_done', educator_id: EDUCATOR });
    fake.update(payment.intentId, { status: 'succeeded' });
    await expect(provider.cancelPayment(payment.id)).resolves.toBeUndefined();
    expect(fake.intent(payment.intentId)?.status).toBe('succeeded');
  });
});

describe('POST /api/payments/webhooks/stripe', () => {
  let seq = 0;
  function intentEvent(type: string, intent: Record<string, unknown>, account: string | null = ACCOUNT) {
    seq += 1;
    return { id: `evt_test_${Date.now()}_${seq}`, object: 'event', type, api_version: '2026-10-28.endive', created: 1_700_000_000, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, ...(account ? { account } : {}), data: { object: intent } };
  }
  function succeededIntent(checkoutId: string, id = `pi_${checkoutId}`) {
    return { id, object: 'payment_intent', amount: 1234, currency: 'gbp', status: 'succeeded', metadata: { checkout_id: checkoutId }, client_secret: `${id}_secret_x` };
  }
  async function deliver(payload: string, signature: string | null) {
    return fetch(`${server.url}/api/payments/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
      body: payload,
    });
  }
  const sign = (payload: string, secret = WEBHOOK_SECRET) => Stripe.webhooks.generateTestHeaderString({ payload, secret });
  const rows = (eventId: string) => testDb.db.selectFrom('payment_events').selectAll().where('event_id', '=', eventId).execute();

  it('verifies the signature, records the event and tells the checkout once', async () => {
    const event = intentEvent('payment_intent.succeeded', succeededIntent('chk_hook_1'));
    const payload = JSON.stringify(event);
    const res = await deliver(payload, sign(payload));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, outcome: 'handled', eventId: event.id });
    expect(events.onPaymentSucceeded).toHaveBeenCalledTimes(1);
    expect(events.onPaymentSucceeded.mock.calls[0]![1]).toEqual({
      provider: 'stripe', eventId: event.id, checkoutId: 'chk_hook_1', paymentId: `${ACCOUNT}:pi_chk_hook_1`, amount: 1234, currency: 'GBP',
    });
    const [row] = await rows(event.id);
    expect(row).toMatchObject({ provider: 'stripe', type: 'payment_intent.succeeded', checkout_id: 'chk_hook_1', attempts: 1 });
    expect(row!.handled_at).not.toBeNull();
    expect((row!.payload as { id: string }).id).toBe(event.id);
  });

  it('a duplicate delivery is acknowledged and does nothing', async () => {
    const event = intentEvent('payment_intent.succeeded', succeededIntent('chk_hook_dup'));
    const payload = JSON.stringify(event);
    const first = await deliver(payload, sign(payload));
    const second = await deliver(payload, sign(payload));
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect((await second.json()).outcome).toBe('duplicate');
    expect(events.onPaymentSucceeded).toHaveBeenCalledTimes(1);
    expect(await rows(event.id)).toHaveLength(1);
  });

  it('deliveries racing each other still handle the event once', async () => {
    let release!: () => void;
    const gate = new Promise<void>((ok) => (release = ok));
    events.onPaymentSucceeded.mockImplementation(() => gate);
    const event = intentEvent('payment_intent.succeeded', succeededIntent('chk_hook_race'));
    const payload = JSON.stringify(event);
    const first = deliver(payload, sign(payload));
    await vi.waitFor(() => expect(events.onPaymentSucceeded).toHaveBeenCalledTimes(1));
    const during = await deliver(payload, sign(payload));
    expect(during.status).toBe(409);
    expect(during.headers.get('content-type')).toContain('application/problem+json');
    release();
    expect((await first).status).toBe(200);
    const after = await deliver(payload, sign(payload));
    expect((await after.json()).outcome).toBe('duplicate');
    expect(events.onPaymentSucceeded).toHaveBeenCalledTimes(1);
  });

  it('when the checkout fails to take it, answers 500 and handles the redelivery', async () => {
    events.onPaymentSucceeded.mockImplementationOnce(async () => {
      throw new Error('database busy');
    });
    const event = intentEvent('payment_intent.succeeded', succeededIntent('chk_hook_retry'));
    const payload = JSON.stringify(event);
    const failed = await deliver(payload, sign(payload));
    expect(failed.status).toBe(500);
    const [row] = await rows(event.id);
    expect(row).toMatchObject({ handled_at: null, claimed_at: null, last_error: 'database busy' });
    const retried = await deliver(payload, sign(payload));
    expect(retried.status).toBe(200);
    expect((await retried.json()).outcome).toBe('handled');
    expect(events.onPaymentSucceeded).toHaveBeenCalledTimes(2);
    const [after] = await rows(event.id);
    expect(after!.attempts).toBe(2);
    expect(after!.handled_at).not.toBeNull();
  });

  it.each([
    ['a wrong secret', (p: string) => sign(p, 'whsec_someone_else')],
    ['a tampered body', (p: string) => sign(p.replace('1234', '1'))],
    ['garbage', () => 't=1,v1=deadbeef'],
    ['no header', () => null],
  ] as const)('refuses %s with a 400 problem and records nothing', async (_name, signature) => {
    const event = intentEvent('payment_intent.succeeded', succeededIntent(`chk_bad_${seq}`));
    const payload = JSON.stringify(event);
    const res = await deliver(payload, signature(payload));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const body = await res.json();
    expect(body.type).toMatch(/payments\/invalid-webhook-signature$/);
    expect(events.onPaymentSucceeded).not.toHaveBeenCalled();
    expect(await rows(event.id)).toHaveLength(0);
  });

  it('an authorised payment (requires_capture) and a succeeded setup count; other events are acknowledged and ignored', async () => {
    const authorised = intentEvent('payment_intent.amount_capturable_updated', { ...succeededIntent('chk_hook_auth'), status: 'requires_capture' });
    const setup = intentEvent('setup_intent.succeeded', { id: 'seti_1', object: 'setup_intent', status: 'succeeded', metadata: { checkout_id: 'chk_hook_setup' } }, null);
    const other = intentEvent('charge.refunded', { id: 'ch_1', object: 'charge' });
    for (const e of [authorised, setup, other]) {
      const payload = JSON.stringify(e);
      expect((await deliver(payload, sign(payload))).status).toBe(200);
    }
    expect(events.onPaymentSucceeded.mock.calls.map((c) => c[1])).toEqual([
      { provider: 'stripe', eventId: authorised.id, checkoutId: 'chk_hook_auth', paymentId: `${ACCOUNT}:pi_chk_hook_auth`, amount: 1234, currency: 'GBP' },
      { provider: 'stripe', eventId: setup.id, checkoutId: 'chk_hook_setup', paymentId: 'seti_1', amount: 0, currency: '' },
    ]);
    expect(await rows(other.id)).toHaveLength(0);
  });

  it('a failed payment is passed on as a failure with Stripe’s error', async () => {
    const event = intentEvent('payment_intent.payment_failed', {
      ...succeededIntent('chk_hook_failed'), status: 'requires_payment_method',
      last_payment_error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
    });
    const payload = JSON.stringify(event);
    expect((await deliver(payload, sign(payload))).status).toBe(200);
    expect(events.onPaymentSucceeded).not.toHaveBeenCalled();
    expect(events.onPaymentFailed.mock.calls[0]![1]).toMatchObject({
      provider: 'stripe', checkoutId: 'chk_hook_failed', paymentId: `${ACCOUNT}:pi_chk_hook_failed`,
      error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
    });
  });
});

describe('webhook secrets', () => {
  it('accepts events signed by any of the configured endpoint secrets (Connect and platform)', async () => {
    const twoSecrets = await startTestServer({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_API_BASE: fake.url, STRIPE_WEBHOOK_SECRET: `whsec_connect_1, ${WEBHOOK_SECRET}` }, testDb);
    try {
      for (const [secret, n] of [['whsec_connect_1', 1], [WEBHOOK_SECRET, 2]] as const) {
        const payload = JSON.stringify({ id: `evt_two_secrets_${n}`, object: 'event', type: 'payment_intent.succeeded', data: { object: { id: `pi_two_${n}`, object: 'payment_intent', amount: 100, currency: 'gbp', status: 'succeeded', metadata: { checkout_id: 'chk_two' } } } });
        const res = await fetch(`${twoSecrets.url}/api/payments/webhooks/stripe`, {
          method: 'POST', body: payload, headers: { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) },
        });
        expect(res.status).toBe(200);
      }
      expect(events.onPaymentSucceeded).toHaveBeenCalledTimes(2);
    } finally {
      await twoSecrets.close();
    }
  });
});

describe('webhook without configuration', () => {
  it('is not found when STRIPE_WEBHOOK_SECRET is not set', async () => {
    const bare = await startTestServer({}, testDb);
    try {
      const res = await fetch(`${bare.url}/api/payments/webhooks/stripe`, { method: 'POST', body: '{}', headers: { 'stripe-signature': 't=1,v1=x' } });
      expect(res.status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
