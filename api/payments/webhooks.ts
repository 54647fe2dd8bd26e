/**
 * Provider webhooks: verify, record once, act once (DESIGN 4 "Pay exactly once").
 *
 * - Stripe: the raw body is verified with stripe.webhooks.constructEvent and STRIPE_WEBHOOK_SECRET
 *   (comma-separated when the Connect endpoint and the platform endpoint have their own secrets).
 * - PayPal: the delivery is verified by PayPal's verify-webhook-signature call (PAYPAL_WEBHOOK_ID).
 * - A bad signature is a 400 problem; nothing is recorded.
 * - Each event we act on is recorded in payment_events under (provider, event_id). A delivery claims
 *   the row, runs the handler and marks it handled; a duplicate delivery finds it handled and is
 *   acknowledged (200) without doing anything. A failed handler releases the claim and answers 500,
 *   so the provider's retry handles it; a claim older than CLAIM_LEASE_SECONDS (a crashed process)
 *   may be taken over. While another delivery of the same event is in progress the answer is 409,
 *   and the provider retries later.
 */
import Stripe from 'stripe';
import type { Deps } from '../deps.ts';
import { ProblemError, problemType, problems, type Problem } from '../../src/domain/problems.ts';
import { onPaymentFailed, onPaymentSucceeded } from './events.ts';
import { stripePaymentId, STRIPE_PROVIDER } from './stripe.ts';
import { decimalToPence, PayPalClient, PAYPAL_PROVIDER } from './paypal.ts';

export const CLAIM_LEASE_SECONDS = 120;

export const INVALID_WEBHOOK_SIGNATURE_SLUG = 'payments/invalid-webhook-signature';
export const WEBHOOK_IN_PROGRESS_SLUG = 'payments/webhook-in-progress';

export function invalidWebhookSignature(detail = 'The webhook signature could not be verified.'): Problem {
  return { type: problemType(INVALID_WEBHOOK_SIGNATURE_SLUG), title: 'Invalid Webhook Signature', status: 400, detail };
}
export function webhookInProgress(): Problem {
  return { type: problemType(WEBHOOK_IN_PROGRESS_SLUG), title: 'Webhook In Progress', status: 409, detail: 'This event is being handled; retry later.' };
}

export type WebhookOutcome = 'handled' | 'duplicate' | 'ignored';
export interface WebhookAnswer {
  received: true;
  outcome: WebhookOutcome;
  eventId: string;
}

export interface RecordedEvent {
  provider: string;
  eventId: string;
  type: string;
  payload: unknown;
  checkoutId: string | null;
}

/**
 * Runs `handle` once per (provider, event id), across deliveries, retries and processes.
 * Returns 'handled' (ran now) or 'duplicate' (ran before); throws webhookInProgress() while another
 * delivery holds the claim, and rethrows the handler's failure after releasing the claim.
 */
export async function handleOnce(deps: Pick<Deps, 'db' | 'now'>, event: RecordedEvent, handle: () => Promise<unknown>): Promise<'handled' | 'duplicate'> {
  const { db } = deps;
  const now = deps.now();
  const inserted = await db
    .insertInto('payment_events')
    .values({
      provider: event.provider,
      event_id: event.eventId,
      type: event.type,
      received_at: now,
      payload: event.payload,
      checkout_id: event.checkoutId,
      claimed_at: now,
      handled_at: null,
      attempts: 1,
      last_error: null,
    })
    .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
    .executeTakeFirst();
  let claimed = Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
  if (!claimed) {
    // Known event: take it over only if not handled and nobody holds a live claim.
    const taken = await db
      .updateTable('payment_events')
      .set((eb) => ({ claimed_at: now, attempts: eb('attempts', '+', 1) }))
      .where('provider', '=', event.provider)
      .where('event_id', '=', event.eventId)
      .where('handled_at', 'is', null)
      .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', now - CLAIM_LEASE_SECONDS)]))
      .executeTakeFirst();
    claimed = Number(taken.numUpdatedRows) > 0;
    if (!claimed) {
      const row = await db
        .selectFrom('payment_events')
        .select('handled_at')
        .where('provider', '=', event.provider)
        .where('event_id', '=', event.eventId)
        .executeTakeFirst();
      if (row?.handled_at != null) return 'duplicate';
      throw new ProblemError(webhookInProgress());
    }
  }
  try {
    await handle();
  } catch (err) {
    await db
      .updateTable('payment_events')
      .set({ claimed_at: null, last_error: String(err instanceof Error ? err.message : err).slice(0, 1000) })
      .where('provider', '=', event.provider)
      .where('event_id', '=', event.eventId)
      .execute();
    throw err;
  }
  await db
    .updateTable('payment_events')
    .set({ handled_at: deps.now(), last_error: null })
    .where('provider', '=', event.provider)
    .where('event_id', '=', event.eventId)
    .execute();
  return 'handled';
}

