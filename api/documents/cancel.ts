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
 * So cancelling twice is refused and releases nothing. The refund is claimed in the same transaction through the
 * refund service (api/admin/refunds.ts: a `refunds` row with its provider key, what a gift card paid back on the card
 * at once); after the commit the provider's part is sent with that key — exactly once, finished by the refund
 * reconciler if the answer is lost — and its outcome recorded on the cancellation row with the e-mails' final text.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Deps } from '../deps.ts';
import type { SessionUser } from '../../src/domain/session-user.ts';
import type { BookingRow, BookingStatus } from '../../db/schema/checkout.ts';
import type { RefundStatus } from '../../db/schema/documents.ts';
import type { RefundRow } from '../../db/schema/admin-bookings.ts';
import { loadBookingView, type BookingView } from '../../db/queries/bookings.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { queueMail, replaceQueuedMail } from '../mail/index.ts';
import { claimRefund, paidPartsOf, refundHistory, sendRefund } from '../admin/refunds.ts';
import { recordChange } from '../admin/audit.ts';
import { releaseSpaces } from '../admin/bookings-actions.ts';
import { refundLeft } from '../../src/domain/admin/refunds.ts';
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

type Tx = Transaction<Database>;

/** Refuses a cancellation the educator's policy does not allow now (already cancelled, too late, or never). */
function refuseByPolicy(view: BookingView, now: number): void {
  const policy = cancellationPolicy(view, now);
  if (policy.allowed) return;
  if (policy.reason === 'cancelled') throw new ProblemError(documentProblems.alreadyCancelled());
  if (policy.reason === 'window-passed') {
    throw new ProblemError(documentProblems.cancellationWindowPassed(view.educator.cancellationAllowed ?? 0, longDate(policy.deadline ?? now), view.educator.name));
  }
  throw new ProblemError(documentProblems.cancellationNotAvailable(view.educator.name));
}

/** Step 1: the booking is cancelled by this write or not at all (a second cancel finds it cancelled). */
async function markCancelled(tx: Tx, bookingId: string): Promise<BookingRow> {
  const changed = await tx
    .updateTable('bookings')
    .set({ status: CANCELLED })
    .where('id', '=', bookingId)
    .where('status', 'in', ['confirmed', 'awaiting-approval'])
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) !== 1) throw new ProblemError(documentProblems.alreadyCancelled());
  return tx.selectFrom('bookings').selectAll().where('id', '=', bookingId).executeTakeFirstOrThrow();
}

/**
 * Everything still paid goes back: what a gift card paid on the card at once, the provider's part claimed with its
 * key (sent after the commit). Before the occurrence: checkouts lock a gift card before its occurrence too.
 */
async function claimLearnerRefund(tx: Tx, deps: Deps, view: BookingView, booking: BookingRow, userId: string, now: number): Promise<RefundRow | null> {
  const history = await refundHistory(tx, view.id);
  const paid = paidPartsOf(booking, view.paymentProvider);
  const left = refundLeft(paid, history.done);
  return left.total > 0
    ? claimRefund(tx, deps.dialect, {
      booking, provider: view.paymentProvider, paid, history, amount: left.total, kind: 'learner-cancellation',
      requestKey: `learner-cancel:${view.id}`, userId, reason: null, now,
    })
    : null;
}

interface Cancelled { given: number; claimed: RefundRow | null; giftReturned: number; refundable: boolean }

/** Step 3 and the audit log: the cancellation row (with the refund it waits for) and the change. */
async function recordCancellation(tx: Tx, view: BookingView, booking: BookingRow, userId: string, now: number, done: Cancelled): Promise<void> {
  const { given, claimed, giftReturned, refundable } = done;
  await tx
    .insertInto('booking_cancellations')
    .values({
      booking_id: view.id,
      user_id: userId,
      occurrence_id: booking.occurrence_id,
      spaces_released: given,
      cancelled_at: now,
      refund_status: refundable ? 'pending' : 'none',
      refund_provider: refundable ? view.paymentProvider : null,
      refund_payment_id: refundable ? view.paymentId : null,
      refund_amount: refundable ? Number(claimed!.amount) : 0,
      refunded_at: null,
      refund_error: null,
    })
    .execute();
  await recordChange(tx, {
    educatorId: view.educator.id, userId, entity: 'booking', entityId: view.id, action: 'cancel',
    changes: { status: [view.status, CANCELLED], ...(claimed ? { refunded: [0, Number(claimed.amount) + giftReturned] } : {}) }, at: now,
  });
}

