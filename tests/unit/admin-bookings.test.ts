/** The bookings list's pure rules (src/domain/admin/bookings.ts): cursors, sorts, the search's range, the admin's inputs. */
import { describe, expect, it } from 'vitest';
import {
  BOOKING_SORTS, bookingListQuerySchema, decodeCursor, encodeCursor, londonDateTime, londonDayEnd, londonDayStart, penceFromPounds, searchRange, sortKey,
} from '../../src/domain/admin/bookings.ts';

describe('cursors', () => {
  it('round-trip a sort value and an id, including text with accents and no value', () => {
    for (const c of [{ value: 1_800_000_000, id: 'BKG-1' }, { value: 'zoë ångström', id: 'BKG-2' }, { value: null, id: 'BKG-3' }]) {
      const text = encodeCursor(c);
      expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(text)).toEqual(c);
    }
  });

  it('read anything else as no cursor', () => {
    for (const bad of ['', 'not-a-cursor', encodeCursor({ value: 1, id: 'x' }).slice(0, 5), btoa('[1]'), btoa('[{"a":1},"x"]'), btoa(JSON.stringify([1, 'x'.repeat(65)]))]) {
      expect(decodeCursor(bad)).toBeNull();
    }
  });
});

describe('sorts', () => {
  it('name a column and a direction each', () => {
    expect(BOOKING_SORTS.map(sortKey)).toEqual([
      { column: 'created_at', direction: 'desc' }, { column: 'created_at', direction: 'asc' },
      { column: 'start_datetime', direction: 'asc' }, { column: 'start_datetime', direction: 'desc' },
      { column: 'total_cost', direction: 'desc' }, { column: 'total_cost', direction: 'asc' },
      { column: 'learner_name', direction: 'asc' }, { column: 'learner_name', direction: 'desc' },
    ]);
  });

  it('default to newest first, 25 a page, at most 100', () => {
    expect(bookingListQuerySchema.parse({})).toMatchObject({ sort: 'created-desc', limit: 25 });
    expect(bookingListQuerySchema.safeParse({ limit: '101' }).success).toBe(false);
    expect(bookingListQuerySchema.safeParse({ sort: 'price' }).success).toBe(false);
  });
});

describe('the search', () => {
  it('is a lower-case prefix range with the spaces tidied', () => {
    expect(searchRange('  Ada   LOVELACE ')).toEqual({ from: 'ada lovelace', to: 'ada lovelace\u{10FFFF}' });
    expect(searchRange('   ')).toBeNull();
    expect(searchRange(undefined)).toBeNull();
  });

  it('keeps every longer text that starts with it, and nothing else (compared as the databases do: UTF-8 bytes)', () => {
    const { from, to } = searchRange('gra')!;
    const bytes = (s: string) => Buffer.from(s, 'utf8');
    const inside = (s: string) => Buffer.compare(bytes(s), bytes(from)) >= 0 && Buffer.compare(bytes(s), bytes(to)) < 0;
    expect(['gra', 'grace', 'grace hopper', 'gra\u{FFFF}x', 'graé'].every(inside)).toBe(true);
    expect(['gr', 'grb', 'agra', 'grz'].some(inside)).toBe(false);
  });
});

describe('what an admin types', () => {
  it('reads pounds as pence', () => {
    expect(penceFromPounds('12')).toBe(1200);
    expect(penceFromPounds('12.5')).toBe(1250);
    expect(penceFromPounds('£1,012.05')).toBe(101205);
    expect(penceFromPounds('0.01')).toBe(1);
    for (const bad of ['', 'ten', '1.234', '-3', '1e3']) expect(penceFromPounds(bad)).toBeNull();
  });

  it('reads London dates and times, across the clock changes', () => {
    expect(londonDateTime('2027-01-15', '10:00')).toBe(Date.UTC(2027, 0, 15, 10) / 1000);
    expect(londonDateTime('2027-07-15', '10:00')).toBe(Date.UTC(2027, 6, 15, 9) / 1000);
    expect(londonDayStart('2027-03-28')).toBe(Date.UTC(2027, 2, 28, 0) / 1000);
    // The last Sunday of March is 23 hours long: the next midnight is 23 hours later.
    expect(londonDayEnd('2027-03-28')! - londonDayStart('2027-03-28')!).toBe(23 * 3600);
    expect(londonDateTime('2027-13-01', '10:00')).toBeNull();
    expect(londonDateTime('2027-01-01', '25:00')).toBeNull();
  });
});
