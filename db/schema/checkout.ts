/**
 * Tables of the checkout area (migration 0004): checkouts, space holds, the four outcomes
 * (bookings, orders, requests, applications), payments and the built-in test provider's payments.
 * Times are epoch seconds, money integer pence; JSON columns hold parsed values (db/codec.ts).
 */
import type { Selectable } from 'kysely';
import type { WithDefault } from './columns.ts';
import type { CheckoutOrigin, FlowName } from '../../src/domain/checkout/flows.ts';

export type CheckoutStatus = 'open' | 'completed' | 'abandoned';

export interface CheckoutsTable {
  id: string;
  /** Written only from a registered flow's definition; the registry checks it where the row is read. */
  flow: FlowName;
  origin: CheckoutOrigin;
  /** null: a flow that sells from the educator, not a course (FLOW_RULES courseTypes null). */
  course_id: string | null;
  educator_id: string;
  occurrence_id: string | null;
  /** The signed-in user the checkout belongs to (bound at the first signed-in request). */
  user_id: string | null;
  student_id: string | null;
  current_step: string;
  /** { [stepStateKey]: { status: 'complete', state } } (spec 3 "Checkout state"). */
  step_state: Record<string, { status: string; state: Record<string, unknown> }>;
  utms: Record<string, unknown> | null;
  booked_on_url: string | null;
  status: WithDefault<CheckoutStatus>;
  booking_id: string | null;
  order_id: string | null;
  request_id: string | null;
  application_id: string | null;
  /** Every outcome, whatever its kind (api/checkout/definition.ts OutcomeKind); the four columns above are kept for theirs. */
  outcome_kind: string | null;
  outcome_id: string | null;
  /** The total the learner was shown when they reached Payment; exactly this is charged. */
  total_cost: number | null;
  currency: WithDefault<string>;
  /** The cost summary the total came from. */
  cost_summary: Record<string, unknown> | null;
  /** The provider payment currently attached to the checkout. */
  payment_provider: string | null;
  payment_id: string | null;
  version: WithDefault<number>;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
}

export type HoldStatus = 'held' | 'committed' | 'released';

/**
 * Spaces taken off an occurrence (and a voucher use) while a learner pays. One per checkout.
 * `occurrences.available_spaces` and `vouchers.uses` already count a held row; releasing gives them back.
 */
export interface SpaceHoldsTable {
  id: string;
  checkout_id: string;
  occurrence_id: string | null;
  spaces: number;
  voucher_id: string | null;
  status: HoldStatus;
  expires_at: number;
  created_at: number;
  updated_at: number;
}

/** When a learner's hold time on one date began (migration 0150; api/checkout/holds.ts holderCapEnd). */
export interface HoldCapsTable {
  holder: string;
  scope: string;
  started_at: number;
}

export type PaymentState = 'paid' | 'unpaid' | 'free';

/** Shared columns of the four outcomes. */
export interface OutcomeColumns {
  id: string;
  checkout_id: string;
  flow: string;
  course_id: string;
  educator_id: string;
  user_id: string;
  student_id: string;
  origin: string;
  /** Selected offers and add-ons with their prices: {offers[{offerId, name, quantity, price, spaces}], addOns[…]}. */
  lines: Record<string, unknown>;
  /** Booker and attendee form responses, marketing consent, terms. */
  contact_details: Record<string, unknown>;
  /** Flow-specific extras (delivery, dates, message, slot, voucher…). */
  details: Record<string, unknown>;
  total_cost: number;
  currency: WithDefault<string>;
  created_at: number;
}

export type BookingStatus = 'confirmed' | 'awaiting-approval' | 'cancelled';

export interface BookingsTable extends OutcomeColumns {
  occurrence_id: string | null;
  status: BookingStatus;
  spaces: number;
  /** Calendar-based request bookings: the chosen slot. Dated bookings copy the occurrence's times. */
  start_datetime: number | null;
  end_datetime: number | null;
  payment_method: string | null;
  payment_state: PaymentState;
  payment_id: string | null;
  invoice_details: Record<string, unknown> | null;
  due_date: number | null;
  manual_note: string | null;
  /** The booker's e-mail, "first last" and last name in lower case, set by triggers (migration 0270; the admin's search). */
  learner_email: WithDefault<string | null>;
  learner_name: WithDefault<string | null>;
  learner_last: WithDefault<string | null>;
  /** Pence given back to the learner by any means, pending refunds included (api/admin/refunds.ts). */
  refunded_total: WithDefault<number>;
}

