/**
 * The bookings list's filters (BookingsList): as the controls hold them, as the address keeps them (so a reload, Back
 * or a shared link shows the same list) and as the API's query string asks for them.
 */
import { ORDER_SORTS, londonDayEnd, londonDayStart } from '../../../domain/admin/bookings.ts';

export interface Filters {
  show: string;
  q: string;
  courseId: string;
  occurrenceId: string;
  fromDate: string;
  toDate: string;
  status: string;
  paymentMethod: string;
  paymentStatus: string;
  origin: string;
  sort: string;
}

export const EMPTY: Filters = { show: 'bookings', q: '', courseId: '', occurrenceId: '', fromDate: '', toDate: '', status: '', paymentMethod: '', paymentStatus: '', origin: '', sort: 'created-desc' };
export const KEYS = Object.keys(EMPTY) as (keyof Filters)[];

export function fromAddress(): Filters {
  if (typeof window === 'undefined') return EMPTY;
  const params = new URLSearchParams(window.location.search);
  const f = { ...EMPTY };
  for (const k of KEYS) {
    const v = params.get(k);
    if (v) f[k] = v;
  }
  return f;
}

/** The address's query: the educator and the filters that are not the default (without the page). */
export function addressQuery(educatorId: string, filters: Filters): string {
  const params = new URLSearchParams({ 'educator-context': educatorId });
  for (const k of KEYS) if (filters[k] && filters[k] !== EMPTY[k]) params.set(k, filters[k]);
  return params.toString();
}

export function apiQuery(f: Filters, cursor: string | null): string {
  const q = new URLSearchParams();
  const orders = f.show === 'orders';
  if (f.q.trim()) q.set('q', f.q.trim());
  const keys = orders ? (['courseId', 'paymentMethod', 'paymentStatus', 'origin'] as const) : (['courseId', 'occurrenceId', 'status', 'paymentMethod', 'paymentStatus', 'origin'] as const);
  for (const k of keys) if (f[k] && !(orders && k === 'paymentStatus' && f[k] === 'refunded')) q.set(k, f[k]);
  const from = !orders && f.fromDate ? londonDayStart(f.fromDate) : null;
  const to = !orders && f.toDate ? londonDayEnd(f.toDate) : null;
  if (from !== null) q.set('from', String(from));
  if (to !== null) q.set('to', String(to));
  if (f.sort !== 'created-desc') q.set('sort', f.sort);
  if (cursor) q.set('cursor', cursor);
  return q.toString();
}

/** The filters after one control changed: a new course clears the date; orders have no dates, so a date sort becomes the default one. */
export function changed(f: Filters, key: keyof Filters, value: string): Filters {
  const next = { ...f, [key]: value, ...(key === 'courseId' ? { occurrenceId: '' } : {}) };
  if (next.show === 'orders' && !(ORDER_SORTS as readonly string[]).includes(next.sort)) next.sort = 'created-desc';
  return next;
}
