/**
 * A learner cancels their booking (POST /api/bookings/{bookingId}/cancel, owner only), while the educator's
 * `cancellation_allowed` permits it (now ≤ start − N days; spec 9 "Free cancellation N day(s) prior").
 *
 * In ONE transaction:
 *   1. `update bookings set status = 'cancelled' where id = ? and status in ('confirmed', 'awaiting-approval')`
 *      — the affected-row count decides; on PostgreSQL a concurrent cancel waits on the row and then finds
 *      it cancelled, on SQLite this first write takes the database's write lock;
 *   2. the occurrence (locked on PostgreSQL) gets the booking's spaces back, never above its capacity;
 *   3. a booking_cancellations row (primary key = booking id: a second one cannot exist).
 *   4. the e-mails to the learner and the educator, queued in the outbox.
 * So cancelling twice is refused and releases nothing. After the commit, a paid card / wallet / pay-later
 * payment is refunded through its provider (recorded on the cancellation row: refunded, or failed with
 * the error for someone to retry, together with the e-mails' final text).
 */
import { sql } from 'kysely';
import type { Deps } from '../app.ts';
import type { SessionUser } from '../auth/types.ts';
import type { BookingStatus } from '../../db/schema/checkout.ts';
import type { RefundStatus } from '../../db/schema/documents.ts';
import { loadBookingView, type BookingView } from '../../db/queries/bookings.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { needsProvider, providerNamed } from '../payments/registry.ts';
import { queueMail, replaceQueuedMail } from '../mail/index.ts';
import { returnGiftCardSpend } from '../gifts/cards.ts';
import { cancellationPolicy, longDate } from './describe.ts';
import { cancellationEmails } from './emails.ts';
import { documentProblems } from './problems.ts';
import { loggerFor } from '../log.ts';

/** How long a cancellation e-mail that reports a refund waits for the provider's answer before going out as it is. */
const REFUND_MAIL_WAIT_SECONDS = 120;

/** Stored in bookings.status (a text column) once cancelled. */
export const CANCELLED: BookingStatus = 'cancelled';

function notFound(): never {
  throw new ProblemError(problems.notFound('No such booking'));
}

export interface CancelResult {
  booking: BookingView;
  spacesReleased: number;
  /**
   * The refund as a whole: the payment method's part ('pending' until the provider answers), or 'refunded' when only
   * a gift card paid and its part went back on the card with the cancellation; 'none' when nothing was paid.
   */
  refund: RefundStatus;
  /** What went back on the gift card that paid (part of) the booking (pence; 0 without one). */
  giftCardRefund: number;
}

