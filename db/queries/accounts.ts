/**
 * Read models of the accounts area: whether a learner booked or ordered (verified reviews),
 * the learner's bookings, orders and requests (the /profile page), their reviews, their claim requests.
 * The checkout's tables (migration 0004) are read here, never written.
 */
import { bookingVerifiesReview, orderVerifiesReview } from '../../src/domain/review-verification.ts';
import { sql } from 'kysely';
import type { Db } from '../client.ts';

/**
 * Spec 2.11 "verified": the reviewer's bookings or orders for that course (course review) or with that
 * educator (educator review) show they took part: attended or paid (src/domain/review-verification.ts).
 */
export async function hasBookingOrOrder(db: Db, studentId: string, subject: { courseId?: string | null; educatorId: string }, now: number): Promise<boolean> {
  let bookings = db.selectFrom('bookings').select(['status', 'payment_state', 'start_datetime', 'end_datetime']).where('student_id', '=', studentId);
  bookings = subject.courseId ? bookings.where('course_id', '=', subject.courseId) : bookings.where('educator_id', '=', subject.educatorId);
  for (const b of await bookings.execute()) {
    if (bookingVerifiesReview({ status: b.status, paymentState: b.payment_state, startsAt: b.start_datetime === null ? null : Number(b.start_datetime), endsAt: b.end_datetime === null ? null : Number(b.end_datetime) }, now)) return true;
  }
  let orders = db.selectFrom('orders').select(['payment_state']).where('student_id', '=', studentId);
  orders = subject.courseId ? orders.where('course_id', '=', subject.courseId) : orders.where('educator_id', '=', subject.educatorId);
  for (const o of await orders.execute()) {
    if (orderVerifiesReview({ paymentState: o.payment_state })) return true;
  }
  return false;
}

export type ProfileItemKind = 'booking' | 'order' | 'request' | 'application';

/** One line of "My Courses & Bookings". */
export interface ProfileItem {
  kind: ProfileItemKind;
  id: string;
  status: string;
  flow: string;
  createdAt: number;
  /** What the payment method paid or is due to pay (a gift card's part is giftCardAmount). */
  totalCost: number;
  currency: string;
  paymentState: string | null;
  paymentMethod: string | null;
  /** What a gift card paid (a means of payment: part of what the learner paid). */
  giftCardAmount: number;
  occurrenceId: string | null;
  startsAt: number | null;
  endsAt: number | null;
  spaces: number | null;
  course: { id: string; name: string; slug: string; type: string };
  educator: { id: string; name: string; slug: string };
}

/** Every booking, order, request and application of a learner, newest first. */
export async function listProfileItems(db: Db, studentId: string): Promise<ProfileItem[]> {
  const common = ['x.id', 'x.status', 'x.flow', 'x.created_at', 'x.total_cost', 'x.currency', 'c.id as course_id', 'c.name as course_name',
    'c.slug as course_slug', 'c.type as course_type', 'e.id as educator_id', 'e.name as educator_name', 'e.slug as educator_slug'] as const;

  const bookings = await db
    .selectFrom('bookings as x')
    .innerJoin('courses as c', 'c.id', 'x.course_id')
    .innerJoin('educators as e', 'e.id', 'x.educator_id')
    .leftJoin('occurrences as o', 'o.id', 'x.occurrence_id')
    .select([...common, 'x.payment_state', 'x.payment_method', 'x.occurrence_id', 'x.spaces', 'x.start_datetime', 'x.end_datetime',
      'o.start_datetime as occurrence_start', 'o.end_datetime as occurrence_end'])
    .where('x.student_id', '=', studentId)
    .execute();
  const orders = await db
    .selectFrom('orders as x')
    .innerJoin('courses as c', 'c.id', 'x.course_id')
    .innerJoin('educators as e', 'e.id', 'x.educator_id')
    .select([...common, 'x.payment_state', 'x.payment_method'])
    .where('x.student_id', '=', studentId)
    .execute();
  const requests = await db
    .selectFrom('booking_requests as x')
    .innerJoin('courses as c', 'c.id', 'x.course_id')
    .innerJoin('educators as e', 'e.id', 'x.educator_id')
    .select([...common])
    .where('x.student_id', '=', studentId)
    .execute();
  const applications = await db
    .selectFrom('booking_applications as x')
    .innerJoin('courses as c', 'c.id', 'x.course_id')
    .innerJoin('educators as e', 'e.id', 'x.educator_id')
    .leftJoin('occurrences as o', 'o.id', 'x.occurrence_id')
    .select([...common, 'x.occurrence_id', 'x.spaces', 'o.start_datetime as occurrence_start', 'o.end_datetime as occurrence_end'])
    .where('x.student_id', '=', studentId)
    .execute();

  type Row = Omit<(typeof requests)[number], 'status'> & { status: string };
  const item = (kind: ProfileItemKind, row: Row, extra: Partial<ProfileItem>): ProfileItem => ({
    kind,
    id: row.id,
    status: row.status,
    flow: row.flow,
    createdAt: Number(row.created_at),
    totalCost: Number(row.total_cost),
    currency: row.currency,
    paymentState: null,
    paymentMethod: null,
    giftCardAmount: 0,
    occurrenceId: null,
    startsAt: null,
    endsAt: null,
    spaces: null,
    course: { id: row.course_id, name: row.course_name, slug: row.course_slug, type: row.course_type },
    educator: { id: row.educator_id, name: row.educator_name, slug: row.educator_slug },
    ...extra,
  });
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const items = [
    ...bookings.map((r) => item('booking', r, {
      paymentState: r.payment_state, paymentMethod: r.payment_method, occurrenceId: r.occurrence_id, spaces: r.spaces,
      startsAt: num(r.start_datetime ?? r.occurrence_start), endsAt: num(r.end_datetime ?? r.occurrence_end),
    })),
    ...orders.map((r) => item('order', r, { paymentState: r.payment_state, paymentMethod: r.payment_method })),
    ...requests.map((r) => item('request', r, {})),
    ...applications.map((r) => item('application', r, {
      occurrenceId: r.occurrence_id, spaces: r.spaces, startsAt: num(r.occurrence_start), endsAt: num(r.occurrence_end),
    })),
  ];
  // What gift cards paid (spent, or given back with a cancellation): a means of payment, shown with the rest.
  const paid = [...bookings.map((r) => r.id), ...orders.map((r) => r.id)];
  if (paid.length > 0) {
    const spends = await db.selectFrom('gift_card_redemptions').select(['outcome_kind', 'outcome_id', 'amount'])
      .where('outcome_id', 'in', paid).where('status', 'in', ['committed', 'returned']).execute();
    for (const s of spends) {
      const it = items.find((i) => i.kind === s.outcome_kind && i.id === s.outcome_id);
      if (it) it.giftCardAmount += Number(s.amount);
    }
  }
  return items.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
}

