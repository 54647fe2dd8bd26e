import { describe, expect, it } from 'vitest';
import {
  addMoney,
  assertPence,
  currencyDigits,
  formatDurationExtra,
  formatMoney,
  formatPence,
  formatPriceShort,
  money,
  multiplyMoney,
  subtractMoney,
  sumMoney,
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

describe('addMoney / subtractMoney (spec 5)', () => {
  it('adds and subtracts in the same currency', () => {
    expect(addMoney(money(1000), money(250))).toEqual(money(1250));
    expect(subtractMoney(money(1000), money(250))).toEqual(money(750));
    expect(sumMoney([money(1), money(2), money(3)])).toEqual(money(6));
    expect(sumMoney([])).toEqual(money(0));
    expect(multiplyMoney(money(250), 3)).toEqual(money(750));
  });
  it("requires the same currency: 'Expected GBP'", () => {
    const problem = catchProblem(() => addMoney(money(1), money(1, 'USD')));
    expect(problem).toMatchObject({ title: 'Invalid Currency', status: 400, detail: 'Expected GBP' });
    expect(catchProblem(() => subtractMoney(money(1, 'USD'), money(1))).detail).toBe('Expected USD');
  });
  it('rejects a fractional quantity', () => {
    expect(catchProblem(() => multiplyMoney(money(1), 1.5)).status).toBe(400);
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
