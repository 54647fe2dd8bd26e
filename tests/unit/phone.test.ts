import { describe, expect, it } from 'vitest';
import { normalisePhone, phoneError, stripPhone, telHref } from '../../src/domain/phone.ts';
import { catchProblem } from './helpers.ts';

const TYPE = 'https://errors.example.invalid/generic/invalid-phone-number';

describe('stripPhone (spec 5)', () => {
  it('trims and strips every non-digit except a leading +', () => {
    expect(stripPhone('  +44 (0) 7911-123 456 ')).toBe('+4407911123456');
    expect(stripPhone('07911 123456')).toBe('07911123456');
    expect(stripPhone('12+34')).toBe('1234');
    expect(stripPhone('(+44) 1')).toBe('441');
  });
});

describe('normalisePhone (spec 5)', () => {
  it.each([
    ['+33 1 23 45 67 89', '+33123456789'],
    ['447911123456', '+447911123456'],
    ['0447911123456', '+447911123456'],
    ['00447911123456', '+447911123456'],
    // A UK national number's leading 0 is a trunk prefix, not part of the number (E.164).
    ['07911 123456', '+447911123456'],
    ['07700 900123', '+447700900123'],
    ['01632 960000', '+441632960000'],
    ['+44 (0) 7700 900123', '+447700900123'],
    ['0044 (0)7700 900123', '+447700900123'],
    ['44 07700 900123', '+447700900123'],
    ['7911123456', '+447911123456'],
    ['  +1 (555) 010-9999  ', '+15550109999'],
  ])('%s → %s', (input, expected) => {
    expect(normalisePhone(input)).toBe(expected);
  });

  it('length boundaries after stripping: 4 too short, 5 ok, 20 ok, 21 too long', () => {
    expect(catchProblem(() => normalisePhone('1234'))).toMatchObject({
      type: TYPE,
      title: 'Invalid Phone Number',
      status: 400,
      detail: 'Phone number is too short.',
    });
    expect(normalisePhone('12345')).toBe('+4412345');
    // Five characters with a trunk 0: still long enough, stored without it.
    expect(normalisePhone('01234')).toBe('+441234');
    expect(normalisePhone('+1234')).toBe('+1234');
    expect(catchProblem(() => normalisePhone('+123')).detail).toBe('Phone number is too short.');
    expect(normalisePhone('1'.repeat(20))).toBe(`+44${'1'.repeat(20)}`);
    expect(normalisePhone(`+${'1'.repeat(19)}`)).toBe(`+${'1'.repeat(19)}`);
    expect(catchProblem(() => normalisePhone('1'.repeat(21)))).toMatchObject({ status: 400, detail: 'Phone number is too long.' });
    expect(catchProblem(() => normalisePhone(`+${'1'.repeat(20)}`)).detail).toBe('Phone number is too long.');
  });

  it('counts characters after stripping, not before', () => {
    expect(normalisePhone('1 2 3 4 5')).toBe('+4412345');
    expect(catchProblem(() => normalisePhone('12-34')).detail).toBe('Phone number is too short.');
    expect(catchProblem(() => normalisePhone('   ')).detail).toBe('Phone number is too short.');
  });

  it.each([undefined, null, 7911123456, {}, ['07911123456']])('non-string %j is invalid-phone-number', (value) => {
    const problem = catchProblem(() => normalisePhone(value));
    expect(problem.type).toBe(TYPE);
    expect(problem.status).toBe(400);
    expect(phoneError(value)).toBe('Phone number must be a string.');
  });

  it('phoneError is null for a valid number', () => {
    expect(phoneError('07911123456')).toBeNull();
  });

  it('telHref', () => {
    expect(telHref('+44 7911 123456')).toBe('tel:+447911123456');
    // E.164: a UK number written nationally gets its country code (and loses its trunk 0).
    expect(telHref('0131 496 0000')).toBe('tel:+441314960000');
    expect(telHref('07911 123456')).toBe('tel:+447911123456');
    expect(telHref('+353 1 234 5678')).toBe('tel:+35312345678');
  });
});
