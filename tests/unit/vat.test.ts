import { describe, expect, it } from 'vitest';
import { vatLabel } from '../../src/domain/vat.ts';

const on = { enabled: true, is_vat_absorbed: false, tax_label: 'VAT' };

describe('vatLabel (spec 5 "VAT label display")', () => {
  it('hidden when VAT is not enabled', () => {
    expect(vatLabel({ vatSettings: { ...on, enabled: false }, priceLabel: '£10', courseType: 'class', pricingType: 'price-offers' })).toBeNull();
    expect(vatLabel({ vatSettings: null, priceLabel: '£10', courseType: 'class', pricingType: 'price-offers' })).toBeNull();
  });
  it('hidden when the price label is "free"', () => {
    expect(vatLabel({ vatSettings: on, priceLabel: 'Free', courseType: 'class', pricingType: 'price-offers' })).toBeNull();
    expect(vatLabel({ vatSettings: on, priceLabel: 'free', courseType: 'class', pricingType: 'price-offers' })).toBeNull();
  });
  it('hidden for on-request courses priced free or price-on-enquiry', () => {
    expect(vatLabel({ vatSettings: on, priceLabel: '£10', courseType: 'on-request', pricingType: 'free' })).toBeNull();
    expect(vatLabel({ vatSettings: on, priceLabel: 'Price on enquiry', courseType: 'on-request', pricingType: 'price-on-enquiry' })).toBeNull();
    expect(vatLabel({ vatSettings: on, priceLabel: '£10', courseType: 'on-request', pricingType: 'price-offers' })).toBe('+ VAT');
    expect(vatLabel({ vatSettings: on, priceLabel: 'Price on enquiry', courseType: 'class', pricingType: 'price-on-enquiry' })).toBe('+ VAT');
  });
  it('absorbed → "(incl. {tax_label})", else "+ {tax_label}"; default label "Tax"', () => {
    expect(vatLabel({ vatSettings: { ...on, is_vat_absorbed: true }, priceLabel: '£10', courseType: 'class', pricingType: 'price-offers' })).toBe('(incl. VAT)');
    expect(vatLabel({ vatSettings: on, priceLabel: '£10', courseType: 'class', pricingType: 'price-offers' })).toBe('+ VAT');
    expect(vatLabel({ vatSettings: { enabled: true, is_vat_absorbed: true }, priceLabel: '£10', courseType: 'class', pricingType: null })).toBe('(incl. Tax)');
    expect(vatLabel({ vatSettings: { enabled: true, tax_label: '' }, priceLabel: '£10', courseType: 'class', pricingType: null })).toBe('+ Tax');
  });
});
