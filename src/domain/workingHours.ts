/**
 * Opening hours on the About page (spec 2.8, 3 "Educator.Working hours").
 */

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A range in seconds from midnight. */
export interface WorkingRange {
  from: number;
  until: number;
}

export type WorkingHours = Partial<Record<Weekday, ReadonlyArray<WorkingRange> | null>>;

export const CLOSED = 'Closed';
export const OPEN_24_HOURS = 'Open 24 hours';

export interface OpeningHoursRow {
  day: Weekday;
  /** 'Monday' … 'Sunday'. */
  label: string;
  /** 'Closed', 'Open 24 hours', or the ranges joined with ', '. */
  text: string;
  /** Each range as 'HH:MM → HH:MM' (empty when closed or open all day). */
  ranges: string[];
}

/** Seconds from midnight as 'HH:MM' (86400 → '24:00'). */
export function formatTimeOfDay(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** Spec 2.8: one range as 'HH:MM → HH:MM'. */
export function formatRange(range: WorkingRange): string {
  return `${formatTimeOfDay(range.from)} → ${formatTimeOfDay(range.until)}`;
}

/**
 * Spec 2.8 / 3: monday to sunday; null or absent → 'Closed'; an empty array →
 * 'Open 24 hours'; otherwise the ranges as 'HH:MM → HH:MM', sorted by start.
 */
export function openingHoursRows(workingHours: WorkingHours | null | undefined): OpeningHoursRow[] {
  return WEEKDAYS.map((day) => {
    const label = day[0].toUpperCase() + day.slice(1);
    const value = workingHours?.[day];
    if (value == null) return { day, label, text: CLOSED, ranges: [] };
    if (value.length === 0) return { day, label, text: OPEN_24_HOURS, ranges: [] };
    const ranges = [...value].sort((a, b) => a.from - b.from).map(formatRange);
    return { day, label, text: ranges.join(', '), ranges };
  });
}
