/**
 * PayPal's registration in the payment registry (api/payments/registry.ts): the provider (./paypal.ts) and its
 * webhook receiver (./webhooks.ts) put together. Kept apart from both, as the receiver uses PayPal's client.
 */
import type { ProviderAdapter } from './types.ts';
import { PAYPAL_DISPLAY_NAME, PAYPAL_PROVIDER, PayPalPaymentProvider } from './paypal.ts';
import { receivePayPalWebhook } from './webhooks.ts';

/** The PAYPAL-* headers a webhook delivery is verified with. */
const PAYPAL_WEBHOOK_HEADERS = ['paypal-auth-algo', 'paypal-cert-url', 'paypal-transmission-id', 'paypal-transmission-sig', 'paypal-transmission-time'];

/**
 * PayPal's registration: the wallet method, approved in PayPal's window and captured by us, refunds, webhooks
 * verified by PayPal. Live when PAYPAL_CLIENT_ID is set.
 */
export const paypalAdapter: ProviderAdapter = {
  name: PAYPAL_PROVIDER,
  displayName: PAYPAL_DISPLAY_NAME,
  methods: ['paypal'],
  mode: 'live',
  configured: (config) => !!config.PAYPAL_CLIENT_ID,
  create: (deps) => PayPalPaymentProvider.fromConfig(deps.db, deps.config),
  browser: (config) => ({ provider: 'paypal', clientId: config.PAYPAL_CLIENT_ID, currency: 'GBP' }),
  webhook: (deps, delivery) =>
    receivePayPalWebhook(deps, delivery.rawBody, Object.fromEntries(PAYPAL_WEBHOOK_HEADERS.map((h) => [h, delivery.header(h)]))),
};
