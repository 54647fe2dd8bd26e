/**
 * Submitting a response (spec 4 "Checkout actions", POST /checkout/{id}/submit-response): the envelope names one
 * action of the current step (or "go back"); its payload is parsed by the action's own schema; provider work runs
 * before the transaction; the action runs on the locked row in one transaction; the answer is the new state.
 */
import type { z } from 'zod';
import type { Deps } from '../../deps.ts';
import type { SessionUser } from '../../../src/domain/session-user.ts';
import type { CheckoutRow } from '../../../db/schema/checkout.ts';
import type { Q } from '../../../db/queries/checkout.ts';
import { parseWith } from '../../http/parse.ts';
import { ProblemError, problemType, problems, type Problem } from '../../../src/domain/problems.ts';
import { isStepId, type StepId } from '../../../src/domain/checkout/steps.ts';
import { HOLD_LAPSED_SLUG, checkoutNotFoundProblem } from '../../../src/domain/checkout/problems.ts';
import type { CheckoutState } from '../../../src/domain/checkout/state.ts';
import { envelopeSchema } from '../actions.ts';
import { stepObject, withHandle, type AnyFlowDefinition, type Ctx } from '../context.ts';
import type { ActionDef, BoundAction, Prepared, StepDef } from '../definition.ts';
import { actionPrepares, flowDefinition } from '../flows/index.ts';
import { currentHold } from '../holds.ts';
import { providerNamed } from '../../payments/registry.ts';
import { needsLogin, visibleTo } from './access.ts';
import { closeCheckout, SERVER } from './close.ts';
import { apply, goBack, settleLogin } from './navigation.ts';
import { accessibleCtx, readCheckout, runAfter, saveRow, type StampedRow } from './persist.ts';
import { inCheckoutTransaction, knownCheckouts } from './known.ts';
import { commitWithoutWaitingForDisk } from '../../../db/client.ts';
import { readState } from './read.ts';
import { toState } from './state.ts';

function fail(problem: Problem): never {
  throw new ProblemError(problem);
}

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
function chooseAction(row: CheckoutRow, user: SessionUser | null, envelope: Envelope): BoundAction | null {
  if (!user && envelope.action !== 'go back' && row.status === 'open' && needsLogin(row)) {
    // Spec 8 "Unknown user": the login step and the after-login steps need a logged-in learner.
    fail(problems.unknownUser());
  }
  const chosen = findAction(flowDefinition(row.flow), row.current_step, envelope.action, row.status === 'completed');
  if (chosen === undefined) fail(problems.checkoutSubmission());
  return chosen === null ? null : chosen.bind(envelope.payload);
}

type Envelope = z.infer<typeof envelopeSchema>;

/** What was decided before the transaction: the action (null: "go back"; undefined: choose it on the locked row) and its provider work. */
interface Chosen {
  bound?: BoundAction | null;
  prepared: Prepared;
}

export async function submitResponse(deps: Deps, user: SessionUser | null, id: string, input: unknown): Promise<CheckoutState> {
  const envelope = parseWith(envelopeSchema, input);
  const chosen = await prepareOutside(deps, user, id, envelope);
  if ('state' in chosen) return chosen.state;
  let ctx: Ctx;
  try {
    ctx = await inCheckoutTransaction(deps, id, (tx, read) => runLocked(deps, tx, read, user, envelope, chosen), (done) => done);
  } catch (error) {
    await afterFailure(deps, id, chosen.prepared, error);
    throw error;
  }
  await runAfter(ctx);
  return toState(withHandle(ctx, deps.db));
}

/**
 * Provider work (create, confirm a payment) runs before the transaction, on the checkout as read first; the
 * transaction re-checks everything it relies on. Every other action is chosen on the locked row alone. A payment
 * confirmed again after completion is answered from this read (`state`).
 */
async function prepareOutside(deps: Deps, user: SessionUser | null, id: string, envelope: Envelope): Promise<Chosen | { state: CheckoutState }> {
  if (!actionPrepares(envelope.action)) return { prepared: {} };
  // The copy this process kept will do: the transaction checks it, or decides again on the locked row.
  const known = knownCheckouts(deps);
  const seen = known?.get(id) ?? (await readCheckout(deps.db, deps, id));
  if (!seen || !visibleTo(seen.row, user)) fail(checkoutNotFoundProblem());
  const bound = chooseAction(seen.row, user, envelope);
  // A completed checkout changes no more: confirming its payment again is answered from this read (right after its
  // completion, with the outcome as recorded: known.ts takeRecorded).
  if (seen.row.status === 'completed' && bound?.repeatable) return { state: await readState(deps, user, known?.takeRecorded(id) ?? seen) };
  return { bound, prepared: bound && seen.row.status === 'open' ? await bound.prepare(deps, seen.row, flowDefinition(seen.row.flow).rules) : {} };
}

/** The action on the locked row, in the transaction: the checkout as it stands decides, and is saved. */
async function runLocked(deps: Deps, tx: Q, locked: StampedRow | undefined, user: SessionUser | null, envelope: Envelope, chosen: Chosen): Promise<Ctx> {
  if (!locked || !visibleTo(locked.row, user)) fail(checkoutNotFoundProblem());
  const { row } = locked;
  const action = chosen.bound !== undefined ? chosen.bound : chooseAction(row, user, envelope);
  const inner = await accessibleCtx(deps, tx, locked, user);
  if (row.status === 'completed') {
    // Confirming the same payment twice: the checkout is already complete, nothing more is recorded.
    if (action?.repeatable) {
      inner.hold = (await currentHold(tx, row.id)) ?? null;
      return inner;
    }
    fail(problems.checkoutSubmission());
  }
  if (row.status !== 'open') fail(problems.checkoutSubmission());
  await settleLogin(inner);
  if (action === null) await goBack(inner);
  else await apply(inner, envelope.action, action, chosen.prepared);
  await saveRow(inner);
  // A step on the way to payment: should PostgreSQL lose its commit in a crash, the learner finds the checkout a
  // step back. An action with provider work, follow-up work, or that completes the checkout waits for the disk.
  if (!actionPrepares(envelope.action) && inner.after.length === 0 && inner.row.status === 'open') {
    await commitWithoutWaitingForDisk(tx, deps.dialect);
  }
  return inner;
}

/**
 * A succeeded payment whose outcome cannot be recorded (sold out, slot taken…) is given back. A transient failure
 * (database, network) is not: the learner, the provider's event or the reconciler can try again. A checkout past
 * its hold cap is closed (its spaces and provider payment released): the learner starts again.
 */
async function afterFailure(deps: Deps, id: string, prepared: Prepared, error: unknown): Promise<void> {
  if (!(error instanceof ProblemError)) return;
  if (prepared.refundOnFailure && prepared.payment && prepared.provider) {
    await providerNamed(deps, prepared.provider)?.refundPayment(prepared.payment.id);
  }
  if (error.problem.type === problemType(HOLD_LAPSED_SLUG)) await closeCheckout(deps, SERVER, id);
}
