/**
 * Moving through the steps (spec 2.14): an action of the current step runs and may advance to the next step of
 * the checkout's path (entering it), "go back" leaves the current step for the previous one, and a login moves the
 * checkout off the login step. The first action of an after-login step binds the checkout to the learner.
 */
import { ProblemError, problems, type Problem } from '../../../src/domain/problems.ts';
import { afterLoginIn, nextStep, previousStep, type StepId } from '../../../src/domain/checkout/steps.ts';
import { stepObject, stepsOf, type Ctx } from '../context.ts';
import type { BoundAction, Prepared } from '../definition.ts';
import { needsLogin } from './access.ts';

function fail(problem: Problem): never {
  throw new ProblemError(problem);
}

/** Spec 2.14: once the learner is logged in, the login step gives way to the first after-login step. */
export async function settleLogin(ctx: Ctx): Promise<boolean> {
  if (ctx.user && ctx.row.current_step === 'login' && ctx.row.status === 'open') {
    const first = ctx.def.rules.steps.afterLogin[0]!;
    ctx.row.current_step = first;
    bindOnEntry(ctx, first);
    // Arriving there is entering it, as advancing would (a flow whose first after-login step is Payment fixes its
    // total and holds here).
    await stepObject(ctx, first)?.enter?.(ctx);
    return true;
  }
  return false;
}

export async function apply(ctx: Ctx, name: string, bound: BoundAction, prepared: Prepared): Promise<void> {
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
  if (ctx.user && !ctx.row.user_id && afterLoginIn(ctx.def.rules, step)) {
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

export async function goBack(ctx: Ctx): Promise<void> {
  const steps = await stepsOf(ctx);
  const current = ctx.row.current_step as StepId;
  await stepObject(ctx, current)?.leave?.(ctx);
  if (!steps.includes(current)) {
    const before = ctx.def.rules.steps.beforeLogin;
    ctx.row.current_step = before[before.length - 1]!;
    return;
  }
  // On the first step Back leaves the checkout (the screen goes back in history): the state stays.
  ctx.row.current_step = previousStep(steps, current) ?? current;
}
