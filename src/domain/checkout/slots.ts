/**
 * Availability slots for calendar-based requests (spec 7 "availability/slots", 9 "Slot duration",
 * 3 "Educator.Working hours"). Pure: the caller passes opening hours, busy times and the clock.
 *
 * Rule: each open range of each day (in the educator's time zone, Europe/London by default) is cut into
 * back-to-back slots of the slot duration, starting at the range's start; a slot must end by the range's
 * end. An empty list of ranges means open 24 hours; null or absent means closed. Slots that overlap a
 * busy interval (an existing booking) or do not start in the future are left out.
 */
import { DEFAULT_TIME_ZONE } from '../time';
import type { Slot } from './request';

export type WorkingWeekday = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';
export type WorkingHoursInput = Partial<Record<WorkingWeekday, ReadonlyArray<{ from: number; until: number }> | null>>;

const WEEKDAY_BY_INDEX: WorkingWeekday[] = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const DAY = 86400;

/** Offset of `timeZone` from UTC at an instant, in seconds (e.g. 3600 for London in summer). */
export function zoneOffsetSeconds(epochSeconds: number, timeZone: string = DEFAULT_TIME_ZONE): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(new Date(epochSeconds * 1000));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) / 1000;
  return asUtc - epochSeconds;
}

/** The local calendar date (y, m 1-12, d) of an instant in `timeZone`. */
export function localDate(epochSeconds: number, timeZone: string = DEFAULT_TIME_ZONE): { year: number; month: number; day: number } {
  const local = new Date((epochSeconds + zoneOffsetSeconds(epochSeconds, timeZone)) * 1000);
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate() };
}

/** Epoch seconds of local midnight of a calendar date in `timeZone`. */
export function zonedMidnight(date: { year: number; month: number; day: number }, timeZone: string = DEFAULT_TIME_ZONE): number {
  const guess = Date.UTC(date.year, date.month - 1, date.day) / 1000;
  let result = guess - zoneOffsetSeconds(guess, timeZone);
  result = guess - zoneOffsetSeconds(result, timeZone);
  return result;
}

export interface SlotsInput {
  workingHours: WorkingHoursInput | null | undefined;
  /** Window [from, to) in epoch seconds. */
  from: number;
  to: number;
  /** Slot length in seconds (request.slotDurationSeconds). */
  durationSeconds: number;
  /** Existing bookings of the educator. */
  busy?: ReadonlyArray<Slot>;
  now: number;
  timeZone?: string;
  /** Safety cap on the number of days scanned. */
  maxDays?: number;
}

function overlaps(a: Slot, b: Slot): boolean {
  return a.from < b.to && b.from < a.to;
}

export function availabilitySlots(input: SlotsInput): Slot[] {
  const tz = input.timeZone ?? DEFAULT_TIME_ZONE;
  const duration = Math.max(60, Math.floor(input.durationSeconds));
  const slots: Slot[] = [];
  if (!(input.to > input.from)) return slots;
  const start = localDate(input.from, tz);
  const maxDays = input.maxDays ?? 92;
  for (let i = 0; i <= maxDays; i++) {
    const date = new Date(Date.UTC(start.year, start.month - 1, start.day + i));
    const dayStart = zonedMidnight({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() }, tz);
    if (dayStart >= input.to) break;
    const weekday = WEEKDAY_BY_INDEX[date.getUTCDay()];
    const value = input.workingHours?.[weekday];
    if (value == null) continue;
    const ranges = value.length === 0 ? [{ from: 0, until: DAY }] : [...value].sort((a, b) => a.from - b.from);
    for (const range of ranges) {
      for (let t = dayStart + range.from; t + duration <= dayStart + range.until; t += duration) {
        const slot = { from: t, to: t + duration };
        if (slot.from < input.from || slot.to > input.to) continue;
        if (slot.from <= input.now) continue;
        if (input.busy?.some((b) => overlaps(slot, b))) continue;
        slots.push(slot);
      }
    }
  }
  return slots;
}

/** Whether `from` starts one of the available slots (the server check of "request available date selected"). */
export function isAvailableSlot(slots: ReadonlyArray<Slot>, from: number): boolean {
  return slots.some((slot) => slot.from === from);
}
