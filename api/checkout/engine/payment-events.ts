/**
 * A provider's word that a payment succeeded (webhook through the payments port, the test provider's notice, the
 * reconciler): completes the checkout waiting for it.
 */
import type { Deps } from '../../deps.ts';
import type { Q } from '../../../db/queries/checkout.ts';
import { ProblemError } from '../../../src/domain/problems.ts';
import { entry, type Ctx } from '../context.ts';
import { recordPaid } from '../steps/payment.ts';
import { providerNamed } from '../../payments/registry.ts';
import { isPaymentSuccessful, type ProviderPayment } from '../../payments/types.ts';
import type { PaymentEvent, PaymentEventResult } from '../../payments/port.ts';
import { loadCtx, runAfter, saveRow, type StampedRow } from './persist.ts';
import { inCheckoutTransaction, knownCheckouts } from './known.ts';

/**
 * A provider event (webhook, the test provider's notice, or the reconciler): completes the checkout that is
 * waiting for this payment. Safe to deliver any number of times, in any order with the browser's "payment was
 * successful": whichever comes first records the outcome, the others find it complete. A successful payment that
 * no open checkout is waiting for any more is refunded.
 */
export async function handlePaymentEvent(deps: Deps, event: PaymentEvent, reported?: ProviderPayment): Promise<PaymentEventResult> {
  if (event.type !== 'payment.succeeded') return 'ignored';
  // A payment this process created for a checkout it still has a copy of is that checkout's (the transaction
  // checks the copy); any other is looked up among every payment a checkout has created.
  const checkoutId = knownCheckouts(deps)?.paidBy(event.provider, event.paymentId)
    ?? (await deps.db.selectFrom('checkout_payments').select('checkout_id')
      .where('provider', '=', event.provider).where('provider_payment_id', '=', event.paymentId).executeTakeFirst())?.checkout_id;
  if (!checkoutId) return 'ignored';
  const provider = providerNamed(deps, event.provider);
  // An event says only which payment; its state is asked of the provider, unless this process's own provider
  // has just reported it (`reported`, the test provider's confirmation).
  const payment = !provider ? null : reported?.id === event.paymentId ? reported : await provider.retrievePayment(event.paymentId);
  if (!provider || !payment || !isPaymentSuccessful(payment.status)) return 'ignored';
  let out: Recorded;
  try {
    out = await inCheckoutTransaction(deps, checkoutId, (tx, read) => recordPayment(deps, tx, read, payment), (done) => done.ctx);
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    out = { result: 'refund', ctx: null };
  }
  if (out.result === 'refund') {
    await provider.refundPayment(payment.id);
    await deps.db.updateTable('checkout_payments').set({ status: 'refunded', updated_at: deps.now() })
      .where('provider', '=', event.provider).where('provider_payment_id', '=', event.paymentId).execute();
    return 'refunded';
  }
  if (out.ctx) await runAfter(out.ctx);
  return out.result;
}

interface Recorded {
  result: 'completed' | 'already-complete' | 'refund';
  /** The completed checkout, whose follow-up work runs after the commit. */
  ctx: Ctx | null;
}

/**
 * In the transaction: the checkout, locked, records the payment if it is open and waiting for exactly this payment,
 * amount and currency; a payment it already recorded is 'already-complete'; any other is to be refunded.
 */
async function recordPayment(deps: Deps, tx: Q, locked: StampedRow | undefined, payment: ProviderPayment): Promise<Recorded> {
  if (!locked) return { result: 'refund', ctx: null };
  const { row } = locked;
  if (row.status === 'completed') return { result: row.payment_id === payment.id ? 'already-complete' : 'refund', ctx: null };
  if (row.status !== 'open' || row.payment_id !== payment.id) return { result: 'refund', ctx: null };
  const inner = await loadCtx(deps, tx, locked, null);
  if (payment.amount !== row.total_cost || payment.currency !== row.currency) return { result: 'refund', ctx: null };
  const method = entry(inner, 'payment')?.paymentMethod ?? 'card';
  await recordPaid(inner, method, payment.id);
  await saveRow(inner);
  return { result: 'completed', ctx: inner };
}