/**
 * Step 4: the e-mails commit with the cancellation. One whose text waits on the refund's outcome is held back for
 * REFUND_MAIL_WAIT_SECONDS and rewritten once the provider has answered; if this process dies first, it still goes
 * out then, saying the refund is being made. Answers the queued mails' ids.
 */
async function queueCancellationMails(tx: Tx, deps: Deps, bookingId: string, refundable: boolean, now: number): Promise<string[]> {
  const cancelled = (await loadBookingView(tx, bookingId))!;
  const mailIds: string[] = [];
  for (const message of cancellationEmails(cancelled, deps.config)) {
    mailIds.push(await queueMail(tx, message, { now, ...(refundable ? { sendAfter: now + REFUND_MAIL_WAIT_SECONDS } : {}) }));
  }
  return mailIds;
}

/**
 * After the commit: the provider's part of the refund is sent; its outcome is recorded together with the final text
 * of the e-mails. Answers the refund's status as the provider left it.
 */
async function sendLearnerRefund(deps: Deps, bookingId: string, refundId: string, mailIds: string[]): Promise<RefundStatus> {
  const sent = await sendRefund(deps, refundId);
  const refund: RefundStatus = sent?.status === 'succeeded' ? 'refunded' : sent?.status === 'failed' ? 'failed' : 'pending';
  if (refund === 'failed') loggerFor(deps.config).error('refund after cancellation failed', { bookingId, error: sent?.last_error });
  // The provider's answer is on the cancellation row (the refund service keeps it in step); the e-mails say it.
  await deps.db.transaction().execute(async (tx) => {
    const at = deps.now();
    const settled = (await loadBookingView(tx, bookingId))!;
    const messages = cancellationEmails(settled, deps.config);
    for (const [i, id] of mailIds.entries()) {
      if (messages[i]) await replaceQueuedMail(tx, id, messages[i], { now: at, sendAt: at });
    }
  });
  return refund;
}

export async function cancelBooking(deps: Deps, user: SessionUser, bookingId: string): Promise<CancelResult> {
  const view = await loadBookingView(deps.db, bookingId);
  if (!view || view.userId !== user.id) notFound();
  const now = deps.now();
  refuseByPolicy(view, now);
  const { given: released, mailIds, giftReturned, refundId, refundable } = await deps.db.transaction().execute(async (tx) => {
    const booking = await markCancelled(tx, view.id);
    const claimed = await claimLearnerRefund(tx, deps, view, booking, user.id, now);
    const giftReturned = Number(claimed?.gift_card_amount ?? 0);
    const refundable = Number(claimed?.amount ?? 0) > 0;
    // Step 2: the occurrence gets the booking's spaces back, never above its capacity (and its waitlist hears of it).
    const given = await releaseSpaces(tx, deps, booking.occurrence_id, Math.max(0, Number(booking.spaces)));
    await recordCancellation(tx, view, booking, user.id, now, { given, claimed, giftReturned, refundable });
    const mailIds = await queueCancellationMails(tx, deps, view.id, refundable, now);
    return { given, mailIds, giftReturned, refundId: claimed?.id ?? null, refundable };
  });

  // A gift card is a means of payment: what it paid is refunded (to the card, at once) like the provider's part.
  let refund: RefundStatus = refundable ? 'pending' : giftReturned > 0 ? 'refunded' : 'none';
  if (refundable && refundId) refund = await sendLearnerRefund(deps, bookingId, refundId, mailIds);
  const after = (await loadBookingView(deps.db, view.id))!;
  return { booking: after, spacesReleased: released, refund, giftCardRefund: giftReturned };
}
