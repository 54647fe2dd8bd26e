/**
 * The rules of the educator's refunds and cancellations (docs/admin.md "Refunds"), pure: what is left to refund,
 * how an amount given back is split between the payment method and a gift card, and the platform's fee.
 *
 * Spec 1: "the platform charges transaction fees on paid orders, and refunds its fees on cancellations or refunds".
 * Chosen here:
 * - a refund gives back the platform fee in proportion to the amount refunded (rounded half up); the refund that
 *   brings the booking to fully refunded gives back what is left of the fee, so a full refund returns it exactly;
 * - a cancellation of a paid booking always gives back the whole fee. When the learner paid it (fees not absorbed),
 *   it is part of what the learner gets back, so a cancellation refunds at least the fee; when the educator absorbed
 *   it, it is credited back to the educator;
 * - an amount given back goes first to the payment method (what the learner paid through the provider), then to the
 *   gift card that paid the rest.
 */
import { mulDivRound } from '../checkout/costSummary.ts';
import { formatPence } from '../money.ts';

/** What a booking was paid with (pence). */
export interface PaidParts {
  /** Through the payment method's provider (card, wallet, pay later); 0 when nothing was paid through one. */
  provider: number;
  /** By a gift card. */
  giftCard: number;
  /** The platform fee of the booking's cost summary (0 when it cost nothing). */
  platformFee: number;
  /** Whether the educator absorbed the fee (else the learner paid it as part of the total). */
  feesAbsorbed: boolean;
}

/** What earlier refunds (pending ones included) gave back. */
export interface RefundedParts {
  provider: number;
  giftCard: number;
  platformFee: number;
}

export const NOTHING_REFUNDED: RefundedParts = { provider: 0, giftCard: 0, platformFee: 0 };

export interface RefundLeft {
  provider: number;
  giftCard: number;
  total: number;
}

export function refundLeft(paid: PaidParts, done: RefundedParts): RefundLeft {
  const provider = Math.max(0, paid.provider - done.provider);
  const giftCard = Math.max(0, paid.giftCard - done.giftCard);
  return { provider, giftCard, total: provider + giftCard };
}

/** An amount given back, split: the payment method first, then the gift card. */
export function splitRefund(amount: number, left: RefundLeft): { provider: number; giftCard: number } {
  const provider = Math.min(Math.max(0, amount), left.provider);
  const giftCard = Math.min(Math.max(0, amount - provider), left.giftCard);
  return { provider, giftCard };
}

/**
 * The platform fee given back with a refund of `amount`: its share of what was paid, or all that is left of it when
 * this refund completes the booking's refund or comes with a cancellation.
 */
export function platformFeeRefund(paid: PaidParts, done: RefundedParts, amount: number, options: { cancellation?: boolean } = {}): number {
  const feeLeft = Math.max(0, paid.platformFee - done.platformFee);
  if (feeLeft === 0) return 0;
  const gross = paid.provider + paid.giftCard;
  const left = refundLeft(paid, done);
  if (options.cancellation || amount >= left.total || gross <= 0) return feeLeft;
  return Math.min(feeLeft, mulDivRound(Math.max(0, amount), paid.platformFee, gross));
}

/** The least a cancellation gives back: the fee the learner paid (spec 1), never more than is left to refund. */
export function cancellationMinimum(paid: PaidParts, done: RefundedParts): number {
  if (paid.feesAbsorbed) return 0;
  const feeLeft = Math.max(0, paid.platformFee - done.platformFee);
  return Math.min(feeLeft, refundLeft(paid, done).total);
}

export type RefundChoice = { kind: 'full' } | { kind: 'none' } | { kind: 'amount'; amount: number };

/** The amount a choice gives back (a cancellation's "none" still gives back the fee the learner paid). */
export function choiceAmount(choice: RefundChoice, paid: PaidParts, done: RefundedParts, options: { cancellation: boolean }): number {
  const left = refundLeft(paid, done).total;
  if (choice.kind === 'full') return left;
  if (choice.kind === 'none') return options.cancellation ? cancellationMinimum(paid, done) : 0;
  return choice.amount;
}

/** Why an amount cannot be refunded (a spec 8 style field message), or null. */
export function refundAmountProblem(
  amount: number, paid: PaidParts, done: RefundedParts, options: { cancellation: boolean; currency?: string },
): string | null {
  const currency = options.currency ?? 'GBP';
  const left = refundLeft(paid, done).total;
  if (!Number.isSafeInteger(amount) || amount < 0) return 'must be a whole number of pence';
  if (amount > left) return left === 0 ? 'cannot be refunded: nothing is left to refund' : `must be at most ${formatPence(left, currency)}`;
  const minimum = options.cancellation ? cancellationMinimum(paid, done) : 1;
  if (amount < minimum) {
    return options.cancellation
      ? `must be at least ${formatPence(minimum, currency)} (the platform fee is refunded on a cancellation)`
      : `must be at least ${formatPence(minimum, currency)}`;
  }
  return null;
}
