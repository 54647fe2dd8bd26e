/**
 * Read model of one booking or order as its documents, e-mails and the booking page need it: the outcome
 * row, its course, educator and occurrence, the invoice number issued to it, its cancellation, and the
 * provider that took its payment.
 */
import type { Db } from '../client.ts';
import type { InvoiceDetails } from '../../src/domain/checkout/validation.ts';
import type { AddressParts, Course, Educator, Occurrence, VatSettings } from '../schema.ts';
import type { BookingRow, OrderRow } from '../schema/checkout.ts';
import type { BookingCancellationRow, InvoiceDocumentRow } from '../schema/documents.ts';

type Q = Db;

export interface StoredLines {
  offers?: { offerId?: string; name: string; quantity: number; price: number | null; spaces?: number }[];
  addOns?: { addonId?: string; name: string; quantity: number; price: number | null }[];
  extras?: { label: string; cost: number; quantity: number }[];
}

export interface StoredSummaryItem {
  text: string;
  value: number;
}

/** The cost summary stored with the outcome (src/domain/checkout/costSummary.ts CostSummary). */
export interface StoredCostSummary {
  summary_items?: Partial<Record<'offerSummary' | 'addOnSummary' | 'discountSummary' | 'voucherSummary' | 'vatSummary' | 'extraSummary' | 'giftCardSummary', StoredSummaryItem[]>>;
  platform_fee?: number;
  fees_absorbed?: boolean;
  vat_amount?: number;
  subtotal?: number;
  total_cost?: number;
  currency?: string;
  /** What a gift card paid (total_cost is what was left for the payment method). */
  gift_card_amount?: number | null;
}

/** What a learner entered at Invoice details (spec 3): the checkout's own shape. */
export type InvoiceDetailsView = InvoiceDetails;

export interface EducatorView {
  id: string;
  slug: string;
  name: string;
  address: AddressParts | null;
  phone: string | null;
  email: string | null;
  vatSettings: (VatSettings & { vat_number?: string | null }) | null;
  cancellationAllowed: number | null;
}

export interface CourseView {
  id: string;
  slug: string;
  name: string;
  type: string;
  keyword: string | null;
}

export interface OutcomeView {
  kind: 'booking' | 'order';
  id: string;
  checkoutId: string;
  flow: string;
  origin: string;
  userId: string;
  status: string;
  paymentMethod: string | null;
  paymentState: 'paid' | 'unpaid' | 'free';
  paymentId: string | null;
  /** The provider that took the payment (checkouts.payment_provider), when paid through one. */
  paymentProvider: string | null;
  dueDate: number | null;
  manualNote: string | null;
  invoiceDetails: InvoiceDetailsView | null;
  totalCost: number;
  currency: string;
  createdAt: number;
  lines: StoredLines;
  costSummary: StoredCostSummary | null;
  /** Flow-specific details (request delivery, dates, message…). */
  details: Record<string, unknown>;
  booker: { firstName: string; lastName: string; name: string; email: string | null };
  course: CourseView;
  educator: EducatorView;
  document: InvoiceDocumentRow | null;
}

export interface OccurrenceView {
  id: string;
  delivery: string;
  address: AddressParts | null;
  timezone: string;
  spaces: number | null;
  availableSpaces: number | null;
}

export interface BookingView extends OutcomeView {
  kind: 'booking';
  occurrenceId: string | null;
  spaces: number;
  start: number | null;
  end: number | null;
  occurrence: OccurrenceView | null;
  /** A request booking where the learner travels: the chosen location's address. */
  requestLocation: string | null;
  cancellation: BookingCancellationRow | null;
}

