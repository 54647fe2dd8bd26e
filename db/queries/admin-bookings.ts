/**
 * Read models of the educator admin's bookings (docs/admin.md "Bookings"): the list with its filters, sorts and keyset
 * pages, and everything one booking's page shows. Every statement is scoped by the educator.
 *
 * The list stays on an index whatever the filter (migration 0270): the educator's bookings in the sort's order
 * (created, date, total, learner), or a selective filter's own index (course, date, status, payment, origin,
 * refunded) when the database prefers it; a search is a prefix range on the learner's lower-case e-mail, name or last
 * name. Pages are keyset pages — (sort value, id) of the last row — never OFFSET, so page 400 costs what page 1 does.
 * A nullable sort column (the date, the learner's name) is walked as two index ranges, the rows without a value
 * first when ascending and last when descending (as SQLite orders NULLs), the same on PostgreSQL.
 */
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../client.ts';
import type { Database } from '../schema.ts';
import {
  decodeCursor, encodeCursor, searchRange, sortKey, type AdminBookingRow, type BookingListQuery, type Cursor,
} from '../../src/domain/admin/bookings.ts';

type Q = Db;
type EB = ExpressionBuilder<Database & { b: Database['bookings'] }, 'b'>;

export interface AdminBookingPage {
  bookings: AdminBookingRow[];
  /** The cursor of the next page (null: this is the last). */
  nextCursor: string | null;
}

const LIST_COLUMNS = [
  'b.id', 'b.created_at', 'b.start_datetime', 'b.end_datetime', 'b.status', 'b.spaces', 'b.payment_method', 'b.payment_state',
  'b.total_cost', 'b.refunded_total', 'b.currency', 'b.origin', 'b.flow', 'b.course_id', 'b.occurrence_id', 'b.contact_details',
  'b.details', 'b.learner_name', 'b.learner_email',
] as const;
/** An order's (no date, spaces, occurrence or refunds). */
const ORDER_COLUMNS = [
  'b.id', 'b.created_at', 'b.status', 'b.payment_method', 'b.payment_state', 'b.total_cost', 'b.currency', 'b.origin', 'b.flow',
  'b.course_id', 'b.contact_details', 'b.details', 'b.learner_name', 'b.learner_email',
] as const;

/** Which outcomes a list is of: bookings (with dates, statuses, refunds) or orders of on-demand courses. */
export type OutcomeTable = 'bookings' | 'orders';

