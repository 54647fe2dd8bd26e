/** What an edit of a membership plan may take from current members (src/domain/admin/memberships.ts), at the boundaries. */
import { describe, expect, it } from 'vitest';
import { planEditProblems, planInputSchema, priceChangeNotice } from '../../src/domain/admin/memberships.ts';
import type { PlanTerms } from '../../src/domain/memberships.ts';

const before: PlanTerms = { interval: 'month', passMonths: null, price: 3900, currency: 'GBP', discountPercent: 10, creditsPerPeriod: 2, courseIds: ['a', 'b'] };
const plan = (patch: Record<string, unknown> = {}) => planInputSchema.parse({ name: 'Club', interval: 'month', price: 3900, discountPercent: 10, creditsPerPeriod: 2, courseIds: ['a', 'b'], ...patch });
const keys = (patch: Record<string, unknown>, members = 1) => planEditProblems(before, plan(patch), members).map((p) => p.key);

describe('plan edits with current members', () => {
  it('refuses taking anything away, by one step', () => {
    expect(keys({ discountPercent: 9 })).toEqual(['discountPercent']);
    expect(keys({ creditsPerPeriod: 1 })).toEqual(['creditsPerPeriod']);
    expect(keys({ courseIds: ['a'] })).toEqual(['courseIds']);
    expect(keys({ courseIds: ['b', 'c'] })).toEqual(['courseIds']);
    expect(keys({ interval: 'year' })).toEqual(['interval']);
  });

  it('lets members be given more, or the same', () => {
    expect(keys({})).toEqual([]);
    expect(keys({ discountPercent: 11, creditsPerPeriod: 3, courseIds: ['b', 'a', 'c'] })).toEqual([]);
    expect(keys({ courseIds: null })).toEqual([]);
    expect(keys({ name: 'Renamed', price: 4500 })).toEqual([]);
  });

  it('refuses narrowing "every course" to some, and a pass of other months', () => {
    const all = { ...before, courseIds: null };
    expect(planEditProblems(all, plan({ courseIds: ['a', 'b'] }), 2).map((p) => p.key)).toEqual(['courseIds']);
    const pass = { ...before, interval: 'pass' as const, passMonths: 3 };
    expect(planEditProblems(pass, plan({ interval: 'pass', passMonths: 4 }), 1).map((p) => p.key)).toEqual(['passMonths']);
    expect(planEditProblems(pass, plan({ interval: 'pass', passMonths: 3 }), 1)).toEqual([]);
  });

  it('lets a plan nobody holds change anything', () => {
    expect(keys({ interval: 'year', discountPercent: 0, creditsPerPeriod: 1, courseIds: ['a'] }, 0)).toEqual([]);
  });

  it('tells the admin a new price is for new members only', () => {
    expect(priceChangeNotice(before, plan({ price: 4500 }), 2)).toBe('New members pay £45.00. The 2 current members keep paying £39.00 at each renewal.');
    expect(priceChangeNotice(before, plan({ price: 3900 }), 2)).toBeNull();
    expect(priceChangeNotice(before, plan({ price: 4500 }), 0)).toBeNull();
  });
});
