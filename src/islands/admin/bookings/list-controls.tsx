/**
 * The bookings list's controls: the search by learner name or e-mail, and the filters and sort. Every control has a
 * label.
 */
import type { FormEvent, RefObject } from 'react';
import {
  BOOKING_SORTS, BOOKING_STATUSES, ORDER_SORTS, ORIGIN_FILTERS, ORIGIN_LABELS, PAYMENT_METHOD_FILTERS, PAYMENT_METHOD_LABELS, PAYMENT_STATUSES,
  PAYMENT_STATUS_LABELS, SORT_LABELS, STATUS_LABELS,
} from '../../../domain/admin/bookings.ts';
import { when } from './format.ts';
import type { Filters } from './list-filters.ts';

/** The choices of the course and date filters (the dates of the chosen course). */
export interface FilterOptions { courses: { id: string; name: string }[]; occurrences: { id: string; start: number; end: number; visibility: string }[] }

/** A real GET form too: a search sent before the island has started reloads the page with it, which reads it. */
export function SearchForm({ educatorId, searchBox, onSearch }: { educatorId: string; searchBox: RefObject<HTMLInputElement | null>; onSearch: (event: FormEvent) => void }) {
  return (
    <form className="bookings-search" role="search" method="get" onSubmit={onSearch}>
      <input type="hidden" name="educator-context" value={educatorId} />
      <div className="admin-field">
        <label htmlFor="bf-q">Search by learner name or e-mail</label>
        <div className="bookings-search__row">
          <input id="bf-q" name="q" type="search" ref={searchBox} autoComplete="off" />
          <button type="submit" className="btn">Search</button>
        </div>
      </div>
    </form>
  );
}

interface ControlProps { filters: Filters; change: (key: keyof Filters, value: string) => void }

function FilterSelect({ filters, change, name, label, choices, disabled }: ControlProps & { name: keyof Filters; label: string; choices: [string, string][]; disabled?: boolean }) {
  return (
    <div className="admin-field">
      <label htmlFor={`bf-${name}`}>{label}</label>
      <select id={`bf-${name}`} value={filters[name]} disabled={disabled} onChange={(e) => change(name, e.target.value)}>
        {choices.map(([value, text]) => <option key={value} value={value}>{text}</option>)}
      </select>
    </div>
  );
}

function DateFilter({ filters, change, name, label }: ControlProps & { name: 'fromDate' | 'toDate'; label: string }) {
  return (
    <div className="admin-field">
      <label htmlFor={`bf-${name}`}>{label}</label>
      <input id={`bf-${name}`} type="date" value={filters[name]} onChange={(e) => change(name, e.target.value)} />
    </div>
  );
}

function dateChoices(options: FilterOptions, courseId: string): [string, string][] {
  return [['', courseId ? 'All dates' : 'Choose a course first'],
    ...options.occurrences.map((o): [string, string] => [o.id, `${when(o.start, o.end)}${o.visibility === 'cancelled' ? ' (cancelled)' : o.visibility === 'private' ? ' (private)' : ''}`])];
}

/** The filters and sort; orders (of on-demand courses) have no date or status to filter by. */
export function FiltersFieldset({ filters, change, options, clear }: ControlProps & { options: FilterOptions; clear: () => void }) {
  const orders = filters.show === 'orders';
  const c = { filters, change };
  return (
    <fieldset className="bookings-filters">
      <legend>Filter and sort</legend>
      <FilterSelect {...c} name="show" label="Show" choices={[['bookings', 'Bookings'], ['orders', 'Orders (on-demand courses)']]} />
      <FilterSelect {...c} name="courseId" label="Course" choices={[['', 'All courses'], ...options.courses.map((o): [string, string] => [o.id, o.name])]} />
      {!orders && <FilterSelect {...c} name="occurrenceId" label="Date" choices={dateChoices(options, filters.courseId)} disabled={!filters.courseId} />}
      {!orders && <DateFilter {...c} name="fromDate" label="Dates from" />}
      {!orders && <DateFilter {...c} name="toDate" label="Dates to" />}
      {!orders && <FilterSelect {...c} name="status" label="Status" choices={[['', 'Any status'], ...BOOKING_STATUSES.map((s): [string, string] => [s, STATUS_LABELS[s] ?? s])]} />}
      <FilterSelect {...c} name="paymentMethod" label="Payment method" choices={[['', 'Any method'], ...PAYMENT_METHOD_FILTERS.map((m): [string, string] => [m, PAYMENT_METHOD_LABELS[m] ?? m])]} />
      <FilterSelect {...c} name="paymentStatus" label="Payment status" choices={[['', 'Any payment status'], ...PAYMENT_STATUSES.filter((p) => !orders || p !== 'refunded').map((p): [string, string] => [p, PAYMENT_STATUS_LABELS[p]])]} />
      <FilterSelect {...c} name="origin" label="Came from" choices={[['', 'Anywhere'], ...ORIGIN_FILTERS.map((o): [string, string] => [o, ORIGIN_LABELS[o] ?? o])]} />
      <FilterSelect {...c} name="sort" label="Sort by" choices={(orders ? ORDER_SORTS : BOOKING_SORTS).map((s): [string, string] => [s, SORT_LABELS[s]])} />
      <p><button type="button" className="btn btn--secondary" onClick={clear}>Clear filters</button></p>
    </fieldset>
  );
}
