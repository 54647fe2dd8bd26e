/**
 * The educator admin's bookings list (docs/admin.md "Bookings"): its filters, sorts, keyset cursors and the words it
 * shows, shared by the API (api/admin/bookings.ts, db/queries/admin-bookings.ts) and the island.
 */
import { z } from 'zod';
import { addCalendarDays, zonedMidnight, zonedWallClock, type CalendarDate } from '../zone.ts';
import { DEFAULT_TIME_ZONE } from '../time.ts';

export const BOOKING_SORTS = ['created-desc', 'created-asc', 'start-asc', 'start-desc', 'total-desc', 'total-asc', 'name-asc', 'name-desc'] as const;
export type BookingSort = (typeof BOOKING_SORTS)[number];

export const SORT_LABELS: Record<BookingSort, string> = {
  'created-desc': 'Newest bookings first',
  'created-asc': 'Oldest bookings first',
  'start-asc': 'Date, soonest first',
  'start-desc': 'Date, latest first',
  'total-desc': 'Total, highest first',
  'total-asc': 'Total, lowest first',
  'name-asc': 'Learner, A to Z',
  'name-desc': 'Learner, Z to A',
};

/** The column each sort walks (with the booking id as the tie-breaker), and its direction. */
export function sortKey(sort: BookingSort): { column: 'created_at' | 'start_datetime' | 'total_cost' | 'learner_name'; direction: 'asc' | 'desc' } {
  const [what, direction] = sort.split('-') as [string, 'asc' | 'desc'];
  const column = what === 'created' ? 'created_at' : what === 'start' ? 'start_datetime' : what === 'total' ? 'total_cost' : 'learner_name';
  return { column, direction };
}

export const BOOKING_STATUSES = ['confirmed', 'awaiting-approval', 'cancelled'] as const;
export const STATUS_LABELS: Record<string, string> = { confirmed: 'Confirmed', 'awaiting-approval': 'Awaiting approval', cancelled: 'Cancelled' };

/** Payment status: the booking's payment state, or any money given back. */
export const PAYMENT_STATUSES = ['paid', 'unpaid', 'free', 'refunded'] as const;
export const PAYMENT_STATUS_LABELS: Record<(typeof PAYMENT_STATUSES)[number], string> = { paid: 'Paid', unpaid: 'Unpaid', free: 'Free', refunded: 'Refunded (all or part)' };

export const PAYMENT_METHOD_FILTERS = ['card', 'paypal', 'klarna', 'invoice', 'manual', 'gift card'] as const;
export const PAYMENT_METHOD_LABELS: Record<string, string> = {
  card: 'Card', paypal: 'PayPal', klarna: 'Klarna (pay later)', invoice: 'Invoice', manual: 'In-person payment', 'gift card': 'Gift card',
};

/** Where a booking came from: the checkout's origin (spec 1), in the words of the three contexts. */
export const ORIGIN_FILTERS = ['marketplace', 'landing_page', 'embed'] as const;
export const ORIGIN_LABELS: Record<string, string> = { marketplace: 'Marketplace', landing_page: 'Minisite', embed: 'Embed' };

const id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'is not an id');

/** The list's query string. Dates are epoch seconds (the island turns the date inputs into London midnights). */
export const bookingListQuerySchema = z.object({
  courseId: id.optional(),
  occurrenceId: id.optional(),
  from: z.coerce.number().int().min(0).max(4_102_444_800).optional(),
  to: z.coerce.number().int().min(0).max(4_102_444_800).optional(),
  status: z.enum(BOOKING_STATUSES).optional(),
  paymentMethod: z.enum(PAYMENT_METHOD_FILTERS).optional(),
  paymentStatus: z.enum(PAYMENT_STATUSES).optional(),
  origin: z.enum(ORIGIN_FILTERS).optional(),
  q: z.string().max(120).optional(),
  sort: z.enum(BOOKING_SORTS).optional().default('created-desc'),
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional().default(25),
});
export type BookingListQuery = z.output<typeof bookingListQuerySchema>;

