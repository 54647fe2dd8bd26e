/**
 * What a slug may be. Slugs name folders and files of the built site (`{educator}/{course}/index.html`,
 * `minisite/{educator}/…`, `courses/{category}/…`) and an educator's slug is a host label too, so a slug is
 * one safe path segment: lower-case ASCII letters, digits, hyphens and underscores, starting and ending with a
 * letter or digit, at most SLUG_MAX_LENGTH characters. No dot, slash, backslash, percent sign or space can
 * appear, so no slug can be `..`, climb out of its folder or name another educator's.
 *
 * The database enforces the same rule on every write, whichever program writes
 * (db/migrations/0160_slug_format.ts); keep the two in step.
 */
import { z } from './zod.ts';

export const SLUG_MAX_LENGTH = 200;
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?$/;
export const SLUG_MESSAGE = `A slug must be lower-case letters, digits, hyphens and underscores, starting and ending with a letter or digit, at most ${SLUG_MAX_LENGTH} characters.`;

export function isSafeSlug(value: unknown): value is string {
  return typeof value === 'string' && value.length <= SLUG_MAX_LENGTH && SLUG_PATTERN.test(value);
}

export const slugSchema = z.string().max(SLUG_MAX_LENGTH, { message: SLUG_MESSAGE }).regex(SLUG_PATTERN, { message: SLUG_MESSAGE });
