/**
 * Tables of documents and booking changes (migration 0007): invoice numbering, the number
 * issued to each booking / order, and booking cancellations with their refunds.
 * Times are epoch seconds, money integer pence.
 */
import type { Selectable } from 'kysely';

/**
 * One gap-free counter per scope. Scope 'invoice:{educatorId}': each educator (the seller named on the
 * document) has its own sequence, INV-000001, INV-000002, … Incremented with a single
 * `update … set value = value + 1 … returning value` inside the transaction that issues the number.
 */
export interface DocumentCountersTable {
  scope: string;
  value: number;
}

export type DocumentOutcomeKind = 'booking' | 'order';

/** The number given to a booking's or an order's invoice / receipt, once; re-downloads show the same one. */
export interface InvoiceDocumentsTable {
  outcome_kind: DocumentOutcomeKind;
  outcome_id: string;
  educator_id: string;
  /** The position in the educator's sequence (unique per educator). */
  seq: number;
  /** As printed: 'INV-000001'. */
  invoice_number: string;
  /** The issue date printed on the document (the booking / order time when issued with it). */
  issued_at: number;
  created_at: number;
}

export type RefundStatus = 'none' | 'pending' | 'refunded' | 'failed';

/**
 * A cancelled booking (one row per booking: the primary key makes a second cancellation impossible).
 * `spaces_released` is what went back to the occurrence; the refund is made after the cancellation commits.
 */
export interface BookingCancellationsTable {
  booking_id: string;
  user_id: string;
  occurrence_id: string | null;
  spaces_released: number;
  cancelled_at: number;
  refund_status: RefundStatus;
  refund_provider: string | null;
  refund_payment_id: string | null;
  refund_amount: number;
  refunded_at: number | null;
  refund_error: string | null;
}

export interface DocumentTables {
  document_counters: DocumentCountersTable;
  invoice_documents: InvoiceDocumentsTable;
  booking_cancellations: BookingCancellationsTable;
}

export type InvoiceDocumentRow = Selectable<InvoiceDocumentsTable>;
export type BookingCancellationRow = Selectable<BookingCancellationsTable>;
