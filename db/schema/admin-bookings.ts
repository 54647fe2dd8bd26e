/** Tables of the admin's bookings, approvals and refunds (migration 0270). Money integer pence, times epoch seconds. */
import type { Selectable } from 'kysely';
import type { WithDefault } from './columns.ts';

export type RefundKind = 'refund' | 'cancellation' | 'decline' | 'date-cancellation' | 'learner-cancellation';
export type RefundRowStatus = 'pending' | 'succeeded' | 'failed';

/**
 * One refund of a booking, written before its provider is called (api/admin/refunds.ts). `(educator_id,
 * request_key)` and `(booking_id, seq)` are unique: the same press of the button, or a second refund made on the
 * booking as it was before the first, cannot make a second row.
 */
export interface RefundsTable {
  id: string;
  educator_id: string;
  booking_id: string;
  seq: number;
  request_key: string;
  kind: RefundKind;
  amount: number;
  gift_card_amount: WithDefault<number>;
  credits_returned: WithDefault<number>;
  platform_fee_refunded: WithDefault<number>;
  currency: WithDefault<string>;
  provider: string | null;
  provider_payment_id: string | null;
  provider_key: string;
  provider_refund_id: string | null;
  status: RefundRowStatus;
  attempts: WithDefault<number>;
  last_error: string | null;
  reason: string | null;
  created_by: string | null;
  created_at: number;
  checked_at: number | null;
  completed_at: number | null;
}

/** The built-in test provider's refunds (one per idempotency key). */
export interface TestRefundsTable {
  id: string;
  payment_id: string;
  idempotency_key: string;
  amount: number;
  currency: string;
  status: string;
  created_at: number;
}

/** An educator's answer to a booking request: a date and a price, and the checkout prepared for the learner. */
export interface BookingQuotesTable {
  id: string;
  educator_id: string;
  course_id: string;
  request_id: string;
  user_id: string;
  occurrence_id: string;
  offer_id: string;
  checkout_id: string;
  price: number;
  spaces: number;
  start_datetime: number;
  end_datetime: number;
  message: string | null;
  expires_at: number;
  status: 'sent' | 'withdrawn';
  created_by: string | null;
  created_at: number;
}

export interface AdminBookingTables {
  refunds: RefundsTable;
  test_refunds: TestRefundsTable;
  booking_quotes: BookingQuotesTable;
}

export type RefundRow = Selectable<RefundsTable>;
export type BookingQuoteRow = Selectable<BookingQuotesTable>;
