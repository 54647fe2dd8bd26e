/**
 * What a verified provider event (webhook) means for the checkout. api/payments/webhooks.ts calls these
 * once per event id (payment_events); the checkout engine does the rest.
 *
 * onPaymentSucceeded hands the event to `deps.paymentEvents` (the port of ./port.ts, which the composition root
 * wires to the engine's handlePaymentEvent, api/checkout/engine/payment-events.ts): it asks the provider again
 * (retrievePayment), compares amount and currency with the total it stored, and completes the waiting checkout —
 * idempotently, in any order with the browser's "payment was successful" (DESIGN 4 "Pay exactly once"); a
 * success no open checkout waits for any more is refunded. If the engine throws, the webhook answers 500 and the
 * provider redelivers: an event is never marked handled without the engine having taken it (nor without a sink).
 */
import type { Deps } from '../deps.ts';
import type { PaymentEvent, PaymentEventResult } from './port.ts';

export interface PaymentSucceeded {
  /** 'stripe' | 'paypal' (the name stored with the payment, checkouts.payment_provider). */
  provider: string;
  /** The provider's event id (evt_… / WH-…). */
  eventId: string;
  /** metadata.checkout_id (Stripe) or custom_id (PayPal); null when the payment carried none. */
  checkoutId: string | null;
  /**
   * The id the provider's createPayment returned, i.e. what checkouts.payment_id holds:
   * Stripe '{acct_…}:{pi_…}' (or 'pi_…' / 'seti_…' on the platform account), PayPal the order id.
   */
  paymentId: string;
  /** Pence actually paid (0 for a SetupIntent). */
  amount: number;
  /** 'GBP' ('' for a SetupIntent). */
  currency: string;
}

export interface PaymentFailed {
  provider: string;
  eventId: string;
  checkoutId: string | null;
  paymentId: string;
  /** The provider's failure, in the card provider's error shape (spec 8) when it has one. */
  error: { type: string; code?: string; message?: string } | null;
}

/** The same event in the engine's vocabulary (api/payments/types.ts PaymentEvent). */
export function toPaymentEvent(event: PaymentSucceeded | PaymentFailed, type: PaymentEvent['type']): PaymentEvent {
  return { provider: event.provider, eventId: event.eventId, type, paymentId: event.paymentId };
}

/**
 * A provider says a payment succeeded: the engine confirms the checkout waiting for it (idempotent).
 * 'ignored' means no checkout of ours knows this payment (or its provider is not configured here).
 */
export async function onPaymentSucceeded(deps: Deps, event: PaymentSucceeded): Promise<PaymentEventResult> {
  // No sink: the event stays unhandled (the webhook answers 500) rather than being marked handled and lost.
  if (!deps.paymentEvents) throw new Error('payment events have nowhere to go: deps.paymentEvents is wired by api/app.ts');
  return deps.paymentEvents.succeeded(toPaymentEvent(event, 'payment.succeeded'));
}

/**
 * A provider says a payment attempt failed. Nothing to do today: the checkout stays on Payment and the
 * buyer sees the failure in the browser (spec 8). Kept as the place for the engine to hook in.
 */
export async function onPaymentFailed(_deps: Deps, _event: PaymentFailed): Promise<void> {}
