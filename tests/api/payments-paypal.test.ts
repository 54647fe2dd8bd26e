/**
 * The PayPal Orders v2 client and provider against a fake PayPal on 127.0.0.1 (tests/helpers/fake-paypal.ts),
 * the built-in test wallet, and the PayPal webhook through the real server. No network.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FAKE_PAYPAL_CLIENT_ID,
  FAKE_PAYPAL_GOOD_SIGNATURE,
  FAKE_PAYPAL_SECRET,
  startFakePayPal,
  type FakePayPal,
} from '../helpers/fake-paypal.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ProblemError, PAYMENT_PROCESSING_MESSAGE, WALLET_PAYMENT_FAILED_MESSAGE } from '../../src/domain/problems.ts';
import { PayPalClient, PayPalPaymentProvider, decimalToPence, penceToDecimal } from '../../api/payments/paypal.ts';
import { TestWalletProvider, TEST_WALLET_DECLINED_AMOUNT } from '../../api/payments/test-wallet.ts';

const events = vi.hoisted(() => ({
  onPaymentSucceeded: vi.fn(async (..._args: unknown[]) => {}),
  onPaymentFailed: vi.fn(async (..._args: unknown[]) => {}),
}));
vi.mock('../../api/payments/events.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/payments/events.ts')>()),
  onPaymentSucceeded: events.onPaymentSucceeded,
  onPaymentFailed: events.onPaymentFailed,
}));

const SDK_ERROR_MESSAGE = 'An error occurred with PayPal. Please try again or use a different payment method.';
const WEBHOOK_ID = 'WH1FAKEWEBHOOKID';
const EDUCATOR = 'edu-paypal-1';
const MERCHANT = 'MERCHANT123';

let fake: FakePayPal;
let testDb: TestDb;
let server: TestServer;
let clock = 1_000_000;

const newClient = (timeoutMs = 2000) =>
  new PayPalClient({ baseUrl: fake.url, clientId: FAKE_PAYPAL_CLIENT_ID, clientSecret: FAKE_PAYPAL_SECRET, timeoutMs, nowMs: () => clock });
const newProvider = (timeoutMs?: number) => new PayPalPaymentProvider(testDb.db, newClient(timeoutMs));

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
  fake = await startFakePayPal();
  testDb = await createTestDb();
  await testDb.db
    .insertInto('educators')
    .values({
      id: EDUCATOR, slug: EDUCATOR, name: 'PayPal Educator', cover_url: null, logo_url: null, address: null, phone_number: null, email: null, tos: null,
      cancellation_allowed: null, color_brand: null, on_color_brand: null, form_ref: null, created_at: 1_700_000_000,
      feature_flags: { hide_marketing_consent: false, hide_terms: false, hide_pricing: false, hide_social_prompts: false },
      third_party_codes: {}, vat_settings: { enabled: false, is_vat_absorbed: false }, links: {}, working_hours: {}, enquiry_types: [],
    })
    .execute();
  await testDb.db.insertInto('educator_payment_accounts').values({ educator_id: EDUCATOR, provider: 'paypal', account_id: MERCHANT, created_at: 1_700_000_000 }).execute();
  server = await startTestServer(
    { PAYPAL_CLIENT_ID: FAKE_PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET: FAKE_PAYPAL_SECRET, PAYPAL_BASE_URL: fake.url, PAYPAL_WEBHOOK_ID: WEBHOOK_ID },
    testDb,
  );
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

describe('amounts', () => {
  it('sends pence as pounds with 2 decimals and reads them back', () => {
    expect(penceToDecimal(1234)).toBe('12.34');
    expect(penceToDecimal(5)).toBe('0.05');
    expect(penceToDecimal(100)).toBe('1.00');
    expect(penceToDecimal(123456789)).toBe('1234567.89');
    expect(() => penceToDecimal(12.5)).toThrow();
    expect(() => penceToDecimal(-1)).toThrow();
    expect(decimalToPence('12.34')).toBe(1234);
    expect(decimalToPence('12.3')).toBe(1230);
    expect(decimalToPence('12')).toBe(1200);
    expect(decimalToPence('abc')).toBeNaN();
  });
});

describe('OAuth2 token', () => {
  it('fetches one with client credentials (Basic auth) and reuses it until shortly before it expires', async () => {
    const client = newClient();
    const token = await client.accessToken();
    const [req] = fake.requestsTo('POST', /^\/v1\/oauth2\/token$/);
    expect(req!.headers.authorization).toBe(`Basic ${Buffer.from(`${FAKE_PAYPAL_CLIENT_ID}:${FAKE_PAYPAL_SECRET}`).toString('base64')}`);
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req!.rawBody).toBe('grant_type=client_credentials');
    expect(await client.accessToken()).toBe(token);
    expect(fake.requestsTo('POST', /^\/v1\/oauth2\/token$/)).toHaveLength(1);

    clock += (fake.tokenLifetime - 61) * 1000;
    expect(await client.accessToken()).toBe(token);
    clock += 2000; // now within 60 s of expiry
    expect(await client.accessToken()).not.toBe(token);
    expect(fake.requestsTo('POST', /^\/v1\/oauth2\/token$/)).toHaveLength(2);
  });

  it('asks once for concurrent callers', async () => {
    const client = newClient();
    const tokens = await Promise.all([client.accessToken(), client.accessToken(), client.accessToken()]);
    expect(new Set(tokens).size).toBe(1);
    expect(fake.requestsTo('POST', /^\/v1\/oauth2\/token$/)).toHaveLength(1);
  });

  it('fetches a new token once when PayPal answers 401 (revoked token)', async () => {
    const provider = newProvider();
    await provider.createPayment(100, 'GBP', { checkout_id: 'chk_tok_1' });
    fake.revokeTokens();
    const payment = await provider.createPayment(200, 'GBP', { checkout_id: 'chk_tok_2' });
    expect(payment.status).toBe('requires_payment_method');
    expect(fake.requestsTo('POST', /^\/v1\/oauth2\/token$/)).toHaveLength(2);
  });

  it('bad credentials → sdk_error (500, naming PayPal)', async () => {
    const provider = new PayPalPaymentProvider(testDb.db, new PayPalClient({ baseUrl: fake.url, clientId: 'wrong', clientSecret: 'wrong' }));
    const problem = await problemOf(() => provider.createPayment(100, 'GBP', { checkout_id: 'chk_badcreds' }));
    expect(problem).toMatchObject({ status: 500, detail: SDK_ERROR_MESSAGE });
  });
});

describe('create order', () => {
  it('creates intent CAPTURE, GBP 12.34 for 1234 pence, custom_id = checkout id, PayPal-Request-Id, educator as payee', async () => {
    const provider = newProvider();
    const payment = await provider.createPayment(1234, 'GBP', { checkout_id: 'chk_pp_1', educator_id: EDUCATOR });
    const [req] = fake.requestsTo('POST', /^\/v2\/checkout\/orders$/);
    expect(req!.headers.authorization).toMatch(/^Bearer A21AA/);
    expect(req!.headers['paypal-request-id']).toBe('checkout-chk_pp_1-order-1234-GBP');
    expect(req!.json).toEqual({
      intent: 'CAPTURE',
      purchase_units: [
        { reference_id: 'chk_pp_1', custom_id: 'chk_pp_1', amount: { currency_code: 'GBP', value: '12.34' }, payee: { merchant_id: MERCHANT } },
      ],
    });
    expect(payment).toMatchObject({ status: 'requires_payment_method', amount: 1234, currency: 'GBP', metadata: { checkout_id: 'chk_pp_1' } });
    expect(payment.id).toBe(payment.clientSecret);
    expect(fake.orders.has(payment.id)).toBe(true);
  });

  it('the same checkout and amount gives the same order (PayPal-Request-Id replay)', async () => {
    const provider = newProvider();
    const a = await provider.createPayment(700, 'GBP', { checkout_id: 'chk_pp_same' });
    const b = await provider.createPayment(700, 'GBP', { checkout_id: 'chk_pp_same' });
    expect(b.id).toBe(a.id);
  });

  it.each([
    ['a 500', 500, { name: 'INTERNAL_SERVER_ERROR', message: 'An internal server error occurred.' }],
    ['a 400', 400, { name: 'INVALID_REQUEST', details: [{ issue: 'INVALID_PARAMETER_VALUE' }] }],
  ])('%s from PayPal → sdk_error 500 "An error occurred with PayPal…"', async (_name, status, body) => {
    fake.failNext({ method: 'POST', path: /^\/v2\/checkout\/orders$/ }, status, body);
    const problem = await problemOf(() => newProvider().createPayment(1234, 'GBP', { checkout_id: 'chk_pp_fail' }));
    expect(problem).toMatchObject({ status: 500, title: 'Payment Error', detail: SDK_ERROR_MESSAGE });
  });

  it('a PayPal that does not answer in time → sdk_error (AbortSignal.timeout)', async () => {
    const provider = newProvider(150);
    await provider.client.accessToken();
    // The fake would answer successfully after a second: only the client's own timeout turns it into a problem.
    fake.delayMs = 1000;
    const problem = await problemOf(() => provider.createPayment(1234, 'GBP', { checkout_id: 'chk_pp_slow' }));
    expect(problem).toMatchObject({ status: 500, detail: SDK_ERROR_MESSAGE });
    fake.delayMs = 0;
  });
});

describe('capture (spec 4: success only when COMPLETED)', () => {
  async function approvedOrder(checkoutId: string, amount = 1234) {
    const provider = newProvider();
    const payment = await provider.createPayment(amount, 'GBP', { checkout_id: checkoutId });
    fake.orders.get(payment.id)!.status = 'APPROVED';
    return { provider, orderId: payment.id };
  }

  it('COMPLETED → a succeeded payment for the amount, captured with a PayPal-Request-Id per order', async () => {
    const { provider, orderId } = await approvedOrder('chk_cap_ok');
    expect((await provider.retrievePayment(orderId))?.status).toBe('requires_confirmation');
    const payment = await provider.capturePayment(orderId, { checkoutId: 'chk_cap_ok', amount: 1234, currency: 'GBP' });
    expect(payment).toMatchObject({ id: orderId, status: 'succeeded', amount: 1234, currency: 'GBP', metadata: { checkout_id: 'chk_cap_ok' } });
    expect(payment.captureId).toMatch(/^CAP/);
    const [req] = fake.requestsTo('POST', new RegExp(`^/v2/checkout/orders/${orderId}/capture$`));
    expect(req!.headers['paypal-request-id']).toBe(`capture-${orderId}`);
    expect(req!.headers['content-type']).toBe('application/json');
    expect((await provider.retrievePayment(orderId))?.status).toBe('succeeded');
  });

  it('capturing again is safe (replayed, or read back when already captured)', async () => {
    const { provider, orderId } = await approvedOrder('chk_cap_twice');
    const first = await provider.capturePayment(orderId);
    const replayed = await provider.capturePayment(orderId);
    expect(replayed.captureId).toBe(first.captureId);
    const other = newProvider(); // another process: same request id, same answer
    expect((await other.capturePayment(orderId)).status).toBe('succeeded');
    fake.failNext({ method: 'POST', path: /\/capture$/ }, 422, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_ALREADY_CAPTURED' }] });
    expect((await provider.capturePayment(orderId)).captureId).toBe(first.captureId);
  });

  it.each(['DECLINED', 'PENDING'] as const)('a capture %s → payment_failed 400 "Payment could not be completed. Please try again."', async (outcome) => {
    const { provider, orderId } = await approvedOrder(`chk_cap_${outcome}`);
    fake.setCaptureOutcome(orderId, outcome);
    const problem = await problemOf(() => provider.capturePayment(orderId));
    expect(problem).toMatchObject({ status: 400, title: 'Payment Error', detail: 'Payment could not be completed. Please try again.' });
    expect(WALLET_PAYMENT_FAILED_MESSAGE).toBe('Payment could not be completed. Please try again.');
  });

  it.each(['INSTRUMENT_DECLINED', 'ORDER_NOT_APPROVED', 'PAYER_ACTION_REQUIRED'])('a 422 %s → payment_failed 400', async (issue) => {
    const { provider, orderId } = await approvedOrder(`chk_cap_${issue}`);
    fake.setCaptureOutcome(orderId, { status: 422, body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue, description: 'x' }], debug_id: 'd1' } });
    expect(await problemOf(() => provider.capturePayment(orderId))).toMatchObject({ status: 400, detail: WALLET_PAYMENT_FAILED_MESSAGE });
  });

  it.each([
    ['a 500', { status: 500, body: { name: 'INTERNAL_SERVER_ERROR' } }],
    ['a 404', { status: 404, body: { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] } }],
    ['another 422', { status: 422, body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'DUPLICATE_INVOICE_ID' }] } }],
  ])('%s → capture_error 500 "An error occurred while processing your payment. Please try again."', async (_name, outcome) => {
    const { provider, orderId } = await approvedOrder(`chk_cap_err_${outcome.status}`);
    fake.setCaptureOutcome(orderId, outcome);
    const problem = await problemOf(() => provider.capturePayment(orderId));
    expect(problem).toMatchObject({ status: 500, detail: 'An error occurred while processing your payment. Please try again.' });
    expect(problem.detail).toBe(PAYMENT_PROCESSING_MESSAGE);
  });

  it('an unknown order → capture_error; a completed capture for another amount or checkout → capture_error', async () => {
    const provider = newProvider();
    expect((await problemOf(() => provider.capturePayment('NOSUCHORDER'))).status).toBe(500);
    const { orderId } = await approvedOrder('chk_cap_amount', 1500);
    expect(await problemOf(() => provider.capturePayment(orderId, { amount: 1499 }))).toMatchObject({ status: 500, detail: PAYMENT_PROCESSING_MESSAGE });
    expect(await problemOf(() => provider.capturePayment(orderId, { checkoutId: 'chk_someone_else' }))).toMatchObject({ status: 500 });
  });

  it('retrieving an order PayPal does not know is null; refund refunds its capture once', async () => {
    const { provider, orderId } = await approvedOrder('chk_refund');
    expect(await provider.retrievePayment('NOSUCHORDER')).toBeNull();
    const captured = await provider.capturePayment(orderId);
    await provider.refundPayment(orderId);
    const [refund] = fake.requestsTo('POST', /^\/v2\/payments\/captures\/.+\/refund$/);
    expect(refund!.path).toBe(`/v2/payments/captures/${captured.captureId}/refund`);
    expect(refund!.headers['paypal-request-id']).toBe(`refund-${captured.captureId}`);
  });
});

describe('the built-in test wallet', () => {
  const wallet = () => new TestWalletProvider(testDb.db, { now: () => 1_700_000_000 });

  it('creates an approved order and captures it COMPLETED', async () => {
    const w = wallet();
    const order = await w.createPayment(1234, 'GBP', { checkout_id: 'chk_tw_1' });
    expect(order).toMatchObject({ status: 'requires_confirmation', amount: 1234, currency: 'GBP' });
    const captured = await w.capturePayment(order.id, { checkoutId: 'chk_tw_1', amount: 1234, currency: 'GBP' });
    expect(captured.status).toBe('succeeded');
    expect((await wallet().retrievePayment(order.id))?.status).toBe('succeeded'); // any process sees it
    expect((await w.capturePayment(order.id)).status).toBe('succeeded'); // again: same answer
  });

  it(`refuses £${TEST_WALLET_DECLINED_AMOUNT / 100} (payment_failed 400), fails the ERROR scenario (capture_error 500) and a wrong amount`, async () => {
    const w = wallet();
    const declined = await w.createPayment(TEST_WALLET_DECLINED_AMOUNT, 'GBP', { checkout_id: 'chk_tw_2' });
    expect(await problemOf(() => w.capturePayment(declined.id))).toMatchObject({ status: 400, detail: WALLET_PAYMENT_FAILED_MESSAGE });
    expect((await w.retrievePayment(declined.id))?.status).toBe('requires_payment_method');
    const broken = await w.createPayment(500, 'GBP', { checkout_id: 'chk_tw_3', test_wallet_scenario: 'ERROR' });
    expect(await problemOf(() => w.capturePayment(broken.id))).toMatchObject({ status: 500, detail: PAYMENT_PROCESSING_MESSAGE });
    const fine = await w.createPayment(600, 'GBP', { checkout_id: 'chk_tw_4' });
    expect(await problemOf(() => w.capturePayment(fine.id, { amount: 601 }))).toMatchObject({ status: 500 });
    expect(await problemOf(() => w.capturePayment('not-an-order'))).toMatchObject({ status: 500 });
  });
});

describe('POST /api/payments/webhooks/paypal', () => {
  let seq = 0;
  function captureEvent(checkoutId: string, orderId: string, status = 'COMPLETED', type = 'PAYMENT.CAPTURE.COMPLETED') {
    seq += 1;
    return {
      id: `WH-${Date.now()}-${seq}`,
      event_version: '1.0',
      create_time: '2026-01-01T10:00:00.000Z',
      resource_type: 'capture',
      event_type: type,
      summary: 'Payment completed for GBP 12.34 GBP',
      resource: {
        id: `CAP-${seq}`,
        status,
        amount: { currency_code: 'GBP', value: '12.34' },
        final_capture: true,
        custom_id: checkoutId,
        supplementary_data: { related_ids: { order_id: orderId } },
      },
    };
  }
  function deliver(body: string, signature: string | null = FAKE_PAYPAL_GOOD_SIGNATURE) {
    return fetch(`${server.url}/api/payments/webhooks/paypal`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-1d93a270',
        'paypal-transmission-id': '69cd13f0-d67a-11e5-baa3-778b53f4ae55',
        'paypal-transmission-time': '2026-01-01T10:00:01Z',
        ...(signature ? { 'paypal-transmission-sig': signature } : {}),
      },
      body,
    });
  }
  const rows = (eventId: string) => testDb.db.selectFrom('payment_events').selectAll().where('event_id', '=', eventId).execute();

  it('verifies with PayPal (the event sent as received), records it and tells the checkout once', async () => {
    const event = captureEvent('chk_wh_1', 'ORDER1');
    const body = JSON.stringify(event, null, 2); // formatting kept byte for byte
    const res = await deliver(body);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, outcome: 'handled', eventId: event.id });
    const [verify] = fake.requestsTo('POST', /^\/v1\/notifications\/verify-webhook-signature$/);
    expect(verify!.json).toMatchObject({
      auth_algo: 'SHA256withRSA', transmission_id: '69cd13f0-d67a-11e5-baa3-778b53f4ae55', transmission_sig: FAKE_PAYPAL_GOOD_SIGNATURE,
      transmission_time: '2026-01-01T10:00:01Z', webhook_id: WEBHOOK_ID, webhook_event: event,
    });
    expect(verify!.rawBody).toContain(`"webhook_event":${body}`);
    expect(events.onPaymentSucceeded).toHaveBeenCalledTimes(1);
    expect(events.onPaymentSucceeded.mock.calls[0]![1]).toEqual({
      provider: 'paypal', eventId: event.id, checkoutId: 'chk_wh_1', paymentId: 'ORDER1', amount: 1234, currency: 'GBP',
    });
    expect(await rows(event.id)).toHaveLength(1);
  });

  it('a duplicate delivery is acknowledged and does nothing', async () => {
    const body = JSON.stringify(captureEvent('chk_wh_dup', 'ORDER2'));
    const first = await deliver(body);
    const second = await deliver(body);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect((await second.json()).outcome).toBe('duplicate');
    expect(events.onPaymentSucceeded).toHaveBeenCalledTimes(1);
    expect(await rows(JSON.parse(body).id)).toHaveLength(1);
  });

  it('a signature PayPal does not confirm → 400 problem, nothing recorded', async () => {
    const event = captureEvent('chk_wh_bad', 'ORDER3');
    const res = await deliver(JSON.stringify(event), 'forged');
    expect(res.status).toBe(400);
    expect((await res.json()).type).toMatch(/payments\/invalid-webhook-signature$/);
    expect(events.onPaymentSucceeded).not.toHaveBeenCalled();
    expect(await rows(event.id)).toHaveLength(0);
  });

  it('missing PAYPAL-* headers or a body that is not an event → 400 without asking PayPal', async () => {
    expect((await deliver(JSON.stringify(captureEvent('chk_wh_nohdr', 'ORDER4')), null)).status).toBe(400);
    expect((await deliver('not json')).status).toBe(400);
    expect((await deliver('{"hello":"world"}')).status).toBe(400);
    expect(fake.requestsTo('POST', /verify-webhook-signature/)).toHaveLength(0);
  });

  it('a denied capture is passed on as a failure; other events are acknowledged and ignored', async () => {
    const denied = captureEvent('chk_wh_denied', 'ORDER5', 'DECLINED', 'PAYMENT.CAPTURE.DENIED');
    const other = { ...captureEvent('chk_wh_other', 'ORDER6'), event_type: 'CHECKOUT.ORDER.APPROVED' };
    expect((await deliver(JSON.stringify(denied))).status).toBe(200);
    const res = await deliver(JSON.stringify(other));
    expect((await res.json()).outcome).toBe('ignored');
    expect(events.onPaymentSucceeded).not.toHaveBeenCalled();
    expect(events.onPaymentFailed.mock.calls[0]![1]).toMatchObject({ provider: 'paypal', checkoutId: 'chk_wh_denied', paymentId: 'ORDER5' });
    expect(await rows(other.id)).toHaveLength(0);
  });
});
