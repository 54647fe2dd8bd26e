/** The bookings list's table of one page: bookings (with date, status) or orders of on-demand courses. */
import type { AdminBookingRow } from '../../../domain/admin/bookings.ts';
import { adminHref, at, originText, paidText, statusText, when } from './format.ts';

function BookingRow({ b, orders, educatorId }: { b: AdminBookingRow; orders: boolean; educatorId: string }) {
  return (
    <tr>
      <td data-label="Learner">
        <a href={adminHref(orders ? `/bookings/orders/${encodeURIComponent(b.id)}` : `/bookings/${encodeURIComponent(b.id)}`, educatorId)}>{b.learner.name || b.learner.email || b.id}</a>
        {b.learner.email && <span className="bookings-sub">{b.learner.email}</span>}
        <span className="bookings-sub">{b.id}</span>
      </td>
      {orders
        ? <td data-label="Course">{b.course.name}</td>
        : <td data-label="Course and date">{b.course.name}<span className="bookings-sub">{when(b.start, b.end)} · {b.spaces} {b.spaces === 1 ? 'space' : 'spaces'}</span></td>}
      {!orders && <td data-label="Status"><span className="booking-badge" data-status={b.status}>{statusText(b.status)}</span></td>}
      <td data-label="Payment">{paidText(b)}</td>
      <td data-label="Came from">{originText(b.origin)}</td>
      <td data-label={orders ? 'Ordered' : 'Booked'}>{at(b.createdAt)}</td>
    </tr>
  );
}

export function BookingsTable({ rows, orders, page, educatorId }: { rows: AdminBookingRow[]; orders: boolean; page: number; educatorId: string }) {
  return (
    <table className="admin-table bookings-table">
      <caption className="visually-hidden">{orders ? 'Orders' : 'Bookings'}, page {page}</caption>
      <thead>
        <tr>
          <th scope="col">Learner</th>
          <th scope="col">{orders ? 'Course' : 'Course and date'}</th>
          {!orders && <th scope="col">Status</th>}
          <th scope="col">Payment</th>
          <th scope="col">Came from</th>
          <th scope="col">{orders ? 'Ordered' : 'Booked'}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((b) => <BookingRow key={b.id} b={b} orders={orders} educatorId={educatorId} />)}
      </tbody>
    </table>
  );
}
