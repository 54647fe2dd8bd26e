/**
 * Building blocks for the admin's catalogue forms (dates, forms, locations, collections, promo codes, memberships):
 * zod pieces whose messages read as spec 8's validation properties ('{Name} {message}': "Name is required",
 * "Spaces must be at least 1"), shared by the islands (to show a message beside the field) and the server (which
 * decides). Pure: no I/O.
 */
import { z } from '../zod.ts';
import { calendarDayOf } from '../zone.ts';

export const REQUIRED = 'is required';

/** Trimmed text of at most `max` characters; `min` 1 unless said otherwise ("is required" when empty). */
export function text(max: number, min = 1) {
  return z
    .string({ error: REQUIRED })
    .trim()
    .min(min, min === 1 ? REQUIRED : `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`);
}

/** Optional trimmed text: '' and absent read as null. */
export function optionalText(max: number) {
  return z
    .string({ error: 'must be text' })
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));
}

/** A whole number between `min` and `max`. */
export function wholeNumber(min: number, max: number) {
  return z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);
}

/** Integer pence from 0 (or `min`) up to `max` (£100,000 by default). */
export function pence(min = 0, max = 10_000_000) {
  return z.number({ error: 'must be an amount' }).int('must be a whole number of pence').min(min, `must be at least ${min}p`).max(max, `must be at most ${max}p`);
}

/** Epoch seconds (spec 5: an integer). */
export const epochSeconds = z.number({ error: 'must be a time' }).int('must be a whole number of seconds').min(0, 'must be a time').max(32_503_680_000, 'must be a time');

/** A calendar day 'YYYY-MM-DD' that exists. */
export const isoDay = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && calendarDayOf(v) === v, 'must be a date (YYYY-MM-DD)');

/** A wall-clock time 'HH:MM' (00:00–23:59). */
export const clockTime = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .refine((v) => /^([01]\d|2[0-3]):[0-5]\d$/.test(v), 'must be a time (HH:MM)');

/** An id as the admin API takes it in a body. */
export const refId = z.string({ error: REQUIRED }).min(1, REQUIRED).max(64, 'is not an id').regex(/^[A-Za-z0-9_-]+$/, 'is not an id');

/** An https (or http) web address. */
export const webUrl = z
  .string({ error: 'must be a web address' })
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'https:' || u.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'must be a web address starting with https://');

/** Spec 8: a problem property's key for a zod issue path. */
export function issueKey(path: ReadonlyArray<PropertyKey>): string {
  return path.map(String).join('.') || 'body';
}

/** A zod error as `{key: message}` (first message per key), for an island to show beside each field. */
export function fieldMessages(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issueKey(issue.path);
    if (!out[key]) out[key] = issue.message;
  }
  return out;
}

/** What an admin types for an amount of money ('25', '25.5', '£1,250.00') as pence; null when it is not one. */
export function poundsToPence(typed: string): number | null {
  const t = typed.trim().replace(/^£/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return null;
  const [whole, fraction = ''] = t.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Pence as the admin types it back ('25', '25.50'). */
export function penceToPounds(pence: number | null | undefined): string {
  if (pence === null || pence === undefined) return '';
  return pence % 100 === 0 ? String(pence / 100) : (pence / 100).toFixed(2);
}
