/**
 * The checkout engine (DESIGN §4, docs/checkout-design.md): the server owns the checkout. A checkout row holds the
 * flow, origin, current step, step states and ids; each submit-response is one action of the current step, its
 * payload parsed by the step's own schema, applied in ONE transaction (the row locked on PostgreSQL; SQLite runs
 * one transaction at a time) and answered with the new state. The engine knows no flow by name: it asks the flow's
 * definition (api/checkout/flows/) and the current step's object. Provider calls (create, capture, retrieve a
 * payment) run before the transaction and are re-checked inside it.
 *
 * One module per concern, in api/checkout/engine/:
 *   initialise.ts      opening (or resuming, or previewing) a checkout
 *   read.ts            reading one (GET)
 *   submit.ts          one action of the current step, in one transaction
 *   navigation.ts      moving between steps: advance and enter, go back, past the login step
 *   payment-events.ts  a provider's word that a payment succeeded (webhook, reconciler)
 *   close.ts           abandoning it, or the server closing it
 *   state.ts           the state every call answers with (spec 3), the outcome as the confirmation shows it
 *   persist.ts         reading, locking and saving the row, the working context, work after the commit
 *   access.ts          who may see and act on it
 */
export { initialiseCheckout, previewCheckout } from './engine/initialise.ts';
export { getCheckout } from './engine/read.ts';
export { submitResponse } from './engine/submit.ts';
export { abandonCheckout } from './engine/close.ts';
// The flow a path names (/checkout/initialise/{slug}): one of the registered flows' (api/checkout/flows/index.ts).
export { flowAtSlug } from './flows/index.ts';
export { handlePaymentEvent } from './engine/payment-events.ts';
