/**
 * The checkout engine (DESIGN §4, docs/checkout-design.md): the server owns the checkout. A checkout row holds the
 * flow, origin, current step, step states and ids; each submit-response is one action of the current step, its
 * payload parsed by the step's own schema, applied in ONE transaction (the row locked on PostgreSQL; SQLite runs
 * one transaction at a time) and answered with the new state. The engine knows no flow by name: it asks the flow's
 * definition (api/checkout/flows/) and the current step's object. Provider calls (create, capture, retrieve a
 * payment) run before the transaction and are re-checked inside it.
 */
import { z } from 'zod';
import type { Deps } from '../app.ts';
import type { SessionUser } from '../auth/types.ts';
import type { CheckoutRow, SpaceHoldRow } from '../../db/schema/checkout.ts';
import { OCCURRENCE_COLUMNS, catalogueVersion, courseStamp, type CatalogueStamp, type CheckoutCatalogue, type Q } from '../../db/queries/checkout.ts';
import type { Occurrence } from '../../db/schema.ts';
import { decodeRow } from '../../db/codec.ts';
import { compiledOnce } from '../../db/compiled.ts';
import { catalogueCache } from './catalogue-cache.ts';
import { parseWith } from '../http/parse.ts';
import { ProblemError, problemType, problems, type Problem } from '../../src/domain/problems.ts';
import { CHECKOUT_ORIGINS, assertFlowMatchesCourseType, contextForOrigin, flowSellsCourse, type Flow } from '../../src/domain/checkout/flows.ts';
import { checkoutPricesVisible } from '../../src/domain/pricing.ts';
import { flowSteps, isAfterLoginStep, isStepId, nextStep, previousStep, type StepId } from '../../src/domain/checkout/steps.ts';
import { termsPreAccepted } from '../../src/domain/checkout/validation.ts';
import { confirmationTitle } from '../../src/domain/checkout/outcomes.ts';
import { HOLD_LAPSED_SLUG, checkoutNotFoundProblem } from '../../src/domain/checkout/problems.ts';
import { isOutcomeKind, type CheckoutOutcome, type CheckoutState, type CostSummaryView } from '../../src/domain/checkout/state.ts';
import { occurrenceLinkFromBooking, orderDetailsLink, type LinkTarget } from '../../src/domain/links.ts';
import { envelopeSchema } from './actions.ts';
import { checkoutCost, entry, stepObject, stepsOf, withHandle, type AnyFlowDefinition, type Ctx, type PaymentStepState } from './context.ts';
import type { ActionDef, BoundAction, Prepared, StepDef } from './definition.ts';
import { actionPrepares, flowDefinition } from './flows/index.ts';
import { currentHold, noteHold, releaseHold } from './holds.ts';
import { newCheckoutId, documentToken } from './ids.ts';
import { leavePayment, recordPaid } from './steps/payment.ts';
import { providerNamed } from '../payments/registry.ts';
import { isPaymentSuccessful, type PaymentEvent, type ProviderPayment } from '../payments/types.ts';
import { loggerFor } from '../log.ts';

export type { CheckoutState };

export const initialiseSchema = z.object({
  checkoutId: z.string().max(200).nullable().optional(),
  /** The course sold (flows with course types); absent for a flow that sells from the educator. */
  courseId: z.string().min(1).max(200).optional(),
  /** The educator who sells (flows without a course: FLOW_RULES courseTypes null). */
  educatorId: z.string().min(1).max(200).optional(),
  occurrenceId: z.string().max(200).nullable().optional(),
  origin: z.enum(CHECKOUT_ORIGINS).optional().default('marketplace'),
  bookedOnURL: z.string().max(2000).nullable().optional(),
  utms: z.record(z.string().max(100), z.union([z.string().max(500), z.null()])).nullable().optional(),
});
export type InitialiseBody = z.infer<typeof initialiseSchema>;

function fail(problem: Problem): never {
  throw new ProblemError(problem);
}

// ---------------------------------------------------------------------------------------------
// Access

