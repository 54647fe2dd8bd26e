/**
 * Opening a checkout (spec 7 "Initialise checkout"): what it sells from (a published course whose type matches the
 * flow, or an educator), who may open it, the flow's own initialise, and the steps the page already settled. A
 * checkout id sent again for the same seller and flow resumes where it was; a flow that sells from an educator
 * can be previewed without writing anything.
 */
import { z } from 'zod';
import type { Deps } from '../../deps.ts';
import type { SessionUser } from '../../../src/domain/session-user.ts';
import type { CheckoutRow } from '../../../db/schema/checkout.ts';
import { catalogueVersion, courseStamp, courseStampWithOccurrence, type CatalogueStamp, type CheckoutCatalogue } from '../../../db/queries/checkout.ts';
import type { Occurrence } from '../../../db/schema.ts';
import { parseWith } from '../../http/parse.ts';
import { ProblemError, problems, type Problem } from '../../../src/domain/problems.ts';
import { CHECKOUT_ORIGINS, assertCourseTypeAccepted, sellsCourse } from '../../../src/domain/checkout/flows.ts';
import { afterLoginIn, nextStep, type StepId } from '../../../src/domain/checkout/steps.ts';
import type { CheckoutState } from '../../../src/domain/checkout/state.ts';
import { catalogueCache } from '../catalogue-cache.ts';
import { stepObject, stepsOf, type AnyFlowDefinition, type Ctx } from '../context.ts';
import { newCheckoutId } from '../ids.ts';
import { awaitsLogin, canAccessCourse, visibleTo } from './access.ts';
import { loadCtx } from './persist.ts';
import { knownCheckouts } from './known.ts';
import { writeWithoutWaitingForDisk } from '../../../db/client.ts';
import { getCheckout } from './read.ts';
import { toState } from './state.ts';

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

/**
 * What a new checkout sells from: the published course of `courseId` (a course flow, whose course type must match),
 * or the educator of `educatorId` (a flow without a course: whether the educator sells it is the flow's
 * `initialise` to decide). A course's occurrence the page sent is read with the course's stamp (`occurrence`:
 * undefined when none was sent, null when the course has none of that id).
 */
async function sellerCatalogue(deps: Deps, def: AnyFlowDefinition, body: InitialiseBody): Promise<{ cat: CheckoutCatalogue; stamp: CatalogueStamp; occurrence?: Occurrence | null }> {
  const db = deps.db;
  // The catalogue's version is read first, so the cache checks its entries (the occurrence's offers too) against it.
  if (!sellsCourse(def.rules)) {
    if (!body.educatorId) fail(problems.validation([{ key: 'educatorId', name: 'educatorId', message: 'is required' }]));
    const stamp = { educatorId: body.educatorId, version: await catalogueVersion(db, body.educatorId) };
    const cat = await catalogueCache(db).educator(db, body.educatorId, stamp);
    if (!cat) fail(problems.notFound('No such educator'));
    return { cat, stamp };
  }
  if (!body.courseId) fail(problems.validation([{ key: 'courseId', name: 'courseId', message: 'is required' }]));
  const read = body.occurrenceId
    ? await courseStampWithOccurrence(db, body.courseId, body.occurrenceId, deps.dialect === 'sqlite')
    : { stamp: await courseStamp(db, body.courseId), occurrence: undefined };
  const stamp = read?.stamp;
  const cat = stamp && (await catalogueCache(db).course(db, body.courseId, stamp));
  if (!stamp || !cat || !cat.course.published) fail(problems.notFound('No such course'));
  assertCourseTypeAccepted(def.flow, def.rules, cat.course.type);
  return { cat, stamp, occurrence: read?.occurrence };
}