function str(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

/** The booker's name and e-mail as they typed them (the list's lower-case columns are for searching and sorting). */
export function bookerOf(contact: unknown): { name: string; email: string | null } {
  const form = ((contact as { booker?: { formResponse?: Record<string, unknown> } } | null)?.booker?.formResponse ?? {}) as Record<string, unknown>;
  const name = [str(form.system_first_name), str(form.system_last_name)].filter(Boolean).join(' ');
  return { name, email: str(form.system_email) || null };
}

function giftCardAmountOf(details: unknown): number {
  const summary = (details as { costSummary?: { gift_card_amount?: number | null } } | null)?.costSummary;
  return Math.max(0, Number(summary?.gift_card_amount ?? 0) || 0);
}

type BookingListRow = {
  id: string; created_at: number; start_datetime?: number | null; end_datetime?: number | null; status: string; spaces?: number;
  payment_method: string | null; payment_state: string; total_cost: number; refunded_total?: number; currency: string; origin: string; flow: string;
  course_id: string; occurrence_id?: string | null; contact_details: unknown; details: unknown; learner_name: string | null; learner_email: string | null;
};

type ListQuery = SelectQueryBuilder<Database & { b: Database['bookings'] }, 'b', object>;
type SortColumn = 'created_at' | 'start_datetime' | 'total_cost' | 'learner_name';
type Segment = 'null' | 'value';

/** The learner columns a search looks in (each has an index starting with the educator and it). */
const SEARCH_COLUMNS = ['b.learner_email', 'b.learner_name', 'b.learner_last'] as const;

/** The filters (everything but the search, the sort and the page). */
function filtered(db: Q, educatorId: string, query: BookingListQuery, table: OutcomeTable): ListQuery {
  let q = db.selectFrom(`${table} as b` as 'bookings as b').where('b.educator_id', '=', educatorId) as unknown as ListQuery;
  if (query.courseId) q = q.where('b.course_id', '=', query.courseId);
  if (query.occurrenceId) q = q.where('b.occurrence_id', '=', query.occurrenceId);
  if (query.from !== undefined) q = q.where('b.start_datetime', '>=', query.from);
  if (query.to !== undefined) q = q.where('b.start_datetime', '<', query.to);
  if (query.status) q = q.where('b.status', '=', query.status);
  if (query.paymentMethod) q = q.where('b.payment_method', '=', query.paymentMethod);
  // Written as the partial index's own condition, so the index is used.
  if (query.paymentStatus === 'refunded') q = q.where(sql<boolean>`b.refunded_total > 0`);
  else if (query.paymentStatus) q = q.where('b.payment_state', '=', query.paymentStatus);
  if (query.origin) q = q.where('b.origin', '=', query.origin);
  return q;
}

/**
 * One page of the educator's bookings. `limit` rows at most; the next cursor when there are more. A cursor from
 * another sort (or not one of ours) starts from the first page.
 *
 * Two steps: the page's ids and sort values (from an index alone for any one filter with any sort: each filter's
 * index carries the sort columns, migration 0270), then those rows. A search is the union of three prefix ranges —
 * e-mail, name, last name — each read from its own index.
 */
export async function listAdminBookings(db: Q, educatorId: string, query: BookingListQuery, table: OutcomeTable = 'bookings'): Promise<AdminBookingPage> {
  const { column, direction } = sortKey(query.sort);
  const nullable = column === 'start_datetime' || column === 'learner_name';
  const cursor = decodeCursor(query.cursor);
  const validCursor = cursor && (cursor.value === null ? nullable : column === 'learner_name' ? typeof cursor.value === 'string' : typeof cursor.value === 'number')
    ? cursor : null;
  // The order of the segments: rows without a value come first ascending, last descending.
  const segments: Segment[] = !nullable ? ['value'] : direction === 'asc' ? ['null', 'value'] : ['value', 'null'];
  // A cursor continues in its own segment (the rows without a value, or those with one).
  const start = validCursor && nullable ? segments.indexOf(validCursor.value === null ? 'null' : 'value') : 0;
  const want = query.limit + 1;
  const keys: { id: string; sort_value: string | number | null }[] = [];
  for (let i = start; i < segments.length && keys.length < want; i++) {
    const after = validCursor && i === start ? validCursor : null;
    keys.push(...(await fetchSegment(db, educatorId, query, table, { column, direction, segment: segments[i]!, nullable, after, limit: want - keys.length })));
  }
  const page = keys.slice(0, query.limit);
  const last = page[page.length - 1];
  const nextCursor = keys.length > query.limit && last
    ? encodeCursor({ value: last.sort_value === null ? null : column === 'learner_name' ? String(last.sort_value) : Number(last.sort_value), id: last.id })
    : null;
  if (page.length === 0) return { bookings: [], nextCursor: null };
  const rows = (await db.selectFrom(`${table} as b` as 'bookings as b').select(table === 'orders' ? [...ORDER_COLUMNS] : [...LIST_COLUMNS])
    .where('b.educator_id', '=', educatorId).where('b.id', 'in', page.map((k) => k.id)).execute()) as Partial<BookingListRow>[] as BookingListRow[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const courseIds = [...new Set(rows.map((r) => r.course_id))];
  const courses = await db.selectFrom('courses').select(['id', 'name']).where('educator_id', '=', educatorId).where('id', 'in', courseIds).execute();
  const courseName = new Map(courses.map((c) => [c.id, c.name]));
  return {
    bookings: page.flatMap((k) => {
      const r = byId.get(k.id);
      if (!r) return [];
      return [{
        id: r.id,
        createdAt: Number(r.created_at),
        start: r.start_datetime === null || r.start_datetime === undefined ? null : Number(r.start_datetime),
        end: r.end_datetime === null || r.end_datetime === undefined ? null : Number(r.end_datetime),
        status: r.status,
        spaces: Number(r.spaces ?? 1),
        paymentMethod: r.payment_method,
        paymentState: r.payment_state,
        totalCost: Number(r.total_cost),
        giftCardAmount: giftCardAmountOf(r.details),
        refundedTotal: Number(r.refunded_total ?? 0),
        currency: r.currency || 'GBP',
        origin: r.origin,
        flow: r.flow,
        course: { id: r.course_id, name: courseName.get(r.course_id) ?? '' },
        occurrenceId: r.occurrence_id ?? null,
        learner: bookerOf(r.contact_details),
      }];
    }),
    nextCursor,
  };
}

interface SegmentSpec {
  column: SortColumn;
  direction: 'asc' | 'desc';
  segment: Segment;
  nullable: boolean;
  after: Cursor | null;
  limit: number;
}

/** The ids and sort values of one segment's next rows (the segment's and the cursor's conditions on the filters). */
async function fetchSegment(db: Q, educatorId: string, query: BookingListQuery, table: OutcomeTable, s: SegmentSpec): Promise<{ id: string; sort_value: string | number | null }[]> {
  const col = `b.${s.column}` as const;
  const op = s.direction === 'asc' ? '>' : '<';
  const arm = (search?: { column: (typeof SEARCH_COLUMNS)[number]; from: string; to: string }) => {
    let q = filtered(db, educatorId, query, table);
    if (search) q = q.where(search.column, '>=', search.from).where(search.column, '<', search.to);
    if (s.nullable) q = s.segment === 'null' ? q.where(col, 'is', null) : q.where(col, 'is not', null);
    if (s.after) {
      if (s.segment === 'null') q = q.where('b.id', op, s.after.id);
      else q = q.where((eb: EB) => eb(eb.refTuple(col, 'b.id'), op, eb.tuple(s.after!.value as never, s.after!.id)));
    }
    return q.select(['b.id as id', `${col} as sort_value`]);
  };
  const range = searchRange(query.q);
  if (!range) {
    let q = arm();
    if (s.segment === 'value') q = q.orderBy(col, s.direction);
    return q.orderBy('b.id', s.direction).limit(s.limit).execute() as Promise<{ id: string; sort_value: string | number | null }[]>;
  }
  // A union (not an OR): each range is read from its own index, sort columns included; a booking found twice is one.
  const [a, b, c] = SEARCH_COLUMNS.map((column) => arm({ column, from: range.from, to: range.to }));
  let union = a!.union(b!).union(c!);
  if (s.segment === 'value') union = union.orderBy('sort_value', s.direction);
  return union.orderBy('id', s.direction).limit(s.limit).execute() as Promise<{ id: string; sort_value: string | number | null }[]>;
}

/** The filters' choices: the educator's courses, and the dates of one of them (newest first, a year back at most). */
export async function bookingFilterOptions(db: Q, educatorId: string, courseId: string | null, now: number) {
  const courses = await db.selectFrom('courses').select(['id', 'name']).where('educator_id', '=', educatorId).orderBy('name').limit(1000).execute();
  const occurrences = courseId && courses.some((c) => c.id === courseId)
    ? await db.selectFrom('occurrences').select(['id', 'start_datetime', 'end_datetime', 'visibility'])
      .where('course_id', '=', courseId).where('start_datetime', '>=', now - 366 * 86400)
      .orderBy('start_datetime', 'desc').limit(500).execute()
    : [];
  return {
    courses,
    occurrences: occurrences.map((o) => ({ id: o.id, start: Number(o.start_datetime), end: Number(o.end_datetime), visibility: o.visibility })),
  };
}

// ---------------------------------------------------------------------------------------------
// One booking's page

export interface FormAnswer {
  field: string;
  label: string;
  value: string;
}

function answerText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.map(answerText).filter(Boolean).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function humanise(key: string): string {
  const plain = key.replace(/^system_/, '').replace(/[_-]+/g, ' ').trim();
  return plain ? plain[0]!.toUpperCase() + plain.slice(1) : key;
}

/** A form response as label / answer pairs, in the form's order (answers to fields it no longer has after them). */
function answers(response: Record<string, unknown> | null | undefined, labels: Map<string, { label: string; position: number }>): FormAnswer[] {
  if (!response) return [];
  return Object.entries(response)
    .filter(([, v]) => answerText(v) !== '')
    .map(([field, value]) => ({ field, label: labels.get(field)?.label ?? humanise(field), value: answerText(value), position: labels.get(field)?.position ?? 1e9 }))
    .sort((a, b) => a.position - b.position)
    .map(({ field, label, value }) => ({ field, label, value }));
}

/** The labels of the fields of some forms (the educator's own and the system's). */
async function fieldLabels(db: Q, formIds: string[]): Promise<Map<string, { label: string; position: number }>> {
  const ids = [...new Set(formIds.filter(Boolean))];
  const rows = ids.length
    ? await db.selectFrom('form_fields').select(['form_id', 'id', 'label', 'position']).where('form_id', 'in', ids).orderBy('position').execute()
    : [];
  const labels = new Map<string, { label: string; position: number }>();
  for (const r of rows) if (!labels.has(r.id)) labels.set(r.id, { label: r.label, position: Number(r.position) });
  return labels;
}

/** The parts of one booking's page that the shared booking view (db/queries/bookings.ts) does not hold. */
export async function loadBookingExtras(db: Q, booking: { id: string; checkoutId: string; educatorId: string; courseId: string; details: Record<string, unknown>; contact: unknown; emails: string[] }) {
  const contact = (booking.contact ?? {}) as {
    booker?: { formResponse?: Record<string, unknown>; isAttending?: boolean };
    attendees?: { formResponse?: Record<string, unknown> }[];
    bookerFormId?: string; marketingConsent?: boolean; termsAccepted?: boolean; termsShown?: boolean;
  };
  const summary = (booking.details.costSummary ?? {}) as { gift_card_id?: string | null; gift_card_amount?: number | null; platform_fee?: number; fees_absorbed?: boolean };
  const voucherId = typeof booking.details.voucherId === 'string' ? booking.details.voucherId : null;
  const course = await db.selectFrom('courses').select(['guest_form_ref', 'form_ref']).where('id', '=', booking.courseId).executeTakeFirst();
  const emailList = [...new Set(booking.emails.filter(Boolean))];
  const [labels, voucher, giftCard, giftRedemptions, credits, payments, refunds, emails] = await Promise.all([
    fieldLabels(db, [contact.bookerFormId ?? '', course?.guest_form_ref ?? '', course?.form_ref ?? '', 'system_default']),
    voucherId ? db.selectFrom('vouchers').select(['id', 'code', 'kind', 'amount']).where('id', '=', voucherId).where('educator_id', '=', booking.educatorId).executeTakeFirst() : undefined,
    summary.gift_card_id ? db.selectFrom('gift_cards').select(['id', 'code', 'balance', 'amount']).where('id', '=', summary.gift_card_id).where('educator_id', '=', booking.educatorId).executeTakeFirst() : undefined,
    db.selectFrom('gift_card_redemptions').select(['gift_card_id', 'amount', 'status']).where('outcome_kind', '=', 'booking').where('outcome_id', '=', booking.id).execute(),
    db.selectFrom('membership_credit_uses as u').innerJoin('memberships as m', 'm.id', 'u.membership_id').innerJoin('membership_plans as p', 'p.id', 'm.plan_id')
      .select(['u.id', 'u.value', 'u.period_index', 'u.created_at', 'p.name as plan_name', 'm.id as membership_id'])
      .where('u.booking_id', '=', booking.id).execute(),
    db.selectFrom('checkout_payments').select(['id', 'provider', 'provider_payment_id', 'amount', 'currency', 'status', 'created_at', 'updated_at'])
      .where('checkout_id', '=', booking.checkoutId).orderBy('created_at').execute(),
    db.selectFrom('refunds').selectAll().where('booking_id', '=', booking.id).orderBy('seq').execute(),
    emailList.length
      ? db.selectFrom('outbox_messages').select(['id', 'to_address', 'subject', 'tag', 'status', 'created_at', 'sent_at', 'next_attempt_at'])
        .where('to_address', 'in', emailList).where('subject', 'like', `%(${booking.id.replace(/[%_\\]/g, '')})%`)
        .orderBy('created_at').orderBy('id').limit(100).execute()
      : Promise.resolve([]),
  ]);
  return {
    booker: { answers: answers(contact.booker?.formResponse, labels), isAttending: contact.booker?.isAttending ?? true },
    attendees: (contact.attendees ?? []).map((a, i) => ({ number: i + 1, answers: answers(a.formResponse, labels) })),
    consent: { marketing: !!contact.marketingConsent, termsAccepted: !!contact.termsAccepted, termsShown: contact.termsShown !== false },
    voucher: voucher ? { code: voucher.code, kind: voucher.kind, amount: Number(voucher.amount) } : null,
    giftCard: giftCard ? {
      last4: giftCard.code.slice(-4), paid: Math.max(0, Number(summary.gift_card_amount ?? 0)),
      stillSpent: giftRedemptions.filter((r) => r.status === 'committed').reduce((t, r) => t + Number(r.amount), 0),
      balance: Number(giftCard.balance),
    } : null,
    membershipCredits: credits.map((c) => ({ planName: c.plan_name, membershipId: c.membership_id, value: Number(c.value), usedAt: Number(c.created_at) })),
    platformFee: { amount: Math.max(0, Number(summary.platform_fee ?? 0)), absorbed: summary.fees_absorbed !== false },
    payments: payments.map((p) => ({
      id: p.id, provider: p.provider, providerPaymentId: p.provider_payment_id, amount: Number(p.amount), currency: p.currency, status: p.status,
      createdAt: Number(p.created_at), updatedAt: Number(p.updated_at),
    })),
    refunds: refunds.map((r) => ({
      id: r.id, seq: Number(r.seq), kind: r.kind, amount: Number(r.amount), giftCardAmount: Number(r.gift_card_amount), creditsReturned: Number(r.credits_returned),
      platformFeeRefunded: Number(r.platform_fee_refunded), currency: r.currency, provider: r.provider, providerRefundId: r.provider_refund_id,
      status: r.status, attempts: Number(r.attempts), lastError: r.last_error, reason: r.reason, createdAt: Number(r.created_at),
      completedAt: r.completed_at === null ? null : Number(r.completed_at),
    })),
    emails: emails.map((m) => ({
      id: m.id, to: m.to_address, subject: m.subject, tag: m.tag, status: m.status, createdAt: Number(m.created_at),
      sentAt: m.sent_at === null ? null : Number(m.sent_at),
    })),
  };
}
