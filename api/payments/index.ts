/**
 * Which payment provider handles card payments: the built-in test provider by default. The next
 * issue adds Stripe (when STRIPE_SECRET_KEY is set) and PayPal here, behind the same interface.
 */
import type { Deps } from '../app.ts';
import type { PaymentProvider } from './types.ts';
import { TestPaymentProvider } from './test-provider.ts';

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

/** The provider for a payment method ('card', 'paypal', 'klarna'); all go to the test provider for now. */
export function providerFor(deps: Pick<Deps, 'db' | 'now'>, _method: string): PaymentProvider {
  return testProvider(deps);
}

/** The provider that created a stored payment, by its name. */
export function providerNamed(deps: Pick<Deps, 'db' | 'now'>, name: string): PaymentProvider | null {
  return name === 'test' ? testProvider(deps) : null;
}
