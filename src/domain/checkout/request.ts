/**
 * Request flow rules (spec 4 "Request flow rules", 5 "Calendar slots", 9 "Checkout").
 */
import { checkoutDurationText } from '../time.ts';

/** Spec 4 / 9: calendar-based requests allow durations up to 1440 minutes. */
export const CALENDAR_MAX_DURATION_MINUTES = 1440;
/** Spec 9: slot duration when no duration is selected. */
export const DEFAULT_SLOT_SECONDS = 900;

export interface CalendarBasedInput {
  /** Course `date_requests`. */
  dateRequests: string | null | undefined;
  /** The selected duration in minutes; missing counts as within the limit (default slot). */
  durationMinutes?: number | null;
  /** stepState.dates.skipAvailableDates. */
  skipAvailableDates?: boolean | null;
}

/** Spec 4: calendar-based when date_requests is "calendar_based", the duration ≤ 1440 min and dates were not skipped. */
export function isCalendarBased(input: CalendarBasedInput): boolean {
  if (input.dateRequests !== 'calendar_based') return false;
  if (input.skipAvailableDates) return false;
  const minutes = input.durationMinutes;
  return minutes == null || minutes <= CALENDAR_MAX_DURATION_MINUTES;
}

/** Spec 4: instant booking when the pricing type is price-offers or free and the request is calendar-based. */
export function isInstantBooking(input: { pricingType: string | null | undefined; calendarBased: boolean }): boolean {
  return (input.pricingType === 'price-offers' || input.pricingType === 'free') && input.calendarBased;
}

/** Spec 4: payment is required when the request is instant and payableCost is above 0. */
export function requiresPayment(input: { instant: boolean; payableCost: number | null | undefined }): boolean {
  return input.instant && typeof input.payableCost === 'number' && input.payableCost > 0;
}

/** Spec 9: slot duration in seconds: 900 by default, otherwise the duration (minutes) × 60. */
export function slotDurationSeconds(durationMinutes: number | null | undefined): number {
  return typeof durationMinutes === 'number' && durationMinutes > 0 ? durationMinutes * 60 : DEFAULT_SLOT_SECONDS;
}

/** An availability slot in epoch seconds (spec 7 returns ISO strings; convert with {@link toEpochSeconds}). */
export interface Slot {
  from: number;
  to: number;
}

/** ISO date-time or epoch seconds → epoch seconds (whole seconds). */
export function toEpochSeconds(value: string | number): number {
  return typeof value === 'number' ? value : Math.floor(Date.parse(value) / 1000);
}

/** Spec 5: slots on the selected day [dayStart, dayEnd) that start in the future (after now). */
export function slotsForDay(slots: ReadonlyArray<Slot>, dayStart: number, dayEnd: number, now: number): Slot[] {
  return slots.filter((slot) => slot.from >= dayStart && slot.from < dayEnd && slot.from > now);
}

/** Spec 5: a day is disabled when it is past or has no future slot. */
export function isDayDisabled(slots: ReadonlyArray<Slot>, dayStart: number, dayEnd: number, now: number): boolean {
  if (dayEnd <= now) return true;
  return slotsForDay(slots, dayStart, dayEnd, now).length === 0;
}

/** Spec 2.14: the previous-month control is disabled for past months (months compared as year × 12 + month). */
export function canGoToPreviousMonth(visible: { year: number; month: number }, current: { year: number; month: number }): boolean {
  return visible.year * 12 + visible.month > current.year * 12 + current.month;
}

/** Spec 5: Continue stays disabled until a slot is chosen. */
export function canContinueWithSlot(selectedSlot: Slot | null | undefined): boolean {
  return !!selectedSlot;
}

/** A request duration option as the extra-cost rule reads it (spec 3 duration_pricing). */
export interface DurationOption {
  label?: string | null;
  /** Minutes. */
  duration?: number | null;
  /** Pence per space. */
  extra_cost?: number | null;
}

/**
 * Spec 7: the extra line of a duration with an `extra_cost` — labelled with the duration's label, or the
 * duration in the checkout's words (spec 9: "1 Hour 30 Minutes"), costing the extra per requested space.
 * None for a duration without an extra cost.
 */
export function durationExtra(option: DurationOption | null | undefined, spaces: number): { label: string; cost: number; quantity: number } | null {
  if (!option || typeof option.extra_cost !== 'number' || option.extra_cost <= 0) return null;
  return { label: option.label?.trim() || checkoutDurationText(option.duration ?? 0), cost: option.extra_cost, quantity: spaces };
}
