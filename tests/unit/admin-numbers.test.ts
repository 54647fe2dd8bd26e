/** The Numbers dashboard's pure rules (src/domain/admin/numbers.ts): the period and the funnel's order. */
import { describe, expect, it } from 'vitest';
import { numbersAccumulator, numbersPeriod } from '../../src/domain/admin/numbers.ts';

const DAY = 86_400;

describe('numbersPeriod', () => {
  it('takes whole days, the last one included, 30 days by default, at most two years', () => {
    const d = Date.UTC(2026, 5, 1) / 1000;
    expect(numbersPeriod({ from: '2026-06-01', to: '2026-06-01' }, 0)).toEqual({ from: d, to: d + DAY });
    expect(numbersPeriod({}, d + 5)).toEqual({ from: d + DAY - 30 * DAY, to: d + DAY });
    expect(numbersPeriod({ from: '2026-06-02', to: '2026-06-01' }, 0)).toEqual({ error: 'from must be on or before to' });
    expect(numbersPeriod({ from: '2020-01-01', to: '2026-06-01' }, 0)).toEqual({ error: 'the period must be at most two years' });
  });
});

describe('funnel', () => {
  it('lists steps in the order a learner meets them, whatever order the checkout stored them in', () => {
    const acc = numbersAccumulator(new Map());
    acc.addCheckout({ origin: 'embed', courseId: null, stepState: { payment: { status: 'complete' }, contactDetails: { status: 'complete' }, offers: { status: 'complete' } }, completed: true });
    acc.addCheckout({ origin: 'landing_page', courseId: null, stepState: { offers: { status: 'complete' }, contactDetails: { status: 'open' } }, completed: false });
    const r = acc.result();
    expect(r.funnel.map((f) => [f.step, f.count])).toEqual([['started', 2], ['offers', 2], ['contactDetails', 1], ['payment', 1], ['completed', 1]]);
    expect(r.byContext.map((c) => [c.context, c.checkouts, c.conversion])).toEqual([['marketplace', 0, null], ['minisite', 1, null], ['embed', 1, null]]);
  });
});
