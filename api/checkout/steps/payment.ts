/**
 * The Payment step (spec 2.14 "Payment", 4 "Outcomes"): it applies when the flow says payment is required;
 * entering it fixes the total the learner is shown (and charged) and holds the spaces; leaving it gives them back.
 * Provider methods (card, wallet, pay-later) are taken by whichever provider the registry names; invoice and
 * in-person payment need none. Provider calls run before the transaction (`prepare`) and are re-checked inside it.
 */
import type { z } from 'zod';
import { ProblemError, problems, type Problem } from '../../../src/domain/problems.ts';
import { manualPaymentMessage, paymentMethodsShown, type PaymentMethod } from '../../../src/domain/checkout/paymentMethods.ts';
import { validateInvoiceDetails } from '../../../src/domain/checkout/validation.ts';
import { cardRedirectOutcome } from '../../../src/domain/checkout/outcomes.ts';
import type { FlowRules } from '../../../src/domain/checkout/flows.ts';
import { invoiceDueDate } from '../../../src/domain/checkout/messages.ts';
import type { ResolvedPaymentOptions } from '../../../db/queries/checkout.ts';
import { catalogueCache } from '../catalogue-cache.ts';
import { availableMethods, needsProvider, providerFor, providerNamed } from '../../payments/registry.ts';
import { isPaymentSuccessful } from '../../payments/types.ts';
import { ACTION_PAYLOADS } from '../actions.ts';
import { STAY, action, defineStep, type Prepared } from '../definition.ts';
import { entry, setEntry, type Ctx } from '../context.ts';
import type { PaymentStepState } from '../../../src/domain/checkout/step-state.ts';
import { complete, enterPayment, holdForSelection } from '../outcomes.ts';
import { releaseHold } from '../holds.ts';
import { assertNotMember, planOf } from './plan.ts';
import { newId } from '../ids.ts';
import { writeLater } from '../../../db/client.ts';

function fail(problem: Problem): never {
  throw new ProblemError(problem);
}

/** The methods this checkout offers: the educator's, allowed in the flow (spec 4), with a provider here. */
async function methodsFor(ctx: Ctx): Promise<{ visible: PaymentMethod[]; options: ResolvedPaymentOptions }> {
  const options = await catalogueCache(ctx.deps.db).paymentOptions(ctx.q, ctx.cat.educator.id, ctx.cat.course?.id ?? null, ctx.stamp);
  const available = availableMethods(ctx.deps.config);
  return { visible: paymentMethodsShown(ctx.def.rules, options).filter((m) => available.includes(m)), options };
}

function methodUnavailable(ctx: Ctx): never {
  // A flow sold by the educator (gift voucher, membership) has no course to name.
  const message = ctx.cat.course ? 'is not available for this course' : 'is not available for this purchase';
  fail(problems.validation([{ key: 'payload.paymentMethod', name: 'Payment method', message }]));
}

/** Leaving Payment gives the spaces back and drops the provider payment (a new total needs a new one). */
export async function leavePayment(ctx: Ctx): Promise<void> {
  await releaseHold(ctx.q, ctx.dialect, ctx.row.id, ctx.now);
  const paymentId = ctx.row.payment_id;
  const providerName = ctx.row.payment_provider;
  if (paymentId && providerName) {
    ctx.after.push(async () => {
      await providerNamed(ctx.deps, providerName)?.cancelPayment(paymentId);
    });
    // Not 'canceled' yet: a payment the buyer completed just before (or a cancel that fails) still takes money.
    // The reconciler asks the provider, and refunds it if it succeeded.
    await ctx.q.updateTable('checkout_payments').set({ status: 'canceling', updated_at: ctx.now })
      .where('provider', '=', providerName).where('provider_payment_id', '=', paymentId).where('status', '!=', 'succeeded').execute();
  }
  ctx.row.payment_id = null;
  ctx.row.payment_provider = null;
  delete ctx.row.step_state.payment;
}

