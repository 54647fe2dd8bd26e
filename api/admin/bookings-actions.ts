/**
 * What an educator does to bookings (docs/admin.md "Cancellations and refunds"): refund all or part of a booking,
 * cancel a booking (with a full, partial or no refund), decline one awaiting approval (refunded in full), cancel a
 * whole date (every learner on it told). Each decision is one transaction — the booking locked, its refund claimed
 * (api/admin/refunds.ts), its spaces given back, the audit log and the learner's e-mail written — and the provider's
 * part of the refund is sent after the commit. The learner's e-mail waits for the provider's answer (up to
 * MAIL_WAIT_SECONDS) so it can say the money was refunded; it goes out as it is if the answer never comes.
 */
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { z } from 'zod';
import type { Deps } from '../deps.ts';
import type { RefundKind, RefundRow } from '../../db/schema/admin-bookings.ts';
import { loadBookingView } from '../../db/queries/bookings.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { authProblems } from '../auth/problems.ts';
import { queueMail, replaceQueuedMail, type MailMessage } from '../mail/index.ts';
import { recordChange } from './audit.ts';
import { lockOccurrence } from '../checkout/holds.ts';
import { notifyWaitlistOfDate } from './inbox.ts';
import {
  claimRefund, lockBooking, paidPartsOf, providerOfBooking, refundHistory, returnMembershipCredits, sendRefund, type SendHooks,
} from './refunds.ts';
import { educatorCancelledEmail, refundEmail, type RefundWords } from './bookings-emails.ts';
import { choiceAmount, refundAmountProblem, type RefundChoice } from '../../src/domain/admin/refunds.ts';

type Tx = Transaction<Database>;

/** How long a learner's e-mail about a refund waits for the provider's answer before going out as it is. */
const MAIL_WAIT_SECONDS = 120;

/** One press of a button: the admin app sends a fresh key per dialog, the same key when it repeats the request. */
export const requestKeySchema = z.string().min(8).max(100).regex(/^[A-Za-z0-9_.:-]+$/, 'is not a request key');

export const refundBodySchema = z.object({
  amount: z.number().int().min(1).max(100_000_000),
  requestKey: requestKeySchema,
  /** How many refunds the booking had when the admin opened it (another refund made since is refused, 409). */
  expectedRefunds: z.number().int().min(0).max(10_000),
  reason: z.string().trim().max(1000).optional(),
});

export const cancelBodySchema = z.object({
  refund: z.enum(['full', 'none', 'amount']),
  amount: z.number().int().min(0).max(100_000_000).optional(),
  requestKey: requestKeySchema,
  expectedRefunds: z.number().int().min(0).max(10_000).optional(),
  reason: z.string().trim().max(1000).optional(),
});

export const cancelDateBodySchema = z.object({
  refund: z.enum(['full', 'none']),
  requestKey: requestKeySchema,
  reason: z.string().trim().max(1000).optional(),
});

function notFound(): never {
  throw new ProblemError(problems.notFound('No such booking'));
}

/** A database's unique-constraint error (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
    || /UNIQUE constraint failed|duplicate key value/i.test(e?.message ?? '');
}

function changedSince(): ProblemError {
  return new ProblemError(authProblems.conflict('Changed Since You Opened It',
    'Another refund of this booking was made since you opened it. Reload to see it, then decide again.'));
}

function words(refund: RefundRow): RefundWords {
  return { provider: Number(refund.amount), status: refund.status, giftCard: Number(refund.gift_card_amount), creditsReturned: Number(refund.credits_returned) };
}

export interface RefundAnswer {
  refund: RefundRow;
  /** The same request (key) was made before: nothing new was done. */
  replayed: boolean;
}

/** The refund of the same press of the button, if there was one (of this booking; another booking's is a conflict). */
async function sameRequest(tx: Tx, educatorId: string, bookingId: string, requestKey: string): Promise<RefundRow | null> {
  const same = await tx.selectFrom('refunds').selectAll().where('educator_id', '=', educatorId).where('request_key', '=', requestKey).executeTakeFirst();
  if (!same) return null;
  if (same.booking_id !== bookingId) throw new ProblemError(authProblems.conflict('Request Key Used', 'This request key was used for another booking.'));
  return same;
}

/** After the commit: the provider's part, then the learner's e-mail rewritten with what happened. */
async function settle(deps: Deps, refund: RefundRow, mail: { id: string; make: (refund: RefundRow) => MailMessage | null } | null, hooks: SendHooks): Promise<RefundRow> {
  let result = refund;
  if (refund.status === 'pending') result = (await sendRefund(deps, refund.id, hooks)) ?? refund;
  if (mail) {
    const message = mail.make(result);
    const at = deps.now();
    if (message) await replaceQueuedMail(deps.db, mail.id, message, { now: at, sendAt: at });
  }
  return result;
}