/** Spec 6 "Restricted courses": admins of the educator, and e-mail addresses granted access to the course. */
export async function canAccessCourse(q: Q, cat: CheckoutCatalogue, user: SessionUser | null): Promise<boolean> {
  if (!cat.course || !cat.course.restricted) return true;
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

/**
 * Spec 2.14: an after-login step reached while logged out shows the login screen in its place, and the checkout
 * resumes after login. A learner who logged out (or whose session ended) keeps their checkout, its step and its
 * hold; the visitor is shown only that a login is needed, never the learner's choices.
 */
function awaitsLogin(row: CheckoutRow, user: SessionUser | null): boolean {
  return row.user_id !== null && user === null && row.status === 'open';
}

/**
 * A checkout row with the version of its educator's catalogue (api/checkout/catalogue-cache.ts) and, when read
 * together, its occurrence (undefined: not read with it).
 */
interface StampedRow {
  row: CheckoutRow;
  stamp?: CatalogueStamp;
  occurrence?: Occurrence | null;
  /** The checkout's hold as read with the row (null: none). */
  hold?: SpaceHoldRow | null;
}

const JOINED_OCCURRENCE = 'joined_occurrence_';

/** readCheckout's statement, compiled once (db/compiled.ts): it runs on every checkout request. */
function checkoutRead(q: Q, id: string) {
  return q.selectFrom('checkouts')
    .leftJoin('space_holds', 'space_holds.checkout_id', 'checkouts.id')
    .leftJoin('occurrences', 'occurrences.id', 'checkouts.occurrence_id')
    .selectAll('checkouts')
    .select((eb) => eb.selectFrom('catalogue_versions').select('version').whereRef('catalogue_versions.educator_id', '=', 'checkouts.educator_id').as('catalogue_version'))
    .select([
      'space_holds.id as hold_id', 'space_holds.occurrence_id as hold_occurrence_id', 'space_holds.spaces as hold_spaces',
      'space_holds.voucher_id as hold_voucher_id', 'space_holds.status as hold_status', 'space_holds.expires_at as hold_expires_at',
      'space_holds.created_at as hold_created_at', 'space_holds.updated_at as hold_updated_at',
    ])
    .select(OCCURRENCE_COLUMNS.map((column) => `occurrences.${column} as ${JOINED_OCCURRENCE}${column}` as const))
    .where('checkouts.id', '=', id);
}
const readCheckoutRow = compiledOnce((q, id: string) => checkoutRead(q, id));
const lockCheckoutRow = compiledOnce((q, id: string) => checkoutRead(q, id).forUpdate(['checkouts']));

/**
 * Reads a checkout (locked, in a transaction on PostgreSQL), its catalogue's version, its hold and its occurrence in
 * one statement: each was a round trip of every checkout action. Only the checkout's row is locked: a hold's row is
 * locked after its occurrence's (api/checkout/holds.ts), and the statements that count spaces change the
 * occurrence's row under its own lock, whatever was read here.
 */
async function readCheckout(q: Q, deps: Deps, id: string, options: { lock?: boolean } = {}): Promise<StampedRow | undefined> {
  const [found] = await (options.lock && deps.dialect === 'postgres' ? lockCheckoutRow : readCheckoutRow)(q, id);
  if (!found) return undefined;
  const {
    catalogue_version: version, hold_id: holdId, hold_occurrence_id: occurrenceId, hold_spaces: spaces, hold_voucher_id: voucherId,
    hold_status: status, hold_expires_at: expiresAt, hold_created_at: createdAt, hold_updated_at: updatedAt, ...rest
  } = found;
  const joined: Record<string, unknown> = {};
  const row: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key.startsWith(JOINED_OCCURRENCE)) joined[key.slice(JOINED_OCCURRENCE.length)] = value;
    else row[key] = value;
  }
  const checkout = row as unknown as CheckoutRow;
  const hold: SpaceHoldRow | null = holdId === null ? null : {
    id: holdId, checkout_id: checkout.id, occurrence_id: occurrenceId, spaces: Number(spaces), voucher_id: voucherId, status: status!,
    expires_at: Number(expiresAt), created_at: Number(createdAt), updated_at: Number(updatedAt),
  };
  noteHold(q, checkout.id, hold);
  // The codec knows columns by name: the occurrence's JSON and boolean columns are decoded under their own.
  const occurrence = joined.id == null ? null : (decodeRow(joined, deps.dialect === 'sqlite') as unknown as Occurrence);
  return { row: checkout, stamp: { educatorId: checkout.educator_id, version: Number(version ?? 0) }, occurrence, hold };
}

