/**
 * Reaching Payment (the total is fixed and the spaces are held) and completing a flow (spec 4 "Outcomes"):
 * a booking (confirmed, or awaiting approval with approval_required), an order, a request (a booking when
 * it is an instant booking) or an application. Everything here runs inside the action's transaction.
 */
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { assertKnownUser } from '../../src/domain/checkout/validation.ts';
import { bookingOutcome } from '../../src/domain/checkout/outcomes.ts';
import { holdLapsedProblem, soldOutProblem, voucherProperty } from '../../src/domain/checkout/problems.ts';
import { acquireHold, commitHold, currentHold } from './holds.ts';
import {
  checkoutCost, entry, instantBooking, scopeAddOns, scopeOffers, selection,
  type Ctx, type DatesState, type DeliveryState, type PaymentStepState,
} from './context.ts';
import { requestedSpaces, slotOf } from './steps.ts';
import { newReference } from './ids.ts';
import type { PaymentState } from '../../db/schema/checkout.ts';
import { educatorBusyIntervals } from '../../db/queries/checkout.ts';
import type { StoredCostSummary } from '../../db/queries/bookings.ts';
import { issueInvoiceNumber } from '../documents/numbering.ts';
import { hasDocument } from '../documents/describe.ts';

/** Flows whose spaces come off an occurrence. */
export function holdsSpaces(ctx: Ctx): boolean {
  return ctx.flow === 'booking' && !!ctx.row.occurrence_id;
}

/**
 * Takes the hold for the checkout's current selection; throws the sold-out / voucher / lapsed problem on failure.
 * `capped`: the learner's own renewals stop at CHECKOUT_HOLD_MAX_SECONDS; recording an outcome (money already
 * taken) only needs the spaces to be there.
 */
export async function holdForSelection(ctx: Ctx, { capped }: { capped: boolean }): Promise<void> {
  const sel = selection(ctx);
  const spaces = holdsSpaces(ctx) ? (sel?.spaces ?? 0) : 0;
  const voucherId = ctx.flow === 'booking' || ctx.flow === 'order' ? (sel?.voucherId ?? null) : null;
  if (spaces === 0 && !voucherId) return;
  const result = await acquireHold(ctx.q, ctx.dialect, {
    checkoutId: ctx.row.id,
    now: ctx.now,
    ttlSeconds: ctx.deps.config.CHECKOUT_HOLD_SECONDS,
    ...(capped ? { maxSeconds: ctx.deps.config.CHECKOUT_HOLD_MAX_SECONDS } : {}),
    occurrenceId: spaces > 0 ? ctx.row.occurrence_id : null,
    spaces,
    voucherId,
  });
  if (!result.ok) {
    if (result.failure.kind === 'spaces') throw new ProblemError(soldOutProblem(result.failure.available, 'stepState.price.offers'));
    if (result.failure.kind === 'lapsed') throw new ProblemError(holdLapsedProblem(ctx.deps.config.CHECKOUT_HOLD_MAX_SECONDS));
    throw new ProblemError(problems.validation([voucherProperty('usedUp', 'stepState.price.voucherId')]));
  }
}

/** Spec 2.14: entering Payment fixes the total the learner is shown (and charged) and holds the spaces. */
export async function enterPayment(ctx: Ctx): Promise<void> {
  const cost = await checkoutCost(ctx);
  ctx.row.total_cost = cost?.total_cost ?? 0;
  ctx.row.currency = cost?.currency ?? 'GBP';
  ctx.row.cost_summary = cost as unknown as Record<string, unknown>;
  await holdForSelection(ctx, { capped: true });
}

export interface CompletionPayment {
  method: string | null;
  state: PaymentState;
  paymentId?: string | null;
  invoiceDetails?: Record<string, unknown> | null;
  dueDate?: number | null;
  manualNote?: string | null;
}