export async function initialiseCheckout(deps: Deps, user: SessionUser | null, def: AnyFlowDefinition, input: unknown): Promise<CheckoutState> {
  const body = parseWith(initialiseSchema, input);
  const db = deps.db;
  // Resume: the same checkout id for the same course and flow continues where it was.
  if (body.checkoutId) {
    const existing = await db.selectFrom('checkouts').selectAll().where('id', '=', body.checkoutId).executeTakeFirst();
    const sameSeller = existing && (sellsCourse(def.rules) ? existing.course_id === body.courseId : existing.educator_id === body.educatorId);
    if (existing && sameSeller && existing.flow === def.flow && existing.status !== 'abandoned'
      && (visibleTo(existing, user) || awaitsLogin(existing, user))) {
      return getCheckout(deps, user, existing.id);
    }
  }
  const ctx = await draftCheckout(deps, user, def, body);
  // Written once: the version a checkout has after its first save.
  ctx.row.version = 1;
  // Lost in a crash of PostgreSQL, a new checkout is started again: nothing has been paid or held for it yet.
  await writeWithoutWaitingForDisk(db, deps.dialect, db.insertInto('checkouts').values(ctx.row));
  knownCheckouts(deps)?.remember(ctx);
  return toState(ctx);
}

/**
 * The state a new checkout of a flow that sells from an educator (gift voucher, membership) would start in,
 * written nowhere: its page shows the first step from it, and the checkout is initialised on the learner's first
 * action, so a visit (a crawler's, a learner's who only looks) leaves no checkout behind. Its `_id` is empty.
 */
export async function previewCheckout(deps: Deps, user: SessionUser | null, def: AnyFlowDefinition, input: unknown): Promise<CheckoutState> {
  if (sellsCourse(def.rules)) fail(problems.notFound('No such checkout flow'));
  const body = parseWith(initialiseSchema, input);
  const ctx = await draftCheckout(deps, user, def, { ...body, checkoutId: null });
  ctx.row.id = '';
  return toState(ctx);
}

/** A new checkout, decided but not written: the seller's catalogue, access, the flow's initialise and the steps settled. */
async function draftCheckout(deps: Deps, user: SessionUser | null, def: AnyFlowDefinition, body: InitialiseBody): Promise<Ctx> {
  const db = deps.db;
  const { cat, stamp, occurrence } = await sellerCatalogue(deps, def, body);
  if (!(await canAccessCourse(db, cat, user))) fail(problems.unauthorisedCheckout('You do not have access to this course.'));
  const now = deps.now();
  const row: CheckoutRow = {
    // The row names its flow as registered: a product flow's, or one a test registered (FlowName).
    id: newCheckoutId(), flow: def.flow, origin: body.origin, course_id: cat.course?.id ?? null, educator_id: cat.educator.id, occurrence_id: null,
    user_id: null, student_id: null, current_step: def.rules.steps.beforeLogin[0]!, step_state: {}, utms: body.utms ?? null,
    booked_on_url: body.bookedOnURL ?? null, status: 'open', booking_id: null, order_id: null, request_id: null,
    application_id: null, outcome_kind: null, outcome_id: null, total_cost: null, currency: cat.course?.currency || 'GBP', cost_summary: null,
    payment_provider: null, payment_id: null, version: 0, created_at: now, updated_at: now, completed_at: null,
  };
  // The new checkout is decided before it is written (a flow's initialise only reads: the occurrence the page sent,
  // the educator's settings), then written whole by one insert: nothing else can know its id yet.
  const ctx = await loadCtx(deps, db, { row, stamp }, user, cat);
  ctx.hold = null;
  await ctx.def.initialise?.(ctx, { occurrenceId: body.occurrenceId, occurrence });
  // A step the page already settled (the occurrence a course page sent) is passed.
  const steps = await stepsOf(ctx);
  while (stepObject(ctx, ctx.row.current_step as StepId)?.isComplete(ctx)) {
    const next = nextStep(steps, ctx.row.current_step as StepId);
    if (!next || next === 'login' || afterLoginIn(ctx.def.rules, next)) break;
    ctx.row.current_step = next;
  }
  return ctx;
}