export interface OrdersTable extends OutcomeColumns {
  status: 'confirmed';
  payment_method: string | null;
  payment_state: PaymentState;
  payment_id: string | null;
  invoice_details: Record<string, unknown> | null;
  due_date: number | null;
  manual_note: string | null;
  /** As bookings' (migration 0270). */
  learner_email: WithDefault<string | null>;
  learner_name: WithDefault<string | null>;
  learner_last: WithDefault<string | null>;
}

export interface BookingRequestsTable extends OutcomeColumns {
  /** sent → answered (a date and a price, api/admin/approvals.ts) or declined by the educator. */
  status: 'sent' | 'answered' | 'declined';
}

export interface BookingApplicationsTable extends OutcomeColumns {
  occurrence_id: string | null;
  /** sent → accepted (a booking is made) or declined by the educator. */
  status: 'sent' | 'accepted' | 'declined';
  spaces: number;
}

/** Payments attached to checkouts, one row per provider payment. */
export interface CheckoutPaymentsTable {
  id: string;
  checkout_id: string;
  provider: string;
  provider_payment_id: string;
  amount: number;
  currency: string;
  status: string;
  created_at: number;
  updated_at: number;
  /** When the reconciler last asked the provider about it (null: never). */
  checked_at: number | null;
}

/** The built-in test provider's own state (it stands in for a card provider's servers). */
export interface TestPaymentsTable {
  id: string;
  client_secret: string;
  amount: number;
  currency: string;
  status: string;
  metadata: Record<string, unknown>;
  payment_error: Record<string, unknown> | null;
  return_url: string | null;
  card_last4: string | null;
  created_at: number;
  updated_at: number;
}

/** The learner's latest answers per form (prefills the booker form: GET /student_metadata/form/{formId}). */
export interface StudentFormResponsesTable {
  user_id: string;
  form_id: string;
  form_response: Record<string, unknown>;
  updated_at: number;
}

/** Per-educator platform-fee setting (spec 3 "Cost summary.fees_absorbed"); no row: absorbed. */
export interface EducatorFeeSettingsTable {
  educator_id: string;
  fees_absorbed: boolean;
}

/** Who may book a restricted course: e-mail addresses (lower case) granted access per course. */
export interface RestrictedCourseAccessTable {
  course_id: string;
  email: string;
}

export interface CheckoutTables {
  checkouts: CheckoutsTable;
  space_holds: SpaceHoldsTable;
  hold_caps: HoldCapsTable;
  bookings: BookingsTable;
  orders: OrdersTable;
  booking_requests: BookingRequestsTable;
  booking_applications: BookingApplicationsTable;
  checkout_payments: CheckoutPaymentsTable;
  test_payments: TestPaymentsTable;
  student_form_responses: StudentFormResponsesTable;
  educator_fee_settings: EducatorFeeSettingsTable;
  restricted_course_access: RestrictedCourseAccessTable;
  catalogue_versions: CatalogueVersionsTable;
}

/**
 * Raised by triggers on every write to an educator's catalogue (migration 0100): the checkout's in-memory
 * catalogue is good while the version it was read at is still the educator's.
 */
export interface CatalogueVersionsTable {
  educator_id: string;
  version: number;
}

export type CheckoutRow = Selectable<CheckoutsTable>;
export type SpaceHoldRow = Selectable<SpaceHoldsTable>;
export type BookingRow = Selectable<BookingsTable>;
export type OrderRow = Selectable<OrdersTable>;
export type BookingRequestRow = Selectable<BookingRequestsTable>;
export type BookingApplicationRow = Selectable<BookingApplicationsTable>;
export type TestPaymentRow = Selectable<TestPaymentsTable>;
