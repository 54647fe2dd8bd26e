import { describe, expect, it } from 'vitest';
import { availabilitySlots, isAvailableSlot } from '../../src/domain/checkout/slots.ts';
import { localDate, zoneOffsetSeconds, zonedMidnight } from '../../src/domain/zone.ts';

const at = (iso: string) => Date.parse(iso) / 1000;
const iso = (s: number) => new Date(s * 1000).toISOString();

describe('time zone helpers', () => {
  it('London is UTC in winter and UTC+1 in summer', () => {
    expect(zoneOffsetSeconds(at('2030-01-15T12:00:00Z'))).toBe(0);
    expect(zoneOffsetSeconds(at('2030-07-15T12:00:00Z'))).toBe(3600);
    expect(iso(zonedMidnight({ year: 2030, month: 7, day: 15 }))).toBe('2030-07-14T23:00:00.000Z');
    expect(iso(zonedMidnight({ year: 2030, month: 1, day: 15 }))).toBe('2030-01-15T00:00:00.000Z');
    expect(localDate(at('2030-07-14T23:30:00Z'))).toEqual({ year: 2030, month: 7, day: 15 });
  });
});

describe('availabilitySlots', () => {
  const monday = { monday: [{ from: 9 * 3600, until: 12 * 3600 }] };
  // 2030-01-14 is a Monday.
  const from = at('2030-01-14T00:00:00Z');
  const to = at('2030-01-15T00:00:00Z');

  it('cuts open ranges into back-to-back slots of the duration', () => {
    const slots = availabilitySlots({ workingHours: monday, from, to, durationSeconds: 3600, now: from - 1 });
    expect(slots.map((s) => iso(s.from))).toEqual(['2030-01-14T09:00:00.000Z', '2030-01-14T10:00:00.000Z', '2030-01-14T11:00:00.000Z']);
    expect(slots.every((s) => s.to - s.from === 3600)).toBe(true);
  });

  it('a slot must end by the range end', () => {
    const slots = availabilitySlots({ workingHours: monday, from, to, durationSeconds: 7200, now: from - 1 });
    expect(slots.map((s) => iso(s.from))).toEqual(['2030-01-14T09:00:00.000Z']);
  });

  it('closed days have none; an empty list is open 24 hours', () => {
    expect(availabilitySlots({ workingHours: { tuesday: null }, from, to, durationSeconds: 900, now: 0 })).toEqual([]);
    expect(availabilitySlots({ workingHours: {}, from, to, durationSeconds: 900, now: 0 })).toEqual([]);
    expect(availabilitySlots({ workingHours: { monday: [] }, from, to, durationSeconds: 3600, now: 0 })).toHaveLength(24);
  });

  it('only future slots, none overlapping a booking', () => {
    const now = at('2030-01-14T10:00:00Z');
    const busy = [{ from: at('2030-01-14T10:30:00Z'), to: at('2030-01-14T11:15:00Z') }];
    const slots = availabilitySlots({ workingHours: monday, from, to, durationSeconds: 1800, now, busy });
    expect(slots.map((s) => iso(s.from))).toEqual(['2030-01-14T11:30:00.000Z']);
    expect(isAvailableSlot(slots, at('2030-01-14T11:30:00Z'))).toBe(true);
    expect(isAvailableSlot(slots, at('2030-01-14T10:30:00Z'))).toBe(false);
  });

  it('reads opening hours in London time (summer)', () => {
    const sFrom = at('2030-07-15T00:00:00Z'); // Monday
    const slots = availabilitySlots({ workingHours: monday, from: sFrom - 3600, to: sFrom + 86400, durationSeconds: 3600, now: 0 });
    expect(iso(slots[0].from)).toBe('2030-07-15T08:00:00.000Z');
  });
});

/**
 * UK clocks go forward at 01:00 UTC on 29 March 2026 (that day is 23 hours long) and back at 01:00 UTC on
 * 25 October 2026 (25 hours). Opening hours are wall-clock times in London on every day, those included.
 */
