import { describe, expect, it } from 'vitest';
import {
  ERRORS_HOST_DEFAULT,
  ProblemError,
  cardProviderProblem,
  createProblems,
  isProblemOfType,
  problemFromBody,
  problemMessage,
  problemType,
  problems,
  propertyLabel,
  validationDetail,
  walletProviderProblem,
} from '../../src/domain/problems.ts';

const H = 'https://errors.example.invalid';

describe('problemType (spec 8: prefixed by the errors host)', () => {
  it('joins host and slug with one slash', () => {
    expect(ERRORS_HOST_DEFAULT).toBe(H);
    expect(problemType('generic/aw-snap')).toBe(`${H}/generic/aw-snap`);
    expect(problemType('/unknown-error')).toBe(`${H}/unknown-error`);
    expect(problemType('generic/aw-snap', 'https://errors.test/')).toBe('https://errors.test/generic/aw-snap');
  });
  it('a catalogue can use another host', () => {
    const custom = createProblems('https://errors.test');
    expect(custom.awSnap().type).toBe('https://errors.test/generic/aw-snap');
    expect(isProblemOfType(custom.awSnap(), 'generic/aw-snap')).toBe(true);
    expect(isProblemOfType(custom.awSnap(), 'generic/validation-error')).toBe(false);
  });
});

describe('known problem types (spec 8 table)', () => {
  it.each([
    ['awSnap', problems.awSnap(), 'generic/aw-snap', 'Something Went Wrong', 500, undefined],
    ['validation', problems.validation([]), 'generic/validation-error', 'Validation Error', 400, undefined],
    ['invalidCurrency', problems.invalidCurrency('Expected GBP'), 'generic/invalid-currency', 'Invalid Currency', 400, 'Expected GBP'],
    ['invalidEmail', problems.invalidEmail('x'), 'generic/invalid-email-address', 'Invalid Email Address', 400, 'x'],
    ['invalidPhone', problems.invalidPhone('y'), 'generic/invalid-phone-number', 'Invalid Phone Number', 400, 'y'],
    ['invalidEpoch', problems.invalidEpoch('z'), 'generic/invalid-epoch', 'Invalid Epoch', 400, 'z'],
    ['unknownError', problems.unknownError(), 'unknown-error', 'Unknown error', 500, 'An unknown error occurred, please try again or contact support'],
    [
      'captcha',
      problems.captchaFailedToGenerate(),
      'captcha/failed-to-generate',
      'Failed to generate captcha token',
      500,
      'We were unable to generate a captcha token for this submission',
    ],
    ['invalidEducatorId', problems.invalidEducatorId(), 'analytics/invalid-educator-id', 'Invalid Educator ID', 400, undefined],
    ['invalidLinkType', problems.invalidLinkType(), 'analytics/invalid-educator-link-type', 'Invalid Link Type', 400, undefined],
  ])('%s', (_name, problem, slug, title, status, detail) => {
    expect(problem.type).toBe(`${H}/${slug}`);
    expect(problem.title).toBe(title);
    expect(problem.status).toBe(status);
    expect(problem.detail).toBe(detail);
  });
  it('checkout/unauthorised exists (title and status chosen)', () => {
    expect(problems.unauthorisedCheckout()).toMatchObject({ type: `${H}/checkout/unauthorised`, title: 'Unauthorised', status: 403 });
  });
  it('checkout errors', () => {
    expect(problems.checkoutSubmission()).toMatchObject({
      status: 400,
      title: 'There was an issue submitting your response, check if there are any required fields that you have missed',
      detail: 'If the problem persists, please contact support.',
    });
    expect(problems.unknownUser()).toMatchObject({ title: 'Unknown user' });
    expect(problems.noDeliveryOptions()).toMatchObject({ title: 'No delivery options available', status: 400 });
    expect(problems.notFound()).toMatchObject({ title: '404 - Not found', status: 404 });
    expect(problems.invalidCourseType('Invalid booking course type on-demand')).toMatchObject({
      status: 400,
      detail: 'Invalid booking course type on-demand',
    });
  });
});

describe('validation default detail (spec 8)', () => {
  it("'{name} {message}' when a name is given", () => {
    const p = problems.validation([{ key: 'payload.bookerFormResponse.system_first_name', name: 'First Name', message: 'is required' }]);
    expect(p.detail).toBe('First Name is required');
    expect(p.properties).toHaveLength(1);
  });
  it('title-cased last key segment otherwise', () => {
    expect(propertyLabel({ key: 'payload.bookerFormResponse.first_name', message: 'x' })).toBe('First Name');
    expect(propertyLabel({ key: 'email', message: 'x' })).toBe('Email');
    expect(problems.validation([{ key: 'payload.invoice.billingAddress', message: 'is required' }]).detail).toBe('Billing Address is required');
  });
  it('several properties are joined; an explicit detail wins', () => {
    expect(
      validationDetail([
        { key: 'a', message: 'is required' },
        { key: 'b', name: 'Bee', message: 'is too long' },
      ]),
    ).toBe('A is required, Bee is too long');
    expect(problems.validation([{ key: 'a', message: 'm' }], 'Custom').detail).toBe('Custom');
    expect(validationDetail([])).toBeUndefined();
  });
});

