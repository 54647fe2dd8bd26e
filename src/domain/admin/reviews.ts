/**
 * The educator's reviews in the admin (docs/admin.md "Reviews"): the educator's response (shown on the public
 * pages under the review, spec 2.11: logo, name, "Responded {relative date}" and the message) and a report of an
 * abusive review for the platform team. Pure: no I/O.
 */
import { z } from '../zod.ts';
import { text } from './catalogue-input.ts';

export const REVIEWS_PAGE_SIZE = 20;
export const RESPONSE_MAX = 2000;
export const REPORT_REASON_MAX = 1000;

export const reviewResponseSchema = z.object({ message: text(RESPONSE_MAX) });
export const reviewReportSchema = z.object({ reason: text(REPORT_REASON_MAX) });

/** A page cursor of the newest-first list: `{created_at}.{id}` of the last review shown. */
export const reviewCursorSchema = z.object({
  before: z.string().max(120).regex(/^\d{1,12}\.[A-Za-z0-9_-]{1,64}$/, 'is not a cursor').optional(),
});

export function reviewCursor(createdAt: number, id: string): string {
  return `${createdAt}.${id}`;
}

export function parseReviewCursor(cursor: string): { createdAt: number; id: string } {
  const dot = cursor.indexOf('.');
  return { createdAt: Number(cursor.slice(0, dot)), id: cursor.slice(dot + 1) };
}
