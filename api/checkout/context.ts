/**
 * What one checkout action works with (the working context, `Ctx` of ./definition.ts: the checkout row as a working
 * copy, its flow's definition, the catalogue it refers to, the signed-in user) and the rules derived from it —
 * the steps of its path, its recorded step states, its costs — by asking the flow's definition, never by testing
 * the flow's name.
 */
import type { CheckoutRow } from '../../db/schema/checkout.ts';
import type { AddOnRow, CheckoutCatalogue, OfferRow, Q } from '../../db/queries/checkout.ts';
import type { Course } from '../../db/schema.ts';
import { stepsOfRules, type StepId } from '../../src/domain/checkout/steps.ts';
import { applyGiftCard, computeCostSummary, type CostSummary, type PricedLine } from '../../src/domain/checkout/costSummary.ts';
import { spendableBalance } from '../gifts/cards.ts';
import { requestedSpacesOf } from '../../src/domain/checkout/ui.ts';
import type { Ctx, Selection, StepDef, VoucherLike } from './definition.ts';
import { memberDiscountLines } from '../../src/domain/memberships.ts';
import { benefitsFor, type MemberBenefits } from '../memberships/service.ts';
import { stepStateOf, type StepStateKey, type StepStates } from '../../src/domain/checkout/step-state.ts';
import { membershipNow } from '../memberships/clock.ts';

// The working context and the definitions' shapes are declared with the definitions (one module, no cycle of types).
export type { AnyFlowDefinition, Ctx, Selection, VoucherLike } from './definition.ts';

/**
 * The course a course flow sells. Flows that sell from the educator (FLOW_RULES courseTypes null) have none; the
 * steps and outcomes that need a course are only ever part of course flows, so reaching here without one is a bug.
 */
export function courseOf(ctx: Pick<Ctx, 'cat'>): Course {
  if (!ctx.cat.course) throw new Error('this step needs a course, and the checkout sells none');
  return ctx.cat.course;
}

/** The same checkout on another handle (after the transaction: read with the database, keep the catalogue read inside it). */
export function withHandle(ctx: Ctx, q: Q, row: CheckoutRow = ctx.row): Ctx {
  return { ...ctx, q, row: { ...row, step_state: structuredClone(row.step_state ?? {}) }, after: [], lastly: [], pending: [] };
}

/**
 * A step's recorded state, typed by its stepState key (the step's id; `price` for Spaces and Offers, spec 3): the
 * contract of src/domain/checkout/step-state.ts, which the island reads too. Null: not recorded.
 */
export function entry<K extends StepStateKey>(ctx: Pick<Ctx, 'row'>, key: K): StepStates[K] | null {
  return stepStateOf(ctx.row.step_state, key);
}

/** Records a step's state under its key, in the contract's shape (the one way entries are written). */
export function setEntry<K extends StepStateKey>(ctx: Pick<Ctx, 'row'>, key: K, state: StepStates[K]): void {
  ctx.row.step_state[key] = { status: 'complete', state: state as unknown as Record<string, unknown> };
}

/** The step objects of the checkout's flow, by id (login and confirmation included when the flow lists them). */
export function stepObject(ctx: Pick<Ctx, 'def'>, id: StepId): StepDef | undefined {
  const steps: Readonly<Partial<Record<StepId, StepDef>>> = ctx.def.steps;
  return steps[id];
}

/** Spec 2.14: the flow's steps in order, the login step while logged out, each kept only while it applies. */
export async function stepsOf(ctx: Ctx): Promise<StepId[]> {
  const listed = stepsOfRules(ctx.def.rules, { loggedIn: !!ctx.user, paymentRequired: true });
  const kept: StepId[] = [];
  for (const id of listed) {
    const step = stepObject(ctx, id);
    if (!step?.applies || (await step.applies(ctx))) kept.push(id);
  }
  return kept;
}

export function domainOffers(offers: ReadonlyArray<OfferRow>) {
  return offers.map((o) => ({ _id: o.id, name: o.name, price: o.price, spaces: o.spaces, start_at: o.start_at, end_at: o.end_at }));
}

/** Spaces the checkout asks for (the number of attendees): one rule, shared with the screen. */
export function requestedSpaces(ctx: Ctx): number {
  return requestedSpacesOf(ctx.row.step_state);
}

