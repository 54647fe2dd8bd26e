import { describe, expect, it } from 'vitest';
import { computeCostSummary, mulDivRound, platformFee, voucherDiscount } from '../../src/domain/checkout/costSummary.ts';
import { offersNeedPayment } from '../../src/domain/checkout/steps.ts';

const base = { offers: [{ name: 'Seat', price: 3000, quantity: 2 }], addOns: [{ name: 'Apron', price: 500, quantity: 1 }], feesAbsorbed: true };

describe('cost summary (pence)', () => {
  it('adds offers, add-ons and extras; lines show quantities', () => {
    const s = computeCostSummary({ ...base, extras: [{ label: '2 Hours', cost: 1000, quantity: 2 }] });
    expect(s.summary_items.offerSummary).toEqual([{ text: 'Seat × 2', value: 6000 }]);
    expect(s.summary_items.addOnSummary).toEqual([{ text: 'Apron', value: 500 }]);
    expect(s.summary_items.extraSummary).toEqual([{ text: '2 Hours × 2', value: 2000 }]);
    expect(s.subtotal).toBe(8500);
    expect(s.total_cost).toBe(8500);
  });

  it('leaves out zero quantities; free and missing prices are 0', () => {
    const s = computeCostSummary({ offers: [{ name: 'A', price: null, quantity: 1 }, { name: 'B', price: 100, quantity: 0 }], addOns: [], feesAbsorbed: false });
    expect(s.summary_items.offerSummary).toEqual([{ text: 'A', value: 0 }]);
    expect(s.total_cost).toBe(0);
    expect(s.platform_fee).toBe(0);
  });

  it('vouchers: percent rounds half up, fixed is capped at the subtotal; shown negative', () => {
    expect(voucherDiscount({ code: 'P', kind: 'percent', amount: 10 }, 6500)).toBe(650);
    expect(voucherDiscount({ code: 'P', kind: 'percent', amount: 15 }, 333)).toBe(50); // 49.95 → 50
    expect(voucherDiscount({ code: 'P', kind: 'percent', amount: 150 }, 1000)).toBe(1000);
    expect(voucherDiscount({ code: 'F', kind: 'fixed', amount: 500 }, 300)).toBe(300);
    expect(voucherDiscount(null, 300)).toBe(0);
    const s = computeCostSummary({ ...base, voucher: { code: 'TENOFF', kind: 'percent', amount: 10 } });
    expect(s.summary_items.voucherSummary).toEqual([{ text: 'Voucher TENOFF', value: -650 }]);
    expect(s.total_cost).toBe(5850);
  });

  it('VAT added: a line and added to the total; absorbed: only vat_amount', () => {
    const added = computeCostSummary({ ...base, vat: { enabled: true, is_vat_absorbed: false, tax_label: 'VAT', rate_bp: 2000 } });
    expect(added.summary_items.vatSummary).toEqual([{ text: 'VAT (20%)', value: 1300 }]);
    expect(added.vat_amount).toBe(1300);
    expect(added.total_cost).toBe(7800);
    const absorbed = computeCostSummary({ ...base, vat: { enabled: true, is_vat_absorbed: true } });
    expect(absorbed.summary_items.vatSummary).toEqual([]);
    expect(absorbed.vat_amount).toBe(1083); // 6500 × 20/120
    expect(absorbed.total_cost).toBe(6500);
    const defaults = computeCostSummary({ ...base, vat: { enabled: true, is_vat_absorbed: false } });
    expect(defaults.summary_items.vatSummary).toEqual([{ text: 'Tax (20%)', value: 1300 }]);
    expect(computeCostSummary({ ...base, vat: { enabled: false, is_vat_absorbed: false } }).vat_amount).toBe(0);
  });

  it('platform fee: 2.5% + 30p on a paid order, added unless absorbed', () => {
    expect(platformFee(0)).toBe(0);
    expect(platformFee(1000)).toBe(55);
    expect(platformFee(12000)).toBe(330);
    const notAbsorbed = computeCostSummary({ ...base, feesAbsorbed: false });
    expect(notAbsorbed.platform_fee).toBe(193); // 6500 × 2.5% = 162.5 → 163, + 30
    expect(notAbsorbed.total_cost).toBe(6693);
    const absorbed = computeCostSummary(base);
    expect(absorbed.platform_fee).toBe(193);
    expect(absorbed.total_cost).toBe(6500);
  });

  it('mulDivRound rounds half up in integers', () => {
    expect(mulDivRound(5, 1, 2)).toBe(3);
    expect(mulDivRound(4, 1, 3)).toBe(1);
    expect(mulDivRound(5, 1, 3)).toBe(2);
  });
});

describe('offersNeedPayment (spec 2.14 step rules for booking and order)', () => {
  it('by the offers before a selection, by the total after', () => {
    expect(offersNeedPayment({ selectionTotal: null, anyPaidItem: true })).toBe(true);
    expect(offersNeedPayment({ selectionTotal: null, anyPaidItem: false })).toBe(false);
    expect(offersNeedPayment({ selectionTotal: 0, anyPaidItem: true })).toBe(false);
    expect(offersNeedPayment({ selectionTotal: 1, anyPaidItem: false })).toBe(true);
  });
});
