/**
 * Availability slots for calendar-based requests (spec 7 "availability/slots", 9 "Slot duration",
 * 3 "Educator.Working hours"). Pure: the caller passes opening hours, busy times and the clock.
 *
 * Rule: each open range of each day (in the educator's time zone, Europe/London by default) is cut into
 * back-to-back slots of the slot duration, starting at the range's start; a slot must end by the range's
 * end. An empty list of ranges means open 24 hours; null or absent means closed. Slots that overlap a
 * busy interval (an existing booking) or do not start in the future are left out.
 */
import { DEFAULT_TIME_ZONE } from '../time.ts';
import { addCalendarDays, calendarWeekday, localDate, zonedWallClock } from '../zone.ts';
import type { Slot } from './request';

export type WorkingWeekday = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';
export type WorkingHoursInput = Partial<Record<WorkingWeekday, ReadonlyArray<{ from: number; until: number }> | null>>;

const WEEKDAY_BY_INDEX: WorkingWeekday[] = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const WHOLE_DAY = [{ from: 0, until: 86400 }];

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
    const date = addCalendarDays(start, i);
    if (zonedWallClock(date, 0, tz) >= input.to) break;
    const value = input.workingHours?.[WEEKDAY_BY_INDEX[calendarWeekday(date)]];
    if (value == null) continue;
    const ranges = value.length === 0 ? WHOLE_DAY : [...value].sort((a, b) => a.from - b.from);
    for (const range of ranges) {
      // Opening hours are wall-clock times on this date: their instants come from the zone's rules, so a
      // range keeps its clock times on the days the clocks change (and such a day has 23 or 25 hours).
      const rangeStart = zonedWallClock(date, range.from, tz);
      const rangeEnd = zonedWallClock(date, range.until, tz);
      for (let t = rangeStart; t + duration <= rangeEnd; t += duration) {
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
