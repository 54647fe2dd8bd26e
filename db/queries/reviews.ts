/**
 * Public review listings (spec 3 "Review", 7 "Public pages", 9 "Reviews").
 * Pages are 10 reviews, newest first (created_at, then id, descending), with an opaque keyset
 * `nextPageToken` (base64url of [createdAt, id]); null when there is nothing more.
 * Archived reviews are never listed.
 */
import type { Db } from '../client.ts';
import type { Educator } from '../schema.ts';
import { clampRating } from '../../src/domain/ratings.ts';

export const REVIEWS_PAGE_SIZE = 10;

/** Spec 3 "Review" as the API answers it. */
export interface ReviewJson {
  id: string;
  createdAt: number;
  rating: number;
  verified: boolean;
  sourceKey: string;
  sourceLabel: string;
  externalUrl: string | null;
  entity: string;
  course: { name: string; slug: string; published: boolean } | null;
  reviewer: { id: string | null; name: string };
  publicMessage: string;
  /** createdAt falls back to the review's own date when the response has none. */
  educatorResponse: { message: string; createdAt: number } | null;
}

export interface ReviewsPage {
  reviews: ReviewJson[];
  nextPageToken: string | null;
}

interface Cursor {
  createdAt: number;
  id: string;
}

export function encodeReviewsPageToken(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id]), 'utf8').toString('base64url');
}

/** The cursor in a page token, or null when the token is not one of ours. */
export function decodeReviewsPageToken(token: string): Cursor | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(token)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [createdAt, id] = value as unknown[];
    if (typeof createdAt !== 'number' || !Number.isSafeInteger(createdAt) || typeof id !== 'string' || id.length === 0 || id.length > 200) return null;
    return { createdAt, id };
  } catch {
    return null;
  }
}

/**
 * Rule (spec 8 "Public page errors", the 423 answer): an educator's reviews are public when the
 * educator has claimed the profile or has at least one published course. An unclaimed profile with
 * nothing published is a placeholder, and its listing answers 423 (Locked) in every context.
 */
export async function educatorReviewsArePublic(db: Db, educator: Pick<Educator, 'id' | 'claimed'>): Promise<boolean> {
  if (educator.claimed) return true;
  const course = await db
    .selectFrom('courses')
    .select('id')
    .where('educator_id', '=', educator.id)
    .where('published', '=', true)
    .limit(1)
    .executeTakeFirst();
  return !!course;
}

export interface ReviewsPageQuery {
  /** The educator's reviews (about the educator or any of its courses)… */
  educatorId?: string;
  /** …or one course's reviews. */
  courseId?: string;
  /** A cursor from decodeReviewsPageToken, or null for the first page. */
  after?: Cursor | null;
  size?: number;
}

/** One page of non-archived reviews, newest first. */
export async function listReviewsPage(db: Db, query: ReviewsPageQuery): Promise<ReviewsPage> {
  const size = query.size ?? REVIEWS_PAGE_SIZE;
  let q = db
    .selectFrom('reviews as r')
    .leftJoin('courses as c', 'c.id', 'r.course_id')
    .select([
      'r.id', 'r.created_at', 'r.rating', 'r.verified', 'r.source_key', 'r.source_label', 'r.external_url',
      'r.entity', 'r.reviewer_id', 'r.reviewer_name', 'r.public_message', 'r.response_message',
      'r.response_created_at', 'c.name as course_name', 'c.slug as course_slug', 'c.published as course_published',
    ])
    .where('r.archived_at', 'is', null);
  if (query.educatorId !== undefined) q = q.where('r.educator_id', '=', query.educatorId);
  if (query.courseId !== undefined) q = q.where('r.course_id', '=', query.courseId);
  const after = query.after;
  if (after) {
    q = q.where((eb) =>
      eb.or([
        eb('r.created_at', '<', after.createdAt),
        eb.and([eb('r.created_at', '=', after.createdAt), eb('r.id', '<', after.id)]),
      ]),
    );
  }
  const rows = await q.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(size + 1).execute();
  const page = rows.slice(0, size);
  const last = page[page.length - 1];
  return {
    reviews: page.map((row) => ({
      id: row.id,
      createdAt: Number(row.created_at),
      rating: clampRating(Number(row.rating)),
      verified: Boolean(row.verified),
      sourceKey: row.source_key,
      sourceLabel: row.source_label,
      externalUrl: row.external_url,
      entity: row.entity,
      course: row.course_name !== null && row.course_slug !== null
        ? { name: row.course_name, slug: row.course_slug, published: Boolean(row.course_published) }
        : null,
      reviewer: { id: row.reviewer_id, name: row.reviewer_name },
      publicMessage: row.public_message,
      educatorResponse: row.response_message
        ? { message: row.response_message, createdAt: Number(row.response_created_at ?? row.created_at) }
        : null,
    })),
    nextPageToken: rows.length > size && last ? encodeReviewsPageToken({ createdAt: Number(last.created_at), id: last.id }) : null,
  };
}
