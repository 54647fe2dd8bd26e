import { describe, expect, it } from 'vitest';
import {
  bookableOccurrences, isSoldOut, nextBookableOccurrence,
  ADD_ON_MAX_QUANTITY,
  allOffersEnded,
  anyOfferPaid,
  baseSpaces,
  canDecrement,
  canIncrement,
  checkoutPricesVisible,
  cancellationText,
  costLines,
  deliveryLine,
  flowAvailableSpaces,
  flowSpacesBase,
  listedOccurrences,
  maxQuantity,
  occurrenceIsListed,
  offerPriceText,
  offerSaleStatus,
  offerSaleText,
  pricingDisplay,
  showFeesLine,
  spacesSelected,
} from '../../src/domain/pricing.ts';
import type { Occurrence, Offer } from '../../src/domain/entities.ts';

const NOW = 1_700_000_000; // 14 Nov 2023 22:13:20 UTC

describe('offer prices (spec 3)', () => {
  it('0 or missing is Free', () => {
    expect(offerPriceText({ price: 0 })).toBe('Free');
    expect(offerPriceText({})).toBe('Free');
    expect(offerPriceText({ price: 2500 })).toBe('£25.00');
  });
  it('anyOfferPaid', () => {
    expect(anyOfferPaid([{ price: 0 }, {}])).toBe(false);
    expect(anyOfferPaid([{ price: 0 }, { price: 1 }])).toBe(true);
    expect(anyOfferPaid(undefined)).toBe(false);
  });
});

describe('pricingDisplay (spec 9 "Pricing display")', () => {
  it('free and price-on-enquiry', () => {
    expect(pricingDisplay({ type: 'free' })).toBe('Free');
    expect(pricingDisplay({ type: 'price-on-enquiry' })).toBe('Price on enquiry');
  });
  it('price-range: "min - max" or one value when equal', () => {
    expect(pricingDisplay({ type: 'price-range', minimumPrice: 1000, maximumPrice: 2550 })).toBe('£10 - £25.50');
    expect(pricingDisplay({ type: 'price-range', minimumPrice: 1000, maximumPrice: 1000 })).toBe('£10');
    expect(pricingDisplay({ type: 'price-range', minimumPrice: 1000 })).toBe('£10');
    expect(pricingDisplay({ type: 'price-range' })).toBeNull();
  });
  it('price-offers: Free, single price, or From lowest', () => {
    const o = (price?: number): Offer => ({ _id: String(price), price });
    expect(pricingDisplay({ type: 'price-offers', offers: [o(0), o()] })).toBe('Free');
    expect(pricingDisplay({ type: 'price-offers', offers: [o(1500), o(1500)] })).toBe('£15');
    expect(pricingDisplay({ type: 'price-offers', offers: [o(3000), o(1550)] })).toBe('From £15.50');
    expect(pricingDisplay({ type: 'price-offers', offers: [o(3000), o(0)] })).toBe('From £0');
    expect(pricingDisplay({ type: 'price-offers', offers: [], minimumPrice: 900 })).toBe('From £9');
    expect(pricingDisplay({ type: 'price-offers', offers: [] })).toBeNull();
  });
  it('unknown types and missing option', () => {
    expect(pricingDisplay({ type: 'subscription', minimumPrice: 500 })).toBe('£5');
    expect(pricingDisplay({ type: 'subscription' })).toBeNull();
    expect(pricingDisplay(null)).toBeNull();
  });
});

describe('sale window (spec 5)', () => {
  const offer = { start_at: NOW + 10, end_at: NOW + 100 };
  it('before / on-sale / ended at the boundaries', () => {
    expect(offerSaleStatus(offer, NOW + 9)).toBe('before');
    expect(offerSaleStatus(offer, NOW + 10)).toBe('on-sale');
    expect(offerSaleStatus(offer, NOW + 99)).toBe('on-sale');
    expect(offerSaleStatus(offer, NOW + 100)).toBe('ended');
    expect(offerSaleStatus({}, NOW)).toBe('on-sale');
  });
  it('texts', () => {
    expect(offerSaleText({ start_at: NOW }, NOW - 1)).toBe('Sales start on 14 Nov 2023, 22:13');
    expect(offerSaleText({ end_at: NOW }, NOW)).toBe('Sales ended on 14 Nov 2023, 22:13');
    expect(offerSaleText({ start_at: NOW, end_at: NOW + 1 }, NOW)).toBeNull();
  });
});

