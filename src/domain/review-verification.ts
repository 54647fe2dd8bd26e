/**
 * When a review counts as "Verified" (spec: the verified badge): its author took part in what they review,
 * shown by a booking that was attended or paid, or an order that was paid. Without I/O.
 *
 * - A cancelled booking never verifies: its learner did not take part (a booking paid in person, so with
 *   nothing paid yet, and cancelled at once would otherwise buy a badge for nothing).
 * - A booking still waiting for the educator's approval does not verify.
 * - A confirmed booking verifies once paid, when there was nothing to pay (free), or once its date has
 *   passed (attended: e.g. paid in person on the day).
 * - An order (on-demand course) verifies when paid, or free.
 */
export interface BookingEvidence {
  status: 'confirmed' | 'awaiting-approval' | 'cancelled';
  paymentState: 'paid' | 'unpaid' | 'free';
  /** Epoch seconds of the booking's date, when it has one. */
  startsAt: number | null;
  endsAt: number | null;
}

export interface OrderEvidence {
  paymentState: 'paid' | 'unpaid' | 'free';
}

export function bookingVerifiesReview(booking: BookingEvidence, now: number): boolean {
  if (booking.status !== 'confirmed') return false;
  if (booking.paymentState === 'paid' || booking.paymentState === 'free') return true;
  const over = booking.endsAt ?? booking.startsAt;
  return over !== null && over <= now;
}

export function orderVerifiesReview(order: OrderEvidence): boolean {
  return order.paymentState === 'paid' || order.paymentState === 'free';
}
