/**
 * The checkout state (spec 3 "Checkout state", src/domain/checkout/state.ts): what every checkout call answers —
 * the row, the steps of its path now, the flow's defaults and rules, the cost summary, the hold and, once
 * complete, its outcome as the confirmation screen shows it (spec 2.15).
 */
import { checkoutPricesVisible } from '../../../src/domain/pricing.ts';
import { contextForOrigin } from '../../../src/domain/checkout/flows.ts';
import type { StepId } from '../../../src/domain/checkout/steps.ts';
import { termsPreAccepted } from '../../../src/domain/checkout/validation.ts';
import { confirmationTitleOf } from '../../../src/domain/checkout/outcomes.ts';
import { isOutcomeKind, type CheckoutOutcome, type CheckoutState, type CostSummaryView } from '../../../src/domain/checkout/state.ts';
import { occurrenceLinkFromBooking, orderDetailsLink, type LinkTarget } from '../../../src/domain/links.ts';
import { checkoutCost, stepsOf, type Ctx } from '../context.ts';
import { currentHold } from '../holds.ts';
import { documentToken } from '../../shared/document-tokens.ts';
import type { BookingRow, OrderRow } from '../../../db/schema/checkout.ts';

/**
 * "View & Manage Booking" (spec 2.15) goes to the spec 2.4 booking or order page, seen from the context the
 * checkout was opened in: the marketplace, the educator's own minisite (landing_page) or an embed (which opens
 * the minisite in a new tab). A booking without an occurrence (a calendar request) goes to the course's dates
 * page with the booking (/{courseSlug}/dates?booking=).
 */
function manageLink(ctx: Ctx, target: { occurrenceId?: string | null; bookingId?: string; orderId?: string }): string {
  const context = contextForOrigin(ctx.row.origin);
  const config = ctx.deps.config;
  const link: LinkTarget & { courseSlug: string } = {
    educatorSlug: ctx.cat.educator.slug,
    currentEducatorSlug: context === 'minisite' ? ctx.cat.educator.slug : null,
    host: config.PUBLIC_HOST,
    protocol: config.PUBLIC_PROTOCOL,
    courseSlug: ctx.cat.course?.slug ?? '',
  };
  if (target.orderId) return orderDetailsLink(context, { ...link, orderId: target.orderId }).href;
  return occurrenceLinkFromBooking(context, { ...link, occurrenceId: target.occurrenceId, bookingId: target.bookingId }).href;
}

/** What a completed checkout recorded, as the confirmation screen shows it (spec 2.15); null while open. */
async function outcomeOf(ctx: Ctx): Promise<CheckoutOutcome | null> {
  const r = ctx.row;
  if (r.status !== 'completed') return null;
  const title = confirmationTitleOf(ctx.def.rules, { approvalRequired: ctx.cat.course?.approval_required, instantBooking: ctx.def.stateRules?.(ctx).instantBooking ?? false });
  if (r.booking_id) return bookingView(ctx, r.booking_id, title);
  if (r.order_id) return orderView(ctx, r.order_id, title);
  if (r.request_id) return { kind: 'request', id: r.request_id, reference: r.request_id, title, status: 'sent' };
  if (r.application_id) return { kind: 'application', id: r.application_id, reference: r.application_id, title, status: 'sent' };
  // Any other kind of outcome is described by its flow.
  if (r.outcome_kind && r.outcome_id && isOutcomeKind(r.outcome_kind)) {
    return (await ctx.def.describeOutcome?.(ctx, { kind: r.outcome_kind, id: r.outcome_id }, title)) ?? null;
  }
  return null;
}

/** The booking or order `id` if this action recorded it (then it is not read again after the commit). */
function recordedRow(ctx: Ctx, id: string): BookingRow | OrderRow | undefined {
  return ctx.recorded?.id === id ? ctx.recorded : undefined;
}

/** A booking with its links: calendar, invoice or receipt, "Pay Invoice", "View & Manage Booking". */
async function bookingView(ctx: Ctx, id: string, title: string): Promise<CheckoutOutcome | null> {
  const b = (recordedRow(ctx, id) as BookingRow | undefined) ?? await ctx.q.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirst();
  if (!b) return null;
  const token = documentToken(ctx.deps.config.APP_SECRET, 'booking', b.id);
  return {
    kind: 'booking', id: b.id, reference: b.id, title, status: b.status, paymentMethod: b.payment_method, paymentState: b.payment_state,
    dueDate: b.due_date, manualNote: b.manual_note, totalCost: b.total_cost, currency: b.currency,
    links: {
      ical: `/api/bookings/${b.id}/ical?token=${token}`,
      invoice: `/api/booking/${b.id}/invoice?token=${token}`,
      payInvoice: b.payment_method === 'invoice' ? `/complete-booking/${b.id}` : null,
      manage: manageLink(ctx, { occurrenceId: b.occurrence_id, bookingId: b.id }),
    },
  };
}

