import { describe, expect, it } from 'vitest';
import {
  CALENDAR_MAX_DURATION_MINUTES,
  canContinueWithSlot,
  canGoToPreviousMonth,
  isCalendarBased,
  isDayDisabled,
  isInstantBooking,
  requiresPayment,
  slotDurationSeconds,
  slotsForDay,
  toEpochSeconds,
} from '../../../src/domain/checkout/request.ts';

describe('request flow rules (spec 4)', () => {
  it('calendar-based needs calendar_based, ≤ 1440 minutes and no skip', () => {
    expect(CALENDAR_MAX_DURATION_MINUTES).toBe(1440);
    expect(isCalendarBased({ dateRequests: 'calendar_based', durationMinutes: 1440 })).toBe(true);
    expect(isCalendarBased({ dateRequests: 'calendar_based', durationMinutes: 1441 })).toBe(false);
    expect(isCalendarBased({ dateRequests: 'calendar_based', durationMinutes: 60, skipAvailableDates: true })).toBe(false);
    expect(isCalendarBased({ dateRequests: 'preferred_dates', durationMinutes: 60 })).toBe(false);
    expect(isCalendarBased({ dateRequests: 'calendar_based' })).toBe(true);
  });
  it('instant booking: price-offers or free, and calendar-based', () => {
    expect(isInstantBooking({ pricingType: 'price-offers', calendarBased: true })).toBe(true);
    expect(isInstantBooking({ pricingType: 'free', calendarBased: true })).toBe(true);
    expect(isInstantBooking({ pricingType: 'price-on-enquiry', calendarBased: true })).toBe(false);
    expect(isInstantBooking({ pricingType: 'price-offers', calendarBased: false })).toBe(false);
  });
  it('payment required when instant and payableCost > 0', () => {
    expect(requiresPayment({ instant: true, payableCost: 1 })).toBe(true);
    expect(requiresPayment({ instant: true, payableCost: 0 })).toBe(false);
    expect(requiresPayment({ instant: false, payableCost: 500 })).toBe(false);
    expect(requiresPayment({ instant: true, payableCost: undefined })).toBe(false);
  });
  it('slot duration: 900 s by default, else minutes × 60', () => {
    expect(slotDurationSeconds(undefined)).toBe(900);
    expect(slotDurationSeconds(0)).toBe(900);
    expect(slotDurationSeconds(90)).toBe(5400);
  });
});

describe('calendar slots (spec 5)', () => {
  const day = 1_700_006_400; // a day start
  const slots = [
    { from: day + 3600, to: day + 7200 },
    { from: day + 36000, to: day + 39600 },
    { from: day + 90000, to: day + 93600 }, // next day
  ];
  it('lists only future slots on the selected day', () => {
    expect(slotsForDay(slots, day, day + 86400, day)).toEqual(slots.slice(0, 2));
    expect(slotsForDay(slots, day, day + 86400, day + 3600)).toEqual([slots[1]]);
    expect(slotsForDay(slots, day, day + 86400, day + 36000)).toEqual([]);
  });
  it('disables past days and days without a future slot', () => {
    expect(isDayDisabled(slots, day, day + 86400, day)).toBe(false);
    expect(isDayDisabled(slots, day, day + 86400, day + 36000)).toBe(true);
    expect(isDayDisabled(slots, day - 86400, day, day)).toBe(true);
    expect(isDayDisabled([], day + 86400 * 5, day + 86400 * 6, day)).toBe(true);
  });
  it('previous month disabled for past months; continue needs a slot', () => {
    expect(canGoToPreviousMonth({ year: 2024, month: 3 }, { year: 2024, month: 3 })).toBe(false);
    expect(canGoToPreviousMonth({ year: 2024, month: 4 }, { year: 2024, month: 3 })).toBe(true);
    expect(canGoToPreviousMonth({ year: 2025, month: 0 }, { year: 2024, month: 11 })).toBe(true);
    expect(canContinueWithSlot(null)).toBe(false);
    expect(canContinueWithSlot(slots[0])).toBe(true);
  });
  it('converts ISO strings', () => {
    expect(toEpochSeconds('2023-11-14T22:13:20Z')).toBe(1_700_000_000);
    expect(toEpochSeconds(5)).toBe(5);
  });
});
