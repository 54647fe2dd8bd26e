/**
 * Local time in Europe/London around the two 2026 clock changes: forward at 01:00 UTC on Sunday 29 March
 * (a 23-hour day), back at 01:00 UTC on Sunday 25 October (a 25-hour day).
 */
import { describe, expect, it } from 'vitest';
import {
  addCalendarDays, addCalendarMonths, addLocalDays, calendarDayOf, calendarWeekday, isoDate, knownZone, localDate, startOfLocalDay, wallClockSeconds, zonedIsoDateTime,
  zonedMidnight, zonedParts, zonedWallClock, zoneOffsetSeconds,
} from '../../src/domain/zone.ts';

const at = (iso: string) => Date.parse(iso) / 1000;
const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
const H = 3600;

describe('zonedWallClock', () => {
  it('09:00 on the days around both changes', () => {
    expect(iso(zonedWallClock({ year: 2026, month: 3, day: 28 }, 9 * H))).toBe('2026-03-28T09:00:00Z');
    expect(iso(zonedWallClock({ year: 2026, month: 3, day: 29 }, 9 * H))).toBe('2026-03-29T08:00:00Z');
    expect(iso(zonedWallClock({ year: 2026, month: 3, day: 30 }, 9 * H))).toBe('2026-03-30T08:00:00Z');
    expect(iso(zonedWallClock({ year: 2026, month: 10, day: 24 }, 9 * H))).toBe('2026-10-24T08:00:00Z');
    expect(iso(zonedWallClock({ year: 2026, month: 10, day: 25 }, 9 * H))).toBe('2026-10-25T09:00:00Z');
    expect(iso(zonedWallClock({ year: 2026, month: 10, day: 26 }, 9 * H))).toBe('2026-10-26T09:00:00Z');
  });
  it('a skipped time is read after the jump; a repeated time is its first occurrence', () => {
    expect(iso(zonedWallClock({ year: 2026, month: 3, day: 29 }, 1.5 * H))).toBe('2026-03-29T01:30:00Z'); // 02:30 BST
    expect(iso(zonedWallClock({ year: 2026, month: 10, day: 25 }, 1.5 * H))).toBe('2026-10-25T00:30:00Z'); // 01:30 BST
    expect(iso(zonedWallClock({ year: 2026, month: 10, day: 25 }, 1 * H))).toBe('2026-10-25T00:00:00Z');
    expect(iso(zonedWallClock({ year: 2026, month: 10, day: 25 }, 2 * H))).toBe('2026-10-25T02:00:00Z');
  });
  it("'24:00' is the next local midnight", () => {
    expect(zonedWallClock({ year: 2026, month: 3, day: 29 }, 24 * H)).toBe(zonedMidnight({ year: 2026, month: 3, day: 30 }));
    expect(zonedMidnight({ year: 2026, month: 3, day: 30 }) - zonedMidnight({ year: 2026, month: 3, day: 29 })).toBe(23 * H);
    expect(zonedMidnight({ year: 2026, month: 10, day: 26 }) - zonedMidnight({ year: 2026, month: 10, day: 25 })).toBe(25 * H);
  });
  it('another zone, and an unknown zone read as London', () => {
    expect(iso(zonedWallClock({ year: 2026, month: 3, day: 8 }, 9 * H, 'America/New_York'))).toBe('2026-03-08T13:00:00Z');
    expect(knownZone('Not/AZone')).toBe('Europe/London');
    expect(zonedWallClock({ year: 2026, month: 7, day: 1 }, 9 * H, 'Not/AZone')).toBe(at('2026-07-01T08:00:00Z'));
  });
});

describe('calendar days and local days', () => {
  it('adds calendar days across month and year ends', () => {
    expect(addCalendarDays({ year: 2026, month: 12, day: 31 }, 1)).toEqual({ year: 2027, month: 1, day: 1 });
    expect(addCalendarDays({ year: 2026, month: 3, day: 1 }, -1)).toEqual({ year: 2026, month: 2, day: 28 });
    expect(calendarWeekday({ year: 2026, month: 3, day: 29 })).toBe(0);
    expect(calendarWeekday({ year: 2026, month: 3, day: 30 })).toBe(1);
    expect(isoDate({ year: 2026, month: 3, day: 9 })).toBe('2026-03-09');
  });
  it('two days later keeps the clock time across a change', () => {
    expect(iso(addLocalDays(at('2026-03-28T10:00:00Z'), 2))).toBe('2026-03-30T09:00:00Z'); // 10:00 GMT → 10:00 BST
    expect(iso(addLocalDays(at('2026-10-24T09:00:00Z'), 2))).toBe('2026-10-26T10:00:00Z'); // 10:00 BST → 10:00 GMT
    expect(iso(addLocalDays(at('2026-10-26T10:00:00Z'), -7))).toBe('2026-10-19T09:00:00Z');
    expect(iso(addLocalDays(at('2026-06-10T09:00:00Z'), 2))).toBe('2026-06-12T09:00:00Z');
  });
  it('the local day of an instant and its midnight', () => {
    expect(localDate(at('2026-03-29T00:59:59Z'))).toEqual({ year: 2026, month: 3, day: 29 });
    expect(localDate(at('2026-10-24T23:30:00Z'))).toEqual({ year: 2026, month: 10, day: 25 });
    expect(iso(startOfLocalDay(at('2026-10-25T23:59:00Z')))).toBe('2026-10-24T23:00:00Z');
    expect(iso(startOfLocalDay(at('2026-03-29T22:00:00Z')))).toBe('2026-03-29T00:00:00Z');
  });
});