describe('card and wallet provider errors (spec 8)', () => {
  it('card_error / validation_error: 400, provider message or fallback', () => {
    expect(cardProviderProblem({ type: 'card_error', message: 'Your card was declined.' })).toMatchObject({ status: 400, detail: 'Your card was declined.' });
    expect(cardProviderProblem({ type: 'validation_error' })).toMatchObject({
      status: 400,
      detail: 'There was an error with your card details. Please try again.',
    });
  });
  it('authentication failure: 500', () => {
    expect(cardProviderProblem({ type: 'invalid_request_error', code: 'payment_intent_authentication_failure' })).toMatchObject({
      status: 500,
      detail: 'There was an error with your payment. Please try again.',
    });
  });
  it('anything else and a failed redirect: 500', () => {
    const message = 'An error occurred while processing your payment. Please try again.';
    expect(cardProviderProblem({ type: 'invalid_request_error', code: 'other' })).toMatchObject({ status: 500, detail: message });
    expect(cardProviderProblem({ type: 'api_error' })).toMatchObject({ status: 500, detail: message });
    expect(cardProviderProblem(null)).toMatchObject({ status: 500, detail: message });
    expect(problems.cardRedirectFailed()).toMatchObject({ status: 500, detail: message });
  });
  it('wallet provider kinds', () => {
    expect(walletProviderProblem('payment_failed', 'PayPal')).toMatchObject({ status: 400, detail: 'Payment could not be completed. Please try again.' });
    expect(walletProviderProblem('capture_error', 'PayPal')).toMatchObject({
      status: 500,
      detail: 'An error occurred while processing your payment. Please try again.',
    });
    expect(walletProviderProblem('sdk_error', 'PayPal')).toMatchObject({
      status: 500,
      detail: 'An error occurred with PayPal. Please try again or use a different payment method.',
    });
  });
});

describe('problemMessage and ProblemError', () => {
  it("'title: detail' or the title", () => {
    expect(problemMessage({ title: 'Invalid Currency', detail: 'Expected GBP' })).toBe('Invalid Currency: Expected GBP');
    expect(problemMessage({ title: 'Something Went Wrong' })).toBe('Something Went Wrong');
  });
  it('carries the problem', () => {
    const error = new ProblemError(problems.invalidEpoch('Expected a number of days'));
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('Invalid Epoch: Expected a number of days');
    expect(error.status).toBe(400);
  });
});

describe('problemFromBody (spec 8 "General handling")', () => {
  it('keeps a problem-details body, its status winning', () => {
    const body = { type: `${H}/generic/invalid-email-address`, title: 'Invalid Email Address', status: 400, detail: 'Invalid email domain.', instance: '/x', extra: 1 };
    expect(problemFromBody(body, 500)).toEqual(body);
    expect(problemFromBody({ type: 't', title: 'T' }, 422)).toEqual({ type: 't', title: 'T', status: 422 });
  });
  it('accepts code in place of type', () => {
    expect(problemFromBody({ code: 'checkout/unauthorised', title: 'Unauthorised', detail: 'd' }, 403)).toEqual({
      type: 'checkout/unauthorised',
      title: 'Unauthorised',
      status: 403,
      detail: 'd',
    });
  });
  it("a 'safe' string or array gives the unknown error with statusCode or 500", () => {
    expect(problemFromBody({ safe: 'boom', statusCode: 418 }, 500)).toMatchObject({
      type: `${H}/unknown-error`,
      title: 'Unknown error',
      status: 418,
      detail: 'An unknown error occurred, please try again or contact support',
      safe: 'boom',
    });
    expect(problemFromBody({ safe: ['a', 'b'] }, 400)).toMatchObject({ title: 'Unknown error', status: 500 });
  });
  it('text and unknown bodies', () => {
    expect(problemFromBody('Gateway timeout', 504)).toMatchObject({ title: 'Unknown error', status: 504, detail: 'Gateway timeout' });
    expect(problemFromBody(null, 200)).toMatchObject({ title: 'Unknown error', status: 500 });
    expect(problemFromBody({ foo: 1 }, 404)).toMatchObject({ title: 'Unknown error', status: 404 });
  });
});
