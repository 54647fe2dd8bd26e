import { describe, expect, it } from 'vitest';
import { nextFromUpcoming, salesEndOf } from '../../src/domain/next-date.ts';
import { occurrenceIsListed } from '../../src/domain/pricing.ts';
import type { Occurrence, Offer } from '../../src/domain/entities.ts';

const T = 1_750_000_000;
const offer = (end_at: number | null): Offer => ({ _id: `o${end_at}`, end_at }) as Offer;
const occurrence = (offers: Offer[]): Occurrence => ({ _id: 'occ', visibility: 'public', parent_ref: null, individually_bookable: true, offers }) as Occurrence;

describe('salesEndOf', () => {
  const cases: Array<[string, Offer[], Offer[], number | null]> = [
    ['no offers at all', [], [], null],
    ['own offer without an end', [offer(null), offer(T)], [], null],
    ['own offers: the last end', [offer(T - 5), offer(T)], [offer(null)], T],
    ['no own offers: the course-wide ones', [], [offer(T - 1), offer(T + 1)], T + 1],
    ['no own offers, a course-wide one without an end', [], [offer(T), offer(null)], null],
  ];
  it.each(cases)('%s', (_name, own, courseWide, expected) => {
    expect(salesEndOf(own, courseWide)).toBe(expected);
  });

  it('agrees with occurrenceIsListed one second either side of every end', () => {
    for (const [, own, courseWide] of cases) {
      const end = salesEndOf(own, courseWide);
      for (const now of [T - 6, T - 5, T - 4, T - 1, T, T + 1, T + 2]) {
        const listed = occurrenceIsListed(occurrence(own), now, courseWide);
        expect(end === null || now < end).toBe(listed);
      }
    }
  });
});

describe('nextFromUpcoming', () => {
  const upcoming: Array<[number, number | null]> = [[T + 10, T + 5], [T + 11, null], [T + 20, T + 30]];
  it('is the first date that starts at or after now and is still on sale', () => {
    expect(nextFromUpcoming(upcoming, T)).toBe(T + 10);
    expect(nextFromUpcoming(upcoming, T + 4)).toBe(T + 10);
    // Its offers have all ended at T + 5 (end_at ≤ now).
    expect(nextFromUpcoming(upcoming, T + 5)).toBe(T + 11);
    // Starting now counts; a second later it has started.
    expect(nextFromUpcoming(upcoming, T + 11)).toBe(T + 11);
    expect(nextFromUpcoming(upcoming, T + 12)).toBe(T + 20);
    expect(nextFromUpcoming(upcoming, T + 20)).toBe(T + 20);
    expect(nextFromUpcoming(upcoming, T + 21)).toBeNull();
    expect(nextFromUpcoming([], T)).toBeNull();
  });
});
