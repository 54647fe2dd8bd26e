/** The learner's bookings, orders, requests and applications, newest first (for /profile and the confirmation screens). */
import type { Q } from './checkout.ts';

export async function listLearnerOutcomes(q: Q, userId: string) {
  const [bookings, orders, requests, applications] = await Promise.all([
    q.selectFrom('bookings')
      .innerJoin('courses', 'courses.id', 'bookings.course_id')
      .innerJoin('educators', 'educators.id', 'bookings.educator_id')
      .select(['bookings.id', 'bookings.flow', 'bookings.status', 'bookings.occurrence_id', 'bookings.spaces', 'bookings.start_datetime',
        'bookings.end_datetime', 'bookings.payment_method', 'bookings.payment_state', 'bookings.due_date', 'bookings.total_cost',
        'bookings.currency', 'bookings.created_at', 'courses.id as course_id', 'courses.name as course_name', 'courses.slug as course_slug',
        'educators.id as educator_id', 'educators.name as educator_name', 'educators.slug as educator_slug'])
      .where('bookings.user_id', '=', userId).orderBy('bookings.created_at', 'desc').limit(200).execute(),
    q.selectFrom('orders')
      .innerJoin('courses', 'courses.id', 'orders.course_id')
      .innerJoin('educators', 'educators.id', 'orders.educator_id')
      .select(['orders.id', 'orders.status', 'orders.payment_method', 'orders.payment_state', 'orders.due_date', 'orders.total_cost',
        'orders.currency', 'orders.created_at', 'courses.id as course_id', 'courses.name as course_name', 'courses.slug as course_slug',
        'educators.id as educator_id', 'educators.name as educator_name', 'educators.slug as educator_slug'])
      .where('orders.user_id', '=', userId).orderBy('orders.created_at', 'desc').limit(200).execute(),
    q.selectFrom('booking_requests')
      .innerJoin('courses', 'courses.id', 'booking_requests.course_id')
      .innerJoin('educators', 'educators.id', 'booking_requests.educator_id')
      .select(['booking_requests.id', 'booking_requests.flow', 'booking_requests.status', 'booking_requests.created_at',
        'courses.id as course_id', 'courses.name as course_name', 'courses.slug as course_slug',
        'educators.id as educator_id', 'educators.name as educator_name', 'educators.slug as educator_slug'])
      .where('booking_requests.user_id', '=', userId).orderBy('booking_requests.created_at', 'desc').limit(200).execute(),
    q.selectFrom('booking_applications')
      .innerJoin('courses', 'courses.id', 'booking_applications.course_id')
      .innerJoin('educators', 'educators.id', 'booking_applications.educator_id')
      .select(['booking_applications.id', 'booking_applications.status', 'booking_applications.occurrence_id', 'booking_applications.spaces',
        'booking_applications.created_at', 'courses.id as course_id', 'courses.name as course_name', 'courses.slug as course_slug',
        'educators.id as educator_id', 'educators.name as educator_name', 'educators.slug as educator_slug'])
      .where('booking_applications.user_id', '=', userId).orderBy('booking_applications.created_at', 'desc').limit(200).execute(),
  ]);
  const ref = <T extends { id: string }>(rows: T[]) => rows.map((r) => ({ ...r, reference: r.id }));
  return { bookings: ref(bookings), orders: ref(orders), requests: ref(requests), applications: ref(applications) };
}