// ---------------------------------------------------------------------------------------------
// Stripe
// ---------------------------------------------------------------------------------------------

const STRIPE_SUCCEEDED = new Set(['payment_intent.succeeded', 'payment_intent.amount_capturable_updated', 'setup_intent.succeeded']);
const STRIPE_FAILED = new Set(['payment_intent.payment_failed', 'setup_intent.setup_failed']);

/** POST /api/payments/webhooks/stripe: `rawBody` exactly as received, `signature` the Stripe-Signature header. */
export async function receiveStripeWebhook(deps: Deps, rawBody: Uint8Array, signature: string | undefined): Promise<WebhookAnswer> {
  // Connected-account events (direct charges) and platform events are signed by two endpoints with
  // two secrets: STRIPE_WEBHOOK_SECRET may list both, comma-separated.
  const secrets = deps.config.STRIPE_WEBHOOK_SECRET.split(',').map((s) => s.trim()).filter(Boolean);
  if (secrets.length === 0) throw new ProblemError(problems.notFound());
  if (!signature) throw new ProblemError(invalidWebhookSignature('The Stripe-Signature header is missing.'));
  const payload = Buffer.from(rawBody);
  let event: Stripe.Event | null = null;
  for (const secret of secrets) {
    try {
      event = Stripe.webhooks.constructEvent(payload, signature, secret);
      break;
    } catch {
      /* try the next secret */
    }
  }
  if (!event) throw new ProblemError(invalidWebhookSignature());
  const accountId = event.account ?? null;
  if (STRIPE_SUCCEEDED.has(event.type)) {
    const intent = event.data.object as Stripe.PaymentIntent | Stripe.SetupIntent;
    // amount_capturable_updated also fires for other changes; only an authorised payment counts (spec 4).
    if (event.type === 'payment_intent.amount_capturable_updated' && intent.status !== 'requires_capture') {
      return { received: true, outcome: 'ignored', eventId: event.id };
    }
    const checkoutId = intent.metadata?.checkout_id ?? null;
    const isPayment = intent.object === 'payment_intent';
    const outcome = await handleOnce(deps, { provider: STRIPE_PROVIDER, eventId: event.id, type: event.type, payload: event, checkoutId }, () =>
      onPaymentSucceeded(deps, {
        provider: STRIPE_PROVIDER,
        eventId: event.id,
        checkoutId,
        paymentId: stripePaymentId(accountId, intent.id),
        amount: isPayment ? intent.amount : 0,
        currency: isPayment ? intent.currency.toUpperCase() : '',
      }),
    );
    return { received: true, outcome, eventId: event.id };
  }
  if (STRIPE_FAILED.has(event.type)) {
    const intent = event.data.object as Stripe.PaymentIntent | Stripe.SetupIntent;
    const checkoutId = intent.metadata?.checkout_id ?? null;
    const last = intent.object === 'payment_intent' ? intent.last_payment_error : intent.last_setup_error;
    const outcome = await handleOnce(deps, { provider: STRIPE_PROVIDER, eventId: event.id, type: event.type, payload: event, checkoutId }, () =>
      onPaymentFailed(deps, {
        provider: STRIPE_PROVIDER,
        eventId: event.id,
        checkoutId,
        paymentId: stripePaymentId(accountId, intent.id),
        error: last ? { type: last.type, ...(last.code ? { code: last.code } : {}), ...(last.message ? { message: last.message } : {}) } : null,
      }),
    );
    return { received: true, outcome, eventId: event.id };
  }
  return { received: true, outcome: 'ignored', eventId: event.id };
}

