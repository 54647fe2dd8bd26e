/**
 * Stripe's registration in the payment registry (api/payments/registry.ts): the provider (./stripe.ts) and its
 * webhook receiver (./webhooks.ts) put together. Kept apart from both, as the receiver reads Stripe's payment ids.
 */
import type { Config } from '../config.ts';
import type { Db } from '../../db/client.ts';
import type { ProviderAdapter } from './types.ts';
import { STRIPE_PROVIDER, StripePaymentProvider, StripeRecurringProvider } from './stripe.ts';
import { receiveStripeWebhook } from './webhooks.ts';

/** One recurring provider (one SDK client) per database handle and configuration, as the registry keeps providers. */
const recurringCache = new WeakMap<Db, WeakMap<object, StripeRecurringProvider>>();
function recurringFor(db: Db, config: Config): StripeRecurringProvider {
  let byConfig = recurringCache.get(db);
  if (!byConfig) recurringCache.set(db, (byConfig = new WeakMap()));
  let recurring = byConfig.get(config);
  if (!recurring) byConfig.set(config, (recurring = new StripeRecurringProvider(StripePaymentProvider.fromConfig(db, config))));
  return recurring;
}

/**
 * Stripe's registration: card (with device wallets) and Klarna as pay-later through the Payment Element,
 * confirmed in the browser (no explicit capture), refunds, signed webhooks, and renewals of memberships
 * (`recurring`). Live when STRIPE_SECRET_KEY is set.
 */
export const stripeAdapter: ProviderAdapter = {
  name: STRIPE_PROVIDER,
  displayName: 'Stripe',
  methods: ['card', 'klarna'],
  mode: 'live',
  configured: (config) => !!config.STRIPE_SECRET_KEY,
  create: (deps) => StripePaymentProvider.fromConfig(deps.db, deps.config),
  browser: (config) => ({ provider: 'stripe', publishableKey: config.STRIPE_PUBLISHABLE_KEY }),
  webhook: (deps, delivery) => receiveStripeWebhook(deps, delivery.rawBody, delivery.header('stripe-signature')),
  recurring: (deps) => recurringFor(deps.db, deps.config),
};