/** Outside the transaction: the provider payment for exactly the stored total (reused while it is still payable). */
async function preparePayment(deps: Ctx['deps'], row: Ctx['row'], method: string, rules: FlowRules): Promise<Prepared> {
  if (row.status !== 'open' || !needsProvider(method) || row.current_step !== 'payment' || !row.total_cost || row.total_cost <= 0) return {};
  const provider = providerFor(deps, method);
  // Not offered here (live mode without a provider for it): the action's own check answers.
  if (!provider) return {};
  if (row.payment_id && row.payment_provider === provider.name) {
    const existing = await provider.retrievePayment(row.payment_id);
    if (existing && existing.amount === row.total_cost && existing.currency === row.currency
      && ['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(existing.status)) {
      return { payment: existing, provider: provider.name };
    }
  }
  // A membership's card is charged again at each renewal: the provider keeps it for off-session use.
  const buyer = rules.recurring ? await renewalCustomer(deps, row.user_id) : null;
  const payment = await provider.createPayment(
    row.total_cost, row.currency, { checkoutId: row.id, ...(row.course_id ? { courseId: row.course_id } : {}), educatorId: row.educator_id },
    buyer ? { saveForRenewals: buyer } : undefined,
  );
  return { payment, provider: provider.name };
}

/** Who the provider's saved customer is (the learner the checkout is bound to). */
async function renewalCustomer(deps: Ctx['deps'], userId: string | null): Promise<{ email: string | null; name: string | null; userId: string | null }> {
  const user = userId ? await deps.db.selectFrom('users').select(['email', 'first_name', 'last_name']).where('id', '=', userId).executeTakeFirst() : undefined;
  return { email: user?.email ?? null, name: user ? [user.first_name, user.last_name].filter(Boolean).join(' ') || null : null, userId };
}

/** Outside the transaction: the provider's word on the checkout's payment — captured first when the provider needs that. */
async function prepareConfirmation(deps: Ctx['deps'], row: Ctx['row']): Promise<Prepared> {
  if (row.status !== 'open' || !row.payment_id || !row.payment_provider) return {};
  const provider = providerNamed(deps, row.payment_provider);
  if (!provider) return {};
  // A wallet order is approved in the browser and becomes money only when we capture it (spec 4: COMPLETED).
  const payment = provider.capturePayment
    ? await provider.capturePayment(row.payment_id, { checkoutId: row.id, amount: row.total_cost ?? undefined, currency: row.currency })
    : await provider.retrievePayment(row.payment_id);
  return payment ? { payment, provider: row.payment_provider, refundOnFailure: isPaymentSuccessful(payment.status) } : {};
}

async function selectPaymentMethod(ctx: Ctx, method: PaymentMethod, prepared: Prepared): Promise<void> {
  const { visible } = await methodsFor(ctx);
  if (!visible.includes(method)) methodUnavailable(ctx);
  // Renew the hold (a swept hold is taken again, or the sold-out / lapsed problem is raised).
  await holdForSelection(ctx, { capped: true });
  const previous = entry(ctx, 'payment');
  const state: PaymentStepState = {
    paymentMethod: method, clientSecret: null, connectedAccountId: null, paypalOrderId: null,
    invoiceDetails: previous?.invoiceDetails ?? null, paymentId: null, paymentStatus: null,
  };
  if (needsProvider(method)) {
    const payment = prepared.payment;
    const provider = prepared.provider ? providerNamed(ctx.deps, prepared.provider) : null;
    if (!payment || !provider || payment.amount !== ctx.row.total_cost || payment.currency !== ctx.row.currency) {
      fail(problems.checkoutSubmission());
    }
    if (ctx.row.payment_id && ctx.row.payment_id !== payment.id && ctx.row.payment_provider) {
      const stale = ctx.row.payment_id;
      const staleProvider = ctx.row.payment_provider;
      ctx.after.push(async () => providerNamed(ctx.deps, staleProvider)?.cancelPayment(stale));
    }
    ctx.row.payment_id = payment.id;
    ctx.row.payment_provider = provider.name;
    await writeLater(ctx.q, ctx.q
      .insertInto('checkout_payments')
      .values({
        id: newId('cpay'), checkout_id: ctx.row.id, provider: provider.name, provider_payment_id: payment.id,
        amount: payment.amount, currency: payment.currency, status: payment.status, created_at: ctx.now, updated_at: ctx.now,
      })
      .onConflict((oc) => oc.columns(['provider', 'provider_payment_id']).doNothing()));
    state.clientSecret = payment.clientSecret;
    // Stripe payments live on the educator's connected account; Stripe.js needs it to confirm them.
    state.connectedAccountId = (payment as { accountId?: string | null }).accountId ?? null;
    state.paymentId = payment.id;
    state.paymentStatus = payment.status;
    // Spec 3 names the order a wallet buyer approves paypalOrderId: any provider whose orders we capture fills it.
    if (provider.capturePayment) state.paypalOrderId = payment.id;
  }
  setEntry(ctx, 'payment', state);
}

/** Records a payment the provider confirmed (the browser's return, a webhook or the reconciler). */
export async function recordPaid(ctx: Ctx, method: string, paymentId: string): Promise<void> {
  await complete(ctx, { method, state: 'paid', paymentId });
  await writeLater(ctx.q, ctx.q.updateTable('checkout_payments').set({ status: 'succeeded', updated_at: ctx.now })
    .where('provider', '=', ctx.row.payment_provider ?? '').where('provider_payment_id', '=', paymentId));
}

/** Spec 4: success is verified with the provider (status, amount, currency), never taken from the browser. */
async function paymentSuccessful(ctx: Ctx, payload: { payment_intent_client_secret?: string; redirect_status?: string }, prepared: Prepared): Promise<void> {
  const state = entry(ctx, 'payment');
  const payment = prepared.payment;
  const provider = prepared.provider ? providerNamed(ctx.deps, prepared.provider) : null;
  if (!state?.paymentMethod || !needsProvider(state.paymentMethod) || !payment || !provider || payment.id !== ctx.row.payment_id) {
    fail(problems.checkoutSubmission());
  }
  if (payload.redirect_status !== undefined || payload.payment_intent_client_secret !== undefined) {
    const outcome = cardRedirectOutcome({
      expectedClientSecret: payment.clientSecret,
      returnedClientSecret: payload.payment_intent_client_secret,
      redirectStatus: payload.redirect_status,
    });
    if (!outcome.ok) fail(outcome.problem);
  }
  // A provider whose orders we capture speaks the wallet provider's errors (spec 8), under its own name.
  const wallet = !!provider.capturePayment;
  if (payment.status === 'refunded') {
    // Refunded by the provider event because the outcome could not be recorded: say why (e.g. sold out, or the
    // plan joined meanwhile by another checkout of the learner's).
    await holdForSelection(ctx, { capped: true });
    const plan = planOf(ctx);
    if (plan) await assertNotMember(ctx, plan.planId, ctx.row.user_id);
    fail(problems.cardProvider({ type: 'api_error', message: 'This payment was refunded. Please pay again.' }));
  }
  if (!isPaymentSuccessful(payment.status)) {
    if (wallet) fail(problems.walletProvider(payment.lastError?.type === 'card_error' ? 'payment_failed' : 'capture_error', provider.displayName));
    fail(problems.cardProvider(payment.lastError ?? null));
  }
  if (payment.amount !== ctx.row.total_cost || payment.currency !== ctx.row.currency) {
    fail(wallet ? problems.walletProvider('capture_error', provider.displayName) : problems.cardProvider(null));
  }
  await recordPaid(ctx, state.paymentMethod, payment.id);
}

async function payByInvoice(ctx: Ctx, payload: z.output<(typeof ACTION_PAYLOADS)['invoice details added']>): Promise<void> {
  const { visible, options } = await methodsFor(ctx);
  if (!visible.includes('invoice')) methodUnavailable(ctx);
  const properties = validateInvoiceDetails(payload, 'payload');
  if (properties.length) fail(problems.validation(properties));
  const dueDate = invoiceDueDate(ctx.now, options.invoice_due_days);
  const clean = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const invoiceDetails = {
    billing_name: clean(payload.billing_name), billing_email: clean(payload.billing_email), vat_number: clean(payload.vat_number),
    invoice_ref: clean(payload.invoice_ref), billing_address: clean(payload.billing_address),
    recipient_instructions: clean(payload.recipient_instructions), due_date: dueDate,
  };
  await complete(ctx, { method: 'invoice', state: ctx.row.total_cost ? 'unpaid' : 'free', invoiceDetails, dueDate });
}

async function payManually(ctx: Ctx): Promise<void> {
  const { visible, options } = await methodsFor(ctx);
  if (!visible.includes('manual')) methodUnavailable(ctx);
  await complete(ctx, { method: 'manual', state: ctx.row.total_cost ? 'unpaid' : 'free', manualNote: manualPaymentMessage(options) });
}

export const paymentStep = defineStep({
  id: 'payment',
  applies: async (ctx) => (ctx.def.paymentRequired ? ctx.def.paymentRequired(ctx) : false),
  isComplete: (ctx) => ctx.row.status === 'completed',
  enter: enterPayment,
  leave: leavePayment,
  actions: {
    'payment method selected': action({
      payload: ACTION_PAYLOADS['payment method selected'],
      prepare: (deps, row, payload, rules) => preparePayment(deps, row, payload.paymentMethod, rules),
      handle: async (ctx, payload, prepared) => {
        await selectPaymentMethod(ctx, payload.paymentMethod, prepared);
        return STAY;
      },
    }),
    'payment was successful': action({
      payload: ACTION_PAYLOADS['payment was successful'],
      prepare: (deps, row) => prepareConfirmation(deps, row),
      repeatable: true,
      handle: async (ctx, payload, prepared) => {
        await paymentSuccessful(ctx, payload, prepared);
        return STAY;
      },
    }),
    'invoice details added': action({
      payload: ACTION_PAYLOADS['invoice details added'],
      handle: async (ctx, payload) => {
        await payByInvoice(ctx, payload);
        return STAY;
      },
    }),
    'manual payment confirmed': action({
      payload: ACTION_PAYLOADS['manual payment confirmed'],
      handle: async (ctx) => {
        await payManually(ctx);
        return STAY;
      },
    }),
  },
});
