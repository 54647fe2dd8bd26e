/**
 * The checkout engine (DESIGN §4): the server owns the checkout. A checkout row holds the flow, origin,
 * current step, step states and ids; each submit-response is one action, validated with zod, applied in
 * ONE transaction (the row locked on PostgreSQL; SQLite runs one transaction at a time) and answered with
 * the new state. Provider calls (create / retrieve a payment) happen outside the transaction and are
 * re-checked inside it.
 */
import { z } from 'zod';
import type { Deps } from '../app.ts';
import type { SessionUser } from '../auth/types.ts';
import type { CheckoutRow } from '../../db/schema/checkout.ts';
import { loadCourseCatalogue, loadOccurrence, loadPaymentOptions, type CheckoutCatalogue, type Q } from '../../db/queries/checkout.ts';
import { parseWith } from '../http/parse.ts';
import { ProblemError, problems, type Problem } from '../../src/domain/problems.ts';
import { assertFlowMatchesCourseType, type Flow } from '../../src/domain/checkout/flows.ts';
import { FLOW_STEPS, isAfterLoginStep, nextStep, previousStep, type StepId } from '../../src/domain/checkout/steps.ts';
import { defaultDelivery, defaultDurationId, defaultOfferSelection, defaultRequestPricing } from '../../src/domain/checkout/defaults.ts';
import { manualPaymentMessage, visiblePaymentMethods, type PaymentMethod } from '../../src/domain/checkout/paymentMethods.ts';
import { termsPreAccepted, validateInvoiceDetails } from '../../src/domain/checkout/validation.ts';
import { cardRedirectOutcome, confirmationTitle } from '../../src/domain/checkout/outcomes.ts';
import { checkoutNotFoundProblem } from '../../src/domain/checkout/problems.ts';
import { ACTION_PAYLOADS, envelopeSchema, isActionName, type ActionName } from './actions.ts';
import {
  calendarBased, checkoutCost, domainOffers, entry, instantBooking, loadCtx, setEntry, stepsOf, withHandle,
  type Ctx, type PaymentStepState,
} from './context.ts';
import {
  configureDelivery, fillContactDetails, fillMessage, pickOccurrence, pickPricing, selectAvailableDate, selectDatesAndPrices,
  selectPreferredDates, skipAvailableDates, stepActions,
} from './steps.ts';
import { complete, enterPayment, holdForSelection } from './outcomes.ts';
import { currentHold, releaseHold, sweepAllExpiredHolds } from './holds.ts';
import { newCheckoutId, newId, documentToken } from './ids.ts';
import { providerFor, providerNamed } from '../payments/index.ts';
import { isWalletProvider } from '../payments/registry.ts';
import { isPaymentSuccessful, type PaymentEvent, type ProviderPayment } from '../payments/types.ts';
import { notifyOutcome } from './notify.ts';
import { occurrenceLinkFromBooking, orderDetailsLink, type AppContext, type LinkTarget } from '../../src/domain/links.ts';
import { loggerFor } from '../log.ts';

export const ORIGINS = ['marketplace', 'embed', 'landing_page'] as const;

export const initialiseSchema = z.object({
  checkoutId: z.string().max(200).nullable().optional(),
  courseId: z.string().min(1).max(200),
  occurrenceId: z.string().max(200).nullable().optional(),
  origin: z.enum(ORIGINS).optional().default('marketplace'),
  bookedOnURL: z.string().max(2000).nullable().optional(),
  utms: z.record(z.string().max(100), z.union([z.string().max(500), z.null()])).nullable().optional(),
});
export type InitialiseBody = z.infer<typeof initialiseSchema>;

const CARD_LIKE: readonly string[] = ['card', 'paypal', 'klarna'];

function fail(problem: Problem): never {
  throw new ProblemError(problem);
}

// ---------------------------------------------------------------------------------------------
// Access

/** Spec 6 "Restricted courses": admins of the educator, and e-mail addresses granted access to the course. */
export async function canAccessCourse(q: Q, cat: CheckoutCatalogue, user: SessionUser | null): Promise<boolean> {
  if (!cat.course.restricted) return true;
  if (!user) return false;
  if (user.educatorIds.includes(cat.educator.id)) return true;
  const grant = await q
    .selectFrom('restricted_course_access')
    .select('course_id')
    .where('course_id', '=', cat.course.id)
    .where('email', '=', user.email.toLowerCase())
    .executeTakeFirst();
  return !!grant;
}

