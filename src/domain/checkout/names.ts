/**
 * The names of the checkout's steps and payment methods: what the flow table (flows.ts) lists and the step and
 * payment-method rules (steps.ts, paymentMethods.ts, which re-export them) build on. A leaf, so the flow table
 * need not import the modules that read it.
 */

/** Spec 2.14: the checkout's steps. */
export type StepId =
  | 'date'
  | 'spaces'
  | 'offers'
  | 'delivery'
  | 'dates'
  | 'message'
  | 'login'
  | 'contactDetails'
  | 'payment'
  | 'confirmation'
  | 'plan'
  | 'giftAmount'
  | 'giftDetails';

/** Spec 3: card, wallet provider, pay-later, invoice and in-person, by their option names. */
export type PaymentMethod = 'card' | 'paypal' | 'klarna' | 'invoice' | 'manual';