/** Orders (of on-demand courses) have no date, status or refunds: these sorts and filters. */
export const ORDER_SORTS = ['created-desc', 'created-asc', 'total-desc', 'total-asc', 'name-asc', 'name-desc'] as const;
export const orderListQuerySchema = z.object({
  courseId: id.optional(),
  paymentMethod: z.enum(PAYMENT_METHOD_FILTERS).optional(),
  paymentStatus: z.enum(['paid', 'unpaid', 'free']).optional(),
  origin: z.enum(ORIGIN_FILTERS).optional(),
  q: z.string().max(120).optional(),
  sort: z.enum(ORDER_SORTS).optional().default('created-desc'),
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional().default(25),
});
export type OrderListQuery = z.output<typeof orderListQuerySchema>;

/** One row of the bookings (or orders) list: what the API answers and the island shows. */
export interface AdminBookingRow {
  id: string;
  createdAt: number;
  start: number | null;
  end: number | null;
  status: string;
  spaces: number;
  paymentMethod: string | null;
  paymentState: string;
  totalCost: number;
  giftCardAmount: number;
  refundedTotal: number;
  currency: string;
  origin: string;
  flow: string;
  course: { id: string; name: string };
  occurrenceId: string | null;
  learner: { name: string; email: string | null };
}

/** Where the next page starts: the last row's sort value and id. */
export interface Cursor {
  value: string | number | null;
  id: string;
}

export function encodeCursor(cursor: Cursor): string {
  const bytes = new TextEncoder().encode(JSON.stringify([cursor.value, cursor.id]));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The cursor in a query string, or null when it is not one of ours. */
export function decodeCursor(text: string | undefined): Cursor | null {
  if (!text) return null;
  try {
    const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    const json = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const parsed: unknown = JSON.parse(json);
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [value, rowId] = parsed as [unknown, unknown];
    if (typeof rowId !== 'string' || rowId.length > 64) return null;
    if (value !== null && typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) return null;
    if (typeof value === 'string' && value.length > 200) return null;
    return { value, id: rowId };
  } catch {
    return null;
  }
}

/** The highest code point: `q` ≤ x < `q` + this is "x starts with q" in a binary (byte-order) comparison. */
const TOP = '\u{10FFFF}';

/**
 * A search as a prefix range over the lower-case learner columns (e-mail, "first last", last name): trimmed, A–Z in
 * lower case (as the columns are: SQLite's lower() lowers ASCII only, and PostgreSQL's trigger does the same),
 * inner spaces collapsed. Null when there is nothing to search for.
 */
export function searchRange(q: string | undefined): { from: string; to: string } | null {
  const text = (q ?? '').trim().replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/\s+/g, ' ');
  if (!text) return null;
  return { from: text, to: `${text}${TOP}` };
}

/** A London calendar date from a date input ('2026-12-01'), or null. */
export function calendarDateOf(value: string): CalendarDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const date = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  if (date.month < 1 || date.month > 12 || date.day < 1 || date.day > 31) return null;
  return date;
}

/** Epoch seconds of a London date and time from the admin's date and time inputs ('2026-12-01', '10:30'); null when unreadable. */
export function londonDateTime(date: string, time: string): number | null {
  const day = calendarDateOf(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time.trim());
  if (!day || !t || Number(t[1]) > 23 || Number(t[2]) > 59) return null;
  return zonedWallClock(day, Number(t[1]) * 3600 + Number(t[2]) * 60, DEFAULT_TIME_ZONE);
}

/** The London midnight starting a date input's day (a "from" filter), or null. */
export function londonDayStart(date: string): number | null {
  const day = calendarDateOf(date);
  return day ? zonedMidnight(day, DEFAULT_TIME_ZONE) : null;
}

/** The London midnight after a date input's day (an inclusive "to" filter), or null. */
export function londonDayEnd(date: string): number | null {
  const day = calendarDateOf(date);
  return day ? zonedMidnight(addCalendarDays(day, 1), DEFAULT_TIME_ZONE) : null;
}

/** Pence from what an admin types in pounds ('12', '12.5', '£12.50'); null when it is not an amount. */
export function penceFromPounds(text: string): number | null {
  const t = text.trim().replace(/^£/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return null;
  const [whole, frac = ''] = t.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}
