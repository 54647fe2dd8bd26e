/**
 * Reaching Payment (the total is fixed and the spaces are held) and completing a checkout (spec 4 "Outcomes"):
 * the parts every flow shares — the outcome record's common columns, committing the hold, the invoice number,
 * closing the checkout — around the flow's own `outcome` (api/checkout/flows/). Everything here runs inside the
 * action's transaction, the outcome's e-mails included (queued in the outbox).
 */
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { assertKnownUser } from '../../src/domain/checkout/validation.ts';
import { holdLapsedProblem, soldOutProblem, voucherProperty } from '../../src/domain/checkout/problems.ts';
import type { StoredCostSummary } from '../../db/queries/bookings.ts';
import { issueNewInvoiceNumberUnread } from '../documents/numbering.ts';
import { hasDocument } from '../documents/describe.ts';
import { acquireHold, commitHoldAhead, currentHold, endHolderCaps, holdScope, holderCapEnd, holderOf } from './holds.ts';
import { checkoutCost, entry, setEntry, type Ctx } from './context.ts';
import type { CompletionPayment, OutcomeBase, OutcomeKind } from './definition.ts';
import { notifyOutcome } from './notify.ts';
import { memberOf } from './context.ts';
import { MEMBER_CREDIT_TEXT, summarySpendsCredit } from '../../src/domain/memberships.ts';
import { holdCredit, spendCredit } from '../memberships/service.ts';
import { commitGiftCard, holdGiftCard } from '../gifts/cards.ts';
import { formatPence } from '../../src/domain/money.ts';

/**
 * Takes the hold for the checkout's current selection; throws the sold-out / voucher / lapsed problem on failure.
 * `capped`: the learner's own renewals stop at CHECKOUT_HOLD_MAX_SECONDS; recording an outcome (money already
 * taken) only needs the spaces to be there.
 */
export async function holdForSelection(ctx: Ctx, { capped }: { capped: boolean }): Promise<void> {
  await holdSpaces(ctx, { capped });
  await holdGift(ctx, { capped });
  await holdMemberCredit(ctx);
}

/** The learner the checkout holds for (bound on entering an after-login step; Payment is one). */
function holder(ctx: Ctx): string {
  return holderOf(ctx.user?.id ?? ctx.row.user_id, ctx.row.id);
}

function lapsed(ctx: Ctx, againAt?: number): ProblemError {
  return new ProblemError(holdLapsedProblem(ctx.deps.config.CHECKOUT_HOLD_MAX_SECONDS, againAt === undefined ? undefined : againAt - ctx.now));
}

const NO_CREDIT_LEFT = 'none left this period';

/**
 * Holds the membership credit the fixed total counts on, as long as the spaces are held: a credit spent by another
 * checkout meanwhile is found here, before any money moves, and the learner is told to choose again without it.
 */
async function holdMemberCredit(ctx: Ctx): Promise<void> {
  if (!summarySpendsCredit(ctx.row.cost_summary as Parameters<typeof summarySpendsCredit>[0])) return;
  const member = await memberOf(ctx);
  const held = member && await holdCredit(ctx.q, ctx.dialect, {
    membershipId: member.membership.id, checkoutId: ctx.row.id, now: ctx.now, expiresAt: ctx.now + ctx.deps.config.CHECKOUT_HOLD_SECONDS,
  });
  if (!held) {
    const message = ctx.row.current_step === 'payment' ? `${NO_CREDIT_LEFT}: go back and choose your spaces without it` : NO_CREDIT_LEFT;
    throw new ProblemError(problems.validation([{ key: 'stepState.price.useMembershipCredit', name: 'Membership credit', message }]));
  }
}

/** What a gift card pays in the fixed total (the cost summary at Payment), if one is applied. */
function giftPart(summary: unknown): { cardId: string; amount: number } | null {
  const s = summary as { gift_card_id?: string | null; gift_card_amount?: number | null } | null;
  return s?.gift_card_id && s.gift_card_amount && s.gift_card_amount > 0 ? { cardId: s.gift_card_id, amount: s.gift_card_amount } : null;
}

/**
 * Holds what the gift card pays off its balance, as long as the spaces are held; refuses when it was spent meanwhile.
 * With no spaces held, the learner's renewals of it stop at the same cap as a hold of spaces: per learner and card.
 */