/** An order with its links: invoice or receipt, "Pay Invoice", "Access {course}". */
async function orderView(ctx: Ctx, id: string, title: string): Promise<CheckoutOutcome | null> {
  const o = (recordedRow(ctx, id) as OrderRow | undefined) ?? await ctx.q.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
  if (!o) return null;
  const token = documentToken(ctx.deps.config.APP_SECRET, 'order', o.id);
  return {
    kind: 'order', id: o.id, reference: o.id, title, status: o.status, paymentMethod: o.payment_method, paymentState: o.payment_state,
    dueDate: o.due_date, manualNote: o.manual_note, totalCost: o.total_cost, currency: o.currency,
    links: { invoice: `/api/order/${o.id}/invoice?token=${token}`, payInvoice: o.payment_method === 'invoice' ? `/complete-order/${o.id}` : null, manage: manageLink(ctx, { orderId: o.id }) },
  };
}

export async function toState(ctx: Ctx): Promise<CheckoutState> {
  const r = ctx.row;
  const steps = await stepsOf(ctx);
  const hold = ctx.hold !== undefined ? ctx.hold : await currentHold(ctx.q, r.id);
  // Until Payment fixes the total, the summary follows the selection.
  const cost = r.status === 'completed' || r.current_step === 'payment' ? (r.cost_summary as CostSummaryView | null) : await checkoutCost(ctx);
  const extra = ctx.def.stateRules?.(ctx) ?? { calendarBased: false, instantBooking: false };
  return {
    _id: r.id,
    flow: r.flow,
    origin: r.origin,
    currentStep: r.current_step as StepId,
    courseId: r.course_id,
    educatorId: r.educator_id,
    occurrenceId: r.occurrence_id,
    bookingId: r.booking_id,
    orderId: r.order_id,
    requestId: r.request_id,
    applicationId: r.application_id,
    outcomeKind: r.outcome_kind && isOutcomeKind(r.outcome_kind) ? r.outcome_kind : null,
    outcomeId: r.outcome_id,
    stepState: r.step_state,
    status: r.status,
    steps,
    defaults: ctx.def.defaults(ctx),
    rules: {
      paymentRequired: steps.includes('payment'),
      ...extra,
      // Spec 6 "Hidden pricing": prices and cost lines are hidden, except on the marketplace origin.
      pricingHidden: !checkoutPricesVisible(ctx.cat.educator.feature_flags?.hide_pricing, r.origin),
      termsPreAccepted: termsPreAccepted({ hideTerms: ctx.cat.educator.feature_flags?.hide_terms, origin: r.origin }),
    },
    costSummary: cost ?? null,
    totalCost: r.total_cost ?? cost?.total_cost ?? null,
    currency: r.currency,
    hold: hold ? { spaces: Number(hold.spaces), expiresAt: Number(hold.expires_at), status: hold.status } : null,
    outcome: await outcomeOf(ctx),
    bookedOnURL: r.booked_on_url,
    utms: r.utms,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    version: Number(r.version),
    loginRequired: false,
  };
}

/** The state of another's (logged-out) checkout: where it stands and that a login is needed, nothing chosen in it. */
export async function lockedState(ctx: Ctx): Promise<CheckoutState> {
  const r = ctx.row;
  return {
    _id: r.id, flow: r.flow, origin: r.origin, currentStep: r.current_step as StepId, courseId: r.course_id, educatorId: r.educator_id,
    occurrenceId: null, bookingId: null, orderId: null, requestId: null, applicationId: null, outcomeKind: null, outcomeId: null, stepState: {}, status: r.status,
    steps: await stepsOf(ctx), defaults: {},
    rules: { paymentRequired: r.current_step === 'payment', calendarBased: false, instantBooking: false, pricingHidden: true, termsPreAccepted: false },
    costSummary: null, totalCost: null, currency: r.currency, hold: null, outcome: null, bookedOnURL: null, utms: null,
    createdAt: Number(r.created_at), updatedAt: Number(r.updated_at), version: Number(r.version), loginRequired: true,
  };
}