/** A checkout bound to a learner is theirs alone; an anonymous checkout is reachable by its (random) id. */
function visibleTo(row: CheckoutRow, user: SessionUser | null): boolean {
  return row.user_id === null || (!!user && user.id === row.user_id);
}

async function lockRow(q: Q, deps: Deps, id: string): Promise<CheckoutRow | undefined> {
  let query = q.selectFrom('checkouts').selectAll().where('id', '=', id);
  if (deps.dialect === 'postgres') query = query.forUpdate();
  return query.executeTakeFirst();
}

async function saveRow(ctx: Ctx): Promise<void> {
  const r = ctx.row;
  await ctx.q
    .updateTable('checkouts')
    .set({
      occurrence_id: r.occurrence_id,
      user_id: r.user_id,
      student_id: r.student_id,
      current_step: r.current_step,
      step_state: r.step_state,
      status: r.status,
      booking_id: r.booking_id,
      order_id: r.order_id,
      request_id: r.request_id,
      application_id: r.application_id,
      total_cost: r.total_cost,
      currency: r.currency,
      cost_summary: r.cost_summary,
      payment_provider: r.payment_provider,
      payment_id: r.payment_id,
      version: Number(r.version) + 1,
      updated_at: ctx.now,
      completed_at: r.completed_at,
    })
    .where('id', '=', r.id)
    .execute();
  r.version = Number(r.version) + 1;
  r.updated_at = ctx.now;
}

