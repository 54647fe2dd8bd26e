/**
 * Payment provider webhooks: POST /api/payments/webhooks/{provider} (stripe, paypal), answered by the provider's adapter.
 * They read the raw body (signatures are over the exact bytes), so no JSON parsing happens before
 * verification. Providers send no Origin header, so the CSRF check (api/http/csrf.ts) lets them through.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../deps.ts';
import { ProblemError, problemType, problems } from '../../src/domain/problems.ts';
import { activeAdapterNamed } from '../payments/registry.ts';
import { WEBHOOK_MAX_BYTES } from '../http/body-limit.ts';

export function paymentWebhookRoutes() {
  const app = new Hono<AppEnv>();
  const limit = bodyLimit({
    maxSize: WEBHOOK_MAX_BYTES,
    onError: () => {
      throw new ProblemError({ type: problemType('payments/webhook-too-large'), title: 'Payload Too Large', status: 413 });
    },
  });

  // Each provider's adapter receives its own events (api/payments/registry.ts); one that does not exist here
  // (not configured, or a test provider in live mode) or sends none is not found.
  app.post('/payments/webhooks/:provider', limit, async (c) => {
    const receive = activeAdapterNamed(c.var.deps.config, c.req.param('provider'))?.webhook;
    if (!receive) throw new ProblemError(problems.notFound());
    const rawBody = new Uint8Array(await c.req.arrayBuffer());
    return c.json(await receive(c.var.deps, { rawBody, header: (name) => c.req.header(name) }), 200);
  });

  return app;
}