// ---------------------------------------------------------------------------------------------
// PayPal
// ---------------------------------------------------------------------------------------------

interface PayPalWebhookEvent {
  id?: unknown;
  event_type?: unknown;
  resource?: {
    id?: string;
    status?: string;
    custom_id?: string;
    amount?: { currency_code?: string; value?: string };
    supplementary_data?: { related_ids?: { order_id?: string } };
  };
}

const paypalClients = new WeakMap<object, PayPalClient>();
function paypalClientFor(config: Deps['config']): PayPalClient {
  let client = paypalClients.get(config);
  if (!client) paypalClients.set(config, (client = PayPalClient.fromConfig(config)));
  return client;
}

/** POST /api/payments/webhooks/paypal: `rawBody` exactly as received, with the delivery's PAYPAL-* headers. */
export async function receivePayPalWebhook(deps: Deps, rawBody: Uint8Array, headers: Record<string, string | undefined>): Promise<WebhookAnswer> {
  const { config } = deps;
  if (!config.PAYPAL_CLIENT_ID || !config.PAYPAL_WEBHOOK_ID) throw new ProblemError(problems.notFound());
  const text = Buffer.from(rawBody).toString('utf8');
  let event: PayPalWebhookEvent;
  try {
    event = JSON.parse(text) as PayPalWebhookEvent;
  } catch {
    throw new ProblemError(invalidWebhookSignature('The webhook body is not JSON.'));
  }
  if (typeof event !== 'object' || event === null || typeof event.id !== 'string' || typeof event.event_type !== 'string') {
    throw new ProblemError(invalidWebhookSignature('The webhook body is not a PayPal event.'));
  }
  const verified = await paypalClientFor(config).verifyWebhookSignature({ webhookId: config.PAYPAL_WEBHOOK_ID, headers, rawBody: text });
  if (!verified) throw new ProblemError(invalidWebhookSignature());

  const eventId = event.id;
  const type = event.event_type;
  const capture = event.resource ?? {};
  const checkoutId = capture.custom_id ?? null;
  // The checkout knows the order (stepState.payment.paypalOrderId), so that is the payment id.
  const paymentId = capture.supplementary_data?.related_ids?.order_id ?? capture.id ?? '';
  if (type === 'PAYMENT.CAPTURE.COMPLETED' && capture.status === 'COMPLETED' && paymentId) {
    const outcome = await handleOnce(deps, { provider: PAYPAL_PROVIDER, eventId, type, payload: event, checkoutId }, () =>
      onPaymentSucceeded(deps, {
        provider: PAYPAL_PROVIDER,
        eventId,
        checkoutId,
        paymentId,
        amount: capture.amount?.value ? decimalToPence(capture.amount.value) : Number.NaN,
        currency: (capture.amount?.currency_code ?? '').toUpperCase(),
      }),
    );
    return { received: true, outcome, eventId };
  }
  if ((type === 'PAYMENT.CAPTURE.DENIED' || type === 'PAYMENT.CAPTURE.DECLINED') && paymentId) {
    const outcome = await handleOnce(deps, { provider: PAYPAL_PROVIDER, eventId, type, payload: event, checkoutId }, () =>
      onPaymentFailed(deps, { provider: PAYPAL_PROVIDER, eventId, checkoutId, paymentId, error: { type: 'payment_failed', code: capture.status } }),
    );
    return { received: true, outcome, eventId };
  }
  return { received: true, outcome: 'ignored', eventId };
}