describe('offsets, parts and wall-clock lengths', () => {
  it('offset either side of each change', () => {
    expect(zoneOffsetSeconds(at('2026-03-29T00:59:59Z'))).toBe(0);
    expect(zoneOffsetSeconds(at('2026-03-29T01:00:00Z'))).toBe(H);
    expect(zoneOffsetSeconds(at('2026-10-25T00:59:59Z'))).toBe(H);
    expect(zoneOffsetSeconds(at('2026-10-25T01:00:00Z'))).toBe(0);
  });
  it('ISO date-time with the offset of the instant', () => {
    expect(zonedIsoDateTime(at('2026-03-29T00:30:00Z'))).toBe('2026-03-29T00:30:00+00:00');
    expect(zonedIsoDateTime(at('2026-03-29T01:30:00Z'))).toBe('2026-03-29T02:30:00+01:00');
    expect(zonedIsoDateTime(at('2026-10-25T00:30:00Z'))).toBe('2026-10-25T01:30:00+01:00');
    expect(zonedIsoDateTime(at('2026-10-25T01:30:00Z'))).toBe('2026-10-25T01:30:00+00:00');
    // Offsets west of Greenwich and with minutes.
    expect(zonedIsoDateTime(at('2026-01-15T12:00:00Z'), 'America/New_York')).toBe('2026-01-15T07:00:00-05:00');
    expect(zonedIsoDateTime(at('2026-01-15T12:00:00Z'), 'Asia/Kolkata')).toBe('2026-01-15T17:30:00+05:30');
    expect(zonedIsoDateTime(at('2026-01-15T12:00:00Z') + 0.9)).toBe('2026-01-15T12:00:00+00:00');
    expect(zonedParts(at('2026-10-25T01:30:00Z'))).toEqual({ year: 2026, month: 10, day: 25, hour: 1, minute: 30, second: 0 });
  });
  it('a span keeps its clock length when the clocks change inside it', () => {
    // Saturday 09:00 to Sunday 17:00 is 32 hours on the clock; 31 real hours in March, 33 in October.
    expect(wallClockSeconds(at('2026-03-28T09:00:00Z'), at('2026-03-29T16:00:00Z'))).toBe(32 * H);
    expect(wallClockSeconds(at('2026-10-24T08:00:00Z'), at('2026-10-25T17:00:00Z'))).toBe(32 * H);
    expect(wallClockSeconds(at('2026-06-06T08:00:00Z'), at('2026-06-07T16:00:00Z'))).toBe(32 * H);
  });
});

describe('calendarDayOf', () => {
  it('a plain date is that day; a date-time is its London day; anything else is no date', () => {
    expect(calendarDayOf('2026-03-29')).toBe('2026-03-29');
    expect(calendarDayOf(' 2026-10-25 ')).toBe('2026-10-25');
    expect(calendarDayOf('2026-10-24T23:30:00Z')).toBe('2026-10-25'); // 00:30 BST
    expect(calendarDayOf('2026-10-25T23:30:00Z')).toBe('2026-10-25'); // 23:30 GMT
    expect(calendarDayOf('2026-02-30')).toBeNull();
    expect(calendarDayOf('2026-13-01')).toBeNull();
    expect(calendarDayOf('soon')).toBeNull();
  });
});

describe('addCalendarMonths', () => {
  it('keeps the day of the month, or takes the month\'s last day when it has none', () => {
    expect(addCalendarMonths({ year: 2026, month: 1, day: 31 }, 1)).toEqual({ year: 2026, month: 2, day: 28 });
    expect(addCalendarMonths({ year: 2028, month: 1, day: 31 }, 1)).toEqual({ year: 2028, month: 2, day: 29 });
    expect(addCalendarMonths({ year: 2028, month: 2, day: 29 }, 12)).toEqual({ year: 2029, month: 2, day: 28 });
    expect(addCalendarMonths({ year: 2026, month: 11, day: 15 }, 14)).toEqual({ year: 2028, month: 1, day: 15 });
    expect(addCalendarMonths({ year: 2026, month: 3, day: 31 }, -1)).toEqual({ year: 2026, month: 2, day: 28 });
  });
});