async function holdGift(ctx: Ctx, { capped }: { capped: boolean }): Promise<void> {
  const gift = giftPart(ctx.row.cost_summary);
  if (!gift) return;
  let expiresAt = ctx.now + ctx.deps.config.CHECKOUT_HOLD_SECONDS;
  if (capped) {
    const spaces = await currentHold(ctx.q, ctx.row.id);
    if (spaces?.status === 'held') expiresAt = Math.min(expiresAt, Number(spaces.expires_at));
    else {
      const cap = await holderCapEnd(ctx.q, { holder: holder(ctx), scope: `gift-card:${gift.cardId}`, now: ctx.now, maxSeconds: ctx.deps.config.CHECKOUT_HOLD_MAX_SECONDS });
      if (cap.againAt !== undefined) throw lapsed(ctx, cap.againAt);
      expiresAt = Math.min(expiresAt, cap.end);
    }
  }
  const result = await holdGiftCard(ctx.q, ctx.dialect, {
    cardId: gift.cardId, checkoutId: ctx.row.id, amount: gift.amount, now: ctx.now, expiresAt,
  });
  if (!result.ok) {
    throw new ProblemError(problems.validation([{
      key: 'stepState.price.voucherId', name: 'Gift card',
      message: `has only ${formatPence(result.available, ctx.row.currency)} left now: apply it again to use what is left`,
    }]));
  }
}