describe('occurrence filtering (spec 4)', () => {
  const base: Occurrence = { _id: 'o1', visibility: 'public', offers: [{ _id: 'a', end_at: NOW + 1 }] };
  it('drops occurrences whose offers have all ended (end_at at or before now)', () => {
    expect(occurrenceIsListed(base, NOW)).toBe(true);
    expect(occurrenceIsListed(base, NOW + 1)).toBe(false);
    expect(occurrenceIsListed({ ...base, offers: [{ _id: 'a', end_at: NOW }, { _id: 'b' }] }, NOW)).toBe(true);
    expect(allOffersEnded([], NOW)).toBe(false);
  });
  it('uses the course offers when the occurrence has none', () => {
    expect(occurrenceIsListed({ ...base, offers: [] }, NOW, [{ _id: 'c', end_at: NOW - 1 }])).toBe(false);
    expect(occurrenceIsListed({ ...base, offers: null }, NOW, [{ _id: 'c', end_at: NOW + 1 }])).toBe(true);
  });
  it('drops non-public occurrences', () => {
    expect(occurrenceIsListed({ ...base, visibility: 'private' }, NOW)).toBe(false);
    expect(occurrenceIsListed({ ...base, visibility: undefined }, NOW)).toBe(false);
  });
  it('drops child occurrences unless individually bookable', () => {
    expect(occurrenceIsListed({ ...base, parent_ref: 'p' }, NOW)).toBe(false);
    expect(occurrenceIsListed({ ...base, parent_ref: 'p', individually_bookable: true }, NOW)).toBe(true);
    expect(listedOccurrences([base, { ...base, _id: 'o2', parent_ref: 'p' }], NOW).map((o) => o._id)).toEqual(['o1']);
  });
});

describe('offer quantity (spec 5)', () => {
  const offers = [
    { _id: 'single', price: 1000 },
    { _id: 'pair', price: 1800, spaces: 2 },
  ];
  it('spaces selected = Σ quantity × spaces (default 1)', () => {
    expect(spacesSelected([{ offerId: 'single', quantity: 3 }, { offerId: 'pair', quantity: 2 }], offers)).toBe(7);
    expect(spacesSelected([{ offerId: 'unknown', quantity: 2 }], offers)).toBe(2);
  });
  it('pool: available_spaces, then spaces, then course spaces, then 0', () => {
    expect(baseSpaces({ occurrence: { available_spaces: 4, spaces: 10 }, course: { spaces: 20 } })).toBe(4);
    expect(baseSpaces({ occurrence: { available_spaces: 0, spaces: 10 } })).toBe(0);
    expect(baseSpaces({ occurrence: { spaces: 10 }, course: { spaces: 20 } })).toBe(10);
    expect(baseSpaces({ occurrence: {}, course: { spaces: 20 } })).toBe(20);
    expect(baseSpaces({})).toBe(0);
  });
  it('available and maximum', () => {
    const selected = [{ offerId: 'single', quantity: 2 }, { offerId: 'pair', quantity: 1 }];
    const available = flowAvailableSpaces('booking', { occurrence: { available_spaces: 10 }, selected, offers });
    expect(available).toBe(6);
    expect(maxQuantity(2, available)).toBe(8);
    expect(maxQuantity(3, -2)).toBe(3);
    expect(ADD_ON_MAX_QUANTITY).toBe(Infinity);
  });
  it('plus and minus controls', () => {
    expect(canDecrement(0)).toBe(false);
    expect(canDecrement(1)).toBe(true);
    expect(canIncrement({ quantity: 7, max: 8, now: NOW })).toBe(true);
    expect(canIncrement({ quantity: 8, max: 8, now: NOW })).toBe(false);
    expect(canIncrement({ quantity: 0, max: 8, offer: { start_at: NOW + 1 }, now: NOW })).toBe(false);
    expect(canIncrement({ quantity: 0, max: 8, offer: { end_at: NOW }, now: NOW })).toBe(false);
    expect(canIncrement({ quantity: 0, max: 8, offer: { start_at: NOW, end_at: NOW + 1 }, now: NOW })).toBe(true);
  });
});

describe('flow available spaces (spec 9)', () => {
  it('order: course spaces or 100', () => {
    expect(flowSpacesBase('order', { course: { spaces: 30 } })).toBe(30);
    expect(flowSpacesBase('order', { course: {} })).toBe(100);
    expect(flowAvailableSpaces('order', { course: {}, selected: [{ offerId: 'x', quantity: 3 }], offers: [] })).toBe(97);
  });
  it('request: 10000; group/date request: unlimited', () => {
    expect(flowSpacesBase('request', { course: { spaces: 5 } })).toBe(10000);
    expect(flowSpacesBase('groupBookingRequest', {})).toBe(Infinity);
    expect(flowSpacesBase('dateBookingRequest', {})).toBe(Infinity);
    expect(flowAvailableSpaces('groupBookingRequest', { selected: [{ offerId: 'x', quantity: 3 }] })).toBe(Infinity);
  });
  it('booking: the occurrence pool', () => {
    expect(flowSpacesBase('booking', { occurrence: { available_spaces: 3 }, course: { spaces: 50 } })).toBe(3);
    expect(flowSpacesBase('bookingApplication', { occurrence: { spaces: 7 } })).toBe(7);
  });
});

