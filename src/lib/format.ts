/**
 * Date display for public pages: en-GB in Europe/London (spec 9 defaults), the same on the server
 * and in the browser so pre-rendered HTML and hydrated islands agree.
 */
import { DEFAULT_DISPLAY_LOCALE, DEFAULT_TIME_ZONE } from '../domain/time.ts';

const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(key: string, options: Intl.DateTimeFormatOptions, timeZone = DEFAULT_TIME_ZONE): Intl.DateTimeFormat {
  const id = `${key}|${timeZone}`;
  let f = cache.get(id);
  if (!f) {
    f = new Intl.DateTimeFormat(DEFAULT_DISPLAY_LOCALE, { ...options, timeZone });
    cache.set(id, f);
  }
  return f;
}

/** 'Sat 6 Dec 2026' */
export function formatDay(epochSeconds: number, timeZone?: string): string {
  return formatter('day', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }, timeZone).format(epochSeconds * 1000);
}

/** 'Sat 6 Dec' */
export function formatShortDay(epochSeconds: number, timeZone?: string): string {
  return formatter('short', { weekday: 'short', day: 'numeric', month: 'short' }, timeZone).format(epochSeconds * 1000);
}

/** '10:00' */
export function formatTime(epochSeconds: number, timeZone?: string): string {
  return formatter('time', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }, timeZone).format(epochSeconds * 1000);
}

/** 'Sat 6 Dec 2026, 10:00 – 12:30' or 'Sat 6 Dec 2026, 10:00 – Sun 7 Dec 2026, 16:00'. */
export function formatOccurrenceRange(start: number, end: number, timeZone?: string): string {
  const sameDay = formatDay(start, timeZone) === formatDay(end, timeZone);
  return sameDay
    ? `${formatDay(start, timeZone)}, ${formatTime(start, timeZone)} – ${formatTime(end, timeZone)}`
    : `${formatDay(start, timeZone)}, ${formatTime(start, timeZone)} – ${formatDay(end, timeZone)}, ${formatTime(end, timeZone)}`;
}

/** ISO 8601 with offset, for <time datetime> and structured data. */
export function isoDateTime(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace('.000Z', 'Z');
}
