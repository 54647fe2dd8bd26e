import { describe, expect, it } from 'vitest';
import { availabilitySlots, isAvailableSlot, localDate, zoneOffsetSeconds, zonedMidnight } from '../../src/domain/checkout/slots.ts';

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
