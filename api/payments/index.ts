/**
 * Which payment provider handles a payment method: the built-in test provider by default, Stripe for card and
 * pay-later when STRIPE_SECRET_KEY is set, PayPal (or the test wallet) for the wallet method (registry.ts).
 */
import type { Deps } from '../app.ts';
import type { PaymentProvider } from './types.ts';
import { TestPaymentProvider } from './test-provider.ts';
import { paymentProviderFor, paymentProviderNamed } from './registry.ts';

const testProviders = new WeakMap<object, TestPaymentProvider>();

/** The test provider over this process's database (one per database handle). */
export function testProvider(deps: Pick<Deps, 'db' | 'now'>): TestPaymentProvider {
  let provider = testProviders.get(deps.db);
  if (!provider) {
    provider = new TestPaymentProvider(deps.db, { now: () => deps.now() });
    testProviders.set(deps.db, provider);
  }
  return provider;
}

/** The provider for a payment method ('card', 'paypal', 'klarna') under this configuration. */
export function providerFor(deps: Pick<Deps, 'db' | 'now' | 'config'>, method: string): PaymentProvider {
  return paymentProviderFor(deps, method) ?? testProvider(deps);
}

/** The provider that created a stored payment, by its name. */
export function providerNamed(deps: Pick<Deps, 'db' | 'now' | 'config'>, name: string): PaymentProvider | null {
  return name === 'test' ? testProvider(deps) : paymentProviderNamed(deps, name);
}