export async function cancelBooking(deps: Deps, user: SessionUser, bookingId: string): Promise<CancelResult> {
  const view = await loadBookingView(deps.db, bookingId);
  if (!view || view.userId !== user.id) notFound();
  const now = deps.now();
  const policy = cancellationPolicy(view, now);
  if (!policy.allowed) {
    if (policy.reason === 'cancelled') throw new ProblemError(documentProblems.alreadyCancelled());
    if (policy.reason === 'window-passed') {
      throw new ProblemError(documentProblems.cancellationWindowPassed(view.educator.cancellationAllowed ?? 0, longDate(policy.deadline ?? now), view.educator.name));
    }
    throw new ProblemError(documentProblems.cancellationNotAvailable(view.educator.name));
  }
  const refundable = view.paymentState === 'paid' && !!view.paymentId && !!view.paymentProvider && needsProvider(view.paymentMethod ?? '')
    && view.totalCost > 0;

  const { given: released, mailIds, giftReturned } = await deps.db.transaction().execute(async (tx) => {
    const changed = await tx
      .updateTable('bookings')
      .set({ status: CANCELLED })
      .where('id', '=', view.id)
      .where('status', 'in', ['confirmed', 'awaiting-approval'])
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) throw new ProblemError(documentProblems.alreadyCancelled());
    // What a gift card paid goes back on the card (with the cancellation, once), as the provider part is refunded.
    // Before the occurrence: checkouts lock a gift card before its occurrence too.
    const giftReturned = await returnGiftCardSpend(tx, deps.dialect, { kind: 'booking', id: view.id }, now);
    const booking = await tx.selectFrom('bookings').select(['occurrence_id', 'spaces']).where('id', '=', view.id).executeTakeFirstOrThrow();
    const spaces = Math.max(0, Number(booking.spaces));
    let given = 0;
    if (booking.occurrence_id && spaces > 0) {
      let query = tx
        .selectFrom('occurrences')
        .innerJoin('courses', 'courses.id', 'occurrences.course_id')
        .select(['occurrences.available_spaces', 'occurrences.spaces', 'courses.spaces as course_spaces'])
        .where('occurrences.id', '=', booking.occurrence_id);
      if (deps.dialect === 'postgres') query = query.forUpdate('occurrences');
      const occ = await query.executeTakeFirst();
      if (occ && occ.available_spaces !== null) {
        const available = Number(occ.available_spaces);
        const capacityRaw = occ.spaces ?? occ.course_spaces;
        const capacity = capacityRaw === null || capacityRaw === undefined ? null : Number(capacityRaw);
        const next = capacity === null ? available + spaces : Math.max(available, Math.min(available + spaces, capacity));
        given = next - available;
        if (given > 0) {
          await tx
            .updateTable('occurrences')
            .set({ available_spaces: sql<number>`available_spaces + ${given}` })
            .where('id', '=', booking.occurrence_id)
            .execute();
        }
      }
    }
    await tx
      .insertInto('booking_cancellations')
      .values({
        booking_id: view.id,
        user_id: user.id,
        occurrence_id: booking.occurrence_id,
        spaces_released: given,
        cancelled_at: now,
        refund_status: refundable ? 'pending' : 'none',
        refund_provider: refundable ? view.paymentProvider : null,
        refund_payment_id: refundable ? view.paymentId : null,
        refund_amount: refundable ? view.totalCost : 0,
        refunded_at: null,
        refund_error: null,
      })
      .execute();
    // The e-mails commit with the cancellation. One whose text waits on the refund's outcome is held back for
    // REFUND_MAIL_WAIT_SECONDS and rewritten below once the provider has answered; if this process dies first, it
    // still goes out then, saying the refund is being made.
    const cancelled = (await loadBookingView(tx, view.id))!;
    const mailIds: string[] = [];
    for (const message of cancellationEmails(cancelled, deps.config)) {
      mailIds.push(await queueMail(tx, message, { now, ...(refundable ? { sendAfter: now + REFUND_MAIL_WAIT_SECONDS } : {}) }));
    }
    return { given, mailIds, giftReturned };
  });

  // After the commit: the refund; its outcome is recorded together with the final text of the e-mails.
  // A gift card is a means of payment: what it paid is refunded (to the card, at once) like the provider's part.
  let refund: RefundStatus = refundable ? 'pending' : giftReturned > 0 ? 'refunded' : 'none';
  if (refundable) {
    const provider = providerNamed(deps, view.paymentProvider!);
    let refundError: string | null = null;
    try {
      if (!provider) throw new Error(`payment provider ${view.paymentProvider} is not configured`);
      await provider.refundPayment(view.paymentId!);
      refund = 'refunded';
    } catch (error) {
      refund = 'failed';
      loggerFor(deps.config).error('refund after cancellation failed', { bookingId, error });
      refundError = error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500);
    }
    await deps.db.transaction().execute(async (tx) => {
      const at = deps.now();
      if (refund === 'refunded') {
        await tx.updateTable('booking_cancellations').set({ refund_status: 'refunded', refunded_at: at, refund_error: null })
          .where('booking_id', '=', view.id).execute();
        await tx.updateTable('checkout_payments').set({ status: 'refunded', updated_at: at })
          .where('checkout_id', '=', view.checkoutId).where('provider_payment_id', '=', view.paymentId!).execute();
      } else {
        await tx.updateTable('booking_cancellations').set({ refund_status: 'failed', refund_error: refundError })
          .where('booking_id', '=', view.id).execute();
      }
      const settled = (await loadBookingView(tx, view.id))!;
      const messages = cancellationEmails(settled, deps.config);
      for (const [i, id] of mailIds.entries()) {
        if (messages[i]) await replaceQueuedMail(tx, id, messages[i], { now: at, sendAt: at });
      }
    });
  }
  const after = (await loadBookingView(deps.db, view.id))!;
  return { booking: after, spacesReleased: released, refund, giftCardRefund: giftReturned };
}