describe('cancellationText (spec 9)', () => {
  it.each([
    [1, 'class', 'Free cancellation 1 day prior'],
    [2, 'class', 'Free cancellation 2 days prior'],
    [14, 'blended', 'Free cancellation 14 days prior'],
    [7, 'on-request', 'Free cancellation 7 days prior'],
    [7, 'on-demand', null],
    [0, 'class', null],
    [null, 'class', null],
    [undefined, 'class', null],
  ])('%s days, %s → %j', (days, type, text) => {
    expect(cancellationText(days, type)).toBe(text);
  });
});

describe('deliveryLine (spec 9)', () => {
  it('each delivery type', () => {
    expect(deliveryLine({ delivery: 'online', address: '1 High St' })).toEqual(['Delivered live online']);
    expect(deliveryLine({ delivery: 'hybrid', address: '1 High St, Leeds' })).toEqual(['Delivered online and in person', '1 High St, Leeds']);
    expect(deliveryLine({ delivery: 'in-person', address: '1 High St, Leeds' })).toEqual(['1 High St, Leeds']);
    expect(deliveryLine({ courseType: 'on-demand', keyword: 'masterclass' })).toEqual(['On-demand online masterclass']);
    expect(deliveryLine({ courseType: 'on-demand' })).toEqual(['On-demand online course']);
    expect(deliveryLine({ delivery: 'in-person', address: '' })).toEqual([]);
  });
});

describe('cost lines (spec 9)', () => {
  it('discounts and vouchers are negative; Fees when not absorbed', () => {
    const summary = {
      summary_items: {
        offerSummary: [{ text: 'Adult × 2', value: 5000 }],
        discountSummary: [{ text: 'SPRING', value: 500 }],
        voucherSummary: [{ text: 'Gift card', value: -1000 }],
        vatSummary: [{ text: 'VAT', value: 700 }],
      },
      fees_absorbed: false,
    };
    expect(costLines(summary, 150)).toEqual([
      { kind: 'offer', text: 'Adult × 2', amount: 5000 },
      { kind: 'discount', text: 'SPRING', amount: -500 },
      { kind: 'voucher', text: 'Gift card', amount: -1000 },
      { kind: 'vat', text: 'VAT', amount: 700 },
      { kind: 'fees', text: 'Fees', amount: 150 },
    ]);
    expect(costLines({ ...summary, fees_absorbed: true }, 150).some((line) => line.kind === 'fees')).toBe(false);
    expect(showFeesLine(0, false)).toBe(false);
    expect(showFeesLine(undefined, false)).toBe(false);
    expect(showFeesLine(1, false)).toBe(true);
  });
});

describe('hidden pricing in the checkout (spec 6)', () => {
  it('hidden except on the marketplace origin', () => {
    expect(checkoutPricesVisible(true, 'embed')).toBe(false);
    expect(checkoutPricesVisible(true, 'landing_page')).toBe(false);
    expect(checkoutPricesVisible(true, 'marketplace')).toBe(true);
    expect(checkoutPricesVisible(false, 'embed')).toBe(true);
  });
});

describe('next bookable date (never a sold-out one)', () => {
  const NOW = 1_000_000;
  const occ = (id: string, start: number, extra: { available_spaces?: number | null; spaces?: number | null } = {}) => ({
    _id: id, start_datetime: start, end_datetime: start + 3600, available_spaces: null, spaces: null, ...extra,
  });

  it('skips sold-out dates (available 0, or spaces 0, or the course has 0) but not unknown capacity', () => {
    const dates = [occ('soldout', NOW + 100, { available_spaces: 0, spaces: 10 }), occ('later', NOW + 200, { available_spaces: 1 })];
    expect(nextBookableOccurrence(dates, NOW)?._id).toBe('later');
    expect(nextBookableOccurrence([occ('s', NOW + 1, { spaces: 0 }), occ('t', NOW + 2)], NOW)?._id).toBe('t');
    expect(nextBookableOccurrence([occ('u', NOW + 1)], NOW, 0)).toBeNull();
    expect(nextBookableOccurrence([occ('u', NOW + 1)], NOW, null)?._id).toBe('u');
    expect(isSoldOut({ available_spaces: 1, spaces: 0 })).toBe(false);
    expect(isSoldOut({ available_spaces: -1 })).toBe(true);
  });

  it('a date starting exactly now is next; one that started is bookable but not "next"', () => {
    const dates = [occ('started', NOW - 10), occ('now', NOW)];
    expect(nextBookableOccurrence(dates, NOW)?._id).toBe('now');
    expect(bookableOccurrences(dates, NOW).map((o) => o._id)).toEqual(['started', 'now']);
    expect(nextBookableOccurrence([], NOW)).toBeNull();
  });
});