/** Spec 2.14: once the learner is logged in, the login step gives way to the first after-login step. */
async function settleLogin(ctx: Ctx): Promise<boolean> {
  if (ctx.user && ctx.row.current_step === 'login' && ctx.row.status === 'open') {
    ctx.row.current_step = FLOW_STEPS[ctx.flow].afterLogin[0];
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Initialise, read

/**
 * Besides the lazy sweeps inside the transactions that read an occurrence's availability, every process
 * sweeps all expired holds at most once a minute when a checkout starts (so pages that only read
 * available_spaces see released spaces soon). The sweep runs in its own short transactions.
 */
const lastGlobalSweep = new WeakMap<object, number>();
async function sweepOccasionally(deps: Deps): Promise<void> {
  const now = deps.now();
  if ((lastGlobalSweep.get(deps.db) ?? -Infinity) > now - 60) return;
  lastGlobalSweep.set(deps.db, now);
  await sweepAllExpiredHolds(deps.db, deps.dialect, now);
}

export async function initialiseCheckout(deps: Deps, user: SessionUser | null, flow: Flow, input: unknown): Promise<CheckoutState> {
  const body = parseWith(initialiseSchema, input);
  const db = deps.db;
  await sweepOccasionally(deps);
  // Resume: the same checkout id for the same course and flow continues where it was.
  if (body.checkoutId) {
    const existing = await db.selectFrom('checkouts').selectAll().where('id', '=', body.checkoutId).executeTakeFirst();
    if (existing && existing.course_id === body.courseId && existing.flow === flow && existing.status !== 'abandoned' && visibleTo(existing, user)) {
      return getCheckout(deps, user, existing.id);
    }
  }
  const cat = await loadCourseCatalogue(db, body.courseId);
  if (!cat || !cat.course.published) fail(problems.notFound('No such course'));
  if (!(await canAccessCourse(db, cat, user))) fail(problems.unauthorisedCheckout('You do not have access to this course.'));
  assertFlowMatchesCourseType(flow, cat.course.type);
  if (flow === 'request') {
    // Spec 4: "No delivery options available" when no delivery option can be defaulted.
    defaultDelivery(courseLike(cat), cat.course.student_travel_settings?.locations ?? []);
  }
  const now = deps.now();
  const id = newCheckoutId();
  const firstStep = FLOW_STEPS[flow].beforeLogin[0];
  const row: CheckoutRow = {
    id, flow, origin: body.origin, course_id: cat.course.id, educator_id: cat.educator.id, occurrence_id: null,
    user_id: null, student_id: null, current_step: firstStep, step_state: {}, utms: body.utms ?? null,
    booked_on_url: body.bookedOnURL ?? null, status: 'open', booking_id: null, order_id: null, request_id: null,
    application_id: null, total_cost: null, currency: cat.course.currency || 'GBP', cost_summary: null,
    payment_provider: null, payment_id: null, version: 0, created_at: now, updated_at: now, completed_at: null,
  };
  const ctx = await db.transaction().execute(async (tx) => {
    await tx.insertInto('checkouts').values(row).execute();
    const inner = await loadCtx(deps, tx, row, user, cat);
    if (body.occurrenceId && (flow === 'booking' || flow === 'bookingApplication')) {
      await pickOccurrence(inner, body.occurrenceId, 'occurrenceId');
      inner.row.current_step = nextStep(await stepsOf(inner), 'date') ?? 'spaces';
      await saveRow(inner);
    }
    return inner;
  });
  return toState(withHandle(ctx, db));
}

export async function getCheckout(deps: Deps, user: SessionUser | null, id: string): Promise<CheckoutState> {
  const row = await deps.db.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || !visibleTo(row, user)) fail(checkoutNotFoundProblem());
  let ctx = await loadCtx(deps, deps.db, row, user);
  if (!(await canAccessCourse(deps.db, ctx.cat, user))) fail(problems.unauthorisedCheckout('You do not have access to this course.'));
  if (ctx.user && ctx.row.current_step === 'login' && ctx.row.status === 'open') {
    const settled = await deps.db.transaction().execute(async (tx) => {
      const locked = await lockRow(tx, deps, id);
      const inner = await loadCtx(deps, tx, locked!, user);
      if (await settleLogin(inner)) await saveRow(inner);
      return inner;
    });
    ctx = withHandle(settled, deps.db);
  }
  return toState(ctx);
}

// ---------------------------------------------------------------------------------------------
// Submit

interface Prepared {
  payment?: ProviderPayment;
  provider?: string;
  /** A payment that succeeded: give the money back if the action cannot complete. */
  refundOnFailure?: boolean;
}

async function preparePayment(deps: Deps, id: string, action: ActionName, payload: Record<string, unknown>): Promise<Prepared> {
  const row = await deps.db.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || row.status !== 'open') return {};
  if (action === 'payment method selected') {
    const method = String(payload.paymentMethod);
    if (!CARD_LIKE.includes(method) || row.current_step !== 'payment' || !row.total_cost || row.total_cost <= 0) return {};
    const provider = providerFor(deps, method);
    if (row.payment_id && row.payment_provider === provider.name) {
      const existing = await provider.retrievePayment(row.payment_id);
      if (existing && existing.amount === row.total_cost && existing.currency === row.currency
        && ['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(existing.status)) {
        return { payment: existing, provider: provider.name };
      }
    }
    const payment = await provider.createPayment(row.total_cost, row.currency, { checkoutId: row.id, courseId: row.course_id, educatorId: row.educator_id });
    return { payment, provider: provider.name };
  }
  if (action === 'payment was successful') {
    if (!row.payment_id || !row.payment_provider) return {};
    const provider = providerNamed(deps, row.payment_provider);
    // A wallet order is approved in the browser and becomes money only when we capture it (spec 4: COMPLETED).
    const payment = !provider
      ? null
      : isWalletProvider(provider)
        ? await provider.capturePayment(row.payment_id, { checkoutId: row.id, amount: row.total_cost ?? undefined, currency: row.currency })
        : await provider.retrievePayment(row.payment_id);
    return payment ? { payment, provider: row.payment_provider, refundOnFailure: isPaymentSuccessful(payment.status) } : {};
  }
  return {};
}

export async function submitResponse(deps: Deps, user: SessionUser | null, id: string, input: unknown): Promise<CheckoutState> {
  const envelope = parseWith(envelopeSchema, input);
  if (!isActionName(envelope.action)) fail(problems.checkoutSubmission());
  const action = envelope.action;
  const payload = parseWith(ACTION_PAYLOADS[action], envelope.payload ?? {}, 'payload') as Record<string, unknown>;
  const prepared = action === 'payment method selected' || action === 'payment was successful'
    ? await preparePayment(deps, id, action, payload)
    : {};
  let ctx: Ctx;
  try {
    ctx = await deps.db.transaction().execute(async (tx) => {
      const row = await lockRow(tx, deps, id);
      if (!row || !visibleTo(row, user)) fail(checkoutNotFoundProblem());
      const inner = await loadCtx(deps, tx, row, user);
      if (!(await canAccessCourse(tx, inner.cat, user))) fail(problems.unauthorisedCheckout('You do not have access to this course.'));
      if (row.status === 'completed') {
        // Confirming the same payment twice: the checkout is already complete, nothing more is recorded.
        if (action === 'payment was successful') return inner;
        fail(problems.checkoutSubmission());
      }
      if (row.status !== 'open') fail(problems.checkoutSubmission());
      await settleLogin(inner);
      await apply(inner, action, payload, prepared);
      await saveRow(inner);
      return inner;
    });
  } catch (error) {
    // A succeeded payment whose outcome cannot be recorded (sold out, slot taken…) is given back. A transient
    // failure (database, network) is not: the learner or the provider's event can try again.
    if (error instanceof ProblemError && prepared.refundOnFailure && prepared.payment && prepared.provider) {
      await providerNamed(deps, prepared.provider)?.refundPayment(prepared.payment.id);
    }
    throw error;
  }
  await runAfter(ctx);
  return toState(withHandle(ctx, deps.db));
}

async function runAfter(ctx: Ctx): Promise<void> {
  for (const job of ctx.after) {
    try {
      await job();
    } catch (error) {
      loggerFor(ctx.deps.config).error('checkout follow-up failed', { error });
    }
  }
}

async function apply(ctx: Ctx, action: ActionName, payload: Record<string, unknown>, prepared: Prepared): Promise<void> {
  const steps = await stepsOf(ctx);
  const current = ctx.row.current_step as StepId;
  if (action === 'go back') return goBack(ctx, steps);
  if (!ctx.user && (current === 'login' || isAfterLoginStep(ctx.flow, current))) {
    // Spec 8 "Unknown user": after-login steps need a logged-in learner.
    fail(problems.unknownUser());
  }
  if (!steps.includes(current) || !stepActions(current, ctx.flow).includes(action)) fail(problems.checkoutSubmission());

  switch (action) {
    case 'occurrence picked':
      await pickOccurrence(ctx, String(payload.occurrence_id));
      return advance(ctx, current);
    case 'pricing options picked':
    case 'order pricing options picked':
      await pickPricing(ctx, payload as never);
      return advance(ctx, current);
    case 'request delivery configured':
      await configureDelivery(ctx, payload as never);
      return advance(ctx, current);
    case 'request preferred dates selected':
      selectPreferredDates(ctx, payload as never);
      return advance(ctx, current);
    case 'request available date selected':
      await selectAvailableDate(ctx, payload as never);
      return advance(ctx, current);
    case 'skip available dates':
      // Stays on Dates, which now asks for preferred dates (spec 4: no longer calendar-based).
      skipAvailableDates(ctx);
      return;
    case 'dates and prices selected':
      await selectDatesAndPrices(ctx, payload as never);
      return advance(ctx, current);
    case 'request message filled':
    case 'message filled':
      fillMessage(ctx, payload as { message: string });
      return advance(ctx, current);
    case 'contact details filled':
    case 'order contact details filled':
      await fillContactDetails(ctx, payload as never);
      return advance(ctx, current);
    case 'payment method selected':
      return selectPaymentMethod(ctx, String(payload.paymentMethod) as PaymentMethod, prepared);
    case 'payment was successful':
      return paymentSuccessful(ctx, payload as { payment_intent_client_secret?: string; redirect_status?: string }, prepared);
    case 'invoice details added':
      return payByInvoice(ctx, payload);
    case 'manual payment confirmed':
      return payManually(ctx);
  }
}

/** Moves to the step after `from`: entering Payment fixes the total and holds the spaces; Confirmation completes. */
async function advance(ctx: Ctx, from: StepId): Promise<void> {
  const steps = await stepsOf(ctx);
  const next = nextStep(steps, from);
  if (!next) fail(problems.checkoutSubmission());
  if (next === 'payment') {
    await enterPayment(ctx);
    ctx.row.current_step = 'payment';
    return;
  }
  if (next === 'confirmation') {
    await complete(ctx, { method: null, state: 'free' });
    afterCompletion(ctx);
    return;
  }
  ctx.row.current_step = next;
}

async function goBack(ctx: Ctx, steps: StepId[]): Promise<void> {
  const current = ctx.row.current_step as StepId;
  const index = steps.indexOf(current);
  if (current === 'payment') await leavePayment(ctx);
  if (index === -1) {
    const before = FLOW_STEPS[ctx.flow].beforeLogin;
    ctx.row.current_step = before[before.length - 1];
    return;
  }
  // On the first step Back leaves the checkout (the screen goes back in history): the state stays.
  ctx.row.current_step = previousStep(steps, current) ?? current;
}

/** Leaving Payment gives the spaces back and drops the provider payment (a new total needs a new one). */
async function leavePayment(ctx: Ctx): Promise<void> {
  await releaseHold(ctx.q, ctx.dialect, ctx.row.id, ctx.now);
  const paymentId = ctx.row.payment_id;
  const providerName = ctx.row.payment_provider;
  if (paymentId && providerName) {
    ctx.after.push(async () => {
      await providerNamed(ctx.deps, providerName)?.cancelPayment(paymentId);
    });
    await ctx.q.updateTable('checkout_payments').set({ status: 'canceled', updated_at: ctx.now })
      .where('provider', '=', providerName).where('provider_payment_id', '=', paymentId).where('status', '!=', 'succeeded').execute();
  }
  ctx.row.payment_id = null;
  ctx.row.payment_provider = null;
  delete ctx.row.step_state.payment;
}

// ---------------------------------------------------------------------------------------------
// Payment (spec 2.14 "Payment", 4 "Outcomes")

async function methodsFor(ctx: Ctx): Promise<{ visible: PaymentMethod[]; options: Awaited<ReturnType<typeof loadPaymentOptions>> }> {
  const options = await loadPaymentOptions(ctx.q, ctx.cat.educator.id, ctx.cat.course.id);
  return { visible: visiblePaymentMethods(ctx.flow, options), options };
}

function methodUnavailable(): never {
  fail(problems.validation([{ key: 'payload.paymentMethod', name: 'Payment method', message: 'is not available for this course' }]));
}

async function selectPaymentMethod(ctx: Ctx, method: PaymentMethod, prepared: Prepared): Promise<void> {
  const { visible } = await methodsFor(ctx);
  if (!visible.includes(method)) methodUnavailable();
  // Renew the hold (a swept hold is taken again, or the sold-out problem is raised).
  await holdForSelection(ctx);
  const previous = entry<PaymentStepState>(ctx, 'payment');
  const state: PaymentStepState = {
    paymentMethod: method, clientSecret: null, connectedAccountId: null, paypalOrderId: null,
    invoiceDetails: previous?.invoiceDetails ?? null, paymentId: null, paymentStatus: null,
  };
  if (CARD_LIKE.includes(method)) {
    const payment = prepared.payment;
    if (!payment || !prepared.provider || payment.amount !== ctx.row.total_cost || payment.currency !== ctx.row.currency) {
      fail(problems.checkoutSubmission());
    }
    if (ctx.row.payment_id && ctx.row.payment_id !== payment.id && ctx.row.payment_provider) {
      const stale = ctx.row.payment_id;
      const staleProvider = ctx.row.payment_provider;
      ctx.after.push(async () => providerNamed(ctx.deps, staleProvider)?.cancelPayment(stale));
    }
    ctx.row.payment_id = payment.id;
    ctx.row.payment_provider = prepared.provider;
    await ctx.q
      .insertInto('checkout_payments')
      .values({
        id: newId('cpay'), checkout_id: ctx.row.id, provider: prepared.provider, provider_payment_id: payment.id,
        amount: payment.amount, currency: payment.currency, status: payment.status, created_at: ctx.now, updated_at: ctx.now,
      })
      .onConflict((oc) => oc.columns(['provider', 'provider_payment_id']).doNothing())
      .execute();
    state.clientSecret = payment.clientSecret;
    // Stripe payments live on the educator's connected account; Stripe.js needs it to confirm them.
    state.connectedAccountId = (payment as { accountId?: string | null }).accountId ?? null;
    state.paymentId = payment.id;
    state.paymentStatus = payment.status;
    if (method === 'paypal') state.paypalOrderId = payment.id;
  }
  setEntry(ctx, 'payment', state);
}

/** Spec 4: success is verified with the provider (status, amount, currency), never taken from the browser. */
async function paymentSuccessful(ctx: Ctx, payload: { payment_intent_client_secret?: string; redirect_status?: string }, prepared: Prepared): Promise<void> {
  const state = entry<PaymentStepState>(ctx, 'payment');
  const payment = prepared.payment;
  if (!state?.paymentMethod || !CARD_LIKE.includes(state.paymentMethod) || !payment || payment.id !== ctx.row.payment_id) {
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
  const wallet = state.paymentMethod === 'paypal';
  if (payment.status === 'refunded') {
    // Refunded by the provider event because the outcome could not be recorded: say why (e.g. sold out).
    await holdForSelection(ctx);
    fail(problems.cardProvider({ type: 'api_error', message: 'This payment was refunded. Please pay again.' }));
  }
  if (!isPaymentSuccessful(payment.status)) {
    // Spec 8: the wallet provider's failures have their own messages; card and pay-later use the card provider's.
    if (wallet) fail(problems.walletProvider(payment.lastError?.type === 'card_error' ? 'payment_failed' : 'capture_error', 'PayPal'));
    fail(problems.cardProvider(payment.lastError ?? null));
  }
  if (payment.amount !== ctx.row.total_cost || payment.currency !== ctx.row.currency) {
    fail(wallet ? problems.walletProvider('capture_error', 'PayPal') : problems.cardProvider(null));
  }
  await recordPaid(ctx, state.paymentMethod, payment.id);
}

async function recordPaid(ctx: Ctx, method: string, paymentId: string): Promise<void> {
  await complete(ctx, { method, state: 'paid', paymentId });
  await ctx.q.updateTable('checkout_payments').set({ status: 'succeeded', updated_at: ctx.now })
    .where('provider', '=', ctx.row.payment_provider ?? '').where('provider_payment_id', '=', paymentId).execute();
  afterCompletion(ctx);
}

async function payByInvoice(ctx: Ctx, payload: Record<string, unknown>): Promise<void> {
  const { visible, options } = await methodsFor(ctx);
  if (!visible.includes('invoice')) methodUnavailable();
  const properties = validateInvoiceDetails(payload as never, 'payload');
  if (properties.length) fail(problems.validation(properties));
  const dueDate = ctx.now + options.invoice_due_days * 86400;
  const clean = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const invoiceDetails = {
    billing_name: clean(payload.billing_name), billing_email: clean(payload.billing_email), vat_number: clean(payload.vat_number),
    invoice_ref: clean(payload.invoice_ref), billing_address: clean(payload.billing_address),
    recipient_instructions: clean(payload.recipient_instructions), due_date: dueDate,
  };
  await complete(ctx, { method: 'invoice', state: ctx.row.total_cost ? 'unpaid' : 'free', invoiceDetails, dueDate });
  afterCompletion(ctx);
}

async function payManually(ctx: Ctx): Promise<void> {
  const { visible, options } = await methodsFor(ctx);
  if (!visible.includes('manual')) methodUnavailable();
  await complete(ctx, { method: 'manual', state: ctx.row.total_cost ? 'unpaid' : 'free', manualNote: manualPaymentMessage(options) });
  afterCompletion(ctx);
}

function afterCompletion(ctx: Ctx): void {
  const snapshot = { ...ctx.row };
  ctx.after.push(() => notifyOutcome(ctx.deps, snapshot, ctx.cat));
}

/**
 * A provider event (webhook, or the test provider's notice when a payment succeeds): completes the checkout
 * that is waiting for this payment. Safe to deliver any number of times, in any order with the browser's
 * "payment was successful": whichever comes first records the outcome, the others find it complete.
 * A successful payment that no open checkout is waiting for any more is refunded.
 */
export async function handlePaymentEvent(deps: Deps, event: PaymentEvent): Promise<'completed' | 'already-complete' | 'ignored' | 'refunded'> {
  if (event.type !== 'payment.succeeded') return 'ignored';
  const record = await deps.db.selectFrom('checkout_payments').selectAll()
    .where('provider', '=', event.provider).where('provider_payment_id', '=', event.paymentId).executeTakeFirst();
  if (!record) return 'ignored';
  const provider = providerNamed(deps, event.provider);
  const payment = provider ? await provider.retrievePayment(event.paymentId) : null;
  if (!provider || !payment || !isPaymentSuccessful(payment.status)) return 'ignored';
  let result: 'completed' | 'already-complete' | 'refund' = 'refund';
  let ctx: Ctx | null = null;
  try {
    const out = await deps.db.transaction().execute(async (tx) => {
      const row = await lockRow(tx, deps, record.checkout_id);
      if (!row) return { result: 'refund' as const, ctx: null };
      if (row.status === 'completed') return { result: row.payment_id === payment.id ? 'already-complete' as const : 'refund' as const, ctx: null };
      if (row.status !== 'open' || row.payment_id !== payment.id) return { result: 'refund' as const, ctx: null };
      const inner = await loadCtx(deps, tx, row, null);
      if (payment.amount !== row.total_cost || payment.currency !== row.currency) return { result: 'refund' as const, ctx: null };
      const method = entry<PaymentStepState>(inner, 'payment')?.paymentMethod ?? 'card';
      await recordPaid(inner, method, payment.id);
      await saveRow(inner);
      return { result: 'completed' as const, ctx: inner };
    });
    result = out.result;
    ctx = out.ctx;
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    result = 'refund';
  }
  if (result === 'refund') {
    await provider.refundPayment(payment.id);
    return 'refunded';
  }
  if (ctx) await runAfter(ctx);
  return result;
}

/** Abandoning gives the spaces back at once (instead of when the hold expires). */
export async function abandonCheckout(deps: Deps, user: SessionUser | null, id: string): Promise<CheckoutState> {
  const ctx = await deps.db.transaction().execute(async (tx) => {
    const row = await lockRow(tx, deps, id);
    if (!row || !visibleTo(row, user)) fail(checkoutNotFoundProblem());
    if (row.status !== 'open') fail(problems.checkoutSubmission());
    const inner = await loadCtx(deps, tx, row, user);
    if (inner.row.current_step === 'payment') await leavePayment(inner);
    else await releaseHold(tx, deps.dialect, id, inner.now);
    inner.row.status = 'abandoned';
    await saveRow(inner);
    return inner;
  });
  await runAfter(ctx);
  return toState(withHandle(ctx, deps.db));
}

// ---------------------------------------------------------------------------------------------
// The state (spec 3 "Checkout state")

export interface CheckoutState {
  _id: string;
  flow: string;
  origin: string;
  currentStep: string;
  courseId: string;
  educatorId: string;
  occurrenceId: string | null;
  bookingId: string | null;
  orderId: string | null;
  requestId: string | null;
  applicationId: string | null;
  stepState: Record<string, { status: string; state: Record<string, unknown> }>;
  /** Further server fields (spec 3 allows them). */
  status: string;
  steps: StepId[];
  defaults: Record<string, unknown>;
  rules: { paymentRequired: boolean; calendarBased: boolean; instantBooking: boolean; pricingHidden: boolean; termsPreAccepted: boolean };
  costSummary: Record<string, unknown> | null;
  totalCost: number | null;
  currency: string;
  hold: { spaces: number; expiresAt: number; status: string } | null;
  outcome: Record<string, unknown> | null;
  bookedOnURL: string | null;
  utms: Record<string, unknown> | null;
  createdAt: number;
  updatedAt: number;
}

function courseLike(cat: CheckoutCatalogue) {
  const c = cat.course;
  return {
    available_for_online_delivery: c.available_for_online_delivery,
    available_for_in_person_delivery: c.available_for_in_person_delivery,
    educator_travel_settings: c.educator_travel_settings,
    student_travel_settings: c.student_travel_settings,
  };
}

/** Spec 4 "Defaults when no selection has been stored", for the screen to start from. */
function defaultsOf(ctx: Ctx): Record<string, unknown> {
  const offers = domainOffers(ctx.flow === 'booking' || ctx.flow === 'bookingApplication' ? (ctx.occ?.offers ?? ctx.cat.offers) : ctx.cat.offers);
  const defaults: Record<string, unknown> = {};
  if (ctx.flow === 'request') {
    let delivery: unknown = null;
    try {
      delivery = defaultDelivery(courseLike(ctx.cat), ctx.cat.course.student_travel_settings?.locations ?? []);
    } catch {
      delivery = null;
    }
    defaults.delivery = {
      selectedDurationId: defaultDurationId(ctx.cat.course.duration_pricing),
      delivery,
      pricing: defaultRequestPricing(offers, ctx.now),
    };
  } else {
    defaults.price = { offers: defaultOfferSelection(offers, ctx.now), addOns: [] };
  }
  return defaults;
}

/**
 * "View & Manage Booking" (spec 2.15) goes to the spec 2.4 booking or order page, seen from the context the
 * checkout was opened in: the marketplace, the educator's own minisite (landing_page) or an embed (which opens
 * the minisite in a new tab). Bookings without an occurrence have no such page and go to /profile.
 */
function manageLink(ctx: Ctx, target: { occurrenceId?: string | null; bookingId?: string; orderId?: string }): string {
  const context: AppContext = ctx.row.origin === 'embed' ? 'embed' : ctx.row.origin === 'landing_page' ? 'minisite' : 'marketplace';
  const config = ctx.deps.config;
  const link: LinkTarget & { courseSlug: string } = {
    educatorSlug: ctx.cat.educator.slug,
    currentEducatorSlug: context === 'minisite' ? ctx.cat.educator.slug : null,
    host: config.PUBLIC_HOST,
    protocol: config.PUBLIC_PROTOCOL,
    courseSlug: ctx.cat.course.slug,
  };
  if (target.orderId) return orderDetailsLink(context, { ...link, orderId: target.orderId }).href;
  if (!target.occurrenceId) return '/profile';
  return occurrenceLinkFromBooking(context, { ...link, occurrenceId: target.occurrenceId, bookingId: target.bookingId }).href;
}

async function outcomeOf(ctx: Ctx): Promise<Record<string, unknown> | null> {
  const r = ctx.row;
  if (r.status !== 'completed') return null;
  const secret = ctx.deps.config.APP_SECRET;
  const title = confirmationTitle(ctx.flow, { approvalRequired: ctx.cat.course.approval_required, instantBooking: !!r.booking_id && ctx.flow === 'request' });
  if (r.booking_id) {
    const b = await ctx.q.selectFrom('bookings').selectAll().where('id', '=', r.booking_id).executeTakeFirst();
    if (!b) return null;
    const token = documentToken(secret, 'booking', b.id);
    return {
      kind: 'booking', id: b.id, reference: b.id, title, status: b.status, paymentMethod: b.payment_method, paymentState: b.payment_state,
      dueDate: b.due_date, manualNote: b.manual_note, totalCost: b.total_cost, currency: b.currency,
      links: {
        ical: `/api/bookings/${b.id}/ical?token=${token}`,
        invoice: `/api/booking/${b.id}/invoice?token=${token}`,
        payInvoice: b.payment_method === 'invoice' ? `/complete-booking/${b.id}` : null,
        manage: manageLink(ctx, { occurrenceId: b.occurrence_id, bookingId: b.id }),
      },
    };
  }
  if (r.order_id) {
    const o = await ctx.q.selectFrom('orders').selectAll().where('id', '=', r.order_id).executeTakeFirst();
    if (!o) return null;
    const token = documentToken(secret, 'order', o.id);
    return {
      kind: 'order', id: o.id, reference: o.id, title, status: o.status, paymentMethod: o.payment_method, paymentState: o.payment_state,
      dueDate: o.due_date, manualNote: o.manual_note, totalCost: o.total_cost, currency: o.currency,
      links: { invoice: `/api/order/${o.id}/invoice?token=${token}`, payInvoice: o.payment_method === 'invoice' ? `/complete-order/${o.id}` : null, manage: manageLink(ctx, { orderId: o.id }) },
    };
  }
  if (r.request_id) return { kind: 'request', id: r.request_id, reference: r.request_id, title, status: 'sent' };
  if (r.application_id) return { kind: 'application', id: r.application_id, reference: r.application_id, title, status: 'sent' };
  return null;
}

export async function toState(ctx: Ctx): Promise<CheckoutState> {
  const r = ctx.row;
  const steps = await stepsOf(ctx);
  const hold = await currentHold(ctx.q, r.id);
  const paymentRequired = steps.includes('payment');
  const cost = r.status === 'completed' || r.current_step === 'payment' ? r.cost_summary : ((await checkoutCost(ctx)) as unknown as Record<string, unknown> | null);
  return {
    _id: r.id,
    flow: r.flow,
    origin: r.origin,
    currentStep: r.current_step,
    courseId: r.course_id,
    educatorId: r.educator_id,
    occurrenceId: r.occurrence_id,
    bookingId: r.booking_id,
    orderId: r.order_id,
    requestId: r.request_id,
    applicationId: r.application_id,
    stepState: r.step_state,
    status: r.status,
    steps,
    defaults: defaultsOf(ctx),
    rules: {
      paymentRequired,
      calendarBased: ctx.flow === 'request' ? calendarBased(ctx) : false,
      instantBooking: ctx.flow === 'request' ? instantBooking(ctx) : false,
      // Spec 6 "Hidden pricing": prices and cost lines are hidden, except on the marketplace origin.
      pricingHidden: !!ctx.cat.educator.feature_flags?.hide_pricing && r.origin !== 'marketplace',
      termsPreAccepted: termsPreAccepted({ hideTerms: ctx.cat.educator.feature_flags?.hide_terms, origin: r.origin as 'marketplace' | 'embed' | 'landing_page' }),
    },
    costSummary: cost ?? null,
    totalCost: r.total_cost ?? (cost ? Number(cost.total_cost) : null),
    currency: r.currency,
    hold: hold ? { spaces: Number(hold.spaces), expiresAt: Number(hold.expires_at), status: hold.status } : null,
    outcome: await outcomeOf(ctx),
    bookedOnURL: r.booked_on_url,
    utms: r.utms,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export { loadOccurrence };
