/**
 * Which provider takes each payment method (spec 3 "Payment options"), decided by configuration
 * (DESIGN 6 "Offline by default, real by configuration"):
 *
 * | method  | with keys                            | without keys                            |
 * |---------|--------------------------------------|-----------------------------------------|
 * | card    | stripe   (STRIPE_SECRET_KEY set)     | test        (test-provider.ts, test cards) |
 * | klarna  | stripe   (STRIPE_SECRET_KEY set)     | test                                    |
 * | paypal  | paypal   (PAYPAL_CLIENT_ID set)      | test-wallet (test-wallet.ts)            |
 * | invoice | none: the engine records the invoice details                                   |
 * | manual  | none: paid in person                                                           |
 *
 * Every provider implements PaymentProvider (types.ts). Wallet providers (paypal, test-wallet) also
 * have `capturePayment` (see WalletProvider). Instances are cached per database handle: they hold
 * SDK clients, not state another process would need.
 */
import type { Deps } from '../app.ts';
import type { Config } from '../config.ts';
import type { PaymentMethod } from '../../src/domain/checkout/paymentMethods.ts';
import type { PaymentProvider, ProviderPayment } from './types.ts';
import { TestPaymentProvider } from './test-provider.ts';
import { StripePaymentProvider, STRIPE_PROVIDER } from './stripe.ts';
import { PayPalPaymentProvider, PAYPAL_PROVIDER } from './paypal.ts';
import { TestWalletProvider, TEST_WALLET_PROVIDER } from './test-wallet.ts';

export type PaymentProviderName = 'test' | typeof STRIPE_PROVIDER | typeof PAYPAL_PROVIDER | typeof TEST_WALLET_PROVIDER;

/** A wallet-payment provider: the buyer approves an order, then we capture it (spec 4, 7). */
export interface WalletProvider extends PaymentProvider {
  /** The name in "An error occurred with {wallet provider}…" (spec 8). */
  readonly displayName: string;
  /** Resolves only with a succeeded payment; otherwise throws the spec 8 wallet problem. */
  capturePayment(id: string, expect?: { checkoutId?: string; amount?: number; currency?: string }): Promise<ProviderPayment>;
}

export function isWalletProvider(provider: PaymentProvider | null | undefined): provider is WalletProvider {
  return !!provider && typeof (provider as Partial<WalletProvider>).capturePayment === 'function';
}

/** The provider name for a method under this configuration; null for invoice and in-person payment. */
export function providerNameFor(
  method: PaymentMethod | (string & {}),
  config: Pick<Config, 'STRIPE_SECRET_KEY' | 'PAYPAL_CLIENT_ID'>,
): PaymentProviderName | null {
  switch (method) {
    case 'card':
    case 'klarna':
      return config.STRIPE_SECRET_KEY ? STRIPE_PROVIDER : 'test';
    case 'paypal':
      return config.PAYPAL_CLIENT_ID ? PAYPAL_PROVIDER : TEST_WALLET_PROVIDER;
    default:
      return null;
  }
}

type ProviderDeps = Pick<Deps, 'db' | 'now' | 'config'>;
/** db handle → config → name → provider. */
const cache = new WeakMap<object, WeakMap<object, Map<string, PaymentProvider>>>();

/**
 * The provider by the name stored with a payment (checkouts.payment_provider). A provider whose
 * keys are not configured is null (its payments cannot be checked from here).
 */
export function paymentProviderNamed(deps: ProviderDeps, name: string): PaymentProvider | null {
  let byConfig = cache.get(deps.db);
  if (!byConfig) cache.set(deps.db, (byConfig = new WeakMap()));
  let byName = byConfig.get(deps.config);
  if (!byName) byConfig.set(deps.config, (byName = new Map()));
  const cached = byName.get(name);
  if (cached) return cached;
  let provider: PaymentProvider | null = null;
  const now = () => deps.now();
  if (name === 'test') provider = new TestPaymentProvider(deps.db, { now });
  else if (name === TEST_WALLET_PROVIDER) provider = new TestWalletProvider(deps.db, { now });
  else if (name === STRIPE_PROVIDER && deps.config.STRIPE_SECRET_KEY) provider = StripePaymentProvider.fromConfig(deps.db, deps.config);
  else if (name === PAYPAL_PROVIDER && deps.config.PAYPAL_CLIENT_ID) provider = PayPalPaymentProvider.fromConfig(deps.db, deps.config);
  if (provider) byName.set(name, provider);
  return provider;
}

/** The provider that takes a payment method ('card', 'klarna', 'paypal'); null for invoice and manual. */
export function paymentProviderFor(deps: ProviderDeps, method: PaymentMethod | (string & {})): PaymentProvider | null {
  const name = providerNameFor(method, deps.config);
  return name ? paymentProviderNamed(deps, name) : null;
}

/** What the browser needs to load a provider's widget (never a secret). */
export interface PublicPaymentConfig {
  card: { provider: 'stripe'; publishableKey: string } | { provider: 'test' };
  paypal: { provider: 'paypal'; clientId: string; currency: 'GBP' } | { provider: 'test-wallet' };
}

export function publicPaymentConfig(config: Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_PUBLISHABLE_KEY' | 'PAYPAL_CLIENT_ID'>): PublicPaymentConfig {
  return {
    card: config.STRIPE_SECRET_KEY ? { provider: 'stripe', publishableKey: config.STRIPE_PUBLISHABLE_KEY } : { provider: 'test' },
    paypal: config.PAYPAL_CLIENT_ID ? { provider: 'paypal', clientId: config.PAYPAL_CLIENT_ID, currency: 'GBP' } : { provider: 'test-wallet' },
  };
}