/** Refunds all or part of a booking without cancelling it. */
export async function refundBooking(
  deps: Deps, input: { userId: string; educatorId: string; bookingId: string; body: z.output<typeof refundBodySchema> }, hooks: SendHooks = {},
): Promise<RefundAnswer> {
  const { body } = input;
  const now = deps.now();
  let claimed: { refund: RefundRow; replayed: boolean; mailId: string | null };
  try {
    claimed = await deps.db.transaction().execute(async (tx) => {
      const booking = await lockBooking(tx, deps.dialect, input.educatorId, input.bookingId);
      if (!booking) notFound();
      const same = await sameRequest(tx, input.educatorId, booking.id, body.requestKey);
      if (same) return { refund: same, replayed: true, mailId: null };
      const history = await refundHistory(tx, booking.id);
      if (history.count !== body.expectedRefunds) throw changedSince();
      const provider = await providerOfBooking(tx, booking);
      const paid = paidPartsOf(booking, provider);
      const problem = refundAmountProblem(body.amount, paid, history.done, { cancellation: false, currency: booking.currency });
      if (problem) throw new ProblemError(problems.validation([{ key: 'amount', name: 'Amount', message: problem }]));
      const refund = await claimRefund(tx, deps.dialect, {
        booking, provider, paid, history, amount: body.amount, kind: 'refund', requestKey: body.requestKey, userId: input.userId,
        reason: body.reason || null, now,
      });
      await recordChange(tx, {
        educatorId: input.educatorId, userId: input.userId, entity: 'booking', entityId: booking.id, action: 'refund',
        changes: { refunded: [Number(booking.refunded_total), Number(booking.refunded_total) + Number(refund.amount) + Number(refund.gift_card_amount)] }, at: now,
      });
      const view = (await loadBookingView(tx, booking.id))!;
      const message = refundEmail(view, deps.config, { reason: body.reason || null, refund: words(refund) });
      const mailId = message ? await queueMail(tx, message, { now, ...(refund.status === 'pending' ? { sendAfter: now + MAIL_WAIT_SECONDS } : {}) }) : null;
      return { refund, replayed: false, mailId };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw changedSince();
    throw error;
  }
  if (claimed.replayed) return { refund: claimed.refund, replayed: true };
  const view = await loadBookingView(deps.db, input.bookingId);
  const refund = await settle(deps, claimed.refund, claimed.mailId && view
    ? { id: claimed.mailId, make: (r) => refundEmail(view, deps.config, { reason: body.reason || null, refund: words(r) }) } : null, hooks);
  return { refund, replayed: false };
}

/**
 * Gives a cancelled booking's spaces back to its date, never above its capacity, and tells the course's waitlist
 * when that opens the date up (notifyWaitlistOfDate). Returns how many went back.
 */
export async function releaseSpaces(tx: Tx, deps: Pick<Deps, 'dialect' | 'now' | 'config'>, occurrenceId: string | null, spaces: number): Promise<number> {
  if (!occurrenceId || spaces <= 0) return 0;
  await lockOccurrence(tx, deps.dialect, occurrenceId);
  const occ = await tx.selectFrom('occurrences').innerJoin('courses', 'courses.id', 'occurrences.course_id')
    .select(['occurrences.available_spaces', 'occurrences.spaces', 'courses.spaces as course_spaces', 'occurrences.visibility'])
    .where('occurrences.id', '=', occurrenceId).executeTakeFirst();
  if (!occ || occ.available_spaces === null) return 0;
  const available = Number(occ.available_spaces);
  const capacityRaw = occ.spaces ?? occ.course_spaces;
  const capacity = capacityRaw === null || capacityRaw === undefined ? null : Number(capacityRaw);
  const next = capacity === null ? available + spaces : Math.max(available, Math.min(available + spaces, capacity));
  const given = next - available;
  if (given > 0) {
    await tx.updateTable('occurrences').set({ available_spaces: sql<number>`available_spaces + ${given}` }).where('id', '=', occurrenceId).execute();
    await notifyWaitlistOfDate(tx, occurrenceId, { visibility: occ.visibility, available_spaces: available }, deps);
  }
  return given;
}

export interface CancelAnswer {
  bookingId: string;
  refund: RefundRow;
  spacesReleased: number;
  replayed: boolean;
}

type CancelKind = Extract<RefundKind, 'cancellation' | 'decline' | 'date-cancellation'>;

/**
 * Cancels (or declines) one booking: its status, its spaces back to the date, a membership credit back to the
 * membership, the refund chosen (a cancellation gives back at least the platform fee the learner paid), and the
 * learner's e-mail — one transaction; then the provider's part of the refund.
 */
export async function cancelBookingAsEducator(
  deps: Deps,
  input: { userId: string; educatorId: string; bookingId: string; kind: CancelKind; choice: RefundChoice; requestKey: string; expectedRefunds?: number; reason: string | null },
  hooks: SendHooks = {},
): Promise<CancelAnswer> {
  const now = deps.now();
  let claimed: { refund: RefundRow; replayed: boolean; mailId: string | null; released: number };
  try {
    claimed = await deps.db.transaction().execute(async (tx) => {
      const booking = await lockBooking(tx, deps.dialect, input.educatorId, input.bookingId);
      if (!booking) notFound();
      const same = await sameRequest(tx, input.educatorId, booking.id, input.requestKey);
      if (same) {
        const c = await tx.selectFrom('booking_cancellations').select('spaces_released').where('booking_id', '=', booking.id).executeTakeFirst();
        return { refund: same, replayed: true, mailId: null, released: Number(c?.spaces_released ?? 0) };
      }
      if (booking.status === 'cancelled') throw new ProblemError(authProblems.conflict('Already Cancelled', 'This booking was cancelled already.'));
      if (input.kind === 'decline' && booking.status !== 'awaiting-approval') {
        throw new ProblemError(authProblems.conflict('Not Awaiting Approval', 'Only a booking awaiting approval can be declined.'));
      }
      const history = await refundHistory(tx, booking.id);
      if (input.expectedRefunds !== undefined && history.count !== input.expectedRefunds) throw changedSince();
      const provider = await providerOfBooking(tx, booking);
      const paid = paidPartsOf(booking, provider);
      const amount = choiceAmount(input.choice, paid, history.done, { cancellation: true });
      const problem = refundAmountProblem(amount, paid, history.done, { cancellation: true, currency: booking.currency });
      if (problem && !(amount === 0 && input.choice.kind !== 'amount')) {
        throw new ProblemError(problems.validation([{ key: 'amount', name: 'Amount', message: problem }]));
      }
      const changed = await tx.updateTable('bookings').set({ status: 'cancelled' })
        .where('id', '=', booking.id).where('status', 'in', ['confirmed', 'awaiting-approval']).executeTakeFirst();
      if (Number(changed.numUpdatedRows) !== 1) throw new ProblemError(authProblems.conflict('Already Cancelled', 'This booking was cancelled already.'));
      // Locks in the checkout's order (api/checkout/holds.ts): a gift card, then the occurrence, then a membership.
      const claimed = await claimRefund(tx, deps.dialect, {
        booking, provider, paid, history, amount, kind: input.kind, requestKey: input.requestKey, userId: input.userId, reason: input.reason, now,
      });
      const released = await releaseSpaces(tx, deps, booking.occurrence_id, Number(booking.spaces));
      const credits = await returnMembershipCredits(tx, booking.id, now);
      if (credits > 0) await tx.updateTable('refunds').set({ credits_returned: credits }).where('id', '=', claimed.id).execute();
      const refund = { ...claimed, credits_returned: credits };
      await tx.insertInto('booking_cancellations').values({
        booking_id: booking.id, user_id: input.userId, occurrence_id: booking.occurrence_id, spaces_released: released, cancelled_at: now,
        refund_status: refund.status === 'pending' ? 'pending' : 'none', refund_provider: refund.provider, refund_payment_id: refund.provider_payment_id,
        refund_amount: Number(refund.amount), refunded_at: null, refund_error: null,
      }).execute();
      await recordChange(tx, {
        educatorId: input.educatorId, userId: input.userId, entity: 'booking', entityId: booking.id,
        action: input.kind === 'decline' ? 'decline' : 'cancel',
        changes: {
          status: [booking.status, 'cancelled'],
          refunded: [Number(booking.refunded_total), Number(booking.refunded_total) + Number(refund.amount) + Number(refund.gift_card_amount)],
          ...(released ? { spaces_released: [0, released] } : {}),
          ...(input.reason ? { reason: [null, input.reason] } : {}),
        },
        at: now,
      });
      const view = (await loadBookingView(tx, booking.id))!;
      const message = educatorCancelledEmail(view, deps.config, { kind: input.kind, reason: input.reason, refund: words(refund) });
      const mailId = message ? await queueMail(tx, message, { now, ...(refund.status === 'pending' ? { sendAfter: now + MAIL_WAIT_SECONDS } : {}) }) : null;
      return { refund, replayed: false, mailId, released };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw changedSince();
    throw error;
  }
  if (claimed.replayed) return { bookingId: input.bookingId, refund: claimed.refund, spacesReleased: claimed.released, replayed: true };
  const view = await loadBookingView(deps.db, input.bookingId);
  const refund = await settle(deps, claimed.refund, claimed.mailId && view
    ? { id: claimed.mailId, make: (r) => educatorCancelledEmail(view, deps.config, { kind: input.kind, reason: input.reason, refund: words(r) }) } : null, hooks);
  return { bookingId: input.bookingId, refund, spacesReleased: claimed.released, replayed: false };
}

export interface CancelDateAnswer {
  occurrenceId: string;
  cancelled: CancelAnswer[];
  /** Bookings that could not be cancelled now (each with why); cancelling the date again with the same key retries them. */
  failed: { bookingId: string; detail: string }[];
}

/** A per-booking key from the date's key: the same press cancels each booking once, a repeat continues where it stopped. */
function bookingKey(requestKey: string, bookingId: string): string {
  const key = `${requestKey}:${bookingId}`;
  return key.length <= 100 ? key : key.slice(0, 100);
}

/**
 * Cancels a whole date: it is no longer listed (visibility `cancelled`, which the change feed carries to the public
 * pages), and each booking on it is cancelled as above, its learner e-mailed, with a full refund or none (the
 * platform fee the learner paid is refunded either way).
 */
export async function cancelOccurrence(
  deps: Deps, input: { userId: string; educatorId: string; occurrenceId: string; body: z.output<typeof cancelDateBodySchema> }, hooks: SendHooks = {},
): Promise<CancelDateAnswer> {
  const now = deps.now();
  const occurrence = await deps.db.selectFrom('occurrences').innerJoin('courses', 'courses.id', 'occurrences.course_id')
    .select(['occurrences.id', 'occurrences.visibility', 'occurrences.revision', 'courses.educator_id'])
    .where('occurrences.id', '=', input.occurrenceId).where('courses.educator_id', '=', input.educatorId).executeTakeFirst();
  if (!occurrence) throw new ProblemError(problems.notFound('No such date'));
  if (occurrence.visibility !== 'cancelled') {
    await deps.db.transaction().execute(async (tx) => {
      const changed = await tx.updateTable('occurrences').set((eb) => ({ visibility: 'cancelled', revision: eb('revision', '+', 1) }))
        .where('id', '=', occurrence.id).where('visibility', '!=', 'cancelled').executeTakeFirst();
      if (Number(changed.numUpdatedRows) !== 1) return;
      await recordChange(tx, {
        educatorId: input.educatorId, userId: input.userId, entity: 'occurrence', entityId: occurrence.id, action: 'cancel',
        revision: Number(occurrence.revision) + 1, changes: { visibility: [occurrence.visibility, 'cancelled'] }, at: now,
      });
    });
  }
  const bookings = await deps.db.selectFrom('bookings').select('id')
    .where('occurrence_id', '=', occurrence.id).where('educator_id', '=', input.educatorId)
    .where('status', 'in', ['confirmed', 'awaiting-approval']).orderBy('created_at').execute();
  const cancelled: CancelAnswer[] = [];
  const failed: CancelDateAnswer['failed'] = [];
  for (const { id } of bookings) {
    try {
      cancelled.push(await cancelBookingAsEducator(deps, {
        userId: input.userId, educatorId: input.educatorId, bookingId: id, kind: 'date-cancellation',
        choice: { kind: input.body.refund }, requestKey: bookingKey(input.body.requestKey, id), reason: input.body.reason || null,
      }, hooks));
    } catch (error) {
      failed.push({ bookingId: id, detail: error instanceof ProblemError ? (error.problem.detail ?? error.problem.title) : 'Could not cancel this booking now.' });
    }
  }
  return { occurrenceId: occurrence.id, cancelled, failed };
}

/** The choice of a cancel body. */
export function choiceOf(body: z.output<typeof cancelBodySchema>): RefundChoice {
  if (body.refund === 'amount') {
    if (body.amount === undefined) throw new ProblemError(problems.validation([{ key: 'amount', name: 'Amount', message: 'is required' }]));
    return { kind: 'amount', amount: body.amount };
  }
  return { kind: body.refund };
}

