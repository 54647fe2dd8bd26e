/**
 * The course page's 'Dates' list (spec 2.13 (11), 9): spaces left on a date, and the list in pages of
 * COURSE_DATES_PAGE_SIZE.
 */
import { COURSE_DATES_PAGE_SIZE } from './carousel.ts';

/** Spaces left on a date (its own count, else the course's), never below 0; null when neither says. */
export function spacesLeft(o: { available_spaces?: number | null; spaces?: number | null }, courseSpaces: number | null): number | null {
  const value = o.available_spaces ?? o.spaces ?? courseSpaces;
  return typeof value === 'number' ? Math.max(0, value) : null;
}

/** The page of dates to show: `page` kept within the pages there are (there is always at least one). */
export function datesPage<T>(dates: ReadonlyArray<T>, page: number): { pages: number; current: number; shown: T[] } {
  const pages = Math.max(1, Math.ceil(dates.length / COURSE_DATES_PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  return { pages, current, shown: dates.slice(current * COURSE_DATES_PAGE_SIZE, (current + 1) * COURSE_DATES_PAGE_SIZE) };
}

/** The page holding the date `id`, or null when it is not in the list. */
export function pageHolding(dates: ReadonlyArray<{ _id: string }>, id: string): number | null {
  const index = dates.findIndex((o) => o._id === id);
  return index >= 0 ? Math.floor(index / COURSE_DATES_PAGE_SIZE) : null;
}