/** True when the checkout's outcome tables exist (they come with migration 0004). */
export async function checkoutTablesExist(db: Db): Promise<boolean> {
  try {
    await sql`select 1 from bookings where 1 = 0`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/** The learner's own non-archived reviews, newest first (settings page, account deletion). */
export async function listOwnReviews(db: Db, studentId: string) {
  return db
    .selectFrom('reviews as r')
    .innerJoin('educators as e', 'e.id', 'r.educator_id')
    .leftJoin('courses as c', 'c.id', 'r.course_id')
    .select(['r.id', 'r.rating', 'r.public_message', 'r.created_at', 'r.educator_id', 'r.course_id', 'e.name as educator_name',
      'e.slug as educator_slug', 'c.name as course_name', 'c.slug as course_slug'])
    .where('r.reviewer_id', '=', studentId)
    .where('r.archived_at', 'is', null)
    .orderBy('r.created_at', 'desc')
    .execute();
}

/** The user's claim request for an educator, if any. */
export async function findClaim(db: Db, userId: string, educatorId: string) {
  return db.selectFrom('educator_claims').selectAll().where('user_id', '=', userId).where('educator_id', '=', educatorId).executeTakeFirst();
}

/** What an add-review screen is about (spec 2.3): the educator, and the course for a course review; null when unknown or unpublished. */
export async function findReviewTarget(db: Db, educatorSlug: string, courseSlug: string | null) {
  if (!educatorSlug || educatorSlug.length > 200 || (courseSlug !== null && courseSlug.length > 200)) return null;
  const educator = await db.selectFrom('educators').selectAll().where('slug', '=', educatorSlug).executeTakeFirst();
  if (!educator) return null;
  if (courseSlug === null) return { educator, course: null };
  const course = await db
    .selectFrom('courses')
    .select(['id', 'slug', 'name', 'published'])
    .where('educator_id', '=', educator.id)
    .where('slug', '=', courseSlug)
    .executeTakeFirst();
  if (!course || !course.published) return null;
  return { educator, course };
}

/** The learner's live review of this subject, if they wrote one. */
export async function findOwnReview(db: Db, studentId: string, educatorId: string, courseId: string | null) {
  let q = db.selectFrom('reviews').select(['id', 'rating', 'created_at']).where('reviewer_id', '=', studentId).where('educator_id', '=', educatorId)
    .where('archived_at', 'is', null).where('source_key', '=', 'marketplace');
  q = courseId ? q.where('course_id', '=', courseId) : q.where('course_id', 'is', null);
  return q.executeTakeFirst();
}
