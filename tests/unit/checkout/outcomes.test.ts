import { describe, expect, it } from 'vitest';
import {
  bookingOutcome,
  cardPaymentSucceeded,
  cardRedirectOutcome,
  confirmationTitle,
  documentButtonLabel,
  documentKind,
  educatorWillBeInTouchText,
  manageButtonLabel,
  referenceText,
  requestSentText,
  showPayInvoice,
  showSharePrompt,
  walletCaptureSucceeded,
} from '../../../src/domain/checkout/outcomes.ts';

describe('payment outcomes (spec 4)', () => {
  it('card statuses', () => {
    expect(cardPaymentSucceeded({ paymentStatus: 'succeeded' })).toBe(true);
    expect(cardPaymentSucceeded({ paymentStatus: 'requires_capture' })).toBe(true);
    expect(cardPaymentSucceeded({ setupStatus: 'succeeded' })).toBe(true);
    expect(cardPaymentSucceeded({ paymentStatus: 'requires_action' })).toBe(false);
    expect(cardPaymentSucceeded({})).toBe(false);
  });
  it('redirect: matching secret and succeeded', () => {
    expect(cardRedirectOutcome({ expectedClientSecret: 's1', returnedClientSecret: 's1', redirectStatus: 'succeeded' })).toEqual({ ok: true });
    const failed = cardRedirectOutcome({ expectedClientSecret: 's1', returnedClientSecret: 's1', redirectStatus: 'failed' });
    expect(failed.ok).toBe(false);
    if (!failed.ok) expect(failed.problem).toMatchObject({ status: 500, detail: 'An error occurred while processing your payment. Please try again.' });
    expect(cardRedirectOutcome({ expectedClientSecret: 's1', returnedClientSecret: 's2', redirectStatus: 'succeeded' }).ok).toBe(false);
    expect(cardRedirectOutcome({ expectedClientSecret: null, returnedClientSecret: null, redirectStatus: 'succeeded' }).ok).toBe(false);
  });
  it('wallet capture COMPLETED', () => {
    expect(walletCaptureSucceeded('COMPLETED')).toBe(true);
    expect(walletCaptureSucceeded('completed')).toBe(false);
    expect(walletCaptureSucceeded(undefined)).toBe(false);
  });
  it('booking with approval awaits approval', () => {
    expect(bookingOutcome(true)).toBe('awaiting-approval');
    expect(bookingOutcome(false)).toBe('confirmed');
  });
});

describe('confirmation screens (spec 2.15)', () => {
  it('titles', () => {
    expect(confirmationTitle('booking')).toBe('Booking Confirmed');
    expect(confirmationTitle('booking', { approvalRequired: true })).toBe('Your Booking is Awaiting Approval');
    expect(confirmationTitle('order')).toBe('Order Confirmed');
    expect(confirmationTitle('request', { instantBooking: true })).toBe('Booking Confirmed');
    expect(confirmationTitle('request', { instantBooking: false })).toBe('Request Sent');
    // A request that became a booking is a booking (spec 2.15 "With a booking id: the booking buttons"), and a
    // booking of an approval-required course awaits approval.
    expect(confirmationTitle('request', { instantBooking: true, approvalRequired: true })).toBe('Your Booking is Awaiting Approval');
    expect(confirmationTitle('request', { instantBooking: false, approvalRequired: true })).toBe('Request Sent');
    expect(confirmationTitle('groupBookingRequest')).toBe('Request Sent');
    expect(confirmationTitle('dateBookingRequest')).toBe('Request Sent');
    expect(confirmationTitle('bookingApplication')).toBe('Application Sent');
  });
  it('references and texts', () => {
    expect(referenceText('booking', 'B1')).toBe('Booking reference: B1');
    expect(referenceText('order', 'O1')).toBe('Order reference: O1');
    expect(referenceText('request', 'R1')).toBe('Request reference: R1');
    expect(referenceText('application', 'A1')).toBe('Application reference: A1');
    expect(requestSentText('Acme')).toBe('Your request has been sent to Acme');
    expect(educatorWillBeInTouchText('Acme')).toBe('Acme will be in touch soon');
  });
  it('buttons', () => {
    expect(manageButtonLabel('booking', { type: 'class' })).toBe('View & Manage Booking');
    expect(manageButtonLabel('booking', { type: 'blended' })).toBe('Access Course');
    expect(manageButtonLabel('order', { type: 'on-demand', keyword: 'Masterclass' })).toBe('Access Masterclass');
    expect(documentButtonLabel([{ price: 0 }, {}], 'paid')).toBeNull();
    expect(documentButtonLabel([{ price: 0 }, {}], 'free')).toBeNull();
    expect(documentButtonLabel([{ price: 0 }, { price: 500 }], 'paid')).toBe('Download Receipt');
    // Money still due (by invoice, or in person on the day): the document is an invoice for the amount due.
    expect(documentButtonLabel([{ price: 500 }], 'unpaid')).toBe('Download Invoice');
    expect(documentKind('unpaid')).toBe('Invoice');
    expect(documentKind('paid')).toBe('Receipt');
    expect(documentKind('free')).toBe('Receipt');
    expect(showPayInvoice('invoice')).toBe(true);
    expect(showPayInvoice('card')).toBe(false);
  });
  it('share prompt unless hide_social_prompts', () => {
    expect(showSharePrompt({ hide_social_prompts: true })).toBe(false);
    expect(showSharePrompt({})).toBe(true);
    expect(showSharePrompt(undefined)).toBe(true);
  });
});
