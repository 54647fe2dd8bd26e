/** Which provider takes each payment method, by configuration (api/payments/registry.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import {
  isWalletProvider,
  paymentProviderFor,
  paymentProviderNamed,
  providerNameFor,
  publicPaymentConfig,
} from '../../api/payments/registry.ts';
import { StripePaymentProvider } from '../../api/payments/stripe.ts';
import { PayPalPaymentProvider } from '../../api/payments/paypal.ts';
import { TestWalletProvider } from '../../api/payments/test-wallet.ts';
import { TestPaymentProvider } from '../../api/payments/test-provider.ts';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(async () => testDb?.close());

const none = loadConfig({});
const stripeOnly = loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_x' });
const paypalOnly = loadConfig({ PAYPAL_CLIENT_ID: 'client', PAYPAL_CLIENT_SECRET: 'secret' });
const both = loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_x', PAYPAL_CLIENT_ID: 'client', PAYPAL_CLIENT_SECRET: 'secret' });

describe('providerNameFor', () => {
  it.each([
    ['no keys', none, { card: 'test', klarna: 'test', paypal: 'test-wallet', invoice: null, manual: null }],
    ['Stripe only', stripeOnly, { card: 'stripe', klarna: 'stripe', paypal: 'test-wallet', invoice: null, manual: null }],
    ['PayPal only', paypalOnly, { card: 'test', klarna: 'test', paypal: 'paypal', invoice: null, manual: null }],
    ['both', both, { card: 'stripe', klarna: 'stripe', paypal: 'paypal', invoice: null, manual: null }],
  ] as const)('%s', (_name, config, expected) => {
    for (const [method, provider] of Object.entries(expected)) expect(providerNameFor(method, config)).toBe(provider);
  });
});

describe('paymentProviderFor', () => {
  const deps = (config: ReturnType<typeof loadConfig>) => ({ db: testDb.db, now: () => 1_700_000_000, config });

  it('gives the test provider and the test wallet without keys', () => {
    expect(paymentProviderFor(deps(none), 'card')).toBeInstanceOf(TestPaymentProvider);
    const wallet = paymentProviderFor(deps(none), 'paypal');
    expect(wallet).toBeInstanceOf(TestWalletProvider);
    expect(isWalletProvider(wallet)).toBe(true);
    expect(paymentProviderFor(deps(none), 'invoice')).toBeNull();
    expect(paymentProviderFor(deps(none), 'manual')).toBeNull();
  });

  it('gives Stripe and PayPal with keys, one instance per database and configuration', () => {
    const d = deps(both);
    const card = paymentProviderFor(d, 'card');
    expect(card).toBeInstanceOf(StripePaymentProvider);
    expect(paymentProviderFor(d, 'klarna')).toBe(card);
    expect(isWalletProvider(card)).toBe(false);
    const paypal = paymentProviderFor(d, 'paypal');
    expect(paypal).toBeInstanceOf(PayPalPaymentProvider);
    expect(isWalletProvider(paypal)).toBe(true);
    expect(paymentProviderNamed(d, 'stripe')).toBe(card);
  });

  it('finds a stored payment’s provider by name, or null when its keys are gone', () => {
    expect(paymentProviderNamed(deps(none), 'test')).toBeInstanceOf(TestPaymentProvider);
    expect(paymentProviderNamed(deps(none), 'test-wallet')).toBeInstanceOf(TestWalletProvider);
    expect(paymentProviderNamed(deps(none), 'stripe')).toBeNull();
    expect(paymentProviderNamed(deps(none), 'paypal')).toBeNull();
    expect(paymentProviderNamed(deps(none), 'nonsense')).toBeNull();
  });
});

describe('publicPaymentConfig', () => {
  it('tells the browser which widgets to load, never a secret', () => {
    expect(publicPaymentConfig(none)).toEqual({ card: { provider: 'test' }, paypal: { provider: 'test-wallet' } });
    const config = publicPaymentConfig(both);
    expect(config).toEqual({ card: { provider: 'stripe', publishableKey: 'pk_test_x' }, paypal: { provider: 'paypal', clientId: 'client', currency: 'GBP' } });
    expect(JSON.stringify(config)).not.toContain('sk_test_x');
    expect(JSON.stringify(config)).not.toContain('secret');
  });
});