async function lockRow(q: Q, deps: Deps, id: string): Promise<StampedRow | undefined> {
  return readCheckout(q, deps, id, { lock: true });
}

/**
 * The working context of one checkout: its row, its flow's definition, its catalogue and occurrence. `stamp`: the
 * catalogue's version read with the row; `preloaded`: the catalogue a new checkout was just opened with.
 */
async function loadCtx(deps: Deps, q: Q, { row, stamp, occurrence }: StampedRow, user: SessionUser | null, preloaded?: CheckoutCatalogue): Promise<Ctx> {
  const catalogues = catalogueCache(deps.db);
  const cat = preloaded ?? (row.course_id ? await catalogues.course(q, row.course_id, stamp) : await catalogues.educator(q, row.educator_id, stamp));
  if (!cat) fail(checkoutNotFoundProblem());
  const occ = row.occurrence_id ? await catalogues.occurrence(q, row.occurrence_id, cat, stamp, occurrence) : null;
  return {
    deps, q, dialect: deps.dialect, now: deps.now(), user, row: { ...row, step_state: structuredClone(row.step_state ?? {}) },
    flow: row.flow, def: flowDefinition(row.flow), cat, occ, stamp, after: [],
  };
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
      outcome_kind: r.outcome_kind,
      outcome_id: r.outcome_id,
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
  for (const job of ctx.lastly?.splice(0) ?? []) await job();
  // The hold the answer shows, as this transaction leaves it (known without a statement: api/checkout/holds.ts).
  ctx.hold = (await currentHold(ctx.q, r.id)) ?? null;
}

