/** Membership rules: plan validation, period arithmetic in Europe/London, member prices and credits. */
import { describe, expect, it } from 'vitest';
import {
  benefitsActive, coversCourse, creditApplies, memberAsideText, memberCreditText, memberBenefit, memberUnitPrice, nextRetryAt, periodBoundary,
  periodOf, planBenefitTexts, planInputSchema, planPriceText, MIN_PLAN_PRICE,
} from '../../src/domain/memberships.ts';

const at = (iso: string) => Date.parse(iso) / 1000;
const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');

describe('planInputSchema', () => {
  const base = { name: 'Studio Monthly', interval: 'month', price: 2500, discountPercent: 10 };
  it('accepts a monthly plan with a percentage and defaults the rest', () => {
    const plan = planInputSchema.parse(base);
    expect(plan).toMatchObject({ description: '', currency: 'GBP', creditsPerPeriod: 0, courseIds: null, passMonths: null });
  });
  it('needs a benefit', () => {
    expect(planInputSchema.safeParse({ ...base, discountPercent: 0 }).success).toBe(false);
    expect(planInputSchema.safeParse({ ...base, discountPercent: 0, creditsPerPeriod: 1 }).success).toBe(true);
  });
  it('percentage 0–100, credits 0–100, price from 50p', () => {
    expect(planInputSchema.safeParse({ ...base, discountPercent: 100 }).success).toBe(true);
    expect(planInputSchema.safeParse({ ...base, discountPercent: 101 }).success).toBe(false);
    expect(planInputSchema.safeParse({ ...base, discountPercent: 12.5 }).success).toBe(false);
    expect(planInputSchema.safeParse({ ...base, creditsPerPeriod: 101 }).success).toBe(false);
    expect(planInputSchema.safeParse({ ...base, price: MIN_PLAN_PRICE }).success).toBe(true);
    expect(planInputSchema.safeParse({ ...base, price: MIN_PLAN_PRICE - 1 }).success).toBe(false);
  });
  it('a pass needs its months; other plans must not have them', () => {
    expect(planInputSchema.safeParse({ ...base, interval: 'pass' }).success).toBe(false);
    expect(planInputSchema.safeParse({ ...base, interval: 'pass', passMonths: 3 }).success).toBe(true);
    expect(planInputSchema.safeParse({ ...base, passMonths: 3 }).success).toBe(false);
    expect(planInputSchema.safeParse({ ...base, interval: 'pass', passMonths: 25 }).success).toBe(false);
  });
  it('selected courses: at least one', () => {
    expect(planInputSchema.safeParse({ ...base, courseIds: [] }).success).toBe(false);
    expect(planInputSchema.safeParse({ ...base, courseIds: ['crs_1'] }).success).toBe(true);
  });
});

