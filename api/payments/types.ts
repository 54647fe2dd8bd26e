/**
 * The payment-provider interface the checkout talks to. One module per provider implements it
 * (test-provider.ts today; Stripe and PayPal next). The checkout never trusts the browser's word that a
 * payment succeeded: it asks the provider (`retrievePayment`) and compares amount and currency with the
 * total it stored.
 */

import type { Config } from '../config.ts';
import type { Deps } from '../deps.ts';
import type { Db } from '../../db/client.ts';
import type { PaymentMethod, PublicPaymentConfig, PublicProviderConfig } from '../../src/domain/checkout/paymentMethods.ts';

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
  /** The provider's name as people see it, e.g. in "An error occurred with {wallet provider}…" (spec 8). */
  readonly displayName: string;
  /**
   * Present when the buyer approves a payment in the provider's own window and it becomes money only when we
   * capture it (a wallet order). Resolves only with a succeeded payment, for this checkout and amount when
   * given; otherwise throws the provider's spec 8 problem. Absent: the provider confirms in the browser and we
   * only read the result (retrievePayment).
   */
  capturePayment?(id: string, expect?: { checkoutId?: string; amount?: number; currency?: string }): Promise<ProviderPayment>;
  /**
   * Creates a payment for exactly `amount` pence. `options.saveForRenewals`: the payment method is kept for
   * off-session charges later (a membership's first period; the provider's `recurring` charges it again).
   */
  createPayment(amount: number, currency: string, metadata: Record<string, string>, options?: CreatePaymentOptions): Promise<ProviderPayment>;
  /** The provider's current view of a payment (null when it does not exist). */
  retrievePayment(id: string): Promise<ProviderPayment | null>;
  /** Cancels a payment that has not succeeded (no-op otherwise). */
  cancelPayment(id: string): Promise<void>;
  /** Gives back the money of a succeeded payment (e.g. when the spaces were lost meanwhile). */
  refundPayment(id: string): Promise<void>;
  /**
   * Gives back `amount` pence of a succeeded payment (all of it or a part), once per `idempotencyKey`: asked again
   * with the same key (a retry, the refund reconciler after a lost answer) it answers with the refund it made, never a
   * second one. Throws the provider's problem when the provider refuses or cannot be reached (the caller keeps the
   * refund pending and asks again with the same key).
   */
  refund(paymentId: string, request: RefundRequest): Promise<ProviderRefund>;
}

export interface RefundRequest {
  amount: number;
  currency: string;
  /** The same key for every attempt of one refund (api/admin/refunds.ts: refund_{id}). */
  idempotencyKey: string;
  metadata?: Record<string, string>;
}

/** A provider's refund: `pending` while the provider is still moving the money (it settles later on its own). */
export interface ProviderRefund {
  id: string;
  status: 'succeeded' | 'pending' | 'failed';
  amount: number;
}

export interface CreatePaymentOptions {
  /** Keep the payment method for renewals charged without the buyer (the buyer's e-mail and name for the provider's customer). */
  saveForRenewals?: { email: string | null; name: string | null; userId: string | null };
}

/** Spec 4: a card payment counts as successful when it succeeded or is authorised for capture. */
export function isPaymentSuccessful(status: PaymentStatus | string | null | undefined): boolean {
  return status === 'succeeded' || status === 'requires_capture';
}

// The event a provider's webhook hands on (one home: the port the composition root wires, ./port.ts).
export type { PaymentEvent } from './port.ts';

/** The methods a provider can take (spec 3 "Payment options"); invoice and in-person need no provider. */
export type ProviderMethod = Extract<PaymentMethod, 'card' | 'paypal' | 'klarna'>;

/** test: stands in for money (test cards, the test wallet); live: moves real money, needs its keys. */
export type PaymentsMode = 'test' | 'live';

export type { PublicPaymentConfig, PublicProviderConfig };

/** A verified provider delivery, as the webhook route hands it over (raw bytes: signatures are over them). */
export interface WebhookDelivery {
  rawBody: Uint8Array;
  header(name: string): string | undefined;
}

export interface WebhookAnswer {
  received: true;
  outcome: 'handled' | 'duplicate' | 'ignored';
  eventId: string;
}

export interface ProviderDeps {
  db: Db;
  config: Config;
  now(): number;
}

/**
 * A payment provider's registration (api/payments/registry.ts): what it can do and how to make it. The engine,
 * documents, cancellation, the checkout page and the webhook route ask the registry, never a provider by name.
 */
export interface ProviderAdapter {
  /** Stored with each payment (checkouts.payment_provider); the webhook path is /api/payments/webhooks/{name}. */
  readonly name: string;
  readonly displayName: string;
  /** The methods it takes, in order of preference when several providers take one. */
  readonly methods: readonly ProviderMethod[];
  /** test adapters exist only in PAYMENTS_MODE=test; live ones only when configured. */
  readonly mode: PaymentsMode;
  /** Whether its keys are set (a test adapter is always configured). */
  configured(config: Config): boolean;
  create(deps: ProviderDeps): PaymentProvider;
  /** What the browser widget needs for one of its methods. */
  browser(config: Config, method: ProviderMethod): PublicProviderConfig;
  /** Its webhook receiver, when it sends events (verify, record once, hand success to the engine). */
  webhook?(deps: Deps, delivery: WebhookDelivery): Promise<WebhookAnswer>;
  /** Recurring payments (memberships): present when the provider can charge a saved method again. */
  readonly recurring?: (deps: ProviderDeps) => RecurringProvider;
}

/** A renewal's result: the payment id either way (a failed attempt is recorded with its reason). */
export interface RecurringCharge {
  ok: boolean;
  paymentId: string | null;
  failure: string | null;
}

/**
 * Charging a membership again. The first period is paid through the checkout's Payment step like any other
 * payment; the provider keeps the payment method for later (`customerFromPayment`), and each renewal is an
 * off-session charge of it, idempotent per key so a retried job never charges a period twice.
 */
export interface RecurringProvider {
  /** The saved customer / payment method of a succeeded first payment (null: it cannot be charged again). */
  customerFromPayment(paymentId: string): Promise<string | null>;
  chargeRenewal(input: { customerId: string; amount: number; currency: string; idempotencyKey: string; metadata: Record<string, string> }): Promise<RecurringCharge>;
}
