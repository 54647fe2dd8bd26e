/**
 * Zone offsets (see zone.ts, which re-exports all of this): the part of the time-zone rules the course page's
 * dates need (an occurrence's length on the clock), apart from the calendar arithmetic only the checkout uses.
 */
import { tzOffset } from '@date-fns/tz/tzOffset';
import { DEFAULT_TIME_ZONE } from './time.ts';

// Checking a zone name builds an Intl formatter; remember the answer per name.
const zoneChecks = new Map<string, boolean>();

/** The zone itself when the runtime knows it, else Europe/London (a bad zone never breaks a page). */
export function knownZone(timeZone: string | null | undefined): string {
  if (!timeZone) return DEFAULT_TIME_ZONE;
  let valid = zoneChecks.get(timeZone);
  if (valid === undefined) {
    valid = !Number.isNaN(tzOffset(timeZone, new Date(0)));
    if (zoneChecks.size < 1000) zoneChecks.set(timeZone, valid);
  }
  return valid ? timeZone : DEFAULT_TIME_ZONE;
}

/** Spec 9: the browser's zone once the page runs there (the runtime's zone), else Europe/London. */
export function runtimeTimeZone(): string {
  try {
    return knownZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}

// Offsets already looked up, per zone and instant: a lookup goes through Intl (~11 µs), and a checkout's answers
// and e-mails ask again and again for the same few instants (an occurrence's start and end).
const offsets = new Map<string, number>();
const MAX_OFFSETS = 10_000;

/** Offset of `timeZone` from UTC at an instant, in seconds (3600 for London in summer, 0 in winter). */
export function zoneOffsetSeconds(epochSeconds: number, timeZone: string = DEFAULT_TIME_ZONE): number {
  const key = `${timeZone}\u0000${epochSeconds}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = tzOffset(knownZone(timeZone), new Date(epochSeconds * 1000)) * 60;
    if (offsets.size >= MAX_OFFSETS) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

/**
 * How long a span looks on the clock in `timeZone`: 09:00 Saturday to 17:00 Sunday is 32 hours on the clock
 * whether the clocks change in between (31 or 33 real hours) or not.
 */
export function wallClockSeconds(start: number, end: number, timeZone: string = DEFAULT_TIME_ZONE): number {
  return end - start + zoneOffsetSeconds(end, timeZone) - zoneOffsetSeconds(start, timeZone);
}
