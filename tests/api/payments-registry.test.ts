/**
 * Which provider takes each payment method (api/payments/registry.ts), by the registered adapters, their keys and
 * PAYMENTS_MODE; and what live mode refuses: test providers, test-payment routes, methods without a provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import {
  adapterFor, availableMethods, describePayments, needsProvider, providerFor, providerNamed, publicPaymentConfig,
} from '../../api/payments/registry.ts';
import { StripePaymentProvider } from '../../api/payments/stripe.ts';
import { PayPalPaymentProvider } from '../../api/payments/paypal.ts';
import { TestWalletProvider } from '../../api/payments/test-wallet.ts';
import { TestPaymentProvider } from '../../api/payments/test-provider.ts';
import { client, contactPayload, IDS, OFFERS, seedCheckoutCatalogue } from './checkout-fixtures.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { PRODUCTION_ENV } from '../helpers/production-env.ts';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(async () => testDb?.close());

const STRIPE = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_x' };
const PAYPAL = { PAYPAL_CLIENT_ID: 'client', PAYPAL_CLIENT_SECRET: 'secret' };
const none = loadConfig({});
const stripeOnly = loadConfig(STRIPE);
const paypalOnly = loadConfig(PAYPAL);
const both = loadConfig({ ...STRIPE, ...PAYPAL });
const liveStripeOnly = loadConfig({ ...STRIPE, PAYMENTS_MODE: 'live' });
const liveNone = loadConfig({ PAYMENTS_MODE: 'live' });

describe('PAYMENTS_MODE', () => {
  it('is test on http and live on https unless set', () => {
    expect(loadConfig({}).PAYMENTS_MODE).toBe('test');
    expect(loadConfig({ ...PRODUCTION_ENV }).PAYMENTS_MODE).toBe('live');
    expect(loadConfig({ PAYMENTS_MODE: 'live' }).PAYMENTS_MODE).toBe('live');
  });

  it('refuses test payments under https at start-up, unless a staging demo allows them explicitly', () => {
    expect(() => loadConfig({ ...PRODUCTION_ENV, PAYMENTS_MODE: 'test' })).toThrow(/PAYMENTS_MODE.*test payments under https/);
    expect(loadConfig({ ...PRODUCTION_ENV, PAYMENTS_MODE: 'test', PAYMENTS_ALLOW_TEST_ON_HTTPS: 'true' }).PAYMENTS_MODE).toBe('test');
  });

  it('refuses a live Stripe secret key without its publishable key (the card form could not load)', () => {
    expect(() => loadConfig({ PAYMENTS_MODE: 'live', STRIPE_SECRET_KEY: 'sk_live_x' })).toThrow(/STRIPE_PUBLISHABLE_KEY/);
  });
});

describe('which provider takes a method', () => {
  it.each([
    ['test mode, no keys', none, { card: 'test', klarna: 'test', paypal: 'test-wallet', invoice: null, manual: null }],
    ['test mode, Stripe only', stripeOnly, { card: 'stripe', klarna: 'stripe', paypal: 'test-wallet', invoice: null, manual: null }],
    ['test mode, PayPal only', paypalOnly, { card: 'test', klarna: 'test', paypal: 'paypal', invoice: null, manual: null }],
    ['test mode, both', both, { card: 'stripe', klarna: 'stripe', paypal: 'paypal', invoice: null, manual: null }],
    ['live mode, Stripe only', liveStripeOnly, { card: 'stripe', klarna: 'stripe', paypal: null, invoice: null, manual: null }],
    ['live mode, no keys', liveNone, { card: null, klarna: null, paypal: null, invoice: null, manual: null }],
  ] as const)('%s', (_name, config, expected) => {
    for (const [method, provider] of Object.entries(expected)) expect(adapterFor(config, method)?.name ?? null).toBe(provider);
  });

  it('invoice and in-person payment need no provider; the others do', () => {
    expect(['card', 'paypal', 'klarna', 'invoice', 'manual'].filter(needsProvider)).toEqual(['card', 'paypal', 'klarna']);
  });

  it('in live mode only methods with a configured provider (and the offline ones) are available', () => {
    expect(availableMethods(none)).toEqual(['card', 'paypal', 'klarna', 'invoice', 'manual']);
    expect(availableMethods(liveStripeOnly)).toEqual(['card', 'klarna', 'invoice', 'manual']);
    expect(availableMethods(liveNone)).toEqual(['invoice', 'manual']);
  });

  it('says at start-up which methods are live and which provider takes them', () => {
    expect(describePayments(liveStripeOnly)).toEqual({
      mode: 'live', methods: { card: 'stripe', paypal: 'not offered', klarna: 'stripe', invoice: 'offline', manual: 'offline' },
    });
  });
});

describe('provider instances', () => {
  const deps = (config: ReturnType<typeof loadConfig>) => ({ db: testDb.db, now: () => 1_700_000_000, config });

  it('gives the test provider and the test wallet in test mode without keys; the wallet captures', () => {
    expect(providerFor(deps(none), 'card')).toBeInstanceOf(TestPaymentProvider);
    const wallet = providerFor(deps(none), 'paypal');
    expect(wallet).toBeInstanceOf(TestWalletProvider);
    expect(typeof wallet?.capturePayment).toBe('function');
    expect(providerFor(deps(none), 'invoice')).toBeNull();
  });

  it('gives Stripe and PayPal with keys, one instance per database and configuration', () => {
    const d = deps(both);
    const card = providerFor(d, 'card');
    expect(card).toBeInstanceOf(StripePaymentProvider);
    expect(providerFor(d, 'klarna')).toBe(card);
    expect(card?.capturePayment).toBeUndefined();
    const paypal = providerFor(d, 'paypal');
    expect(paypal).toBeInstanceOf(PayPalPaymentProvider);
    expect(paypal?.displayName).toBe('PayPal');
    expect(providerNamed(d, 'stripe')).toBe(card);
  });

  it('finds a stored payment’s provider by name, or null when it does not exist here', () => {
    expect(providerNamed(deps(none), 'test')).toBeInstanceOf(TestPaymentProvider);
    expect(providerNamed(deps(none), 'test-wallet')).toBeInstanceOf(TestWalletProvider);
    expect(providerNamed(deps(none), 'stripe')).toBeNull();
    expect(providerNamed(deps(none), 'nonsense')).toBeNull();
    // Live mode: the test providers are gone, whatever a stored payment says.
    expect(providerNamed(deps(liveStripeOnly), 'test')).toBeNull();
    expect(providerNamed(deps(liveStripeOnly), 'test-wallet')).toBeNull();
  });
});

describe('publicPaymentConfig', () => {
  it('tells the browser which widgets to load per offered method, never a secret', () => {
    expect(publicPaymentConfig(none)).toEqual({ card: { provider: 'test' }, paypal: { provider: 'test-wallet' }, klarna: { provider: 'test' } });
    const config = publicPaymentConfig(both);
    expect(config).toEqual({
      card: { provider: 'stripe', publishableKey: 'pk_test_x' }, klarna: { provider: 'stripe', publishableKey: 'pk_test_x' },
      paypal: { provider: 'paypal', clientId: 'client', currency: 'GBP' },
    });
    expect(JSON.stringify(config)).not.toContain('sk_test_x');
    expect(JSON.stringify(config)).not.toContain('secret');
    expect(publicPaymentConfig(liveStripeOnly)).not.toHaveProperty('paypal');
  });
});

describe('live mode through HTTP (Stripe keys, no PayPal keys)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ...STRIPE, PAYMENTS_MODE: 'live', STRIPE_API_BASE: 'http://127.0.0.1:1', RATE_LIMIT_LOGIN_PER_IP: '100000', LOG_LEVEL: 'silent' });
    await seedCheckoutCatalogue(server.db, Math.floor(Date.now() / 1000));
  });
  afterAll(async () => server?.close());

  it('does not offer the wallet method, whose provider is not configured', async () => {
    const res = await client(server).get(`/checkout/payment-options?courseId=${IDS.raceCourse}&educatorId=${IDS.educator}`);
    expect(res.body).toMatchObject({ card: { enabled: true }, klarna: { enabled: true }, paypal: { enabled: false }, invoice: { enabled: true } });
  });

  it('refuses the wallet method in the checkout instead of recording a payment no one took', async () => {
    const { cookie, user } = await signUpAndLogin(server);
    const api = client(server, cookie);
    const init = await api.initialise('booking', { courseId: IDS.raceCourse, occurrenceId: IDS.raceOcc });
    await api.submit(init.body._id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.race, quantity: 1 }] });
    await api.submit(init.body._id, 'contact details filled', contactPayload(user.email));
    const res = await api.submit(init.body._id, 'payment method selected', { paymentMethod: 'paypal' });
    expect(res.status).toBe(400);
    expect(res.body.properties).toEqual([{ key: 'payload.paymentMethod', name: 'Payment method', message: 'is not available for this course' }]);
    const payments = await server.db.selectFrom('test_payments').selectAll().execute();
    expect(payments).toHaveLength(0);
  });

  it('has no test-payment routes and no webhook for a test provider', async () => {
    expect((await client(server).get('/test-payments/tpi_anything')).status).toBe(404);
    expect((await client(server).post('/test-payments/tpi_anything/confirm', { card_number: '4242424242424242', client_secret: 'x' })).status).toBe(404);
    expect((await client(server).post('/payments/webhooks/test', {})).status).toBe(404);
  });
});