describe('availabilitySlots across the clock changes (Europe/London)', () => {
  const everyDay = (from: number, until: number) => Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [{ from: from * 3600, until: until * 3600 }]]),
  );
  const hours = everyDay(9, 11);
  const dayOf = (y: number, m: number, d: number) => {
    const start = zonedMidnight({ year: y, month: m, day: d });
    const end = zonedMidnight({ year: y, month: m, day: d + 1 });
    return { from: start, to: end };
  };
  const london = (s: number) => new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(s * 1000);

  it.each([
    ['Saturday before the spring change', 2026, 3, 28, ['2026-03-28T09:00:00.000Z', '2026-03-28T10:00:00.000Z']],
    ['spring change Sunday', 2026, 3, 29, ['2026-03-29T08:00:00.000Z', '2026-03-29T09:00:00.000Z']],
    ['Monday after the spring change', 2026, 3, 30, ['2026-03-30T08:00:00.000Z', '2026-03-30T09:00:00.000Z']],
    ['Saturday before the autumn change', 2026, 10, 24, ['2026-10-24T08:00:00.000Z', '2026-10-24T09:00:00.000Z']],
    ['autumn change Sunday', 2026, 10, 25, ['2026-10-25T09:00:00.000Z', '2026-10-25T10:00:00.000Z']],
    ['Monday after the autumn change', 2026, 10, 26, ['2026-10-26T09:00:00.000Z', '2026-10-26T10:00:00.000Z']],
  ])('09:00–11:00 gives slots at 09:00 and 10:00 London time on the %s', (_label, y, m, d, expected) => {
    const { from, to } = dayOf(y, m, d);
    const slots = availabilitySlots({ workingHours: hours, from, to, durationSeconds: 3600, now: 0 });
    expect(slots.map((s) => iso(s.from))).toEqual(expected);
    expect(slots.map((s) => london(s.from))).toEqual(['09:00', '10:00']);
    expect(slots.every((s) => s.to - s.from === 3600)).toBe(true);
  });

  it('a day open 24 hours has 23 hourly slots when the clocks go forward and 25 when they go back', () => {
    const open = { sunday: [] as { from: number; until: number }[] };
    const spring = dayOf(2026, 3, 29);
    const autumn = dayOf(2026, 10, 25);
    expect(availabilitySlots({ workingHours: open, ...spring, durationSeconds: 3600, now: 0 })).toHaveLength(23);
    expect(availabilitySlots({ workingHours: open, ...autumn, durationSeconds: 3600, now: 0 })).toHaveLength(25);
    // Opening hours that run to midnight ('24:00') end at the next local midnight.
    const toMidnight = { sunday: [{ from: 22 * 3600, until: 24 * 3600 }] };
    expect(availabilitySlots({ workingHours: toMidnight, ...autumn, durationSeconds: 3600, now: 0 }).map((s) => london(s.from))).toEqual(['22:00', '23:00']);
  });

  it('opening hours that start inside the missing hour start when the clocks have gone forward', () => {
    const early = { sunday: [{ from: 1.5 * 3600, until: 4 * 3600 }] };
    const slots = availabilitySlots({ workingHours: early, ...dayOf(2026, 3, 29), durationSeconds: 1800, now: 0 });
    expect(slots.map((s) => london(s.from))).toEqual(['02:30', '03:00', '03:30']);
  });

  it('local midnight and the local date around both changes', () => {
    expect(iso(zonedMidnight({ year: 2026, month: 3, day: 29 }))).toBe('2026-03-29T00:00:00.000Z');
    expect(iso(zonedMidnight({ year: 2026, month: 3, day: 30 }))).toBe('2026-03-29T23:00:00.000Z');
    expect(iso(zonedMidnight({ year: 2026, month: 10, day: 25 }))).toBe('2026-10-24T23:00:00.000Z');
    expect(iso(zonedMidnight({ year: 2026, month: 10, day: 26 }))).toBe('2026-10-26T00:00:00.000Z');
    expect(localDate(at('2026-03-29T23:30:00Z'))).toEqual({ year: 2026, month: 3, day: 30 });
    expect(localDate(at('2026-10-25T23:30:00Z'))).toEqual({ year: 2026, month: 10, day: 25 });
  });
});