/** The cost summary of a selection from a catalogue, with the educator's VAT and fee settings. */
export function costOf(
  cat: Pick<CheckoutCatalogue, 'course' | 'educator' | 'feesAbsorbed'>,
  catalogue: { offers: ReadonlyArray<OfferRow>; addOns: ReadonlyArray<AddOnRow> },
  sel: Omit<Selection, 'spaces' | 'voucherId'>,
  voucher: VoucherLike | null,
  options: { vat?: boolean; discounts?: ReadonlyArray<{ text: string; value: number }> } = {},
): CostSummary {
  const offerLines: PricedLine[] = sel.offers.map((line) => {
    const offer = catalogue.offers.find((o) => o.id === line.offerId);
    return { name: offer?.name ?? line.offerId, price: offer?.price ?? 0, quantity: line.quantity };
  });
  const addOnLines: PricedLine[] = sel.addOns.map((line) => {
    const addOn = catalogue.addOns.find((a) => a.id === line.addonId);
    return { name: addOn?.name ?? line.addonId, price: addOn?.price ?? 0, quantity: line.quantity };
  });
  return computeCostSummary({
    offers: offerLines,
    addOns: addOnLines,
    extras: sel.extras,
    voucher,
    discounts: options.discounts,
    vat: options.vat === false ? null : cat.educator.vat_settings,
    feesAbsorbed: cat.feesAbsorbed,
    currency: cat.course?.currency || 'GBP',
  });
}

export async function loadVoucherLike(q: Q, voucherId: string | null): Promise<(VoucherLike & { id: string }) | null> {
  if (!voucherId) return null;
  const v = await q.selectFrom('vouchers').select(['id', 'code', 'kind', 'amount']).where('id', '=', voucherId).executeTakeFirst();
  return v ? { id: v.id, code: v.code, kind: v.kind, amount: Number(v.amount) } : null;
}

/** The cost summary of the checkout's selection so far (null before any choice). */
export async function checkoutCost(ctx: Ctx): Promise<CostSummary | null> {
  const sel = ctx.def.selection(ctx);
  if (!sel) return null;
  let voucher: (VoucherLike & { id: string }) | null = null;
  if (sel.voucherId) {
    ctx.vouchers ??= new Map();
    if (!ctx.vouchers.has(sel.voucherId)) ctx.vouchers.set(sel.voucherId, await loadVoucherLike(ctx.q, sel.voucherId));
    voucher = ctx.vouchers.get(sel.voucherId) ?? null;
  }
  const cost = costOf(ctx.cat, ctx.def.catalogue(ctx), sel, voucher, { vat: ctx.def.vat, discounts: await memberDiscounts(ctx, sel) });
  if (!sel.giftCardId) return cost;
  // Locked (PostgreSQL) before its balance is read, so the amount shown is the amount the hold then takes: every
  // action reads the cost first, so the card is locked before the occurrence in every checkout transaction.
  let query = ctx.q.selectFrom('gift_cards').selectAll().where('id', '=', sel.giftCardId).where('educator_id', '=', ctx.row.educator_id);
  if (ctx.dialect === 'postgres' && ctx.q.isTransaction) query = query.forUpdate();
  const card = await query.executeTakeFirst();
  if (!card) return cost;
  return applyGiftCard(cost, { id: card.id, code: card.code, balance: await spendableBalance(ctx.q, card, ctx.row.id, ctx.now) });
}

/**
 * The learner's membership benefits for the checkout's course, read once per action: the checkout's learner (or the
 * signed-in user before it is bound), at the memberships' clock. Null for a visitor or a flow without a course.
 */
export async function memberOf(ctx: Ctx): Promise<MemberBenefits | null> {
  if (ctx.member !== undefined) return ctx.member;
  const userId = ctx.row.user_id ?? ctx.user?.id ?? null;
  const course = ctx.cat.course;
  ctx.member = userId && course && ctx.cat.sellsMemberships
    ? await benefitsFor(ctx.q, { userId, educatorId: ctx.cat.educator.id, courseId: course.id, now: () => membershipNow(ctx.deps, ctx.q, userId) })
    : null;
  return ctx.member;
}

/**
 * A member's prices: the credit the learner chose to spend (when the plan gives credits; whether one is left is
 * checked when it is spent, atomically) and the plan's percentage off the offers.
 */
async function memberDiscounts(ctx: Ctx, sel: Selection): Promise<{ text: string; value: number }[]> {
  if (!sel.offers.some((l) => l.quantity > 0)) return [];
  const member = await memberOf(ctx);
  if (!member) return [];
  const offers = ctx.def.catalogue(ctx).offers;
  const lines = sel.offers.map((l) => {
    const offer = offers.find((o) => o.id === l.offerId);
    return { price: offer?.price ?? 0, quantity: l.quantity, spaces: offer?.spaces ?? 1 };
  });
  const useCredit = !!entry(ctx, 'price')?.useCredit && Number(member.plan.credits_per_period) > 0;
  return memberDiscountLines(lines, { discountPercent: member.discountPercent, useCredit });
}
