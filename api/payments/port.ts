/**
 * Where a provider's word about a payment goes. Payments know nothing of the checkout: the composition root
 * (api/app.ts) gives `Deps` a sink that hands a success to the checkout engine, so no module below it imports
 * both ways (payments → checkout → memberships → payments was one import cycle). A leaf: no imports.
 */

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

/** What became of a success: recorded now, recorded before, no checkout of ours waits for it, or given back. */
export type PaymentEventResult = 'completed' | 'already-complete' | 'ignored' | 'refunded';

export interface PaymentEventSink {
  /** A provider says a payment succeeded: complete the checkout waiting for it (idempotent, in any order). */
  succeeded(event: PaymentEvent): Promise<PaymentEventResult>;
}
