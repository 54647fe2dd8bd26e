/**
 * The built-in test provider's "servers" (api/payments/test-provider.ts), for the checkout screen and tests:
 *   GET  /api/test-payments/{id} → {id, status, amount, currency, client_secret?…} (the client secret is never returned here)
 *   POST /api/test-payments/{id}/confirm {card_number, client_secret, return_url?} → the payment, or the card problem (spec 8)
 *        4242424242424242 succeeds · 4000000000000002 is declined · 4000002500003155 needs the redirect below
 *   GET  /api/test-payments/{id}/authorize[?result=fail] → completes (or fails) the 3-D Secure step and redirects to the
 *        return_url with payment_intent, payment_intent_client_secret and redirect_status.
 * A success is announced to the checkout like a provider webhook (engine.handlePaymentEvent), so the booking is
 * recorded even when the browser never comes back; the browser's "payment was successful" then finds it done.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseJson } from '../http/parse.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { providerNamed } from '../payments/registry.ts';
import { TEST_CARD_PROVIDER, TestPaymentProvider, toPayment } from '../payments/test-provider.ts';
import type { ProviderPayment } from '../payments/types.ts';
import { handlePaymentEvent } from '../checkout/engine.ts';
import { baseHostname } from '../config.ts';
import { loggerFor } from '../log.ts';

const confirmBody = z.object({
  card_number: z.string().min(1).max(40),
  client_secret: z.string().min(1).max(200),
  return_url: z.string().max(2000).nullable().optional(),
});

function view(p: ProviderPayment) {
  return {
    id: p.id,
    object: 'payment_intent',
    status: p.status,
    amount: p.amount,
    currency: p.currency.toLowerCase(),
    client_secret: p.clientSecret,
    last_payment_error: p.lastError ?? null,
    next_action: p.nextAction ? { type: 'redirect_to_url', redirect_to_url: { url: p.nextAction.url } } : null,
  };
}

/** Only our own pages may be returned to (no open redirect). */
function safeReturnUrl(c: Context<AppEnv>, url: string | null | undefined): string | null {
  if (!url) return null;
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  try {
    const parsed = new URL(url);
    const base = baseHostname(c.var.deps.config);
    const host = parsed.hostname.toLowerCase();
    if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && (host === base || host.endsWith(`.${base}`) || host === new URL(c.req.url).hostname)) return url;
  } catch {
    /* not a URL */
  }
  return null;
}

/**
 * Like a provider webhook: tell the checkout the payment succeeded, with the payment as this process's provider has
 * just recorded it. A failure here is not the payment's: the browser's return completes it.
 */
async function announce(c: Context<AppEnv>, payment: ProviderPayment): Promise<void> {
  try {
    await handlePaymentEvent(c.var.deps, { provider: TEST_CARD_PROVIDER, eventId: `evt_${payment.id}_succeeded`, type: 'payment.succeeded', paymentId: payment.id }, payment);
  } catch (error) {
    loggerFor(c.var.deps.config).error('test payment event failed', { requestId: c.var.requestId, error });
  }
}

/** The test provider of this process (the routes are mounted only in PAYMENTS_MODE=test, where it exists). */
function testProvider(deps: AppEnv['Variables']['deps']): TestPaymentProvider {
  const provider = providerNamed(deps, TEST_CARD_PROVIDER);
  if (!(provider instanceof TestPaymentProvider)) throw new ProblemError(problems.notFound());
  return provider;
}

function origin(c: Context<AppEnv>): string {
  return new URL(c.req.url).origin;
}

export function testPaymentsRoutes() {
  const app = new Hono<AppEnv>();

  app.get('/test-payments/:id', async (c) => {
    const payment = await testProvider(c.var.deps).retrievePayment(c.req.param('id'));
    if (!payment) throw new ProblemError(problems.notFound('No such payment'));
    const { client_secret: _secret, ...rest } = view(payment);
    return c.json(rest);
  });

  app.post('/test-payments/:id/confirm', async (c) => {
    const body = await parseJson(c, confirmBody);
    const provider = testProvider(c.var.deps);
    const id = c.req.param('id');
    // The client secret is what lets a browser confirm this payment (as with a card provider).
    const result = await provider.confirm(id, {
      cardNumber: body.card_number,
      clientSecret: body.client_secret,
      returnUrl: ({ checkoutId }) => safeReturnUrl(c, body.return_url) ?? (checkoutId ? `/checkout?checkoutId=${encodeURIComponent(checkoutId)}` : '/'),
      redirectBase: origin(c),
    });
    if (!result) throw new ProblemError(problems.notFound('No such payment'));
    if (!result.ok) throw new ProblemError(problems.cardProvider(result.error));
    if (result.payment.status === 'succeeded') {
      await announce(c, result.payment);
    }
    return c.json(view(result.payment));
  });

  app.get('/test-payments/:id/authorize', async (c) => {
    const id = c.req.param('id');
    const provider = testProvider(c.var.deps);
    const row = await provider.authorize(id, c.req.query('result') !== 'fail');
    if (!row) throw new ProblemError(problems.notFound('No such payment'));
    if (row.status === 'succeeded') {
      await announce(c, toPayment(row));
    }
    const target = row.return_url ?? '/';
    const url = new URL(target, origin(c));
    url.searchParams.set('payment_intent', row.id);
    url.searchParams.set('payment_intent_client_secret', row.client_secret);
    url.searchParams.set('redirect_status', row.status === 'succeeded' ? 'succeeded' : 'failed');
    const location = target.startsWith('/') ? `${url.pathname}${url.search}` : url.toString();
    return c.redirect(location, 302);
  });

  return app;
}