export interface OrderView extends OutcomeView {
  kind: 'order';
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function bookerOf(contact: unknown): OutcomeView['booker'] {
  const form = ((contact as { booker?: { formResponse?: Record<string, unknown> } } | null)?.booker?.formResponse ?? {}) as Record<string, unknown>;
  const firstName = str(form.system_first_name).trim();
  const lastName = str(form.system_last_name).trim();
  const email = str(form.system_email).trim();
  return { firstName, lastName, name: [firstName, lastName].filter(Boolean).join(' '), email: email || null };
}

type EducatorParts = Pick<Educator, 'id' | 'slug' | 'name' | 'address' | 'phone_number' | 'email' | 'vat_settings' | 'cancellation_allowed'>;
type CourseParts = Pick<Course, 'id' | 'slug' | 'name' | 'type' | 'keyword'>;

function educatorView(e: EducatorParts): EducatorView {
  return {
    id: e.id, slug: e.slug, name: e.name, address: e.address ?? null, phone: e.phone_number ?? null, email: e.email ?? null,
    vatSettings: (e.vat_settings as EducatorView['vatSettings']) ?? null,
    cancellationAllowed: e.cancellation_allowed === null || e.cancellation_allowed === undefined ? null : Number(e.cancellation_allowed),
  };
}

function courseView(c: CourseParts): CourseView {
  return { id: c.id, slug: c.slug, name: c.name, type: c.type, keyword: c.keyword ?? null };
}

async function educatorAndCourse(q: Q, educatorId: string, courseId: string): Promise<{ educator: EducatorView; course: CourseView } | null> {
  const [e, c] = await Promise.all([
    q.selectFrom('educators')
      .select(['id', 'slug', 'name', 'address', 'phone_number', 'email', 'vat_settings', 'cancellation_allowed'])
      .where('id', '=', educatorId).executeTakeFirst(),
    q.selectFrom('courses').select(['id', 'slug', 'name', 'type', 'keyword']).where('id', '=', courseId).executeTakeFirst(),
  ]);
  if (!e || !c) return null;
  return { educator: educatorView(e), course: courseView(c) };
}

/**
 * A booking or order the caller's transaction has just recorded, with what that transaction holds: the row its
 * insert returned, the educator and course of the catalogue it sold from, the provider of its payment. Nothing
 * refers to it yet (its invoice number is issued last in that transaction; it has no cancellation), so its view
 * is made without reading any of that again; only the occurrence (its spaces move) and a travel location are read.
 */
export interface NewOutcome<R> {
  row: R;
  educator: EducatorParts;
  course: CourseParts;
  /** The provider of its payment (null: not paid through one); undefined: to be read. */
  provider?: string | null;
  /** Its occurrence as the recording transaction read it (the e-mails use its place and time zone); undefined: to be read. */
  occurrence?: Pick<Occurrence, 'id' | 'delivery' | 'address' | 'timezone' | 'spaces' | 'available_spaces'> | null;
}

/** The educator and course of an outcome: from what its recording transaction holds, else read. */
function partsOf(
  q: Q, outcome: { educator_id: string; course_id: string }, recorded?: NewOutcome<unknown>,
): Promise<{ educator: EducatorView; course: CourseView } | null> | { educator: EducatorView; course: CourseView } {
  return recorded ? { educator: educatorView(recorded.educator), course: courseView(recorded.course) } : educatorAndCourse(q, outcome.educator_id, outcome.course_id);
}

async function paymentProviderOf(q: Q, checkoutId: string, paymentId: string | null): Promise<string | null> {
  if (!paymentId) return null;
  const stored = await q
    .selectFrom('checkout_payments')
    .select('provider')
    .where('checkout_id', '=', checkoutId)
    .where('provider_payment_id', '=', paymentId)
    .executeTakeFirst();
  if (stored) return stored.provider;
  const checkout = await q.selectFrom('checkouts').select(['payment_provider', 'payment_id']).where('id', '=', checkoutId).executeTakeFirst();
  return checkout && checkout.payment_id === paymentId ? checkout.payment_provider : null;
}

export async function loadBookingView(q: Q, bookingId: string, recorded?: NewOutcome<BookingRow>): Promise<BookingView | null> {
  if (!recorded && (!bookingId || bookingId.length > 200)) return null;
  const b = recorded?.row ?? (await q.selectFrom('bookings').selectAll().where('id', '=', bookingId).executeTakeFirst());
  if (!b) return null;
  const [parts, occurrence, document, cancellation, provider] = await Promise.all([
    partsOf(q, b, recorded),
    !b.occurrence_id ? undefined
      : recorded?.occurrence?.id === b.occurrence_id ? recorded.occurrence
        : q.selectFrom('occurrences').select(['id', 'delivery', 'address', 'timezone', 'spaces', 'available_spaces']).where('id', '=', b.occurrence_id).executeTakeFirst(),
    recorded ? undefined : q.selectFrom('invoice_documents').selectAll().where('outcome_kind', '=', 'booking').where('outcome_id', '=', b.id).executeTakeFirst(),
    recorded ? undefined : q.selectFrom('booking_cancellations').selectAll().where('booking_id', '=', b.id).executeTakeFirst(),
    recorded?.provider !== undefined ? recorded.provider : paymentProviderOf(q, b.checkout_id, b.payment_id),
  ]);
  if (!parts) return null;
  const details = (b.details ?? {}) as Record<string, unknown>;
  const travel = (details.delivery as { delivery?: { type?: string; location_ref?: string } } | null | undefined)?.delivery;
  const location = travel?.type === 'Student travels' && travel.location_ref
    ? await q.selectFrom('locations').select('formatted').where('id', '=', travel.location_ref).executeTakeFirst()
    : undefined;
  return {
    kind: 'booking',
    id: b.id,
    checkoutId: b.checkout_id,
    flow: b.flow,
    origin: b.origin,
    userId: b.user_id,
    status: b.status,
    paymentMethod: b.payment_method,
    paymentState: b.payment_state,
    paymentId: b.payment_id,
    paymentProvider: provider,
    dueDate: b.due_date === null ? null : Number(b.due_date),
    manualNote: b.manual_note,
    invoiceDetails: (b.invoice_details as InvoiceDetailsView | null) ?? null,
    totalCost: Number(b.total_cost),
    currency: b.currency || 'GBP',
    createdAt: Number(b.created_at),
    lines: (b.lines ?? {}) as StoredLines,
    costSummary: (details.costSummary as StoredCostSummary | null | undefined) ?? null,
    details,
    booker: bookerOf(b.contact_details),
    ...parts,
    document: document ?? null,
    occurrenceId: b.occurrence_id,
    spaces: Number(b.spaces),
    start: b.start_datetime === null ? null : Number(b.start_datetime),
    end: b.end_datetime === null ? null : Number(b.end_datetime),
    occurrence: occurrence
      ? {
        id: occurrence.id, delivery: occurrence.delivery, address: occurrence.address ?? null, timezone: occurrence.timezone || 'Europe/London',
        spaces: occurrence.spaces === null ? null : Number(occurrence.spaces),
        availableSpaces: occurrence.available_spaces === null ? null : Number(occurrence.available_spaces),
      }
      : null,
    requestLocation: location?.formatted ?? null,
    cancellation: cancellation ?? null,
  };
}

export async function loadOrderView(q: Q, orderId: string, recorded?: NewOutcome<OrderRow>): Promise<OrderView | null> {
  if (!recorded && (!orderId || orderId.length > 200)) return null;
  const o = recorded?.row ?? (await q.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst());
  if (!o) return null;
  const [parts, document, provider] = await Promise.all([
    partsOf(q, o, recorded),
    recorded ? undefined : q.selectFrom('invoice_documents').selectAll().where('outcome_kind', '=', 'order').where('outcome_id', '=', o.id).executeTakeFirst(),
    recorded?.provider !== undefined ? recorded.provider : paymentProviderOf(q, o.checkout_id, o.payment_id),
  ]);
  if (!parts) return null;
  const details = (o.details ?? {}) as Record<string, unknown>;
  return {
    kind: 'order',
    id: o.id,
    checkoutId: o.checkout_id,
    flow: o.flow,
    origin: o.origin,
    userId: o.user_id,
    status: o.status,
    paymentMethod: o.payment_method,
    paymentState: o.payment_state,
    paymentId: o.payment_id,
    paymentProvider: provider,
    dueDate: o.due_date === null ? null : Number(o.due_date),
    manualNote: o.manual_note,
    invoiceDetails: (o.invoice_details as InvoiceDetailsView | null) ?? null,
    totalCost: Number(o.total_cost),
    currency: o.currency || 'GBP',
    createdAt: Number(o.created_at),
    lines: (o.lines ?? {}) as StoredLines,
    costSummary: (details.costSummary as StoredCostSummary | null | undefined) ?? null,
    details,
    booker: bookerOf(o.contact_details),
    ...parts,
    document: document ?? null,
  };
}

/** The learner's newest booking on an occurrence (the booking page opened without ?booking=). */
export async function latestBookingIdOnOccurrence(q: Q, userId: string, occurrenceId: string): Promise<string | null> {
  const row = await q
    .selectFrom('bookings')
    .select('id')
    .where('user_id', '=', userId)
    .where('occurrence_id', '=', occurrenceId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** What the "Pay Invoice" page (spec 2.15) shows of a booking or order. */
export interface PayInvoiceView {
  id: string;
  user_id: string;
  total_cost: number;
  currency: string;
  payment_method: string | null;
  payment_state: string;
  due_date: number | null;
  invoice_details: Record<string, unknown> | null;
  course_name: string;
  educator_name: string;
}

export async function loadPayInvoice(q: Q, kind: 'booking' | 'order', id: string): Promise<PayInvoiceView | null> {
  const table = kind === 'booking' ? 'bookings' : 'orders';
  const row = await q
    .selectFrom(table)
    .innerJoin('courses', 'courses.id', `${table}.course_id`)
    .innerJoin('educators', 'educators.id', `${table}.educator_id`)
    .select([
      `${table}.id as id`, `${table}.user_id as user_id`, `${table}.total_cost as total_cost`, `${table}.currency as currency`,
      `${table}.payment_method as payment_method`, `${table}.payment_state as payment_state`, `${table}.due_date as due_date`,
      `${table}.invoice_details as invoice_details`, 'courses.name as course_name', 'educators.name as educator_name',
    ])
    .where(`${table}.id`, '=', id)
    .executeTakeFirst();
  return row
    ? { ...row, total_cost: Number(row.total_cost), due_date: row.due_date === null ? null : Number(row.due_date), invoice_details: (row.invoice_details ?? null) as Record<string, unknown> | null }
    : null;
}
