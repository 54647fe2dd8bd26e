/**
 * Closing an open checkout: the learner abandons it (its spaces are given back at once instead of when the hold
 * expires), or the server closes it (a hold past its cap); its provider payment is cancelled.
 */
import type { Deps } from '../../deps.ts';
import type { SessionUser } from '../../../src/domain/session-user.ts';
import { ProblemError, problems } from '../../../src/domain/problems.ts';
import { checkoutNotFoundProblem } from '../../../src/domain/checkout/problems.ts';
import type { CheckoutState } from '../../../src/domain/checkout/state.ts';
import { withHandle, type Ctx } from '../context.ts';
import { releaseHold } from '../holds.ts';
import { leavePayment } from '../steps/payment.ts';
import { visibleTo } from './access.ts';
import { loadCtx, runAfter, saveRow } from './persist.ts';
import { inCheckoutTransaction } from './known.ts';
import { toState } from './state.ts';

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
export const SERVER = 'server' as const;

/** Closes an open checkout: releases its hold, cancels its provider payment. */
export async function closeCheckout(deps: Deps, by: { user: SessionUser | null } | typeof SERVER, id: string): Promise<Ctx> {
  const user = by === SERVER ? null : by.user;
  const ctx = await inCheckoutTransaction(deps, id, async (tx, locked) => {
    // The id travels in URLs (analytics, the embedding site): knowing it is not owning the checkout.
    if (!locked || (by !== SERVER && !visibleTo(locked.row, user))) throw new ProblemError(checkoutNotFoundProblem());
    if (locked.row.status !== 'open') throw new ProblemError(problems.checkoutSubmission());
    const inner = await loadCtx(deps, tx, locked, user);
    if (inner.row.current_step === 'payment') await leavePayment(inner);
    else await releaseHold(tx, deps.dialect, id, inner.now);
    inner.row.status = 'abandoned';
    await saveRow(inner);
    return inner;
  }, (done) => done);
  await runAfter(ctx);
  return ctx;
}
