/** Rules several flow definitions share. */
import { anyOfferPaid } from '../../../src/domain/pricing.ts';
import { offersNeedPayment } from '../../../src/domain/checkout/steps.ts';
import { defaultOfferSelection } from '../../../src/domain/checkout/defaults.ts';
import { newReference } from '../ids.ts';
import { checkoutCost, domainOffers, entry, requestedSpaces, type Ctx } from '../context.ts';
import type { CompletionPayment, OutcomeBase, OutcomeRef } from '../definition.ts';
import type { StepDefaults } from '../../../src/domain/checkout/step-state.ts';
import { courseBase, paymentColumns } from '../outcomes.ts';

/** Spec 2.14: booking and order need Payment when something costs money (offersNeedPayment). */
export async function offersPaymentRequired(ctx: Ctx): Promise<boolean> {
  const cost = await checkoutCost(ctx);
  const { offers, addOns } = ctx.def.catalogue(ctx);
  return offersNeedPayment({ selectionTotal: cost ? cost.total_cost : null, anyPaidItem: anyOfferPaid([...offers, ...addOns]) });
}

/** Spec 4 "Defaults": the first offer on sale gets quantity 1. */
export function priceDefaults(ctx: Ctx): StepDefaults {
  return { price: { offers: defaultOfferSelection(domainOffers(ctx.def.catalogue(ctx).offers), ctx.now), addOns: [] } };
}

/** A booking record (the booking flow's outcome; an instant request books the same way without an occurrence). */
export async function insertBooking(
  ctx: Ctx,
  pay: CompletionPayment,
  base: OutcomeBase,
  when: { occurrenceId: string | null; start: number | null; end: number | null; status: 'confirmed' | 'awaiting-approval'; details: Record<string, unknown> },
): Promise<OutcomeRef> {
  const id = newReference('booking');
  const row = await ctx.q.insertInto('bookings').values({
    ...courseBase(base), ...paymentColumns(pay), id, status: when.status, occurrence_id: when.occurrenceId, spaces: requestedSpaces(ctx),
    start_datetime: when.start, end_datetime: when.end, details: when.details,
  }).returningAll().executeTakeFirstOrThrow();
  return { kind: 'booking', id, documents: true, row };
}

/** A request record (spec 2.15 "Request Sent"): request, date and group booking requests. */
export async function insertRequest(ctx: Ctx, base: OutcomeBase, details: Record<string, unknown>): Promise<OutcomeRef> {
  const id = newReference('request');
  await ctx.q.insertInto('booking_requests').values({ ...courseBase(base), id, status: 'sent', details }).execute();
  return { kind: 'request', id, documents: false };
}

/** The message the learner wrote, if the flow has a Message step. */
export function messageOf(ctx: Ctx): string | null {
  return entry(ctx, 'message')?.message ?? null;
}
