/** Promo code rules of the admin (src/domain/admin/promo-codes.ts) and the money the admin types, at their boundaries. */
import { describe, expect, it } from 'vitest';
import { endOfLondonDay, maxUsesProblem, promoCodeInputSchema, promoDiscountText, promoStatus } from '../../src/domain/admin/promo-codes.ts';
import { penceToPounds, poundsToPence } from '../../src/domain/admin/catalogue-input.ts';

describe('promo codes', () => {
  it('keeps codes upper case and refuses gift card look-alikes', () => {
    expect(promoCodeInputSchema.parse({ code: ' spring-10 ', kind: 'percent', amount: 10 }).code).toBe('SPRING-10');
    expect(promoCodeInputSchema.safeParse({ code: 'abcd efgh jkmn pqrs'.replace(/ /g, ''), kind: 'percent', amount: 10 }).success).toBe(false);
    // 15 characters of the gift alphabet is no gift code.
    expect(promoCodeInputSchema.safeParse({ code: 'ABCDEFGHJKMNPQR', kind: 'percent', amount: 10 }).success).toBe(true);
  });

  it('takes 1–100 percent and at least 1p', () => {
    const ok = (kind: string, amount: number) => promoCodeInputSchema.safeParse({ code: 'CODE', kind, amount }).success;
    expect([ok('percent', 0), ok('percent', 1), ok('percent', 100), ok('percent', 101)]).toEqual([false, true, true, false]);
    expect([ok('fixed', 0), ok('fixed', 1), ok('fixed', 10_000_000), ok('fixed', 10_000_001)]).toEqual([false, true, true, false]);
  });

  it('never lets the limit go below the uses', () => {
    expect(maxUsesProblem(3, 3)).toBeNull();
    expect(maxUsesProblem(2, 3)).toBe('must be at least 3 (it has been used or is held 3 times)');
    expect(maxUsesProblem(0, 1)).toBe('must be at least 1 (it has been used or is held 1 time)');
    expect(maxUsesProblem(null, 99)).toBeNull();
  });

  it('is expired from the end of its last London day, and used up at its limit', () => {
    const end = endOfLondonDay('2027-03-28');
    expect(end).toBe(Date.UTC(2027, 2, 28, 23) / 1000);
    expect(promoStatus({ expiresAt: end, maxUses: null, uses: 0 }, end - 1)).toBe('active');
    expect(promoStatus({ expiresAt: end, maxUses: null, uses: 0 }, end)).toBe('expired');
    expect(promoStatus({ expiresAt: null, maxUses: 2, uses: 1 }, 0)).toBe('active');
    expect(promoStatus({ expiresAt: null, maxUses: 2, uses: 2 }, 0)).toBe('used up');
    expect(promoDiscountText({ kind: 'fixed', amount: 550 })).toBe('£5.50 off');
    expect(promoDiscountText({ kind: 'percent', amount: 15 })).toBe('15% off');
  });
});

describe('money as the admin types it', () => {
  it('reads pounds and pence, and nothing else', () => {
    expect(['25', '25.5', '25.50', '£1,250.00', '0', ' 3.05 '].map(poundsToPence)).toEqual([2500, 2550, 2550, 125000, 0, 305]);
    expect(['', 'abc', '2.555', '-1', '1.2.3'].map(poundsToPence)).toEqual([null, null, null, null, null]);
    expect([2500, 2550, 305, null].map(penceToPounds)).toEqual(['25', '25.50', '3.05', '']);
  });
});
