/**
 * /bookings: the educator's bookings and orders (docs/admin.md "Bookings"; "Show" switches to the orders of on-demand
 * courses, which have no date, status or refunds). Filters, a search by learner name or e-mail, a sort, and keyset
 * pages (Next / Previous keep a stack of cursors). The filters live in the address, so a
 * reload, Back or a shared link shows the same list. Every control has a label; the count of what is shown is
 * announced (role=status).
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type FormEvent, type RefObject } from 'react';
import { adminFetch } from '../api.ts';
import type { AdminBookingRow } from '../../../domain/admin/bookings.ts';
import { EMPTY, addressQuery, apiQuery, changed, fromAddress, type Filters } from './list-filters.ts';
import { FiltersFieldset, SearchForm, type FilterOptions } from './list-controls.tsx';
import { BookingsTable } from './list-table.tsx';
import './bookings.css';

/** The choices of the course and date filters. */
function useFilterOptions(base: string, courseId: string, started: RefObject<boolean>) {
  const [options, setOptions] = useState<FilterOptions>({ courses: [], occurrences: [] });
  useEffect(() => {
    if (!started.current) return;
    const query = courseId ? `?courseId=${encodeURIComponent(courseId)}` : '';
    void adminFetch<FilterOptions>('GET', `${base}/bookings/filters${query}`).then((res) => {
      if (res.ok) setOptions(res.data);
    });
  }, [base, courseId, started]);
  return options;
}

/** The page the query asks for; an answer that comes after a newer query was asked is dropped. */
function useListPage(base: string, query: string, show: string, started: RefObject<boolean>) {
  const [rows, setRows] = useState<AdminBookingRow[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (!started.current) return;
    let stale = false;
    setLoading(true);
    void adminFetch<{ bookings: AdminBookingRow[]; nextCursor: string | null }>('GET', `${base}/${show === 'orders' ? 'orders' : 'bookings'}?${query}`).then((res) => {
      if (stale) return;
      setLoading(false);
      if (!res.ok) {
        setError(res.problem.detail);
        return;
      }
      setError(null);
      setRows(res.data.bookings);
      setNext(res.data.nextCursor);
    });
    return () => {
      stale = true;
    };
  }, [base, query, show, started]);
  return { rows, setRows, next, error, loading };
}

/** The filters in the address (without the page), so Back and a reload keep them. */
function useFiltersInAddress(educatorId: string, filters: Filters, started: RefObject<boolean>) {
  useEffect(() => {
    if (!started.current) return;
    window.history.replaceState(null, '', `${window.location.pathname}?${addressQuery(educatorId, filters)}`);
  }, [educatorId, filters, started]);
}

/** The filters (read from the address once the island starts), the stack of page cursors and the page shown. */
function useBookingsList(educatorId: string) {
  const [filters, setFilters] = useState<Filters>(EMPTY);
  // The search box is left to the browser (uncontrolled): words typed before the island starts are not wiped by it.
  const searchBox = useRef<HTMLInputElement>(null);
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const started = useRef(false);
  const base = `/educators/${encodeURIComponent(educatorId)}`;

  // A layout effect, not a passive one: React hydrates islands in a transition and runs passive effects in a later
  // task, so a search submitted in between was overwritten by the address read here (the list showed every booking).
  // A layout effect runs in the same task as the hydration's commit, before any event can reach the island.
  useLayoutEffect(() => {
    const initial = fromAddress();
    setFilters(initial);
    if (searchBox.current && !searchBox.current.value) searchBox.current.value = initial.q;
    started.current = true;
  }, []);

  const options = useFilterOptions(base, filters.courseId, started);
  const cursor = cursors[cursors.length - 1] ?? null;
  const query = useMemo(() => apiQuery(filters, cursor), [filters, cursor]);
  const page = useListPage(base, query, filters.show, started);
  useFiltersInAddress(educatorId, filters, started);

  const change = (key: keyof Filters, value: string) => {
    setFilters((f) => changed(f, key, value));
    page.setRows(null);
    setCursors([null]);
  };
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    change('q', searchBox.current?.value ?? '');
  };
  const clear = () => {
    setFilters(EMPTY);
    if (searchBox.current) searchBox.current.value = '';
    setCursors([null]);
  };
  return { ...page, filters, options, searchBox, cursors, setCursors, change, submitSearch, clear };
}

/** What is shown, announced: loading, none, or the page's count. */
function countText({ loading, rows, next, noun, page }: { loading: boolean; rows: unknown[] | null; next: string | null; noun: string; page: number }): string {
  if (loading && rows === null) return `Loading ${noun}s…`;
  if (rows && rows.length === 0) return `No ${noun}s match.`;
  return rows ? `Page ${page}: ${rows.length} ${rows.length === 1 ? noun : `${noun}s`}${next ? ', more on the next page' : ''}.` : '';
}

export default function BookingsList({ educatorId }: { educatorId: string }) {
  const list = useBookingsList(educatorId);
  const { filters, rows, next, cursors, setCursors } = list;
  const orders = filters.show === 'orders';
  const noun = orders ? 'order' : 'booking';
  const page = cursors.length;
  return (
    <div className="bookings-screen" data-testid="bookings-list">
      <SearchForm educatorId={educatorId} searchBox={list.searchBox} onSearch={list.submitSearch} />
      <FiltersFieldset filters={filters} change={list.change} options={list.options} clear={list.clear} />

      {list.error && <p className="admin-status" data-kind="error" role="alert">{list.error}</p>}
      <p className="bookings-count" role="status">
        {countText({ loading: list.loading, rows, next, noun, page })}
      </p>
      {rows && rows.length > 0 && <BookingsTable rows={rows} orders={orders} page={page} educatorId={educatorId} />}
      <nav className="bookings-pages" aria-label={`Pages of ${noun}s`}>
        <button type="button" className="btn btn--secondary" disabled={cursors.length <= 1} onClick={() => setCursors((c) => c.slice(0, -1))}>Previous page</button>
        <button type="button" className="btn btn--secondary" disabled={!next} onClick={() => next && setCursors((c) => [...c, next])}>Next page</button>
      </nav>
    </div>
  );
}
