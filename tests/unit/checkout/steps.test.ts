import { describe, expect, it } from 'vitest';
import {
  flowSteps,
  STEP_LABELS,
  STEP_TITLES,
  backAction,
  breadcrumbLabels,
  isAfterLoginStep,
  nextStep,
  previousStep,
  requestDatesTitle,
  stepView,
  stepsFor,
  type StepId,
} from '../../../src/domain/checkout/steps.ts';
import type { Flow } from '../../../src/domain/checkout/flows.ts';

const labels = (steps: StepId[]) => steps.map((step) => STEP_LABELS[step]);

describe('steps per flow (spec 2.14 table)', () => {
  it.each<[Flow, string[], string[]]>([
    ['booking', ['Date', 'Spaces'], ['Contact Info', 'Payment', 'Confirmation']],
    ['order', ['Offers'], ['Contact Info', 'Payment', 'Confirmation']],
    ['request', ['Delivery options', 'Dates', 'Message'], ['Contact Info', 'Payment', 'Confirmation']],
    ['dateBookingRequest', ['Dates', 'Message'], ['Contact Info', 'Confirmation']],
    ['groupBookingRequest', ['Dates', 'Message'], ['Contact Info', 'Confirmation']],
    ['bookingApplication', ['Date', 'Spaces'], ['Contact Info', 'Confirmation']],
  ])('%s', (flow, before, after) => {
    expect(labels([...flowSteps(flow).beforeLogin])).toEqual(before);
    expect(labels([...flowSteps(flow).afterLogin])).toEqual(after);
    // logged in, payment required: the full table row
    expect(labels(stepsFor({ flow, loggedIn: true, paymentRequired: true }))).toEqual([...before, ...after]);
    // logged out: the login step sits between the groups
    expect(labels(stepsFor({ flow, loggedIn: false, paymentRequired: true }))).toEqual([...before, 'Log in or Sign Up', ...after]);
  });
});

describe('step rules (spec 2.14)', () => {
  it('booking and order drop Payment when no offer is paid', () => {
    expect(stepsFor({ flow: 'booking', loggedIn: true, paymentRequired: false })).toEqual(['date', 'spaces', 'contactDetails', 'confirmation']);
    expect(stepsFor({ flow: 'order', loggedIn: true, paymentRequired: false })).toEqual(['offers', 'contactDetails', 'confirmation']);
  });
  it('request shows Payment only when payment is required', () => {
    expect(stepsFor({ flow: 'request', loggedIn: true, paymentRequired: false })).not.toContain('payment');
    expect(stepsFor({ flow: 'request', loggedIn: true, paymentRequired: true })).toContain('payment');
  });
  it('flows without a Payment step never get one', () => {
    expect(stepsFor({ flow: 'bookingApplication', loggedIn: true, paymentRequired: true })).not.toContain('payment');
  });
  it('breadcrumb "1. Date", "2. Spaces", …', () => {
    expect(breadcrumbLabels(stepsFor({ flow: 'booking', loggedIn: false, paymentRequired: true }))).toEqual([
      '1. Date',
      '2. Spaces',
      '3. Log in or Sign Up',
      '4. Contact Info',
      '5. Payment',
      '6. Confirmation',
    ]);
  });
  it('after-login steps show the login screen while logged out; unknown steps', () => {
    expect(isAfterLoginStep('booking', 'payment')).toBe(true);
    expect(isAfterLoginStep('booking', 'spaces')).toBe(false);
    expect(stepView('booking', 'contactDetails', false)).toBe('login');
    expect(stepView('booking', 'contactDetails', true)).toBe('contactDetails');
    expect(stepView('booking', 'spaces', false)).toBe('spaces');
    expect(stepView('booking', 'teleport', true)).toBe('unknown');
  });
  it('titles and navigation', () => {
    expect(STEP_TITLES.date).toBe('Select Date');
    expect(STEP_TITLES.spaces).toBe('Select Spaces');
    expect(requestDatesTitle(true)).toBe('Select a Date & Time');
    expect(requestDatesTitle(false)).toBe('Preferred Dates');
    const steps = stepsFor({ flow: 'order', loggedIn: true, paymentRequired: true });
    expect(nextStep(steps, 'offers')).toBe('contactDetails');
    expect(nextStep(steps, 'confirmation')).toBeNull();
    expect(previousStep(steps, 'offers')).toBeNull();
    expect(previousStep(steps, 'payment')).toBe('contactDetails');
  });
});

describe('Back (spec 2.14)', () => {
  const steps = stepsFor({ flow: 'booking', loggedIn: true, paymentRequired: true });
  it('first step: history, or the course page in embed', () => {
    expect(backAction(steps, 'date', 'marketplace')).toBe('history');
    expect(backAction(steps, 'date', 'landing_page')).toBe('history');
    expect(backAction(steps, 'date', 'embed')).toBe('course-page');
  });
  it('later steps: previous step', () => {
    expect(backAction(steps, 'spaces', 'embed')).toBe('previous-step');
  });
});