/** Spec 2.14: once the learner is logged in, the login step gives way to the first after-login step. */
async function settleLogin(ctx: Ctx): Promise<boolean> {
  if (ctx.user && ctx.row.current_step === 'login' && ctx.row.status === 'open') {
    const first = flowSteps(ctx.flow).afterLogin[0]!;
    ctx.row.current_step = first;
    bindOnEntry(ctx, first);
    // Arriving there is entering it, as advancing would (a flow whose first after-login step is Payment fixes its
    // total and holds here).
    await stepObject(ctx, first)?.enter?.(ctx);
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Initialise, read

/**
 * What a new checkout sells from: the published course of `courseId` (a course flow, whose course type must match),
 * or the educator of `educatorId` (a flow without a course: whether the educator sells it is the flow's
 * `initialise` to decide).
 */
async function sellerCatalogue(deps: Deps, flow: Flow, body: InitialiseBody): Promise<{ cat: CheckoutCatalogue; stamp: CatalogueStamp }> {
  const db = deps.db;
  // The catalogue's version is read first, so the cache checks its entries (the occurrence's offers too) against it.
  if (!flowSellsCourse(flow)) {
    if (!body.educatorId) fail(problems.validation([{ key: 'educatorId', name: 'educatorId', message: 'is required' }]));
    const stamp = { educatorId: body.educatorId, version: await catalogueVersion(db, body.educatorId) };
    const cat = await catalogueCache(db).educator(db, body.educatorId, stamp);
    if (!cat) fail(problems.notFound('No such educator'));
    return { cat, stamp };
  }
  if (!body.courseId) fail(problems.validation([{ key: 'courseId', name: 'courseId', message: 'is required' }]));
  const stamp = await courseStamp(db, body.courseId);
  const cat = stamp && (await catalogueCache(db).course(db, body.courseId, stamp));
  if (!stamp || !cat || !cat.course.published) fail(problems.notFound('No such course'));
  assertFlowMatchesCourseType(flow, cat.course.type);
  return { cat, stamp };
}

export async function initialiseCheckout(deps: Deps, user: SessionUser | null, flow: Flow, input: unknown): Promise<CheckoutState> {
  const body = parseWith(initialiseSchema, input);
  const db = deps.db;
  // Resume: the same checkout id for the same course and flow continues where it was.
  if (body.checkoutId) {
    const existing = await db.selectFrom('checkouts').selectAll().where('id', '=', body.checkoutId).executeTakeFirst();
    const sameSeller = existing && (flowSellsCourse(flow) ? existing.course_id === body.courseId : existing.educator_id === body.educatorId);
    if (existing && sameSeller && existing.flow === flow && existing.status !== 'abandoned'
      && (visibleTo(existing, user) || awaitsLogin(existing, user))) {
      return getCheckout(deps, user, existing.id);
    }
  }
  const ctx = await draftCheckout(deps, user, flow, body);
  // Written once: the version a checkout has after its first save.
  ctx.row.version = 1;
  await db.insertInto('checkouts').values(ctx.row).execute();
  return toState(ctx);
}

/**
 * The state a new checkout of a flow that sells from an educator (gift voucher, membership) would start in,
 * written nowhere: its page shows the first step from it, and the checkout is initialised on the learner's first
 * action, so a visit (a crawler's, a learner's who only looks) leaves no checkout behind. Its `_id` is empty.
 */
export async function previewCheckout(deps: Deps, user: SessionUser | null, flow: Flow, input: unknown): Promise<CheckoutState> {
  if (flowSellsCourse(flow)) fail(problems.notFound('No such checkout flow'));
  const body = parseWith(initialiseSchema, input);
  const ctx = await draftCheckout(deps, user, flow, { ...body, checkoutId: null });
  ctx.row.id = '';
  return toState(ctx);
}

/** A new checkout, decided but not written: the seller's catalogue, access, the flow's initialise and the steps settled. */
async function draftCheckout(deps: Deps, user: SessionUser | null, flow: Flow, body: InitialiseBody): Promise<Ctx> {
  const db = deps.db;
  const { cat, stamp } = await sellerCatalogue(deps, flow, body);
  if (!(await canAccessCourse(db, cat, user))) fail(problems.unauthorisedCheckout('You do not have access to this course.'));
  const now = deps.now();
  const row: CheckoutRow = {
    id: newCheckoutId(), flow, origin: body.origin, course_id: cat.course?.id ?? null, educator_id: cat.educator.id, occurrence_id: null,
    user_id: null, student_id: null, current_step: flowSteps(flow).beforeLogin[0]!, step_state: {}, utms: body.utms ?? null,
    booked_on_url: body.bookedOnURL ?? null, status: 'open', booking_id: null, order_id: null, request_id: null,
    application_id: null, outcome_kind: null, outcome_id: null, total_cost: null, currency: cat.course?.currency || 'GBP', cost_summary: null,
    payment_provider: null, payment_id: null, version: 0, created_at: now, updated_at: now, completed_at: null,
  };
  // The new checkout is decided before it is written (a flow's initialise only reads: the occurrence the page sent,
  // the educator's settings), then written whole by one insert: nothing else can know its id yet.
  const ctx = await loadCtx(deps, db, { row, stamp }, user, cat);
  ctx.hold = null;
  await ctx.def.initialise?.(ctx, { occurrenceId: body.occurrenceId });
  // A step the page already settled (the occurrence a course page sent) is passed.
  const steps = await stepsOf(ctx);
  while (stepObject(ctx, ctx.row.current_step as StepId)?.isComplete(ctx)) {
    const next = nextStep(steps, ctx.row.current_step as StepId);
    if (!next || next === 'login' || isAfterLoginStep(ctx.flow, next)) break;
    ctx.row.current_step = next;
  }
  return ctx;
}

export async function getCheckout(deps: Deps, user: SessionUser | null, id: string): Promise<CheckoutState> {
  const read = await readCheckout(deps.db, deps, id);
  if (read && awaitsLogin(read.row, user)) return lockedState(await loadCtx(deps, deps.db, read, user));
  if (!read || !visibleTo(read.row, user)) fail(checkoutNotFoundProblem());
  // A learner who has logged in while the checkout stood on the login step moves on (under the lock); otherwise
  // a GET changes nothing.
  if (!user || read.row.current_step !== 'login' || read.row.status !== 'open') return readState(deps, user, read);
  await accessibleCtx(deps, deps.db, read, user);
  const settled = await deps.db.transaction().execute(async (tx) => {
    const locked = await lockRow(tx, deps, id);
    if (!locked) fail(checkoutNotFoundProblem());
    const inner = await loadCtx(deps, tx, locked, user);
    if (await settleLogin(inner)) await saveRow(inner);
    return inner;
  });
  return toState(withHandle(settled, deps.db));
}

/** The working context of a checkout the learner may see, or the problem of a restricted course they may not. */
async function accessibleCtx(deps: Deps, q: Q, read: StampedRow, user: SessionUser | null): Promise<Ctx> {
  const ctx = await loadCtx(deps, q, read, user);
  if (!(await canAccessCourse(q, ctx.cat, user))) fail(problems.unauthorisedCheckout('You do not have access to this course.'));
  return ctx;
}

/** The state of a checkout as read, with no transaction (nothing to change). */
async function readState(deps: Deps, user: SessionUser | null, read: StampedRow): Promise<CheckoutState> {
  const ctx = await accessibleCtx(deps, deps.db, read, user);
  ctx.hold = read.hold ?? null;
  return toState(ctx);
}

// ---------------------------------------------------------------------------------------------
// Submit

/**
 * The action an envelope names: one of the current step's (spec 4), or "go back" (null), which every step accepts.
 * After completion the Payment step has gone by, but its confirmation may arrive again (browser and webhook): the
 * flow's other steps are searched so a repeatable action can answer with the state. Undefined: no such action.
 */
function findAction(def: AnyFlowDefinition, currentStep: string, name: string, completed: boolean): ActionDef | null | undefined {
  if (name === 'go back') return null;
  const current = isStepId(currentStep) ? stepObject({ def }, currentStep) : undefined;
  if (current && Object.hasOwn(current.actions, name)) return current.actions[name];
  if (!completed) return undefined;
  const steps: Readonly<Partial<Record<StepId, StepDef>>> = def.steps;
  return Object.values(steps).find((step) => step && Object.hasOwn(step.actions, name))?.actions[name];
}

/** The action of the envelope on the checkout as it stands, its payload parsed; null: "go back". */
function chooseAction(row: CheckoutRow, user: SessionUser | null, envelope: z.infer<typeof envelopeSchema>): BoundAction | null {
  if (!user && envelope.action !== 'go back' && row.status === 'open' && needsLogin(row)) {
    // Spec 8 "Unknown user": the login step and the after-login steps need a logged-in learner.
    fail(problems.unknownUser());
  }
  const chosen = findAction(flowDefinition(row.flow), row.current_step, envelope.action, row.status === 'completed');
  if (chosen === undefined) fail(problems.checkoutSubmission());
  return chosen === null ? null : chosen.bind(envelope.payload);
}

export async function submitResponse(deps: Deps, user: SessionUser | null, id: string, input: unknown): Promise<CheckoutState> {
  const envelope = parseWith(envelopeSchema, input);
  // Provider work (create, confirm a payment) runs before the transaction, on the checkout as read first; the
  // transaction re-checks everything it relies on. Every other action is chosen on the locked row alone.
  let bound: BoundAction | null | undefined;
  let prepared: Prepared = {};
  if (actionPrepares(envelope.action)) {
    const seen = await readCheckout(deps.db, deps, id);
    if (!seen || !visibleTo(seen.row, user)) fail(checkoutNotFoundProblem());
    bound = chooseAction(seen.row, user, envelope);
    // A completed checkout changes no more: confirming its payment again is answered from this read.
    if (seen.row.status === 'completed' && bound?.repeatable) return readState(deps, user, seen);
    if (bound && seen.row.status === 'open') prepared = await bound.prepare(deps, seen.row);
  }
  let ctx: Ctx;
  try {
    ctx = await deps.db.transaction().execute(async (tx) => {
      const locked = await lockRow(tx, deps, id);
      if (!locked || !visibleTo(locked.row, user)) fail(checkoutNotFoundProblem());
      const { row } = locked;
      const action = bound !== undefined ? bound : chooseAction(row, user, envelope);
      const inner = await accessibleCtx(deps, tx, locked, user);
      if (row.status === 'completed') {
        // Confirming the same payment twice: the checkout is already complete, nothing more is recorded.
        if (action?.repeatable) {
          inner.hold = (await currentHold(tx, id)) ?? null;
          return inner;
        }
        fail(problems.checkoutSubmission());
      }
      if (row.status !== 'open') fail(problems.checkoutSubmission());
      await settleLogin(inner);
      if (action === null) await goBack(inner);
      else await apply(inner, envelope.action, action, prepared);
      await saveRow(inner);
      return inner;
    });
  } catch (error) {
    // A succeeded payment whose outcome cannot be recorded (sold out, slot taken…) is given back. A transient
    // failure (database, network) is not: the learner, the provider's event or the reconciler can try again.
    if (error instanceof ProblemError && prepared.refundOnFailure && prepared.payment && prepared.provider) {
      await providerNamed(deps, prepared.provider)?.refundPayment(prepared.payment.id);
    }
    // A checkout past its hold cap is closed (its spaces and provider payment released): the learner starts again.
    if (error instanceof ProblemError && error.problem.type === problemType(HOLD_LAPSED_SLUG)) await closeCheckout(deps, SERVER, id);
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

/** The checkout stands on the login step or an after-login step (spec 2.14). */
function needsLogin(row: CheckoutRow): boolean {
  return row.current_step === 'login' || (isStepId(row.current_step) && isAfterLoginStep(row.flow, row.current_step));
}

async function apply(ctx: Ctx, name: string, bound: BoundAction, prepared: Prepared): Promise<void> {
  const current = ctx.row.current_step as StepId;
  if (!ctx.user && needsLogin(ctx.row)) fail(problems.unknownUser());
  // The step may have moved since the action was chosen: it must still be the current step's, and the step in the path.
  const step = stepObject(ctx, current);
  if (!step || !Object.hasOwn(step.actions, name) || !(await stepsOf(ctx)).includes(current)) fail(problems.checkoutSubmission());
  // The first action of an after-login step binds the checkout to the learner, whatever the step (a flow without
  // Contact Info — gift voucher, membership — records its outcome for them too).
  bindToLearner(ctx, current);
  const result = await bound.run(ctx, prepared);
  if (result === 'advance') await advance(ctx, current);
}

/**
 * An after-login step binds the checkout to the learner: from then on only that learner may see, change or abandon
 * it. Payment from the moment it is entered (it holds spaces and money before the learner acts on it: a flow whose
 * first after-login step is Payment); any other at its first action.
 */
function bindOnEntry(ctx: Ctx, step: StepId): void {
  if (step === 'payment') bindToLearner(ctx, step);
}

function bindToLearner(ctx: Ctx, step: StepId): void {
  if (ctx.user && !ctx.row.user_id && isAfterLoginStep(ctx.flow, step)) {
    ctx.row.user_id = ctx.user.id;
    ctx.row.student_id = ctx.user.studentId;
  }
}

/** Moves to the step after `from`, entering it (Payment fixes the total and holds; Confirmation records the outcome). */
async function advance(ctx: Ctx, from: StepId): Promise<void> {
  const next = nextStep(await stepsOf(ctx), from);
  if (!next) fail(problems.checkoutSubmission());
  ctx.row.current_step = next;
  bindOnEntry(ctx, next);
  await stepObject(ctx, next)?.enter?.(ctx);
}

async function goBack(ctx: Ctx): Promise<void> {
  const steps = await stepsOf(ctx);
  const current = ctx.row.current_step as StepId;
  await stepObject(ctx, current)?.leave?.(ctx);
  if (!steps.includes(current)) {
    const before = flowSteps(ctx.flow).beforeLogin;
    ctx.row.current_step = before[before.length - 1]!;
    return;
  }
  // On the first step Back leaves the checkout (the screen goes back in history): the state stays.
  ctx.row.current_step = previousStep(steps, current) ?? current;
}

/**
 * A provider event (webhook, the test provider's notice, or the reconciler): completes the checkout that is
 * waiting for this payment. Safe to deliver any number of times, in any order with the browser's "payment was
 * successful": whichever comes first records the outcome, the others find it complete. A successful payment that
 * no open checkout is waiting for any more is refunded.
 */
export async function handlePaymentEvent(
  deps: Deps, event: PaymentEvent, reported?: ProviderPayment,
): Promise<'completed' | 'already-complete' | 'ignored' | 'refunded'> {
  if (event.type !== 'payment.succeeded') return 'ignored';
  const record = await deps.db.selectFrom('checkout_payments').selectAll()
    .where('provider', '=', event.provider).where('provider_payment_id', '=', event.paymentId).executeTakeFirst();
  if (!record) return 'ignored';
  const provider = providerNamed(deps, event.provider);
  // An event says only which payment; its state is asked of the provider, unless this process's own provider
  // has just reported it (`reported`, the test provider's confirmation).
  const payment = !provider ? null : reported?.id === event.paymentId ? reported : await provider.retrievePayment(event.paymentId);
  if (!provider || !payment || !isPaymentSuccessful(payment.status)) return 'ignored';
  let result: 'completed' | 'already-complete' | 'refund';
  let ctx: Ctx | null = null;
  try {
    const out = await deps.db.transaction().execute(async (tx) => {
      const locked = await lockRow(tx, deps, record.checkout_id);
      if (!locked) return { result: 'refund' as const, ctx: null };
      const { row } = locked;
      if (row.status === 'completed') return { result: row.payment_id === payment.id ? 'already-complete' as const : 'refund' as const, ctx: null };
      if (row.status !== 'open' || row.payment_id !== payment.id) return { result: 'refund' as const, ctx: null };
      const inner = await loadCtx(deps, tx, locked, null);
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
    await deps.db.updateTable('checkout_payments').set({ status: 'refunded', updated_at: deps.now() })
      .where('provider', '=', event.provider).where('provider_payment_id', '=', event.paymentId).execute();
    return 'refunded';
  }
  if (ctx) await runAfter(ctx);
  return result;
}

/**
 * Abandoning gives the spaces back at once (instead of when the hold expires). Only the checkout's owner may: the
 * learner it is bound to, with their session; a checkout not yet bound to anyone (before login: it holds nothing and
 * has no payment) is reachable by its random id, as it is for reading and submitting.
 */
export async function abandonCheckout(deps: Deps, user: SessionUser | null, id: string): Promise<CheckoutState> {
  const ctx = await closeCheckout(deps, { user }, id);
  return toState(withHandle(ctx, deps.db));
}

/** The server closing a checkout of its own accord (a hold past its cap), whoever's it is. */
const SERVER = 'server' as const;

/** Closes an open checkout: releases its hold, cancels its provider payment. */
async function closeCheckout(deps: Deps, by: { user: SessionUser | null } | typeof SERVER, id: string): Promise<Ctx> {
  const user = by === SERVER ? null : by.user;
  const ctx = await deps.db.transaction().execute(async (tx) => {
    const locked = await lockRow(tx, deps, id);
    // The id travels in URLs (analytics, the embedding site): knowing it is not owning the checkout.
    if (!locked || (by !== SERVER && !visibleTo(locked.row, user))) fail(checkoutNotFoundProblem());
    if (locked.row.status !== 'open') fail(problems.checkoutSubmission());
    const inner = await loadCtx(deps, tx, locked, user);
    if (inner.row.current_step === 'payment') await leavePayment(inner);
    else await releaseHold(tx, deps.dialect, id, inner.now);
    inner.row.status = 'abandoned';
    await saveRow(inner);
    return inner;
  });
  await runAfter(ctx);
  return ctx;
}

// ---------------------------------------------------------------------------------------------
// The state (spec 3 "Checkout state", src/domain/checkout/state.ts)

/**
 * "View & Manage Booking" (spec 2.15) goes to the spec 2.4 booking or order page, seen from the context the
 * checkout was opened in: the marketplace, the educator's own minisite (landing_page) or an embed (which opens
 * the minisite in a new tab). A booking without an occurrence (a calendar request) goes to the course's dates
 * page with the booking (/{courseSlug}/dates?booking=).
 */
function manageLink(ctx: Ctx, target: { occurrenceId?: string | null; bookingId?: string; orderId?: string }): string {
  const context = contextForOrigin(ctx.row.origin);
  const config = ctx.deps.config;
  const link: LinkTarget & { courseSlug: string } = {
    educatorSlug: ctx.cat.educator.slug,
    currentEducatorSlug: context === 'minisite' ? ctx.cat.educator.slug : null,
    host: config.PUBLIC_HOST,
    protocol: config.PUBLIC_PROTOCOL,
    courseSlug: ctx.cat.course?.slug ?? '',
  };
  if (target.orderId) return orderDetailsLink(context, { ...link, orderId: target.orderId }).href;
  return occurrenceLinkFromBooking(context, { ...link, occurrenceId: target.occurrenceId, bookingId: target.bookingId }).href;
}

async function outcomeOf(ctx: Ctx): Promise<CheckoutOutcome | null> {
  const r = ctx.row;
  if (r.status !== 'completed') return null;
  const secret = ctx.deps.config.APP_SECRET;
  const title = confirmationTitle(ctx.flow, { approvalRequired: ctx.cat.course?.approval_required, instantBooking: ctx.def.rules?.(ctx).instantBooking ?? false });
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
  // Any other kind of outcome is described by its flow.
  if (r.outcome_kind && r.outcome_id && isOutcomeKind(r.outcome_kind)) {
    return (await ctx.def.describeOutcome?.(ctx, { kind: r.outcome_kind, id: r.outcome_id }, title)) ?? null;
  }
  return null;
}

export async function toState(ctx: Ctx): Promise<CheckoutState> {
  const r = ctx.row;
  const steps = await stepsOf(ctx);
  const hold = ctx.hold !== undefined ? ctx.hold : await currentHold(ctx.q, r.id);
  // Until Payment fixes the total, the summary follows the selection.
  const cost = r.status === 'completed' || r.current_step === 'payment' ? (r.cost_summary as CostSummaryView | null) : await checkoutCost(ctx);
  const extra = ctx.def.rules?.(ctx) ?? { calendarBased: false, instantBooking: false };
  return {
    _id: r.id,
    flow: r.flow,
    origin: r.origin,
    currentStep: r.current_step as StepId,
    courseId: r.course_id,
    educatorId: r.educator_id,
    occurrenceId: r.occurrence_id,
    bookingId: r.booking_id,
    orderId: r.order_id,
    requestId: r.request_id,
    applicationId: r.application_id,
    outcomeKind: r.outcome_kind && isOutcomeKind(r.outcome_kind) ? r.outcome_kind : null,
    outcomeId: r.outcome_id,
    stepState: r.step_state,
    status: r.status,
    steps,
    defaults: ctx.def.defaults(ctx),
    rules: {
      paymentRequired: steps.includes('payment'),
      ...extra,
      // Spec 6 "Hidden pricing": prices and cost lines are hidden, except on the marketplace origin.
      pricingHidden: !checkoutPricesVisible(ctx.cat.educator.feature_flags?.hide_pricing, r.origin),
      termsPreAccepted: termsPreAccepted({ hideTerms: ctx.cat.educator.feature_flags?.hide_terms, origin: r.origin }),
    },
    costSummary: cost ?? null,
    totalCost: r.total_cost ?? cost?.total_cost ?? null,
    currency: r.currency,
    hold: hold ? { spaces: Number(hold.spaces), expiresAt: Number(hold.expires_at), status: hold.status } : null,
    outcome: await outcomeOf(ctx),
    bookedOnURL: r.booked_on_url,
    utms: r.utms,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    version: Number(r.version),
    loginRequired: false,
  };
}

/** The state of another's (logged-out) checkout: where it stands and that a login is needed, nothing chosen in it. */
async function lockedState(ctx: Ctx): Promise<CheckoutState> {
  const r = ctx.row;
  return {
    _id: r.id, flow: r.flow, origin: r.origin, currentStep: r.current_step as StepId, courseId: r.course_id, educatorId: r.educator_id,
    occurrenceId: null, bookingId: null, orderId: null, requestId: null, applicationId: null, outcomeKind: null, outcomeId: null, stepState: {}, status: r.status,
    steps: await stepsOf(ctx), defaults: {},
    rules: { paymentRequired: r.current_step === 'payment', calendarBased: false, instantBooking: false, pricingHidden: true, termsPreAccepted: false },
    costSummary: null, totalCost: null, currency: r.currency, hold: null, outcome: null, bookedOnURL: null, utms: null,
    createdAt: Number(r.created_at), updatedAt: Number(r.updated_at), version: Number(r.version), loginRequired: true,
  };
}
