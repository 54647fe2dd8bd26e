/**
 * Partial refunds through the live providers' adapters, against the fake Stripe and PayPal APIs (no network): once per
 * idempotency key — asked again, the provider answers with the refund it made — for exactly the amount asked, on the
 * payment's own account; and the test provider keeps the same rules offline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../helpers/fake-stripe.ts';
import { FAKE_PAYPAL_CLIENT_ID, FAKE_PAYPAL_SECRET, startFakePayPal, type FakePayPal } from '../helpers/fake-paypal.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { StripePaymentProvider } from '../../api/payments/stripe.ts';
import { PayPalClient, PayPalPaymentProvider } from '../../api/payments/paypal.ts';
import { TestPaymentProvider } from '../../api/payments/test-provider.ts';
import { ProblemError } from '../../src/domain/problems.ts';

const ACCOUNT = 'acct_1RefundEducator';
let stripe: FakeStripe;
let paypal: FakePayPal;
let testDb: TestDb;

beforeAll(async () => {
  stripe = await startFakeStripe();
  paypal = await startFakePayPal();
  testDb = await createTestDb();
  await testDb.db.insertInto('educators').values({
    id: 'edu-refunds', slug: 'edu-refunds', name: 'Refunds', cover_url: null, logo_url: null, address: null, phone_number: null, email: null, tos: null,
    cancellation_allowed: null, color_brand: null, on_color_brand: null, form_ref: null, created_at: 1_700_000_000,
    feature_flags: { hide_marketing_consent: false, hide_terms: false, hide_pricing: false, hide_social_prompts: false },
    third_party_codes: {}, vat_settings: { enabled: false, is_vat_absorbed: false }, links: {}, working_hours: {}, enquiry_types: [],
  }).execute();
  await testDb.db.insertInto('educator_payment_accounts').values({ educator_id: 'edu-refunds', provider: 'stripe', account_id: ACCOUNT, created_at: 1_700_000_000 }).execute();
});

afterAll(async () => {
  await testDb?.close();
  await stripe?.close();
  await paypal?.close();
});

describe('Stripe', () => {
  it('refunds part of a payment once per key, on the connected account, and finds it again when the key is forgotten', async () => {
    const provider = StripePaymentProvider.fromConfig(testDb.db, { STRIPE_SECRET_KEY: 'sk_test_refunds', STRIPE_API_BASE: stripe.url });
    const payment = await provider.createPayment(3000, 'GBP', { checkout_id: 'chk_part', educator_id: 'edu-refunds' });
    stripe.update(payment.intentId, { status: 'succeeded' });
    const first = await provider.refund(payment.id, { amount: 1200, currency: 'GBP', idempotencyKey: 'refund_rfd_1' });
    expect(first).toMatchObject({ status: 'succeeded', amount: 1200 });
    const [req] = stripe.requestsTo('POST', /^\/v1\/refunds$/);
    expect(req!.headers['stripe-account']).toBe(ACCOUNT);
    expect(req!.headers['idempotency-key']).toBe('refund_rfd_1');
    expect(req!.form).toMatchObject({ payment_intent: payment.intentId, amount: '1200', 'metadata[refund_key]': 'refund_rfd_1' });
    // Asked again (a lost answer): the same refund, found among the intent's refunds by its key — no second POST, so
    // it does not depend on Stripe still remembering the idempotency key (Stripe forgets them after a day).
    const again = await provider.refund(payment.id, { amount: 1200, currency: 'GBP', idempotencyKey: 'refund_rfd_1' });
    expect(again.id).toBe(first.id);
    expect(stripe.requestsTo('POST', /^\/v1\/refunds$/)).toHaveLength(1);
    expect(stripe.refunds).toHaveLength(1);
    // Another refund is another key; more than is left is refused.
    await provider.refund(payment.id, { amount: 1800, currency: 'GBP', idempotencyKey: 'refund_rfd_2' });
    await expect(provider.refund(payment.id, { amount: 1, currency: 'GBP', idempotencyKey: 'refund_rfd_3' })).rejects.toBeInstanceOf(ProblemError);
    expect(stripe.refunds.map((r) => r.refund.amount)).toEqual([1200, 1800]);
  });
});

describe('PayPal', () => {
  it('refunds part of a capture with the key as PayPal-Request-Id; a repeat is answered with the same refund', async () => {
    const provider = new PayPalPaymentProvider(testDb.db, new PayPalClient({ baseUrl: paypal.url, clientId: FAKE_PAYPAL_CLIENT_ID, clientSecret: FAKE_PAYPAL_SECRET }));
    const payment = await provider.createPayment(2500, 'GBP', { checkout_id: 'chk_pp_part' });
    paypal.orders.get(payment.id)!.status = 'APPROVED';
    const captured = await provider.capturePayment(payment.id);
    const first = await provider.refund(payment.id, { amount: 1000, currency: 'GBP', idempotencyKey: 'refund_rfd_pp' });
    expect(first).toMatchObject({ status: 'succeeded', amount: 1000 });
    const [req] = paypal.requestsTo('POST', /^\/v2\/payments\/captures\/.+\/refund$/);
    expect(req!.path).toBe(`/v2/payments/captures/${captured.captureId}/refund`);
    expect(req!.headers['paypal-request-id']).toBe('refund_rfd_pp');
    expect(req!.json).toEqual({ amount: { value: '10.00', currency_code: 'GBP' } });
    const again = await provider.refund(payment.id, { amount: 1000, currency: 'GBP', idempotencyKey: 'refund_rfd_pp' });
    expect(again.id).toBe(first.id);
    expect(paypal.refunds).toHaveLength(1);
  });
});

describe('the test provider', () => {
  it('keeps one refund per key, never more than was paid, and marks a payment refunded in full', async () => {
    const provider = new TestPaymentProvider(testDb.db, { now: () => 1_800_000_000 });
    const payment = await provider.createPayment(2000, 'GBP', {});
    await testDb.db.updateTable('test_payments').set({ status: 'succeeded' }).where('id', '=', payment.id).execute();
    const [a, b] = await Promise.all([
      provider.refund(payment.id, { amount: 500, currency: 'GBP', idempotencyKey: 'k1' }),
      provider.refund(payment.id, { amount: 500, currency: 'GBP', idempotencyKey: 'k1' }),
    ]);
    expect(a.id).toBe(b.id);
    await expect(provider.refund(payment.id, { amount: 1501, currency: 'GBP', idempotencyKey: 'k2' })).rejects.toBeInstanceOf(ProblemError);
    await expect(provider.refund('tpi_nope', { amount: 1, currency: 'GBP', idempotencyKey: 'k3' })).rejects.toBeInstanceOf(ProblemError);
    await provider.refund(payment.id, { amount: 1500, currency: 'GBP', idempotencyKey: 'k4' });
    const rows = await testDb.db.selectFrom('test_refunds').select('amount').where('payment_id', '=', payment.id).execute();
    expect(rows.map((r) => Number(r.amount)).sort()).toEqual([1500, 500]);
    expect((await provider.retrievePayment(payment.id))!.status).toBe('refunded');
  });
});
