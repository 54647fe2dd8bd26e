/**
 * What one checkout action works with: the checkout row (a working copy), its flow's definition, the catalogue
 * it refers to, the signed-in user and the selections made so far — plus the rules derived from them (steps,
 * costs) by asking the flow's definition, never by testing the flow's name.
 */
import type { Deps } from '../app.ts';
import type { Dialect } from '../../db/client.ts';
import type { SessionUser } from '../auth/types.ts';
import type { CheckoutRow, SpaceHoldRow } from '../../db/schema/checkout.ts';
import type { AddOnRow, CatalogueStamp, CheckoutCatalogue, OccurrenceCatalogue, OfferRow, Q } from '../../db/queries/checkout.ts';
import type { Course } from '../../db/schema.ts';
import type { Flow } from '../../src/domain/checkout/flows.ts';
import { stepsFor, type StepId } from '../../src/domain/checkout/steps.ts';
import type { SelectedOffer } from '../../src/domain/pricing.ts';
import { applyGiftCard, computeCostSummary, type CostSummary, type PricedLine } from '../../src/domain/checkout/costSummary.ts';
import { spendableBalance } from '../gifts/cards.ts';
import { requestedSpacesOf } from '../../src/domain/checkout/ui.ts';
import type { FlowDefinition, StepDef } from './definition.ts';
import { memberDiscountLines } from '../../src/domain/memberships.ts';
import { benefitsFor, type MemberBenefits } from '../memberships/service.ts';
import { membershipNow } from '../memberships/clock.ts';

export interface AddOnSelection {
  addonId: string;
  quantity: number;
}

/** stepState.price (spec 3): the offers, add-ons, spaces and voucher of booking, bookingApplication and order. */
export interface PriceState {
  offers: SelectedOffer[];
  addOns: AddOnSelection[];
  spacesRequested: number;
  voucherId: string | null;
  /** The learner asked to pay one space with a membership credit (docs/gifts-and-memberships.md). */
  useCredit?: boolean;
  /** A gift card entered under "Apply promo code or gift card" (it pays up to its balance). */
  giftCardId?: string | null;
}

/** stepState.delivery (spec 3) of the request flow. */
export interface DeliveryState {
  selectedDurationId: string | null;
  delivery: { type: 'Online' } | { type: 'Educator travels'; address: string } | { type: 'Student travels'; location_ref: string };
  pricing: { type: 'offers'; offers: Record<string, number>; addOns: Record<string, number> } | { type: 'spaces'; quantity: number };
  requestedSpaces: number;
  payableCost: number;
  /** "Apply promo code or gift card" of an instant booking (api/checkout/steps/request.ts). */
  voucherId?: string | null;
  giftCardId?: string | null;
}

/** stepState.dates (spec 3) of the request, group and date request flows. */
export interface DatesState {
  type: 'preferred dates' | 'available date';
  preferredDates: string[];
  availableDate: string | null;
  skipAvailableDates: boolean;
  offers?: SelectedOffer[];
  addOns?: AddOnSelection[];
  spacesRequested?: number;
}

/** stepState.payment (spec 3). `paypalOrderId` is the spec's name for the order a wallet buyer approves. */
export interface PaymentStepState {
  paymentMethod: string | null;
  clientSecret: string | null;
  connectedAccountId: string | null;
  paypalOrderId: string | null;
  invoiceDetails: Record<string, unknown> | null;
  paymentId: string | null;
  paymentStatus: string | null;
}

/** Any flow's definition (a union: each flow's steps are its own). */
export type AnyFlowDefinition = { [F in Flow]: FlowDefinition<F> }[Flow];

/**
 * The course a course flow sells. Flows that sell from the educator (FLOW_RULES courseTypes null) have none; the
 * steps and outcomes that need a course are only ever part of course flows, so reaching here without one is a bug.
 */
export function courseOf(ctx: Pick<Ctx, 'cat'>): Course {
  if (!ctx.cat.course) throw new Error('this step needs a course, and the checkout sells none');
  return ctx.cat.course;
}

export interface Ctx {
  deps: Deps;
  q: Q;
  dialect: Dialect;
  now: number;
  user: SessionUser | null;
  row: CheckoutRow;
  flow: Flow;
  def: AnyFlowDefinition;
  cat: CheckoutCatalogue;
  occ: OccurrenceCatalogue | null;
  /** The version of the catalogue read with the checkout row (api/checkout/catalogue-cache.ts). */
  stamp?: CatalogueStamp;
  /** Work to do after the transaction commits (cancel a provider payment, send mail…). */
  after: Array<() => Promise<void>>;
  /**
   * Statements that lock a row every checkout of the educator needs (the invoice counter), run as the last of the
   * transaction, after the checkout row is saved: the lock is then held for those statements and the commit only.
   */
  lastly?: Array<() => Promise<void>>;
  /** The learner's membership benefits for this course (undefined: not read yet in this action). */
  member?: MemberBenefits | null;
  /** The checkout's hold as the action's transaction left it (null: none; undefined: not known, to be read). */
  hold?: SpaceHoldRow | null;
  /** Vouchers read during this action (they change only through holds, which do not alter the discount). */
  vouchers?: Map<string, (VoucherLike & { id: string }) | null>;
}

/** The same checkout on another handle (after the transaction: read with the database, keep the catalogue read inside it). */
export function withHandle(ctx: Ctx, q: Q, row: CheckoutRow = ctx.row): Ctx {
  return { ...ctx, q, row: { ...row, step_state: structuredClone(row.step_state ?? {}) }, after: [], lastly: [] };
}

export function entry<S>(ctx: Ctx, key: string): S | null {
  const e = ctx.row.step_state[key];
  return e ? (e.state as S) : null;
}

export function setEntry(ctx: Ctx, key: string, state: object): void {
  ctx.row.step_state[key] = { status: 'complete', state: state as Record<string, unknown> };
}

/** The step objects of the checkout's flow, by id (login and confirmation included when the flow lists them). */
export function stepObject(ctx: Pick<Ctx, 'def'>, id: StepId): StepDef | undefined {
  const steps: Readonly<Partial<Record<StepId, StepDef>>> = ctx.def.steps;
  return steps[id];
}

/** Spec 2.14: the flow's steps in order, the login step while logged out, each kept only while it applies. */
export async function stepsOf(ctx: Ctx): Promise<StepId[]> {
  const listed = stepsFor({ flow: ctx.flow, loggedIn: !!ctx.user, paymentRequired: true });
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

/** The selection the cost summary, the hold and the outcome are made of. */
export interface Selection {
  offers: SelectedOffer[];
  addOns: AddOnSelection[];
  extras: { label: string; cost: number; quantity: number }[];
  spaces: number;
  voucherId: string | null;
  /** A gift card paying part of the total (api/gifts/cards.ts). */
  giftCardId?: string | null;
}

export interface VoucherLike {
  code: string;
  kind: 'percent' | 'fixed';
  amount: number;
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
  const useCredit = !!entry<PriceState>(ctx, 'price')?.useCredit && Number(member.plan.credits_per_period) > 0;
  return memberDiscountLines(lines, { discountPercent: member.discountPercent, useCredit });
}