/** Commits the checkout's hold, taking it first when there is none (free flows, or a hold that was swept). */
async function commitSpaces(ctx: Ctx): Promise<void> {
  const sel = selection(ctx);
  const expectedSpaces = holdsSpaces(ctx) ? (sel?.spaces ?? 0) : 0;
  const expectedVoucher = ctx.flow === 'booking' || ctx.flow === 'order' ? (sel?.voucherId ?? null) : null;
  if (expectedSpaces === 0 && !expectedVoucher) return;
  let hold = await currentHold(ctx.q, ctx.row.id);
  const matches = hold && hold.status === 'held' && Number(hold.spaces) === expectedSpaces && (hold.voucher_id ?? null) === expectedVoucher
    && (expectedSpaces === 0 || hold.occurrence_id === ctx.row.occurrence_id);
  if (!matches) {
    await holdForSelection(ctx, { capped: false });
    hold = await currentHold(ctx.q, ctx.row.id);
  }
  if (!hold || !(await commitHold(ctx.q, hold.id, ctx.now))) throw new ProblemError(problems.checkoutSubmission());
}

function lines(ctx: Ctx) {
  const sel = selection(ctx);
  const offers = scopeOffers(ctx);
  const addOns = scopeAddOns(ctx);
  return {
    offers: (sel?.offers ?? []).filter((l) => l.quantity > 0).map((l) => {
      const o = offers.find((x) => x.id === l.offerId);
      return { offerId: l.offerId, name: o?.name ?? l.offerId, quantity: l.quantity, price: o?.price ?? 0, spaces: o?.spaces ?? 1 };
    }),
    addOns: (sel?.addOns ?? []).filter((l) => l.quantity > 0).map((l) => {
      const a = addOns.find((x) => x.id === l.addonId);
      return { addonId: l.addonId, name: a?.name ?? l.addonId, quantity: l.quantity, price: a?.price ?? 0 };
    }),
    extras: sel?.extras ?? [],
  };
}

