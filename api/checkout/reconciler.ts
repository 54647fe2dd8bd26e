/**
 * The payment reconciler (DESIGN 11 "Reconcile what only an outside party knows"): a background job that asks the
 * providers about payments the checkout has not settled, and settles them as a webhook would have —
 *
 * - a payment the provider says succeeded while its checkout is still open (the process crashed after the provider
 *   confirmed it, or the webhook never came) completes that checkout;
 * - a payment that succeeded for a checkout that no longer waits for it (abandoned, lapsed, paid otherwise) or whose
 *   outcome cannot be recorded any more (sold out meanwhile) is refunded;
 * - anything else is looked at again later, until it is older than RECONCILE_MAX_AGE_SECONDS.
 *
 * It never captures a wallet order the buyer approved but the checkout did not confirm: money is taken only at the
 * learner's "payment was successful". Completion goes through the engine's handlePaymentEvent, which is idempotent
 * with the browser and the webhooks, so a payment settled twice is settled once. Each payment is claimed with a
 * conditional update of checked_at, so several processes can run the job side by side.
 */
import type { Deps } from '../deps.ts';
import type { BackgroundJob } from '../background.ts';
import { providerNamed } from '../payments/registry.ts';
import { isPaymentSuccessful } from '../payments/types.ts';
import { handlePaymentEvent } from './engine.ts';

/**
 * Statuses of a provider payment the checkout has not settled (what checkout_payments holds until then); 'canceling'
 * is a payment the checkout let go of, whose cancellation the provider has not confirmed.
 */
const UNSETTLED = ['requires_payment_method', 'requires_confirmation', 'requires_action', 'processing', 'requires_capture', 'canceling'];

export interface ReconcilerOptions {
  /** A payment younger than this is left to the browser and the webhook (seconds). */
  graceSeconds?: number;
  /** How long after a check the same payment is asked about again (seconds). */
  recheckSeconds?: number;
  /** Payments older than this are no longer chased (seconds). */
  maxAgeSeconds?: number;
  /** Payments per pass. */
  batch?: number;
}

export type ReconcileResult = 'completed' | 'already-complete' | 'refunded' | 'ignored' | 'pending' | 'unknown-provider';

/** One pass: claims due payments, asks their providers, settles them. Returns how many it looked at. */
export async function reconcilePayments(deps: Deps, options: ReconcilerOptions = {}): Promise<{ checked: number; results: ReconcileResult[] }> {
  const grace = options.graceSeconds ?? 120;
  const recheck = options.recheckSeconds ?? 300;
  const maxAge = options.maxAgeSeconds ?? 7 * 86400;
  const now = deps.now();
  const due = await deps.db
    .selectFrom('checkout_payments')
    .select(['id', 'provider', 'provider_payment_id', 'checked_at'])
    .where('status', 'in', UNSETTLED)
    .where('created_at', '<=', now - grace)
    .where('created_at', '>', now - maxAge)
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<=', now - recheck)]))
    .orderBy('created_at')
    .limit(options.batch ?? 20)
    .execute();
  const results: ReconcileResult[] = [];
  for (const payment of due) {
    // Claim it: only the process whose update matched the value it read goes on.
    const claim = await deps.db
      .updateTable('checkout_payments')
      .set({ checked_at: now })
      .where('id', '=', payment.id)
      .where((eb) => (payment.checked_at === null ? eb('checked_at', 'is', null) : eb('checked_at', '=', payment.checked_at)))
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) === 0) continue;
    results.push(await reconcileOne(deps, payment.provider, payment.provider_payment_id));
  }
  return { checked: results.length, results };
}

async function reconcileOne(deps: Deps, providerName: string, paymentId: string): Promise<ReconcileResult> {
  const provider = providerNamed(deps, providerName);
  if (!provider) return 'unknown-provider';
  const payment = await provider.retrievePayment(paymentId);
  if (!payment || !isPaymentSuccessful(payment.status)) {
    if (payment && ['canceled', 'refunded'].includes(payment.status)) {
      await deps.db.updateTable('checkout_payments').set({ status: payment.status, updated_at: deps.now() })
        .where('provider', '=', providerName).where('provider_payment_id', '=', paymentId).execute();
    }
    return 'pending';
  }
  return handlePaymentEvent(deps, { provider: providerName, eventId: `reconcile_${paymentId}`, type: 'payment.succeeded', paymentId });
}

/** The reconciler as a background job (api/background.ts), started by the server. */
export function paymentReconcilerJob(deps: Deps, options: ReconcilerOptions = {}): BackgroundJob {
  return {
    name: 'payment-reconciler',
    idleMs: 60_000,
    busyMs: 1_000,
    maxBackoffMs: 10 * 60_000,
    run: async () => (await reconcilePayments(deps, options)).checked,
  };
}
