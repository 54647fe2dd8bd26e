/**
 * Course page highlights (spec 2.13 (7), spec 9 "Course page highlights").
 */
import type { CourseLike, Occurrence } from './entities.ts';
import { levelLabel, courseKeyword } from './text.ts';
import { courseDurationLabel, DEFAULT_TIME_ZONE } from './time.ts';
import { wallClockSeconds } from './zone-offset.ts';
import { locationCityText, locationTooltip } from './locations.ts';

export type HighlightKind = 'duration' | 'delivery' | 'travel' | 'locations' | 'travelArea' | 'level';

export interface Highlight {
  kind: HighlightKind;
  text: string;
  /** Spec 7: the full list of places, for more than 3 ('a, b, and c'). */
  tooltip?: string;
}

export const MULTIPLE_DURATIONS = 'Multiple Durations (see dates)';
export const DURATION_TO_BE_CONFIRMED = 'To be confirmed';

/**
 * Length of an occurrence as its clock times show it (in its own zone, Europe/London by default), or null
 * when it has no valid start and end: Saturday 10:00 to Sunday 16:00 is 30 hours on every weekend, though a
 * clock change in between makes it 29 or 31 real hours. Learners read the dates by the clock, so two such
 * dates have the same duration.
 */
export function occurrenceLengthSeconds(occurrence: Pick<Occurrence, 'start_datetime' | 'end_datetime'> & { timezone?: string | null }): number | null {
  const { start_datetime: start, end_datetime: end } = occurrence;
  if (typeof start !== 'number' || typeof end !== 'number' || !(end > start)) return null;
  return wallClockSeconds(start, end, occurrence.timezone ?? DEFAULT_TIME_ZONE);
}

/**
 * Spec 9 duration highlight.
 * - on-request: from `duration_pricing` (minutes): one entry → its label;
 *   several → 'From {shortest} to {longest}' (equal ends → that one duration);
 *   none → 'To be confirmed'.
 * - others: 'Multiple Durations (see dates)' when the occurrences' lengths
 *   differ; their common length when they agree; else `course_duration.duration`.
 * Returns null when nothing can be said.
 */
export function durationHighlight(course: CourseLike, occurrences: ReadonlyArray<Occurrence> = []): string | null {
  if (course.type === 'on-request') {
    const minutes = (course.duration_pricing ?? [])
      .map((option) => option.duration)
      .filter((value): value is number => typeof value === 'number' && value > 0);
    if (minutes.length === 0) return DURATION_TO_BE_CONFIRMED;
    if (minutes.length === 1) return courseDurationLabel(minutes[0] * 60);
    const shortest = courseDurationLabel(Math.min(...minutes) * 60);
    const longest = courseDurationLabel(Math.max(...minutes) * 60);
    return shortest === longest ? shortest : `From ${shortest} to ${longest}`;
  }
  const lengths = Array.from(new Set(occurrences.map(occurrenceLengthSeconds).filter((value): value is number => value !== null)));
  if (lengths.length > 1) return MULTIPLE_DURATIONS;
  if (lengths.length === 1) return courseDurationLabel(lengths[0]) || null;
  const minutes = course.course_duration?.duration;
  return typeof minutes === 'number' && minutes > 0 ? courseDurationLabel(minutes * 60) : null;
}

/** Delivery types found on the course and its occurrences (in-person, online, hybrid). */
export function deliveryTypes(course: CourseLike, occurrences: ReadonlyArray<Occurrence> = []): Set<string> {
  const types = new Set<string>();
  const courseDelivery = course.delivery == null ? [] : typeof course.delivery === 'string' ? [course.delivery] : course.delivery;
  for (const value of courseDelivery) if (value === 'online' || value === 'in-person' || value === 'hybrid') types.add(value);
  for (const occurrence of occurrences) {
    if (occurrence.delivery === 'online' || occurrence.delivery === 'in-person' || occurrence.delivery === 'hybrid') types.add(occurrence.delivery);
  }
  if (course.type === 'on-request') {
    if (course.available_for_online_delivery) types.add('online');
    if (course.available_for_in_person_delivery) types.add('in-person');
  }
  return types;
}

/**
 * Spec 9 delivery highlight: on-demand → 'On-Demand {keyword or course}';
 * several types or hybrid → 'Delivered Online or In-Person'; online only →
 * 'Delivered Online'; in-person only → 'Delivered In-Person'; none → null.
 */
export function deliveryHighlight(course: CourseLike, occurrences: ReadonlyArray<Occurrence> = []): string | null {
  if (course.type === 'on-demand') return `On-Demand ${courseKeyword(course)}`;
  const types = deliveryTypes(course, occurrences);
  if (types.size > 1 || types.has('hybrid')) return 'Delivered Online or In-Person';
  if (types.has('online')) return 'Delivered Online';
  if (types.has('in-person')) return 'Delivered In-Person';
  return null;
}

/**
 * Spec 9 travel highlight: both educator and student travel → 'You travel to
 * organiser or they travel to you'; educator only → 'Delivered at your
 * location'; student only → "Delivered at organisers' location"; none → null.
 */
export function travelHighlight(course: CourseLike): string | null {
  const educator = !!course.educator_travel_settings?.enabled;
  const student = !!course.student_travel_settings?.enabled;
  if (educator && student) return 'You travel to organiser or they travel to you';
  if (educator) return 'Delivered at your location';
  if (student) return "Delivered at organisers' location";
  return null;
}

/**
 * Spec 9: from the educator travel type (when educator travel is enabled):
 * 'Internationally' → 'UK & International Requests Considered'; 'UK Wide' → 'UK Wide'.
 */
export function travelAreaHighlight(course: CourseLike): string | null {
  const settings = course.educator_travel_settings;
  if (!settings?.enabled) return null;
  if (settings.type === 'Internationally') return 'UK & International Requests Considered';
  if (settings.type === 'UK Wide') return 'UK Wide';
  return null;
}

/**
 * Spec 2.13 (7) / 9: the highlights in order: duration, delivery, travel, the places learners travel
 * to (spec 7 city text: '{city}', '{a} or {b}', '{first} and N more' with a tooltip listing all when
 * more than 3), travel area, level. `studentCities` are the student-travel locations' cities.
 */
export function courseHighlights(course: CourseLike, occurrences: ReadonlyArray<Occurrence> = [], studentCities: ReadonlyArray<string> = []): Highlight[] {
  const cities = course.student_travel_settings?.enabled ? Array.from(new Set(studentCities.filter(Boolean))) : [];
  const candidates: [HighlightKind, string | null][] = [
    ['duration', durationHighlight(course, occurrences)],
    ['delivery', deliveryHighlight(course, occurrences)],
    ['travel', travelHighlight(course)],
    ['locations', locationCityText(cities) || null],
    ['travelArea', travelAreaHighlight(course)],
    ['level', levelLabel(course.level) || null],
  ];
  return candidates
    .filter((entry): entry is [HighlightKind, string] => !!entry[1])
    .map(([kind, text]) => {
      const tooltip = kind === 'locations' ? locationTooltip(cities) : null;
      return tooltip ? { kind, text, tooltip } : { kind, text };
    });
}
