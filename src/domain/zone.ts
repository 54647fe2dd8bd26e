/**
 * Local time in a time zone (spec 9: Europe/London by default, then the browser's zone).
 *
 * Every calculation that turns wall-clock times or calendar days into instants goes through here: a London
 * day is 23 hours long on the last Sunday of March and 25 hours on the last Sunday of October, so
 * "midnight + 9 × 3600" and "now + 2 × 86400" are wrong twice a year. The zone rules come from
 * @date-fns/tz (the date-fns project's time-zone package): `tzOffset` gives a zone's offset at any instant
 * from the runtime's tz database (and NaN for a zone it does not know). Only that function is imported (its own
 * entry point, a few hundred bytes): the package's TZDate class patches Date's prototype when loaded, so importing
 * the package root would ship it to every page that shows a date. An offset lookup costs ~11 µs, so two months
 * of slots and the demo catalogue stay fast. Display formatting with
 * `Intl.DateTimeFormat({ timeZone })` is already zone-correct and stays where it is.
 *
 * Times are epoch seconds; a calendar date is `{ year, month (1–12), day }` with no zone of its own.
 */
import { DEFAULT_TIME_ZONE } from './time.ts';
import { zoneOffsetSeconds } from './zone-offset.ts';

// Zone names and offsets live in zone-offset.ts (one copy, re-exported here).
export { knownZone, runtimeTimeZone, wallClockSeconds, zoneOffsetSeconds } from './zone-offset.ts';

export interface CalendarDate {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

/** The local date and time parts of an instant (hour 0–23). */
export function zonedParts(epochSeconds: number, timeZone: string = DEFAULT_TIME_ZONE): CalendarDate & { hour: number; minute: number; second: number } {
  const local = new Date((epochSeconds + zoneOffsetSeconds(epochSeconds, timeZone)) * 1000);
  return {
    year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate(),
    hour: local.getUTCHours(), minute: local.getUTCMinutes(), second: local.getUTCSeconds(),
  };
}

/** The local calendar date of an instant in `timeZone`. */
export function localDate(epochSeconds: number, timeZone: string = DEFAULT_TIME_ZONE): CalendarDate {
  const { year, month, day } = zonedParts(epochSeconds, timeZone);
  return { year, month, day };
}

/** 'YYYY-MM-DD' of a calendar date. */
export function isoDate(date: CalendarDate): string {
  return `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

// Calendar dates carry no zone: their arithmetic is the proleptic Gregorian calendar, which Date.UTC does
// exactly.
function calendarUtc(date: CalendarDate, seconds = 0): Date {
  return new Date(Date.UTC(date.year, date.month - 1, date.day, 0, 0, seconds));
}

/** A calendar date `days` days later (or earlier), across month and year ends. */
export function addCalendarDays(date: CalendarDate, days: number): CalendarDate {
  const d = calendarUtc({ ...date, day: date.day + days });
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/**
 * A calendar date `months` months later (or earlier), on the same day of the month, or the month's last day when
 * it has no such day (31 January + 1 month is 28 or 29 February; 29 February + 12 months is 28 February).
 */
export function addCalendarMonths(date: CalendarDate, months: number): CalendarDate {
  const first = calendarUtc({ year: date.year, month: date.month + months, day: 1 });
  const year = first.getUTCFullYear();
  const month = first.getUTCMonth() + 1;
  const lastDay = calendarUtc({ year, month: month + 1, day: 0 }).getUTCDate();
  return { year, month, day: Math.min(date.day, lastDay) };
}

/** Day of the week of a calendar date, 0 = Sunday … 6 = Saturday (Date#getDay numbering). */
export function calendarWeekday(date: CalendarDate): number {
  return calendarUtc(date).getUTCDay();
}

/**
 * The instant of a wall-clock time on a calendar date in `timeZone`; `secondsFromMidnight` may be 86400
 * (the '24:00' end of opening hours: the next day's midnight).
 *
 * The zone's offsets a day either side decide it (the way Temporal's "compatible" disambiguation does, and
 * RFC 5545 reads local times): a time the clocks skip (01:30 on the spring Sunday in London) is read as the
 * same time after the jump (02:30 BST); a time that happens twice (01:30 on the autumn Sunday) as its first
 * occurrence (01:30 BST).
 */
export function zonedWallClock(date: CalendarDate, secondsFromMidnight: number, timeZone: string = DEFAULT_TIME_ZONE): number {
  const naive = calendarUtc(date, secondsFromMidnight).getTime() / 1000;
  const before = zoneOffsetSeconds(naive - 86400, timeZone);
  const after = zoneOffsetSeconds(naive + 86400, timeZone);
  if (before === after) return naive - before;
  const fits = [naive - before, naive - after].filter((t, i) => zoneOffsetSeconds(t, timeZone) === (i === 0 ? before : after));
  return fits.length ? Math.min(...fits) : naive - before;
}

/** Epoch seconds of local midnight at the start of a calendar date in `timeZone`. */
export function zonedMidnight(date: CalendarDate, timeZone: string = DEFAULT_TIME_ZONE): number {
  return zonedWallClock(date, 0, timeZone);
}

/** Local midnight at the start of the day an instant falls on. */
export function startOfLocalDay(epochSeconds: number, timeZone: string = DEFAULT_TIME_ZONE): number {
  return zonedMidnight(localDate(epochSeconds, timeZone), timeZone);
}

/**
 * The same wall-clock time `days` calendar days later (negative: earlier) in `timeZone`: 09:00 on the
 * Saturday before the clocks change, plus one day, is 09:00 on the Sunday (23 or 25 hours later).
 */
export function addLocalDays(epochSeconds: number, days: number, timeZone: string = DEFAULT_TIME_ZONE): number {
  const p = zonedParts(epochSeconds, timeZone);
  return zonedWallClock(addCalendarDays(p, days), p.hour * 3600 + p.minute * 60 + p.second, timeZone);
}

/** ISO 8601 local date-time with its offset, e.g. '2025-07-15T11:00:00+01:00'. */
export function zonedIsoDateTime(epochSeconds: number, timeZone: string = DEFAULT_TIME_ZONE): string {
  const at = Math.floor(epochSeconds);
  const offset = Math.round(zoneOffsetSeconds(at, timeZone) / 60);
  const local = new Date((at + offset * 60) * 1000).toISOString().slice(0, 19);
  const minutes = Math.abs(offset);
  const hhmm = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  return `${local}${offset < 0 ? '-' : '+'}${hhmm}`;
}

/**
 * The calendar day ('YYYY-MM-DD') a date input names: a plain date is that day wherever the reader is; a
 * date-time is the day it falls on in `timeZone`. Null when it is no real date ('2026-02-30', 'soon').
 */
export function calendarDayOf(value: string, timeZone: string = DEFAULT_TIME_ZONE): string | null {
  const text = value.trim();
  const plain = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (plain) {
    const date = { year: Number(plain[1]), month: Number(plain[2]), day: Number(plain[3]) };
    // A real day reads back as itself ('2026-02-30' would come back as 2 March).
    return isoDate(addCalendarDays(date, 0)) === text ? text : null;
  }
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? isoDate(localDate(Math.floor(ms / 1000), timeZone)) : null;
}
