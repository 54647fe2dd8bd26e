import { describe, expect, it } from 'vitest';
import {
  assertPence,
  currencyDigits,
  formatDurationExtra,
  formatListedPrice,
  formatMoney,
  formatPence,
  formatPriceShort,
  money,
} from '../../src/domain/money.ts';
import { catchProblem } from './helpers.ts';

describe('money and assertPence (spec 5)', () => {
  it('builds GBP by default', () => {
    expect(money(1250)).toEqual({ amount: 1250, currency: 'GBP' });
    expect(money(5, 'USD')).toEqual({ amount: 5, currency: 'USD' });
  });
  it.each([12.5, NaN, Infinity, '100', null])('rejects %s with invalid-currency 400', (value) => {
    const problem = catchProblem(() => assertPence(value));
    expect(problem.type).toBe('https://errors.example.invalid/generic/invalid-currency');
    expect(problem.title).toBe('Invalid Currency');
    expect(problem.status).toBe(400);
    expect(() => money(value as number)).toThrow();
  });
  it('accepts integers including 0 and negatives', () => {
    expect(() => assertPence(0)).not.toThrow();
    expect(() => assertPence(-300)).not.toThrow();
  });
});

describe('formatMoney (spec 9: en-GB, narrow £, grouping)', () => {
  it('shows 2 decimals by default', () => {
    expect(formatMoney(money(123456789))).toBe('£1,234,567.89');
    expect(formatMoney(money(1200))).toBe('£12.00');
    expect(formatMoney(money(5))).toBe('£0.05');
    expect(formatMoney(money(0))).toBe('£0.00');
    expect(formatMoney(money(-500))).toBe('-£5.00');
    expect(formatPence(99900)).toBe('£999.00');
  });
  it('formatListedPrice: the one rule for a listed price (course, plan), as formatPriceShort', () => {
    expect(formatListedPrice(4900)).toBe('£49');
    expect(formatListedPrice(4950)).toBe('£49.50');
    expect(formatListedPrice(4900)).toBe(formatPriceShort(money(4900)));
  });

  it('formatPriceShort hides .00 for whole pounds only', () => {
    expect(formatPriceShort(money(1200))).toBe('£12');
    expect(formatPriceShort(money(1250))).toBe('£12.50');
    expect(formatPriceShort(money(100000))).toBe('£1,000');
    expect(formatPriceShort(money(1))).toBe('£0.01');
  });
  it('uses the narrow symbol and minor units of other currencies', () => {
    expect(formatMoney(money(1000, 'USD'))).toBe('$10.00');
    expect(currencyDigits('JPY')).toBe(0);
    expect(formatMoney(money(1000, 'JPY'))).toBe('¥1,000');
  });
  it('formatDurationExtra: "+ £{extra_cost}"', () => {
    expect(formatDurationExtra(1000)).toBe('+ £10');
    expect(formatDurationExtra(1050)).toBe('+ £10.50');
  });
});
