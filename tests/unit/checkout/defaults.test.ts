import { describe, expect, it } from 'vitest';
import {
  availableDeliveryTypes,
  defaultDelivery,
  defaultDurationId,
  defaultOfferSelection,
  defaultRequestPricing,
  pickLocation,
  requestPricingSpaces,
  showDurationChoice,
  showLocationDropdown,
} from '../../../src/domain/checkout/defaults.ts';
import { catchProblem } from '../helpers.ts';

const NOW = 1_700_000_000;

describe('defaults when nothing is stored (spec 4)', () => {
  it('first offer gets 1 if on sale', () => {
    expect(defaultOfferSelection([{ _id: 'a' }, { _id: 'b' }], NOW)).toEqual([{ offerId: 'a', quantity: 1 }]);
    expect(defaultOfferSelection([{ _id: 'a', start_at: NOW + 1 }], NOW)).toEqual([]);
    expect(defaultOfferSelection([{ _id: 'a', end_at: NOW }], NOW)).toEqual([]);
    expect(defaultOfferSelection([], NOW)).toEqual([]);
  });
  it('request pricing: first offer (1 if on sale else 0) or spaces 1', () => {
    expect(defaultRequestPricing([{ _id: 'a' }], NOW)).toEqual({ type: 'offers', offers: { a: 1 }, addOns: {} });
    expect(defaultRequestPricing([{ _id: 'a', end_at: NOW - 1 }], NOW)).toEqual({ type: 'offers', offers: { a: 0 }, addOns: {} });
    expect(defaultRequestPricing(undefined, NOW)).toEqual({ type: 'spaces', quantity: 1 });
  });
  it('delivery: Online, else Educator travels, else Student travels with the first location', () => {
    expect(
      defaultDelivery({ available_for_online_delivery: true, educator_travel_settings: { enabled: true } }),
    ).toEqual({ type: 'Online' });
    expect(
      defaultDelivery({ educator_travel_settings: { enabled: true }, student_travel_settings: { enabled: true, locations: ['l1'] } }),
    ).toEqual({ type: 'Educator travels', address: '' });
    expect(defaultDelivery({ student_travel_settings: { enabled: true, locations: ['l1', 'l2'] } })).toEqual({
      type: 'Student travels',
      location_ref: 'l1',
    });
    expect(defaultDelivery({ student_travel_settings: { enabled: true } }, ['x9'])).toEqual({ type: 'Student travels', location_ref: 'x9' });
  });
  it('"No delivery options available" when none applies', () => {
    const problem = catchProblem(() => defaultDelivery({ student_travel_settings: { enabled: true, locations: [] } }));
    expect(problem.title).toBe('No delivery options available');
    expect(catchProblem(() => defaultDelivery({})).title).toBe('No delivery options available');
    expect(
      availableDeliveryTypes({ available_for_in_person_delivery: false, educator_travel_settings: { enabled: true } }),
    ).toEqual([]);
  });
  it('duration defaults to the first option', () => {
    expect(defaultDurationId([{ _id: 'd1' }, { _id: 'd2' }])).toBe('d1');
    expect(defaultDurationId([])).toBeNull();
    expect(showDurationChoice([{ _id: 'd1' }])).toBe(false);
    expect(showDurationChoice([{ _id: 'd1' }, { _id: 'd2' }])).toBe(true);
  });
  it('location dropdown and its placeholder (spec 2.14 / 5)', () => {
    expect(showLocationDropdown(1)).toBe(false);
    expect(showLocationDropdown(2)).toBe(true);
    expect(pickLocation('l1', '')).toBe('l1');
    expect(pickLocation('l1', 'l2')).toBe('l2');
  });
});

describe('requestPricingSpaces (spec 3 delivery.requestedSpaces, spec 5 "spaces already selected")', () => {
  const offers = [{ _id: 'solo', spaces: 1 }, { _id: 'pair', spaces: 2 }, { _id: 'unset', spaces: null }];
  it('counts each offer line as quantity × its spaces, 1 when the offer sets none', () => {
    expect(requestPricingSpaces({ type: 'offers', offers: { solo: 1, pair: 2, unset: 3 }, addOns: { apron: 5 } }, offers)).toBe(1 + 4 + 3);
    expect(requestPricingSpaces({ type: 'offers', offers: { pair: 0 }, addOns: {} }, offers)).toBe(0);
  });
  it('is the "Number of people" when priced by spaces', () => {
    expect(requestPricingSpaces({ type: 'spaces', quantity: 6 }, offers)).toBe(6);
  });
});
