import { describe, expect, it } from 'vitest';
import {
  FLOW_RULES,
  assertFlowMatchesCourseType,
  courseTypeGroup,
  defaultFlowForCourseType,
  courseFlow,
  bookButtonLabel,
  flowAcceptsCourseType,
  flowFromSlug,
  flowMismatchMessage,
  isDatedFlow,
  initialisePath,
  isFlow,
  type Flow,
} from '../../../src/domain/checkout/flows.ts';
import { catchProblem } from '../helpers.ts';

describe('flow path slugs (spec 7)', () => {
  it('map each flow', () => {
    expect(Object.fromEntries(Object.entries(FLOW_RULES).map(([flow, rules]) => [flow, rules.pathSlug]))).toEqual({
      booking: 'booking',
      order: 'order',
      request: 'request',
      dateBookingRequest: 'date-booking-request',
      groupBookingRequest: 'group-booking-request',
      bookingApplication: 'booking-application',
      membership: 'membership',
      giftVoucher: 'gift-voucher',
    });
    expect(initialisePath('dateBookingRequest')).toBe('/checkout/initialise/date-booking-request');
    expect(flowFromSlug('group-booking-request')).toBe('groupBookingRequest');
    expect(flowFromSlug('nope')).toBeNull();
    expect(isFlow('order')).toBe(true);
    expect(isFlow('Order')).toBe(false);
  });
  it('booking and bookingApplication send occurrenceId', () => {
    expect(isDatedFlow('booking')).toBe(true);
    expect(isDatedFlow('bookingApplication')).toBe(true);
    expect(isDatedFlow('order')).toBe(false);
    expect(isDatedFlow('dateBookingRequest')).toBe(false);
  });
});

describe('flow and course type (spec 4)', () => {
  const table: [Flow, string, boolean][] = [
    ['booking', 'class', true],
    ['booking', 'blended', true],
    ['booking', 'on-demand', false],
    ['booking', 'on-request', false],
    ['bookingApplication', 'class', true],
    ['bookingApplication', 'blended', true],
    ['bookingApplication', 'on-demand', false],
    ['order', 'on-demand', true],
    ['order', 'class', false],
    ['order', 'blended', false],
    ['request', 'on-request', true],
    ['request', 'class', false],
    ['dateBookingRequest', 'class', true],
    ['dateBookingRequest', 'blended', true],
    ['dateBookingRequest', 'on-request', false],
    ['groupBookingRequest', 'class', true],
    ['groupBookingRequest', 'on-demand', false],
    // other values are treated as scheduled (class)
    ['booking', 'workshop', true],
    ['order', 'workshop', false],
  ];
  it.each(table)('%s + %s → %s', (flow, type, ok) => {
    expect(flowAcceptsCourseType(flow, type)).toBe(ok);
    if (ok) expect(() => assertFlowMatchesCourseType(flow, type)).not.toThrow();
    else expect(catchProblem(() => assertFlowMatchesCourseType(flow, type)).status).toBe(400);
  });
  it('exact messages', () => {
    expect(flowMismatchMessage('booking', 'on-demand')).toBe('Invalid booking course type on-demand');
    expect(flowMismatchMessage('order', 'class')).toBe('Invalid course type "class" for order flow');
    expect(catchProblem(() => assertFlowMatchesCourseType('booking', 'on-request')).detail).toBe('Invalid booking course type on-request');
    expect(catchProblem(() => assertFlowMatchesCourseType('request', 'blended')).detail).toBe('Invalid course type "blended" for request flow');
  });
  it('course type groups and default flows', () => {
    expect(courseTypeGroup(undefined)).toBe('class');
    expect(courseTypeGroup('on-request')).toBe('on-request');
    expect(defaultFlowForCourseType('on-demand')).toBe('order');
    expect(defaultFlowForCourseType('on-request')).toBe('request');
    expect(defaultFlowForCourseType('blended')).toBe('booking');
  });
  it('a scheduled course that requires approval takes applications; the main button says so', () => {
    expect(courseFlow({ type: 'class', approval_required: true })).toBe('bookingApplication');
    expect(courseFlow({ type: 'blended', approval_required: true })).toBe('bookingApplication');
    expect(courseFlow({ type: 'weekly-club', approval_required: true })).toBe('bookingApplication');
    expect(courseFlow({ type: 'class', approval_required: false })).toBe('booking');
    expect(courseFlow({ type: 'class' })).toBe('booking');
    // On-request and on-demand courses keep their flows (an approval-required request awaits approval once booked).
    expect(courseFlow({ type: 'on-request', approval_required: true })).toBe('request');
    expect(courseFlow({ type: 'on-demand', approval_required: true })).toBe('order');
    expect(bookButtonLabel('booking')).toBe('Book Now');
    expect(bookButtonLabel('bookingApplication')).toBe('Apply Now');
    expect(bookButtonLabel('order')).toBe('Order Now');
    expect(bookButtonLabel('request')).toBe('Request to Book');
  });
});
