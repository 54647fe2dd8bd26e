/** The refund rules (src/domain/admin/refunds.ts): what is left, the split, the platform fee, the cancellation minimum. */
import { describe, expect, it } from 'vitest';
import {
  NOTHING_REFUNDED, cancellationMinimum, choiceAmount, platformFeeRefund, refundAmountProblem, refundLeft, splitRefund, type PaidParts,
} from '../../src/domain/admin/refunds.ts';

const card: PaidParts = { provider: 3000, giftCard: 0, platformFee: 105, feesAbsorbed: true };
const mixed: PaidParts = { provider: 1000, giftCard: 2000, platformFee: 105, feesAbsorbed: true };
const learnerPaysFee: PaidParts = { provider: 3105, giftCard: 0, platformFee: 105, feesAbsorbed: false };

describe('what is left and how it is split', () => {
  it('subtracts what earlier refunds gave back, never below 0', () => {
    expect(refundLeft(mixed, NOTHING_REFUNDED)).toEqual({ provider: 1000, giftCard: 2000, total: 3000 });
    expect(refundLeft(mixed, { provider: 1000, giftCard: 500, platformFee: 0 })).toEqual({ provider: 0, giftCard: 1500, total: 1500 });
    expect(refundLeft(card, { provider: 5000, giftCard: 0, platformFee: 0 })).toEqual({ provider: 0, giftCard: 0, total: 0 });
  });

  it('gives back to the payment method first, then to the gift card', () => {
    const left = refundLeft(mixed, NOTHING_REFUNDED);
    expect(splitRefund(500, left)).toEqual({ provider: 500, giftCard: 0 });
    expect(splitRefund(1000, left)).toEqual({ provider: 1000, giftCard: 0 });
    expect(splitRefund(1001, left)).toEqual({ provider: 1000, giftCard: 1 });
    expect(splitRefund(99999, left)).toEqual({ provider: 1000, giftCard: 2000 });
    expect(splitRefund(-5, left)).toEqual({ provider: 0, giftCard: 0 });
  });
});

describe('the platform fee (spec 1: refunded on cancellations and refunds)', () => {
  it('comes back in proportion to a partial refund, rounded half up', () => {
    expect(platformFeeRefund(card, NOTHING_REFUNDED, 1500)).toBe(53); // 105 × 1500 / 3000 = 52.5
    expect(platformFeeRefund(card, NOTHING_REFUNDED, 1)).toBe(0);
    expect(platformFeeRefund(card, NOTHING_REFUNDED, 29)).toBe(1); // 1.015
  });

  it('comes back whole with the refund that completes the booking, whatever was given back before', () => {
    expect(platformFeeRefund(card, { provider: 1500, giftCard: 0, platformFee: 53 }, 1500)).toBe(52);
    expect(platformFeeRefund(card, NOTHING_REFUNDED, 3000)).toBe(105);
  });

  it('comes back whole with a cancellation, even when nothing else is refunded', () => {
    expect(platformFeeRefund(card, NOTHING_REFUNDED, 0, { cancellation: true })).toBe(105);
    expect(platformFeeRefund(card, { provider: 1000, giftCard: 0, platformFee: 35 }, 0, { cancellation: true })).toBe(70);
  });

  it('is nothing when there was no fee, and never more than is left of it', () => {
    expect(platformFeeRefund({ ...card, platformFee: 0 }, NOTHING_REFUNDED, 3000)).toBe(0);
    expect(platformFeeRefund(card, { provider: 0, giftCard: 0, platformFee: 105 }, 3000)).toBe(0);
  });
});

describe('cancellations', () => {
  it('refund at least the fee the learner paid; nothing when the educator absorbed it', () => {
    expect(cancellationMinimum(learnerPaysFee, NOTHING_REFUNDED)).toBe(105);
    expect(cancellationMinimum(card, NOTHING_REFUNDED)).toBe(0);
    expect(cancellationMinimum(learnerPaysFee, { provider: 3105, giftCard: 0, platformFee: 105 })).toBe(0);
  });

  it('"none" still gives back the fee the learner paid; "full" everything left', () => {
    expect(choiceAmount({ kind: 'none' }, learnerPaysFee, NOTHING_REFUNDED, { cancellation: true })).toBe(105);
    expect(choiceAmount({ kind: 'none' }, learnerPaysFee, NOTHING_REFUNDED, { cancellation: false })).toBe(0);
    expect(choiceAmount({ kind: 'full' }, mixed, { provider: 200, giftCard: 0, platformFee: 0 }, { cancellation: true })).toBe(2800);
    expect(choiceAmount({ kind: 'amount', amount: 1234 }, mixed, NOTHING_REFUNDED, { cancellation: true })).toBe(1234);
  });
});

describe('amounts an admin may refund', () => {
  it('accepts 1p up to what is left; says why otherwise', () => {
    expect(refundAmountProblem(1, card, NOTHING_REFUNDED, { cancellation: false })).toBeNull();
    expect(refundAmountProblem(3000, card, NOTHING_REFUNDED, { cancellation: false })).toBeNull();
    expect(refundAmountProblem(3001, card, NOTHING_REFUNDED, { cancellation: false })).toBe('must be at most £30.00');
    expect(refundAmountProblem(0, card, NOTHING_REFUNDED, { cancellation: false })).toBe('must be at least £0.01');
    expect(refundAmountProblem(1.5, card, NOTHING_REFUNDED, { cancellation: false })).toBe('must be a whole number of pence');
    expect(refundAmountProblem(1, card, { provider: 3000, giftCard: 0, platformFee: 105 }, { cancellation: false })).toBe('cannot be refunded: nothing is left to refund');
  });

  it('on a cancellation, from the fee the learner paid', () => {
    expect(refundAmountProblem(104, learnerPaysFee, NOTHING_REFUNDED, { cancellation: true })).toBe('must be at least £1.05 (the platform fee is refunded on a cancellation)');
    expect(refundAmountProblem(105, learnerPaysFee, NOTHING_REFUNDED, { cancellation: true })).toBeNull();
    expect(refundAmountProblem(0, card, NOTHING_REFUNDED, { cancellation: true })).toBeNull();
  });
});