describe('periodBoundary (Europe/London)', () => {
  it('a month later at the same wall-clock time across the spring change', () => {
    const start = at('2026-03-15T09:00:00Z'); // 09:00 GMT
    expect(iso(periodBoundary(start, 1, 1))).toBe('2026-04-15T08:00:00Z'); // 09:00 BST
  });
  it('a month later across the autumn change', () => {
    const start = at('2026-10-10T08:00:00Z'); // 09:00 BST
    expect(iso(periodBoundary(start, 1, 1))).toBe('2026-11-10T09:00:00Z'); // 09:00 GMT
  });
  it('31 January: end of February (28 or 29), then 31 March — counted from the anchor', () => {
    const jan31 = at('2026-01-31T10:00:00Z');
    expect(iso(periodBoundary(jan31, 1, 1))).toBe('2026-02-28T10:00:00Z');
    expect(iso(periodBoundary(jan31, 1, 2))).toBe('2026-03-31T09:00:00Z'); // 10:00 BST
    expect(iso(periodBoundary(at('2028-01-31T10:00:00Z'), 1, 1))).toBe('2028-02-29T10:00:00Z');
  });
  it('a year later, and 29 February to 28 February', () => {
    expect(iso(periodBoundary(at('2026-06-01T11:00:00Z'), 12, 1))).toBe('2027-06-01T11:00:00Z');
    expect(iso(periodBoundary(at('2028-02-29T12:00:00Z'), 12, 1))).toBe('2029-02-28T12:00:00Z');
  });
  it('December rolls into the next year; index 0 is the anchor', () => {
    const dec = at('2026-12-20T12:00:00Z');
    expect(iso(periodBoundary(dec, 1, 1))).toBe('2027-01-20T12:00:00Z');
    expect(periodBoundary(dec, 1, 0)).toBe(dec);
  });
  it('a local midnight start on a London date stays that London date (BST date near midnight UTC)', () => {
    const start = at('2026-06-30T23:30:00Z'); // 00:30 BST on 1 July
    expect(iso(periodBoundary(start, 1, 1))).toBe('2026-07-31T23:30:00Z'); // 00:30 BST on 1 August
  });
  it('periodOf: a 3-month pass', () => {
    const p = periodOf(at('2026-01-10T12:00:00Z'), { interval: 'pass', passMonths: 3 }, 0);
    expect(iso(p.end)).toBe('2026-04-10T11:00:00Z');
  });
});

describe('benefits', () => {
  it('active only while status active and before the period end (boundary excluded)', () => {
    const m = { status: 'active' as const, current_period_end: 1000, credits_left: 1 };
    expect(benefitsActive(m, 999)).toBe(true);
    expect(benefitsActive(m, 1000)).toBe(false);
    expect(benefitsActive({ ...m, status: 'past_due' }, 10)).toBe(false);
    expect(benefitsActive({ ...m, status: 'ended' }, 10)).toBe(false);
  });
  it('coversCourse: all or selected', () => {
    expect(coversCourse({ courseIds: null }, 'a')).toBe(true);
    expect(coversCourse({ courseIds: ['a'] }, 'a')).toBe(true);
    expect(coversCourse({ courseIds: ['a'] }, 'b')).toBe(false);
  });
  it('memberUnitPrice rounds the discount half up', () => {
    expect(memberUnitPrice(2500, 10)).toBe(2250);
    expect(memberUnitPrice(999, 15)).toBe(849); // 149.85 → 150 off
    expect(memberUnitPrice(1000, 0)).toBe(1000);
    expect(memberUnitPrice(1000, 100)).toBe(0);
  });
  it('a credit pays one unit of the dearest one-space offer; the percentage the rest', () => {
    const lines = [{ price: 2000, quantity: 2, spaces: 1 }, { price: 3000, quantity: 1, spaces: 1 }, { price: 5000, quantity: 1, spaces: 2 }];
    expect(memberBenefit(lines, { discountPercent: 0, useCredit: true })).toEqual({ creditValue: 3000, discount: 0 });
    expect(memberBenefit(lines, { discountPercent: 10, useCredit: true })).toEqual({ creditValue: 3000, discount: 900 });
    expect(memberBenefit(lines, { discountPercent: 10, useCredit: false })).toEqual({ creditValue: 0, discount: 1200 });
  });
  it('a credit on a single space pays it all; no one-space offer: no credit', () => {
    expect(memberBenefit([{ price: 2500, quantity: 1, spaces: 1 }], { discountPercent: 20, useCredit: true })).toEqual({ creditValue: 2500, discount: 0 });
    expect(memberBenefit([{ price: 5000, quantity: 1, spaces: 2 }], { discountPercent: 0, useCredit: true })).toEqual({ creditValue: 0, discount: 0 });
    expect(creditApplies([{ price: 5000, quantity: 1, spaces: 2 }])).toBe(false);
    expect(creditApplies([{ price: 5000, quantity: 0, spaces: 1 }])).toBe(false);
    expect(creditApplies([{ price: 0, quantity: 1, spaces: 1 }])).toBe(true);
  });
});

