/**
 * The course editor's texts and problem handling (src/islands/admin/courses/CourseEditor.tsx): what the alert says
 * when a save, publish, duplicate or delete is refused, the status line of a saved course, and the hint beside its
 * spaces. Pure: no I/O.
 */
import type { ProblemProperty } from '../problems.ts';
import { formatShortDateTime } from '../time.ts';
import { courseFieldLabel } from './course.ts';
import { fieldMessages } from './course-form.ts';

/** The alert above the form: its text, the fields it links to, and whether to offer a reload (the course changed). */
export type CourseAlert = { text: string; problems: ProblemProperty[]; stale?: boolean } | null;

/** A problem as the admin API answers it (src/islands/admin/api.ts's AdminProblem). */
export interface CourseProblem {
  status: number;
  title: string;
  detail: string;
  fields: Record<string, string>;
  raw: Record<string, unknown>;
}

/** Scheduled courses have dates (the Dates screen, /courses/{id}/dates); on-demand and on-request ones have none. */
export const hasDates = (type: string) => type === 'class' || type === 'blended';

export const PREVIEW_CONTEXTS = [
  { context: 'marketplace', label: 'Marketplace' },
  { context: 'minisite', label: 'Your site' },
  { context: 'embed', label: 'Embed' },
] as const;

/** "The course was not saved: please correct these 3 fields." */
export function correctFieldsText(action: string, count: number): string {
  return `The course was not ${action}: please correct ${count === 1 ? 'this field' : `these ${count} fields`}.`;
}

/** The messages beside the fields and the alert for a refused `action` (saved, published, duplicated, deleted). */
export function problemFeedback(problem: CourseProblem, action: string): { errors: Record<string, string>; alert: CourseAlert } {
  const properties: ProblemProperty[] = Object.entries(problem.fields).map(([key, message]) => ({ key, message, name: courseFieldLabel(key) }));
  const raw = Array.isArray(problem.raw.properties) ? (problem.raw.properties as ProblemProperty[]) : properties;
  const stale = problem.status === 409 && problem.title === 'Changed Since You Opened It';
  return {
    errors: fieldMessages(raw),
    alert: { text: raw.length && problem.status === 400 ? correctFieldsText(action, raw.length) : problem.detail, problems: raw, stale },
  };
}

/** "2 dates to come, next …." or "No dates to come." */
export function datesToComeText(dates: { upcoming: number; next: number | null }): string {
  return dates.upcoming ? `${dates.upcoming} date${dates.upcoming === 1 ? '' : 's'} to come${dates.next ? `, next ${formatShortDateTime(dates.next)}` : ''}.` : 'No dates to come.';
}

/** The hint beside the course's spaces: at least what is booked or held on its fullest date. */
export function spacesHint(minimumSpaces: { spaces: number; start: number } | null | undefined): string {
  return minimumSpaces
    ? `Each date without its own number of spaces has this many. At least ${minimumSpaces.spaces}: that many are booked or held on ${formatShortDateTime(minimumSpaces.start)}.`
    : 'Each date without its own number of spaces has this many.';
}
