import { describe, expect, it } from 'vitest';
import { datesPage, pageHolding, spacesLeft } from '../../src/domain/course-dates.ts';
import { COURSE_DATES_PAGE_SIZE } from '../../src/domain/carousel.ts';

describe('course dates', () => {
  it('counts spaces left from the date, else the course, never below 0', () => {
    expect(spacesLeft({ available_spaces: 3, spaces: 10 }, 20)).toBe(3);
    expect(spacesLeft({ available_spaces: null, spaces: null }, 20)).toBe(20);
    expect(spacesLeft({ available_spaces: -2, spaces: 10 }, null)).toBe(0);
    expect(spacesLeft({ available_spaces: null, spaces: null }, null)).toBeNull();
  });

  it('pages the dates, keeping the page within those there are', () => {
    const dates = Array.from({ length: COURSE_DATES_PAGE_SIZE + 2 }, (_, i) => ({ _id: `o${i}` }));
    expect(datesPage(dates, 0)).toMatchObject({ pages: 2, current: 0 });
    expect(datesPage(dates, 5)).toEqual({ pages: 2, current: 1, shown: dates.slice(COURSE_DATES_PAGE_SIZE) });
    expect(datesPage([], 3)).toEqual({ pages: 1, current: 0, shown: [] });
    expect(pageHolding(dates, `o${COURSE_DATES_PAGE_SIZE}`)).toBe(1);
    expect(pageHolding(dates, 'missing')).toBeNull();
  });
});