/** Records the flow's outcome and closes the checkout. Idempotent callers check `status` first. */
export async function complete(ctx: Ctx, pay: CompletionPayment): Promise<void> {
  assertKnownUser(ctx.row.user_id);
  const userId = ctx.row.user_id;
  const studentId = ctx.row.student_id ?? userId;
  if (ctx.row.total_cost === null || ctx.row.cost_summary === null || pay.state === 'free') {
    const cost = await checkoutCost(ctx);
    ctx.row.total_cost = cost?.total_cost ?? 0;
    ctx.row.currency = cost?.currency ?? 'GBP';
    ctx.row.cost_summary = cost as unknown as Record<string, unknown>;
  }
  const contact = entry<Record<string, unknown>>(ctx, 'contactDetails') ?? {};
  const base = {
    checkout_id: ctx.row.id,
    flow: ctx.flow,
    course_id: ctx.row.course_id,
    educator_id: ctx.row.educator_id,
    user_id: userId,
    student_id: studentId,
    origin: ctx.row.origin,
    lines: lines(ctx),
    contact_details: contact,
    total_cost: ctx.row.total_cost ?? 0,
    currency: ctx.row.currency,
    created_at: ctx.now,
  };
  const paymentColumns = {
    payment_method: pay.method,
    payment_state: pay.state,
    payment_id: pay.paymentId ?? null,
    invoice_details: pay.invoiceDetails ?? null,
    due_date: pay.dueDate ?? null,
    manual_note: pay.manualNote ?? null,
  };
  const message = entry<{ message: string }>(ctx, 'message')?.message ?? null;

  switch (ctx.flow) {
    case 'booking': {
      await commitSpaces(ctx);
      const occ = ctx.occ?.occurrence;
      const id = newReference('booking');
      await ctx.q.insertInto('bookings').values({
        ...base, ...paymentColumns, id,
        status: bookingOutcome(ctx.cat.course.approval_required),
        occurrence_id: ctx.row.occurrence_id,
        spaces: requestedSpaces(ctx),
        start_datetime: occ ? Number(occ.start_datetime) : null,
        end_datetime: occ ? Number(occ.end_datetime) : null,
        details: { voucherId: selection(ctx)?.voucherId ?? null, costSummary: ctx.row.cost_summary },
      }).execute();
      ctx.row.booking_id = id;
      break;
    }
    case 'order': {
      await commitSpaces(ctx);
      const id = newReference('order');
      await ctx.q.insertInto('orders').values({
        ...base, ...paymentColumns, id, status: 'confirmed',
        details: { voucherId: selection(ctx)?.voucherId ?? null, costSummary: ctx.row.cost_summary },
      }).execute();
      ctx.row.order_id = id;
      break;
    }
    case 'request': {
      const delivery = entry<DeliveryState>(ctx, 'delivery');
      const dates = entry<DatesState>(ctx, 'dates');
      const details = { delivery, dates, message, costSummary: ctx.row.cost_summary };
      if (instantBooking(ctx) && dates?.availableDate) {
        const slot = slotOf(ctx, Math.floor(Date.parse(dates.availableDate) / 1000));
        // The slot must still be free: lock the educator (PostgreSQL) and look for an overlapping booking.
        if (ctx.dialect === 'postgres') await ctx.q.selectFrom('educators').select('id').where('id', '=', ctx.row.educator_id).forUpdate().execute();
        const busy = await educatorBusyIntervals(ctx.q, ctx.row.educator_id, slot.from, slot.to);
        if (busy.length > 0) throw new ProblemError(problems.validation([{ key: 'stepState.dates.availableDate', name: 'Date & Time', message: 'is no longer available' }]));
        const id = newReference('booking');
        await ctx.q.insertInto('bookings').values({
          ...base, ...paymentColumns, id,
          status: bookingOutcome(ctx.cat.course.approval_required),
          occurrence_id: null,
          spaces: requestedSpaces(ctx),
          start_datetime: slot.from,
          end_datetime: slot.to,
          details,
        }).execute();
        ctx.row.booking_id = id;
      } else {
        const id = newReference('request');
        await ctx.q.insertInto('booking_requests').values({ ...base, id, status: 'sent', details }).execute();
        ctx.row.request_id = id;
      }
      break;
    }
    case 'dateBookingRequest':
    case 'groupBookingRequest': {
      const id = newReference('request');
      await ctx.q.insertInto('booking_requests').values({
        ...base, id, status: 'sent', details: { dates: entry<DatesState>(ctx, 'dates'), message, costSummary: ctx.row.cost_summary },
      }).execute();
      ctx.row.request_id = id;
      break;
    }
    case 'bookingApplication': {
      const id = newReference('application');
      const occ = ctx.occ?.occurrence;
      await ctx.q.insertInto('booking_applications').values({
        ...base, id, status: 'sent', occurrence_id: ctx.row.occurrence_id, spaces: requestedSpaces(ctx),
        details: { occurrence: occ ? { start_datetime: Number(occ.start_datetime), end_datetime: Number(occ.end_datetime) } : null, costSummary: ctx.row.cost_summary },
      }).execute();
      ctx.row.application_id = id;
      break;
    }
  }
  // Issue 6: a booking or order that costs something gets its invoice / receipt number in this same
  // transaction, from the educator's gap-free sequence (api/documents/numbering.ts).
  const documentOf = ctx.row.booking_id && ctx.flow !== 'order'
    ? { kind: 'booking' as const, id: ctx.row.booking_id }
    : ctx.row.order_id ? { kind: 'order' as const, id: ctx.row.order_id } : null;
  if (documentOf && hasDocument({ lines: base.lines, costSummary: ctx.row.cost_summary as StoredCostSummary | null, totalCost: base.total_cost })) {
    await issueInvoiceNumber(ctx.q, ctx.dialect, { kind: documentOf.kind, outcomeId: documentOf.id, educatorId: ctx.row.educator_id, issuedAt: ctx.now, now: ctx.now });
  }

  const payment = entry<PaymentStepState>(ctx, 'payment');
  if (payment || pay.method) {
    ctx.row.step_state.payment = {
      status: 'complete',
      state: {
        ...(payment ?? { clientSecret: null, connectedAccountId: null, paypalOrderId: null, paymentId: null, paymentStatus: null }),
        paymentMethod: pay.method,
        invoiceDetails: pay.invoiceDetails ?? payment?.invoiceDetails ?? null,
        ...(pay.paymentId ? { paymentId: pay.paymentId, paymentStatus: 'succeeded' } : {}),
      },
    };
  }
  ctx.row.status = 'completed';
  ctx.row.completed_at = ctx.now;
  ctx.row.current_step = 'confirmation';
}
