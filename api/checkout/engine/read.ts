/** Reading a checkout (GET /checkout/{id}): its state, or only that a login is needed when it is another learner's. */
import type { Deps } from '../../deps.ts';
import type { SessionUser } from '../../../src/domain/session-user.ts';
import { ProblemError } from '../../../src/domain/problems.ts';
import { checkoutNotFoundProblem } from '../../../src/domain/checkout/problems.ts';
import type { CheckoutState } from '../../../src/domain/checkout/state.ts';
import { withHandle } from '../context.ts';
import { awaitsLogin, visibleTo } from './access.ts';
import { settleLogin } from './navigation.ts';
import { accessibleCtx, loadCtx, readCheckout, saveRow, type StampedRow } from './persist.ts';
import { inCheckoutTransaction } from './known.ts';
import { lockedState, toState } from './state.ts';

function fail(problem: ReturnType<typeof checkoutNotFoundProblem>): never {
  throw new ProblemError(problem);
}

export async function getCheckout(deps: Deps, user: SessionUser | null, id: string): Promise<CheckoutState> {
  const read = await readCheckout(deps.db, deps, id);
  if (read && awaitsLogin(read.row, user)) return lockedState(await loadCtx(deps, deps.db, read, user));
  if (!read || !visibleTo(read.row, user)) fail(checkoutNotFoundProblem());
  // A learner who has logged in while the checkout stood on the login step moves on (under the lock); otherwise
  // a GET changes nothing.
  if (!user || read.row.current_step !== 'login' || read.row.status !== 'open') return readState(deps, user, read);
  await accessibleCtx(deps, deps.db, read, user);
  const settled = await inCheckoutTransaction(deps, id, async (tx, locked) => {
    if (!locked) fail(checkoutNotFoundProblem());
    const inner = await loadCtx(deps, tx, locked, user);
    if (await settleLogin(inner)) await saveRow(inner);
    return inner;
  }, (done) => done);
  return toState(withHandle(settled, deps.db));
}

/** The state of a checkout as read, with no transaction (nothing to change). */
export async function readState(deps: Deps, user: SessionUser | null, read: StampedRow): Promise<CheckoutState> {
  const ctx = await accessibleCtx(deps, deps.db, read, user);
  ctx.hold = read.hold ?? null;
  ctx.recorded = read.recorded;
  return toState(ctx);
}