describe('texts', () => {
  const plans = [
    { discountPercent: 10, creditsPerPeriod: 0, courseIds: null, currency: 'GBP' },
    { discountPercent: 20, creditsPerPeriod: 0, courseIds: ['c1'], currency: 'GBP' },
  ];
  it('aside: best percentage on the lowest paid offer', () => {
    expect(memberAsideText(plans, 'c1', [0, 3000, 2000])).toBe('Members from £16');
    expect(memberAsideText(plans, 'c2', [2000])).toBe('Members from £18');
    expect(memberAsideText(plans.slice(1), 'c2', [2000])).toBeNull();
    expect(memberAsideText(plans, 'c1', [0])).toBeNull();
  });
  it('aside: a plan with credits, and a member with credits left or none', () => {
    const credit = [{ discountPercent: 0, creditsPerPeriod: 4, courseIds: null, currency: 'GBP' }];
    // A visitor (signed out, or not a member) is told what a credit is, not offered one.
    expect(memberAsideText(credit, 'c1', [2000])).toBe('Members book a space with 1 credit');
    expect(memberAsideText([{ ...credit[0]!, name: 'Clay Club' }], 'c1', [2000])).toBe('Clay Club members book a space with 1 credit');
    expect(memberAsideText([{ ...credit[0]!, name: 'A' }, { ...credit[0]!, name: 'B' }], 'c1', [2000])).toBe('Members book a space with 1 credit');
    expect(memberAsideText(credit, 'c1', [2000], { member: { creditsLeft: 0, discountPercent: 0 } })).toBeNull();
    expect(memberAsideText(credit, 'c1', [2000], { member: { creditsLeft: 0, discountPercent: 10 } })).toBe('Members from £18');
    expect(memberAsideText(credit, 'c1', [2000], { member: { creditsLeft: 1, discountPercent: 10 } })).toBe('Use 1 credit');
  });
  it('aside: a member with credits left is offered one, with what is left', () => {
    expect(memberCreditText({ planName: 'Clay Club', creditsLeft: 2 })).toBe('Use 1 credit (Clay Club: 2 left)');
  });
  it('prices and benefits', () => {
    expect(planPriceText({ interval: 'month', passMonths: null, price: 2500, currency: 'GBP' })).toBe('£25 / month');
    expect(planPriceText({ interval: 'year', passMonths: null, price: 25000, currency: 'GBP' })).toBe('£250 / year');
    expect(planPriceText({ interval: 'pass', passMonths: 1, price: 4500, currency: 'GBP' })).toBe('£45 for 1 month');
    expect(planPriceText({ interval: 'pass', passMonths: 3, price: 4500, currency: 'GBP' })).toBe('£45 for 3 months');
    // A listed price reads like a course's: whole pounds without decimals, pence with two.
    expect(planPriceText({ interval: 'month', passMonths: null, price: 4950, currency: 'GBP' })).toBe('£49.50 / month');
    expect(planBenefitTexts({ interval: 'month', passMonths: null, discountPercent: 10, creditsPerPeriod: 4, courseIds: null }))
      .toEqual(['4 credits a month, each one space on all courses', '10% off all courses']);
    expect(planBenefitTexts({ interval: 'pass', passMonths: 3, discountPercent: 0, creditsPerPeriod: 1, courseIds: ['a'] }))
      .toEqual(['1 credit, each one space on 1 selected course']);
  });
  it('renewal retries: 1 day, then 3 days after the period end (London days), then none', () => {
    const end = at('2026-03-28T09:00:00Z');
    expect(iso(nextRetryAt(end, 1)!)).toBe('2026-03-29T08:00:00Z'); // the clocks went forward: same 09:00 local
    expect(iso(nextRetryAt(end, 2)!)).toBe('2026-03-31T08:00:00Z');
    expect(nextRetryAt(end, 3)).toBeNull();
  });
});
