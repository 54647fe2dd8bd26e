/**
 * The educator's reviews as the admin lists them (api/admin/reviews.ts): newest first, keyset-paged by
 * (created_at, id), with the course reviewed, the response and whether the educator reported it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { REVIEWS_PAGE_SIZE, parseReviewCursor, reviewCursor } from '../../src/domain/admin/reviews.ts';

export interface AdminReviewView {
  id: string;
  createdAt: number;
  rating: number;
  verified: boolean;
  sourceLabel: string;
  reviewerName: string;
  message: string;
  course: { id: string; name: string } | null;
  response: { message: string; createdAt: number } | null;
  reported: boolean;
}

export async function listEducatorReviews(db: Kysely<Database>, educatorId: string, before?: string): Promise<{ reviews: AdminReviewView[]; next: string | null }> {
  let q = db
    .selectFrom('reviews as r')
    .leftJoin('courses as c', 'c.id', 'r.course_id')
    .select([
      'r.id', 'r.created_at', 'r.rating', 'r.verified', 'r.source_label', 'r.reviewer_name', 'r.public_message',
      'r.response_message', 'r.response_created_at', 'r.course_id', 'c.name as course_name',
    ])
    .select((eb) => eb.exists(eb.selectFrom('review_reports as rr').select('rr.id').whereRef('rr.review_id', '=', 'r.id').where('rr.educator_id', '=', educatorId)).as('reported'))
    .where('r.educator_id', '=', educatorId)
    .where('r.archived_at', 'is', null);
  if (before) {
    const { createdAt, id } = parseReviewCursor(before);
    q = q.where((eb) => eb.or([eb('r.created_at', '<', createdAt), eb.and([eb('r.created_at', '=', createdAt), eb('r.id', '<', id)])]));
  }
  const rows = await q.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(REVIEWS_PAGE_SIZE + 1).execute();
  const page = rows.slice(0, REVIEWS_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    reviews: page.map((r) => ({
      id: r.id,
      createdAt: Number(r.created_at),
      rating: Number(r.rating),
      verified: Boolean(r.verified),
      sourceLabel: r.source_label,
      reviewerName: r.reviewer_name,
      message: r.public_message,
      course: r.course_id && r.course_name ? { id: r.course_id, name: r.course_name } : null,
      response: r.response_message ? { message: r.response_message, createdAt: Number(r.response_created_at ?? r.created_at) } : null,
      reported: Boolean(r.reported),
    })),
    next: rows.length > REVIEWS_PAGE_SIZE && last ? reviewCursor(Number(last.created_at), last.id) : null,
  };
}