async function holdSpaces(ctx: Ctx, { capped }: { capped: boolean }): Promise<void> {
  const needs = ctx.def.holds(ctx);
  if (needs.spaces === 0 && !needs.voucherId) return;
  const result = await acquireHold(ctx.q, ctx.dialect, {
    checkoutId: ctx.row.id,
    now: ctx.now,
    ttlSeconds: ctx.deps.config.CHECKOUT_HOLD_SECONDS,
    ...(capped ? { maxSeconds: ctx.deps.config.CHECKOUT_HOLD_MAX_SECONDS, holder: holder(ctx) } : {}),
    occurrenceId: needs.spaces > 0 ? needs.occurrenceId : null,
    spaces: needs.spaces,
    voucherId: needs.voucherId,
  });
  if (!result.ok) {
    if (result.failure.kind === 'spaces') throw new ProblemError(soldOutProblem(result.failure.available, 'stepState.price.offers'));
    if (result.failure.kind === 'lapsed') throw lapsed(ctx, result.failure.againAt);
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

/** Commits the checkout's hold (a flow's outcome calls it), taking it first when there is none (a free flow, a swept hold). */
export async function commitSpaces(ctx: Ctx): Promise<void> {
  const needs = ctx.def.holds(ctx);
  if (needs.spaces === 0 && !needs.voucherId) return;
  let hold = await currentHold(ctx.q, ctx.row.id);
  const matches = hold && hold.status === 'held' && Number(hold.spaces) === needs.spaces && (hold.voucher_id ?? null) === needs.voucherId
    && (needs.spaces === 0 || hold.occurrence_id === needs.occurrenceId);
  if (!matches) {
    await holdForSelection(ctx, { capped: false });
    hold = await currentHold(ctx.q, ctx.row.id);
  }
  if (!hold) throw new ProblemError(problems.checkoutSubmission());
  // Nothing of the outcome waits for the hold's commit, only the transaction's own: it goes out with the outcome's
  // insert and is awaited when the row is saved (a hold a sweep released meanwhile rolls everything back there).
  const { committed } = await commitHoldAhead(ctx.q, ctx.dialect, hold, ctx.now);
  const check = committed.then((done) => {
    if (!done) throw new ProblemError(problems.checkoutSubmission());
  });
  check.catch(() => undefined);
  (ctx.pending ??= []).push(check);
  const scopes = [holdScope({ occurrenceId: hold.occurrence_id, spaces: Number(hold.spaces), voucherId: hold.voucher_id }), hold.voucher_id ? `voucher:${hold.voucher_id}` : null];
  await endHolderCaps(ctx.q, holder(ctx), [...new Set(scopes.filter((s): s is string => !!s))]);
}

/**
 * The unit prices of the fixed total (the cost summary fixed on entering Payment, which is what is charged), one per
 * chosen line in the selection's order — the summary's lines are those lines, in that order. Null when they do not
 * line up (no summary): the catalogue's prices then.
 */
function heldUnitPrices(summary: unknown, kind: 'offerSummary' | 'addOnSummary', quantities: number[]): number[] | null {
  const items = (summary as StoredCostSummary | null)?.summary_items?.[kind];
  if (!items || items.length !== quantities.length) return null;
  const units = items.map((item, i) => Number(item.value) / quantities[i]!);
  return units.every((u) => Number.isInteger(u)) ? units : null;
}

/**
 * The lines of the outcome (what was bought, with the names of the moment and the prices the learner pays: an admin
 * may change a price while a learner is at Payment, who still pays the fixed total).
 */
function outcomeLines(ctx: Ctx): OutcomeBase['lines'] {
  const sel = ctx.def.selection(ctx);
  const { offers, addOns } = ctx.def.catalogue(ctx);
  const chosenOffers = (sel?.offers ?? []).filter((l) => l.quantity > 0);
  const chosenAddOns = (sel?.addOns ?? []).filter((l) => l.quantity > 0);
  const heldOffers = heldUnitPrices(ctx.row.cost_summary, 'offerSummary', chosenOffers.map((l) => l.quantity));
  const heldAddOns = heldUnitPrices(ctx.row.cost_summary, 'addOnSummary', chosenAddOns.map((l) => l.quantity));
  return {
    offers: chosenOffers.map((l, i) => {
      const o = offers.find((x) => x.id === l.offerId);
      return { offerId: l.offerId, name: o?.name ?? l.offerId, quantity: l.quantity, price: heldOffers?.[i] ?? o?.price ?? 0, spaces: o?.spaces ?? 1 };
    }),
    addOns: chosenAddOns.map((l, i) => {
      const a = addOns.find((x) => x.id === l.addonId);
      return { addonId: l.addonId, name: a?.name ?? l.addonId, quantity: l.quantity, price: heldAddOns?.[i] ?? a?.price ?? 0 };
    }),
    extras: sel?.extras ?? [],
  };
}

/** The shared columns of a course's outcome record (bookings, orders, requests, applications): its course is there. */
export function courseBase(base: OutcomeBase): OutcomeBase & { course_id: string } {
  if (!base.course_id) throw new Error('a course outcome needs its course');
  return { ...base, course_id: base.course_id };
}

/** The payment columns of an outcome record (bookings, orders). */
export function paymentColumns(pay: CompletionPayment) {
  return {
    payment_method: pay.method,
    payment_state: pay.state,
    payment_id: pay.paymentId ?? null,
    invoice_details: pay.invoiceDetails ?? null,
    due_date: pay.dueDate ?? null,
    manual_note: pay.manualNote ?? null,
  };
}

/**
 * Where the checkout row keeps each kind of outcome (spec 3: bookingId, orderId, requestId, applicationId). Every
 * outcome is also kept as outcome_kind + outcome_id; a kind without a spec 3 field (null here) has only those.
 */
const OUTCOME_COLUMNS = {
  booking: 'booking_id',
  order: 'order_id',
  request: 'request_id',
  application: 'application_id',
  giftVoucher: null,
  membership: null,
} as const satisfies Record<OutcomeKind, keyof Ctx['row'] | null>;

/**
 * Commits what the gift card pays to the outcome: its hold, or (a lapsed hold, a checkout that never needed Payment)
 * the card taken now — and if the card was spent meanwhile, nothing is recorded (a provider payment is refunded).
 */
async function spendGift(ctx: Ctx, gift: { cardId: string; amount: number }, outcome: { kind: string; id: string }): Promise<void> {
  const input = { checkoutId: ctx.row.id, cardId: gift.cardId, amount: gift.amount, now: ctx.now, outcome };
  if (!(await commitGiftCard(ctx.q, input))) {
    await holdGift(ctx, { capped: false });
    if (!(await commitGiftCard(ctx.q, input))) throw new ProblemError(problems.checkoutSubmission());
  }
  await endHolderCaps(ctx.q, holder(ctx), [`gift-card:${gift.cardId}`]);
}

/**
 * Records the flow's outcome and closes the checkout, queueing the confirmation e-mails in the same transaction. Idempotent
 * callers check `status` first.
 */
export async function complete(ctx: Ctx, pay: CompletionPayment): Promise<void> {
  assertKnownUser(ctx.row.user_id);
  const userId = ctx.row.user_id;
  if (ctx.row.total_cost === null || ctx.row.cost_summary === null || pay.state === 'free') {
    const cost = await checkoutCost(ctx);
    ctx.row.total_cost = cost?.total_cost ?? 0;
    ctx.row.currency = cost?.currency ?? 'GBP';
    ctx.row.cost_summary = cost as unknown as Record<string, unknown>;
  }
  const base: OutcomeBase = {
    checkout_id: ctx.row.id,
    flow: ctx.row.flow,
    course_id: ctx.row.course_id,
    educator_id: ctx.row.educator_id,
    user_id: userId,
    student_id: ctx.row.student_id ?? userId,
    origin: ctx.row.origin,
    lines: outcomeLines(ctx),
    contact_details: entry(ctx, 'contactDetails') ?? {},
    total_cost: ctx.row.total_cost ?? 0,
    currency: ctx.row.currency,
    created_at: ctx.now,
  };
  // A gift card that pays the whole total: paid, by gift card (the Payment step was not needed).
  const gift = giftPart(ctx.row.cost_summary);
  if (gift && pay.state === 'free') pay = { ...pay, method: 'gift card', state: 'paid' };
  const outcome = await ctx.def.outcome(ctx, pay, base);
  ctx.recorded = outcome.row;
  await spendMemberCredit(ctx, outcome);
  if (gift) await spendGift(ctx, gift, outcome);
  const column = OUTCOME_COLUMNS[outcome.kind];
  if (column) ctx.row[column] = outcome.id;
  ctx.row.outcome_kind = outcome.kind;
  ctx.row.outcome_id = outcome.id;
  // A booking or order that costs something gets its invoice / receipt number in this same transaction, from the
  // educator's gap-free sequence (api/documents/numbering.ts) — as its last statement, since every booking of the
  // educator waits for that counter's lock until this transaction commits.
  if (outcome.documents && (outcome.kind === 'booking' || outcome.kind === 'order')
    && hasDocument({ lines: base.lines, costSummary: ctx.row.cost_summary as StoredCostSummary | null, totalCost: base.total_cost })) {
    const input = { kind: outcome.kind, outcomeId: outcome.id, educatorId: ctx.row.educator_id, issuedAt: ctx.now, now: ctx.now };
    (ctx.lastly ??= []).push(async () => {
      await issueNewInvoiceNumberUnread(ctx.q, ctx.dialect, input);
    });
  }

  const payment = entry(ctx, 'payment');
  if (payment || pay.method) {
    setEntry(ctx, 'payment', {
      ...(payment ?? { clientSecret: null, connectedAccountId: null, paypalOrderId: null, paymentId: null, paymentStatus: null }),
      paymentMethod: pay.method,
      invoiceDetails: pay.invoiceDetails ?? payment?.invoiceDetails ?? null,
      ...(pay.paymentId ? { paymentId: pay.paymentId, paymentStatus: 'succeeded' } : {}),
    });
  }
  ctx.row.status = 'completed';
  ctx.row.completed_at = ctx.now;
  ctx.row.current_step = 'confirmation';
  // The e-mails commit with the outcome (api/mail sends them later).
  await notifyOutcome(ctx.deps, ctx.q, { ...ctx.row }, ctx.def.rules, ctx.cat, ctx.now, outcome.row, ctx.occ?.occurrence);
}

/**
 * A selection that pays a space with a membership credit spends it here, in the completing transaction, by one
 * conditional update: if the period's credits were all spent meanwhile (another booking, at the same moment), the
 * outcome is not recorded (a payment taken is given back by the engine).
 */
async function spendMemberCredit(ctx: Ctx, outcome: { kind: string; id: string }): Promise<void> {
  const summary = ctx.row.cost_summary as Parameters<typeof summarySpendsCredit>[0];
  if (!summarySpendsCredit(summary)) return;
  const creditLine = summary?.summary_items?.discountSummary?.find((l) => l.text === MEMBER_CREDIT_TEXT) as { value?: number } | undefined;
  // The credit's line is a discount (negative); what the credit paid is its opposite.
  const value = -(creditLine?.value ?? 0) || 0;
  const member = await memberOf(ctx);
  const spent = member && await spendCredit(ctx.q, {
    membershipId: member.membership.id, checkoutId: ctx.row.id, bookingId: outcome.kind === 'booking' ? outcome.id : null, value, now: ctx.now,
  });
  if (!spent) {
    throw new ProblemError(problems.validation([{ key: 'stepState.price.useMembershipCredit', name: 'Membership credit', message: NO_CREDIT_LEFT }]));
  }
}
