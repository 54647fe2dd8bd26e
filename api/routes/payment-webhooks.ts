/**
 * Payment provider webhooks (issue 6): POST /api/payments/webhooks/stripe and /api/payments/webhooks/paypal.
 * They read the raw body (signatures are over the exact bytes), so no JSON parsing happens before
 * verification. Providers send no Origin header, so the CSRF check (api/http/csrf.ts) lets them through.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../app.ts';
import { ProblemError, problemType } from '../../src/domain/problems.ts';
import { receivePayPalWebhook, receiveStripeWebhook } from '../payments/webhooks.ts';

/** Provider events are a few KB; anything far larger is not one. */
export const WEBHOOK_MAX_BYTES = 256 * 1024;

const PAYPAL_HEADERS = ['paypal-auth-algo', 'paypal-cert-url', 'paypal-transmission-id', 'paypal-transmission-sig', 'paypal-transmission-time'];

export function paymentWebhookRoutes() {
  const app = new Hono<AppEnv>();
  const limit = bodyLimit({
    maxSize: WEBHOOK_MAX_BYTES,
    onError: () => {
      throw new ProblemError({ type: problemType('payments/webhook-too-large'), title: 'Payload Too Large', status: 413 });
    },
  });

  app.post('/payments/webhooks/stripe', limit, async (c) => {
    const raw = new Uint8Array(await c.req.arrayBuffer());
    const answer = await receiveStripeWebhook(c.var.deps, raw, c.req.header('stripe-signature'));
    return c.json(answer, 200);
  });

  app.post('/payments/webhooks/paypal', limit, async (c) => {
    const raw = new Uint8Array(await c.req.arrayBuffer());
    const headers = Object.fromEntries(PAYPAL_HEADERS.map((h) => [h, c.req.header(h)]));
    const answer = await receivePayPalWebhook(c.var.deps, raw, headers);
    return c.json(answer, 200);
  });

  return app;
}
