/**
 * The checkout (spec 7 "Checkout"):
 *   POST /api/checkout/initialise/{booking|order|request|date-booking-request|group-booking-request|booking-application}
 *        {checkoutId, courseId, origin, bookedOnURL, utms, occurrenceId?} → the checkout state
 *   GET  /api/checkout/preview/{gift-voucher|membership}?educatorId=&origin= → the state a new checkout would start in,
 *        written nowhere (`_id` empty): the page shows the first step, and initialises on the learner's first action
 *   GET  /api/checkout/{checkoutId} → the checkout state
 *   POST /api/checkout/{checkoutId}/submit-response {action, payload} → the new checkout state
 *   POST /api/checkout/{checkoutId}/abandon → the state (status "abandoned"; held spaces given back)
 */
import { Hono, type Context } from 'hono';
import { voucherRules } from '../http/abuse-limits.ts';
import { refundHits, takeHits } from '../http/rate-limit.ts';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseParams, parseQuery, readJson } from '../http/parse.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { abandonCheckout, flowAtSlug, getCheckout, initialiseCheckout, previewCheckout, submitResponse } from '../checkout/engine.ts';
import { CHECKOUT_ORIGINS } from '../../src/domain/checkout/origins.ts';

const idParams = z.object({ checkoutId: z.string().min(1).max(200) });

const jsonBody = readJson;

const previewQuery = z.object({
  educatorId: z.string().min(1).max(200),
  origin: z.enum(CHECKOUT_ORIGINS).optional(),
});

/** The actions whose payload may carry a promo code or gift card ("Apply promo code or gift card"). */
const CODE_ACTIONS = new Set(['pricing options picked', 'order pricing options picked', 'request delivery configured']);

async function voucherGuessRules(c: Context<AppEnv>, checkoutId: string, body: unknown) {
  if (!body || typeof body !== 'object') return null;
  const { action, payload } = body as { action?: unknown; payload?: { appliedPromoCode?: unknown } };
  if (typeof action !== 'string' || !CODE_ACTIONS.has(action)) return null;
  const code = payload && typeof payload === 'object' ? payload.appliedPromoCode : undefined;
  if (typeof code !== 'string' || !code.trim()) return null;
  const row = await c.var.deps.db.selectFrom('checkouts').select('educator_id').where('id', '=', checkoutId).executeTakeFirst();
  return row ? voucherRules(c, row.educator_id) : null;
}

export function checkoutRoutes() {
  const app = new Hono<AppEnv>();

  app.post('/checkout/initialise/:flow', async (c) => {
    const flow = flowAtSlug(c.req.param('flow'));
    if (!flow) throw new ProblemError(problems.notFound('No such checkout flow'));
    const state = await initialiseCheckout(c.var.deps, c.var.user, flow, await jsonBody(c));
    c.header('cache-control', 'no-store');
    return c.json(state, 201);
  });

  app.get('/checkout/preview/:flow', async (c) => {
    const flow = flowAtSlug(c.req.param('flow'));
    if (!flow) throw new ProblemError(problems.notFound('No such checkout flow'));
    const query = parseQuery(c, previewQuery);
    const state = await previewCheckout(c.var.deps, c.var.user, flow, query);
    c.header('cache-control', 'no-store');
    return c.json(state);
  });

  app.post('/checkout/:checkoutId/submit-response', async (c) => {
    const { checkoutId } = parseParams(c, idParams);
    const body = await jsonBody(c);
    // A promo code or gift card tried in the checkout counts against the voucher-guessing limits (per
    // client and per educator) until the step accepts it.
    const rules = await voucherGuessRules(c, checkoutId, body);
    const attempt = rules ? await takeHits(c.var.deps.db, rules, c.var.deps.now()) : null;
    let state;
    try {
      state = await submitResponse(c.var.deps, c.var.user, checkoutId, body);
    } catch (error) {
      // Past the educator's budget a clean client's code was still checked: its failure answers 429.
      if (error instanceof ProblemError) attempt?.refuseIfLimited();
      throw error;
    }
    if (rules) await refundHits(c.var.deps.db, rules, c.var.deps.now());
    c.header('cache-control', 'no-store');
    return c.json(state);
  });

  app.post('/checkout/:checkoutId/abandon', async (c) => {
    const { checkoutId } = parseParams(c, idParams);
    const state = await abandonCheckout(c.var.deps, c.var.user, checkoutId);
    c.header('cache-control', 'no-store');
    return c.json(state);
  });

  // Checkout ids are chk_ + 32 hex digits, so /checkout/payment-options and friends never match here.
  app.get('/checkout/:checkoutId{chk_[0-9a-f]{32}}', async (c) => {
    const state = await getCheckout(c.var.deps, c.var.user, c.req.param('checkoutId'));
    c.header('cache-control', 'no-store');
    return c.json(state);
  });

  return app;
}
