/**
 * The payment registry: which provider takes each payment method, decided by the registered adapters and the
 * payments mode (DESIGN 6 "Offline by default, real by configuration"). Every provider registers an adapter
 * (types.ts ProviderAdapter: methods, display name, capture, refund, webhook, browser widget) in
 * PROVIDER_ADAPTERS below; nothing else in the product names a provider.
 *
 * PAYMENTS_MODE (api/config.ts):
 * - test (the default on http, e.g. `npm start` on localhost): a configured live provider takes its methods
 *   (Stripe or PayPal test keys), else the built-in test provider or test wallet stands in; the test-payment
 *   routes exist.
 * - live (the default on https): only configured live providers; a method none of them takes is not offered
 *   (the payment-options answer and the checkout both leave it out). Test providers do not exist.
 *
 * Invoice and in-person payment need no provider: a method no adapter declares is settled by the engine itself.
 * Provider instances are cached per database handle and configuration: they hold SDK clients, never state
 * another process would need.
 */
import type { Config } from '../config.ts';
import { PAYMENT_METHODS, type PaymentMethod } from '../../src/domain/checkout/paymentMethods.ts';
import type { PaymentProvider, PaymentsMode, ProviderAdapter, ProviderDeps, ProviderMethod, PublicPaymentConfig, RecurringProvider } from './types.ts';
import { stripeAdapter } from './stripe-adapter.ts';
import { paypalAdapter } from './paypal-adapter.ts';
import { testCardAdapter } from './test-provider.ts';
import { testWalletAdapter } from './test-wallet.ts';

/** Every provider the product knows, live ones first (the first configured adapter taking a method wins). */
export const PROVIDER_ADAPTERS: readonly ProviderAdapter[] = [stripeAdapter, paypalAdapter, testCardAdapter, testWalletAdapter];

/** Whether a method is taken by a provider (card, wallet, pay-later) rather than settled offline (invoice, in person). */
export function needsProvider(method: PaymentMethod | (string & {})): method is ProviderMethod {
  return PROVIDER_ADAPTERS.some((a) => (a.methods as readonly string[]).includes(method));
}

/** The adapters that exist under this configuration: configured live ones, and the test ones in test mode. */
function activeAdapters(config: Pick<Config, 'PAYMENTS_MODE'> & Config): ProviderAdapter[] {
  return PROVIDER_ADAPTERS.filter((a) => (a.mode === 'live' ? a.configured(config) : config.PAYMENTS_MODE === 'test'));
}

/** The adapter that takes a method now; null for offline methods and for methods no active provider takes. */
export function adapterFor(config: Config, method: PaymentMethod | (string & {})): ProviderAdapter | null {
  return activeAdapters(config).find((a) => (a.methods as readonly string[]).includes(method)) ?? null;
}

/** The methods that can be offered under this configuration (before the educator's options and the flow's rules). */
export function availableMethods(config: Config): PaymentMethod[] {
  return PAYMENT_METHODS.filter((m) => !needsProvider(m) || adapterFor(config, m) !== null);
}

/** What the browser widgets need, per provider method that is offered (never a secret). */
export function publicPaymentConfig(config: Config): PublicPaymentConfig {
  const result: PublicPaymentConfig = {};
  for (const method of PAYMENT_METHODS) {
    if (!needsProvider(method)) continue;
    const adapter = adapterFor(config, method);
    if (adapter) result[method] = adapter.browser(config, method);
  }
  return result;
}

/** One line for the start-up log: the mode and which provider takes each method, or that it is not offered. */
export function describePayments(config: Config): { mode: PaymentsMode; methods: Record<string, string> } {
  const methods: Record<string, string> = {};
  for (const method of PAYMENT_METHODS) {
    if (!needsProvider(method)) methods[method] = 'offline';
    else methods[method] = adapterFor(config, method)?.name ?? 'not offered';
  }
  return { mode: config.PAYMENTS_MODE, methods };
}

/** db handle → config → name → provider. */
const cache = new WeakMap<object, WeakMap<object, Map<string, PaymentProvider>>>();

/**
 * The provider by the name stored with a payment (checkouts.payment_provider); null when that provider does not
 * exist under this configuration (its keys are not set, or it is a test provider in live mode).
 */
export function providerNamed(deps: ProviderDeps, name: string): PaymentProvider | null {
  const adapter = activeAdapters(deps.config).find((a) => a.name === name);
  if (!adapter) return null;
  let byConfig = cache.get(deps.db);
  if (!byConfig) cache.set(deps.db, (byConfig = new WeakMap()));
  let byName = byConfig.get(deps.config);
  if (!byName) byConfig.set(deps.config, (byName = new Map()));
  let provider = byName.get(name);
  if (!provider) byName.set(name, (provider = adapter.create(deps)));
  return provider;
}

/** The provider that takes a method now; null for offline methods and methods that are not offered. */
export function providerFor(deps: ProviderDeps, method: PaymentMethod | (string & {})): PaymentProvider | null {
  const adapter = adapterFor(deps.config, method);
  return adapter ? providerNamed(deps, adapter.name) : null;
}

/** The adapter of a provider by name, for its webhook (null when it does not exist here). */
export function activeAdapterNamed(config: Config, name: string): ProviderAdapter | null {
  return activeAdapters(config).find((a) => a.name === name) ?? null;
}

/** The recurring side of a provider by name (memberships' renewals); null when it has none here. */
export function recurringNamed(deps: ProviderDeps, name: string): RecurringProvider | null {
  const adapter = activeAdapters(deps.config).find((a) => a.name === name);
  return adapter?.recurring ? adapter.recurring(deps) : null;
}
