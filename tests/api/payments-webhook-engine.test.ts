/**
 * The webhooks wired to the real checkout engine (no mock of api/payments/events.ts): a verified event
 * reaches handlePaymentEvent, which ignores a payment no checkout of ours knows; the event is recorded
 * as handled once and acknowledged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const WEBHOOK_SECRET = 'whsec_engine_test';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ STRIPE_SECRET_KEY: 'sk_test_engine', STRIPE_API_BASE: 'http://127.0.0.1:1', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
});
afterAll(async () => server?.close());

describe('Stripe webhook → checkout engine', () => {
  it('an event for a payment no checkout knows is handled once (the engine ignores it) and acknowledged', async () => {
    const payload = JSON.stringify({
      id: 'evt_engine_unknown', object: 'event', type: 'payment_intent.succeeded', account: 'acct_unknown',
      data: { object: { id: 'pi_unknown', object: 'payment_intent', amount: 100, currency: 'gbp', status: 'succeeded', metadata: { checkout_id: 'chk_unknown' } } },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    for (const expected of ['handled', 'duplicate']) {
      const res = await fetch(`${server.url}/api/payments/webhooks/stripe`, { method: 'POST', body: payload, headers: { 'stripe-signature': signature } });
      expect(res.status).toBe(200);
      expect((await res.json()).outcome).toBe(expected);
    }
    const rows = await server.db.selectFrom('payment_events').selectAll().where('event_id', '=', 'evt_engine_unknown').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.handled_at).not.toBeNull();
  });
});
