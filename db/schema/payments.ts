/** Tables of the payments area: educators' provider accounts and received provider events (migration 0005). */

/** Which provider account receives an educator's payments (e.g. a Stripe connected account `acct_…`). */
export interface EducatorPaymentAccountsTable {
  educator_id: string;
  /** 'stripe' | 'paypal' */
  provider: string;
  account_id: string;
  created_at: number;
}

/**
 * One row per provider event (webhook) we have verified. `(provider, event_id)` is unique, so a
 * duplicate delivery finds the row and is acknowledged without doing anything again.
 * A delivery claims the row (`claimed_at`) while it runs the handler and marks it `handled_at`
 * when done; a failed attempt releases the claim so the provider's retry can handle it.
 */
export interface PaymentEventsTable {
  provider: string;
  event_id: string;
  type: string;
  received_at: number;
  /** The verified event as JSON (db/codec.ts). */
  payload: unknown;
  checkout_id: string | null;
  claimed_at: number | null;
  handled_at: number | null;
  attempts: number;
  last_error: string | null;
}

export interface PaymentTables {
  educator_payment_accounts: EducatorPaymentAccountsTable;
  payment_events: PaymentEventsTable;
}
