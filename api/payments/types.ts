/**
 * The payment-provider interface the checkout talks to. One module per provider implements it
 * (test-provider.ts today; Stripe and PayPal next). The checkout never trusts the browser's word that a
 * payment succeeded: it asks the provider (`retrievePayment`) and compares amount and currency with the
 * total it stored.
 */

/** Statuses follow the card provider's payment-intent vocabulary (spec 4 "Outcomes"). */
export type PaymentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'succeeded'
  | 'canceled'
  | 'refunded';

/** A provider error in the card provider's shape (spec 8 "Card provider"). */
export interface PaymentError {
  type: 'card_error' | 'validation_error' | 'invalid_request_error' | 'api_error' | (string & {});
  code?: string;
  message?: string;
}

export interface ProviderPayment {
  /** The provider's payment id (e.g. a payment intent id). */
  id: string;
  /** Handed to the browser so the provider's own element can confirm the payment. */
  clientSecret: string;
  status: PaymentStatus;
  /** Integer minor units (pence). */
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  /** The last failed attempt, if any. */
  lastError?: PaymentError | null;
  /** 3-D Secure style step: where the browser must go next. */
  nextAction?: { type: 'redirect'; url: string } | null;
}

export interface PaymentProvider {
  /** 'test', 'stripe', 'paypal', … (stored with each payment). */
  readonly name: string;
  /** Creates a payment for exactly `amount` pence. */
  createPayment(amount: number, currency: string, metadata: Record<string, string>): Promise<ProviderPayment>;
  /** The provider's current view of a payment (null when it does not exist). */
  retrievePayment(id: string): Promise<ProviderPayment | null>;
  /** Cancels a payment that has not succeeded (no-op otherwise). */
  cancelPayment(id: string): Promise<void>;
  /** Gives back the money of a succeeded payment (e.g. when the spaces were lost meanwhile). */
  refundPayment(id: string): Promise<void>;
}

/** Spec 4: a card payment counts as successful when it succeeded or is authorised for capture. */
export function isPaymentSuccessful(status: PaymentStatus | string | null | undefined): boolean {
  return status === 'succeeded' || status === 'requires_capture';
}

/**
 * A provider event (webhook, or the test provider's in-process notice): the checkout completes
 * when a payment it is waiting for succeeds. `eventId` makes redelivery harmless.
 */
export interface PaymentEvent {
  provider: string;
  eventId: string;
  type: 'payment.succeeded' | 'payment.failed';
  paymentId: string;
}
