import { describe, expect, it } from 'vitest';
import {
  manualPaymentMessage,
  methodAllowedInFlow,
  paymentMethodLabel,
  resolvePaymentOptions,
  visiblePaymentMethods,
} from '../../../src/domain/checkout/paymentMethods.ts';
import { FLOWS } from '../../../src/domain/checkout/flows.ts';

const all = {
  card: { enabled: true },
  paypal: { enabled: true },
  klarna: { enabled: true },
  invoice: { enabled: true },
  manual: { enabled: true },
};

describe('payment methods per flow (spec 4)', () => {
  it('card, wallet and invoice only in booking, order and request; pay-later only in booking and order', () => {
    expect(visiblePaymentMethods('booking', all)).toEqual(['card', 'paypal', 'klarna', 'invoice', 'manual']);
    expect(visiblePaymentMethods('order', all)).toEqual(['card', 'paypal', 'klarna', 'invoice', 'manual']);
    expect(visiblePaymentMethods('request', all)).toEqual(['card', 'paypal', 'invoice', 'manual']);
    for (const flow of ['dateBookingRequest', 'groupBookingRequest', 'bookingApplication'] as const) {
      expect(visiblePaymentMethods(flow, all)).toEqual(['manual']);
    }
    expect(FLOWS.filter((flow) => methodAllowedInFlow('klarna', flow))).toEqual(['booking', 'order']);
  });
  it('only enabled methods show', () => {
    expect(visiblePaymentMethods('booking', { card: { enabled: false }, invoice: { enabled: true } })).toEqual(['invoice']);
  });
  it('missing options: card only (spec 7)', () => {
    expect(visiblePaymentMethods('booking', null)).toEqual(['card']);
    expect(visiblePaymentMethods('order', undefined)).toEqual(['card']);
    expect(resolvePaymentOptions(null).card?.enabled).toBe(true);
  });
  it('labels and in-person message', () => {
    expect(paymentMethodLabel('invoice', all)).toBe('Invoice');
    expect(paymentMethodLabel('manual', all)).toBe('In-person Payment');
    expect(paymentMethodLabel('manual', { manual: { enabled: true, label: 'Pay at reception' } })).toBe('Pay at reception');
    expect(paymentMethodLabel('paypal', all, { paypal: 'WalletCo' })).toBe('WalletCo');
    expect(manualPaymentMessage(all)).toBe('Pay the organizer on the day.');
    expect(manualPaymentMessage({ manual: { message: 'Bring cash' } })).toBe('Bring cash');
  });
});
