import { describe, expect, it } from 'vitest';
import { showLocationSection, deliveryBadges, deliveryLocationText, locationCityText, locationText, locationTooltip } from '../../src/domain/locations.ts';

describe('locationCityText / locationTooltip (spec 7)', () => {
  it.each([
    [[], ''],
    [['Leeds'], 'Leeds'],
    [['Leeds', 'York'], 'Leeds or York'],
    [['Leeds', 'York', 'Hull'], 'Leeds and 2 more'],
    [['Leeds', 'York', 'Hull', 'Bath'], 'Leeds and 3 more'],
  ])('%j → %j', (cities, text) => {
    expect(locationCityText(cities)).toBe(text);
  });
  it('tooltip only for more than 3', () => {
    expect(locationTooltip(['a', 'b', 'c'])).toBeNull();
    expect(locationTooltip(['a', 'b', 'c', 'd'])).toBe('a, b, c, and d');
  });
});

describe('locationText (spec 3)', () => {
  it('joins the address values', () => {
    expect(locationText({ line1: '1 High St', city: 'Leeds', postcode: 'LS1 1AA' })).toBe('1 High St, Leeds, LS1 1AA');
    expect(locationText({ line1: '1 High St', line2: '', city: ' Leeds ', extra: null })).toBe('1 High St, Leeds');
    expect(locationText(null)).toBe('');
  });
});

describe('deliveryBadges (spec 5 "Delivery badge")', () => {
  it('location text: first, or "{first} & {n} more"', () => {
    expect(deliveryLocationText([])).toBe('');
    expect(deliveryLocationText(['Leeds'])).toBe('Leeds');
    expect(deliveryLocationText(['Leeds', 'York'])).toBe('Leeds & 1 more');
    expect(deliveryLocationText(['Leeds', 'York', 'Hull'])).toBe('Leeds & 2 more');
  });
  it('several modes (not on-request) → "{location} or Online"', () => {
    expect(deliveryBadges({ delivery: ['online', 'in-person'] }, 'Leeds')).toEqual(['Leeds or Online']);
    expect(deliveryBadges({ delivery: ['in-person', 'hybrid'] }, 'Leeds & 1 more')).toEqual(['Leeds & 1 more or Online']);
  });
  it('on-request with online and in-person → "{location} or Online"', () => {
    expect(deliveryBadges({ delivery: ['on-request', 'online', 'in-person'] }, 'Leeds')).toEqual(['Leeds or Online']);
  });
  it('otherwise one badge each', () => {
    expect(deliveryBadges({ delivery: ['online'] }, 'Leeds')).toEqual(['Online']);
    expect(deliveryBadges({ delivery: ['on-demand'] }, '')).toEqual(['On-demand']);
    expect(deliveryBadges({ delivery: ['hybrid'] }, 'Leeds')).toEqual(['Leeds & Online']);
    expect(deliveryBadges({ delivery: ['in-person'] }, 'Leeds')).toEqual(['Leeds']);
    expect(deliveryBadges({ delivery: 'in-person' }, 'Leeds')).toEqual(['Leeds']);
    expect(deliveryBadges({ delivery: ['on-request', 'online'] }, 'Leeds')).toEqual(['Online']);
    expect(deliveryBadges({ delivery: ['on-request', 'in-person'] }, 'York')).toEqual(['York']);
    expect(deliveryBadges({ delivery: ['on-request'] }, 'York')).toEqual([]);
    expect(deliveryBadges({ delivery: null }, 'York')).toEqual([]);
  });
  it("falls back to 'In-person' without a location", () => {
    expect(deliveryBadges({ delivery: ['in-person'] }, '  ')).toEqual(['In-person']);
  });
});

describe('showLocationSection (spec 2.13 (12))', () => {
  it('hidden for on-request, online delivery or no address', () => {
    expect(showLocationSection({ courseType: 'class', deliveryModes: ['in-person'], addressText: '1 High St' })).toBe(true);
    expect(showLocationSection({ courseType: 'class', deliveryModes: ['online', 'hybrid'], addressText: '1 High St' })).toBe(true);
    expect(showLocationSection({ courseType: 'on-request', deliveryModes: ['in-person'], addressText: '1 High St' })).toBe(false);
    expect(showLocationSection({ courseType: 'class', deliveryModes: ['online'], addressText: '1 High St' })).toBe(false);
    expect(showLocationSection({ courseType: 'class', deliveryModes: ['on-demand'], addressText: '1 High St' })).toBe(false);
    expect(showLocationSection({ courseType: 'class', deliveryModes: [], addressText: '1 High St' })).toBe(false);
    expect(showLocationSection({ courseType: 'class', deliveryModes: ['hybrid'], addressText: ' ' })).toBe(false);
  });
});
