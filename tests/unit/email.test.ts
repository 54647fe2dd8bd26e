import { describe, expect, it } from 'vitest';
import {
  EMAIL_EMPTY_LOCAL_PART,
  EMAIL_ILLEGAL_CHARACTER,
  EMAIL_MISSING_AT,
  EMAIL_MULTIPLE_AT,
  EMAIL_NOT_A_STRING,
  EMAIL_TOO_SHORT,
  assertEmail,
  emailProblem,
  validateEmail,
} from '../../src/domain/email.ts';
import { catchProblem } from './helpers.ts';

describe('validateEmail (spec 5)', () => {
  it.each(['ada@example.com', 'a@b.co', 'first.last+tag@sub.example.co.uk', "o'neil@example.com", 'x_y@my-domain.org'])('accepts %s', (email) => {
    expect(validateEmail(email)).toBeNull();
    expect(validateEmail(email)).toBeNull();
    expect(emailProblem(email)).toBeNull();
    expect(() => assertEmail(email)).not.toThrow();
  });

  it.each([
    // string, length ≥ 3 and an '@'
    [42, EMAIL_NOT_A_STRING],
    [null, EMAIL_NOT_A_STRING],
    ['a@', EMAIL_TOO_SHORT],
    ['', EMAIL_TOO_SHORT],
    ['abc', EMAIL_MISSING_AT],
    ['example.com', EMAIL_MISSING_AT],
    // exactly one '@', non-empty local part
    ['a@b@c.com', EMAIL_MULTIPLE_AT],
    ['@example.com', EMAIL_EMPTY_LOCAL_PART],
    // illegal start
    ['.ada@example.com', 'Email address cannot start with illegal character.'],
    ['<ada@example.com', 'Email address cannot start with illegal character.'],
    // period at the end
    ['ada@example.com.', 'Email address cannot end with a period.'],
    // closing curly quote, tab, newline, space
    ['ada\u2019s@example.com', EMAIL_ILLEGAL_CHARACTER],
    ['ada\t@example.com', EMAIL_ILLEGAL_CHARACTER],
    ['ada@example.com\n', EMAIL_ILLEGAL_CHARACTER],
    ['ada lovelace@example.com', EMAIL_ILLEGAL_CHARACTER],
    // domain start
    ['ada@-example.com', 'Email domain cannot start with illegal character.'],
    // domain: a dot, no empty labels, parses as a host
    ['ada@localhost', 'Invalid email domain.'],
    ['ada@example..com', 'Invalid email domain.'],
    ['ada@.example.com', 'Invalid email domain.'],
    ['ada@exa<mple.com', 'Invalid email domain.'],
    ['ada@example.com:80', 'Invalid email domain.'],
    ['ada@exa/mple.com', 'Invalid email domain.'],
  ])('%j → %s', (input, message) => {
    expect(validateEmail(input)).toBe(message);
    expect(validateEmail(input)).not.toBeNull();
    const problem = emailProblem(input);
    expect(problem).toMatchObject({
      type: 'https://errors.example.invalid/generic/invalid-email-address',
      title: 'Invalid Email Address',
      status: 400,
      detail: message,
    });
    expect(catchProblem(() => assertEmail(input)).detail).toBe(message);
  });

  it('length boundary: 3 characters pass the length rule', () => {
    expect(validateEmail('a@b')).toBe('Invalid email domain.');
  });
});
