/**
 * What one checkout action works with: the checkout row (a working copy), the catalogue it refers to,
 * the signed-in user, and the selections made so far — plus the derived rules (steps, spaces, costs).
 */
import type { Deps } from '../app.ts';
import type { Dialect } from '../../db/client.ts';
import type { SessionUser } from '../auth/types.ts';
import type { CheckoutRow } from '../../db/schema/checkout.ts';
import {
  loadCourseCatalogue, loadOccurrence, type AddOnRow, type CheckoutCatalogue, type OccurrenceCatalogue, type OfferRow, type Q,
} from '../../db/queries/checkout.ts';
import type { Flow } from '../../src/domain/checkout/flows.ts';
import { paymentRequiredFor, stepsFor, type StepId } from '../../src/domain/checkout/steps.ts';
import { anyOfferPaid, spacesSelected, type SelectedOffer } from '../../src/domain/pricing.ts';
import { computeCostSummary, type CostSummary, type PricedLine } from '../../src/domain/checkout/costSummary.ts';
import { isCalendarBased, isInstantBooking } from '../../src/domain/checkout/request.ts';
import type { DurationPricing } from '../../db/schema.ts';
import { ProblemError } from '../../src/domain/problems.ts';
import { checkoutNotFoundProblem } from '../../src/domain/checkout/problems.ts';

export interface StepEntry<S = Record<string, unknown>> {
  status: 'complete';
  state: S;
}

export interface AddOnSelection {
  addonId: string;
  quantity: number;
}

export interface PriceState {
  offers: SelectedOffer[];
  addOns: AddOnSelection[];
  spacesRequested: number;
  voucherId: string | null;
}

export interface DeliveryState {
  selectedDurationId: string | null;
  delivery: { type: 'Online' } | { type: 'Educator travels'; address: string } | { type: 'Student travels'; location_ref: string };
  pricing: { type: 'offers'; offers: Record<string, number>; addOns: Record<string, number> } | { type: 'spaces'; quantity: number };
  requestedSpaces: number;
  payableCost: number;
}

export interface DatesState {
  type: 'preferred dates' | 'available date';
  preferredDates: string[];
  availableDate: string | null;
  skipAvailableDates: boolean;
  offers?: SelectedOffer[];
  addOns?: AddOnSelection[];
  spacesRequested?: number;
}

export interface PaymentStepState {
  paymentMethod: string | null;
  clientSecret: string | null;
  connectedAccountId: string | null;
  paypalOrderId: string | null;
  invoiceDetails: Record<string, unknown> | null;
  paymentId: string | null;
  paymentStatus: string | null;
}

export interface Ctx {
  deps: Deps;
  q: Q;
  dialect: Dialect;
  now: number;
  user: SessionUser | null;
  row: CheckoutRow;
  flow: Flow;
  cat: CheckoutCatalogue;
  occ: OccurrenceCatalogue | null;
  /** Work to do after the transaction commits (cancel a provider payment, send mail…). */
  after: Array<() => Promise<void>>;
  /** Vouchers read during this action (they change only through holds, which do not alter the discount). */
  vouchers?: Map<string, (VoucherLike & { id: string }) | null>;
}

/** The same checkout on another handle (after the transaction: read with the database, keep the catalogue read inside it). */
export function withHandle(ctx: Ctx, q: Q, row: CheckoutRow = ctx.row): Ctx {
  return { ...ctx, q, row: { ...row, step_state: structuredClone(row.step_state ?? {}) }, after: [] };
}

export async function loadCtx(deps: Deps, q: Q, row: CheckoutRow, user: SessionUser | null, preloaded?: CheckoutCatalogue): Promise<Ctx> {
  const cat = preloaded ?? (await loadCourseCatalogue(q, row.course_id));
  if (!cat) throw new ProblemError(checkoutNotFoundProblem());
  const occ = row.occurrence_id ? await loadOccurrence(q, row.occurrence_id, cat) : null;
  return { deps, q, dialect: deps.dialect, now: deps.now(), user, row: { ...row, step_state: structuredClone(row.step_state ?? {}) }, flow: row.flow as Flow, cat, occ, after: [] };
}

export function entry<S>(ctx: Ctx, key: string): S | null {
  const e = ctx.row.step_state[key];
  return e ? (e.state as S) : null;
}

export function setEntry(ctx: Ctx, key: string, state: object): void {
  ctx.row.step_state[key] = { status: 'complete', state: state as Record<string, unknown> };
}

export function clearEntry(ctx: Ctx, key: string): void {
  delete ctx.row.step_state[key];
}

/** Offers and add-ons the flow sells: the occurrence's for dated flows, the course's otherwise. */
export function scopeOffers(ctx: Ctx): OfferRow[] {
  return (ctx.flow === 'booking' || ctx.flow === 'bookingApplication') && ctx.occ ? ctx.occ.offers : ctx.cat.offers;
}
export function scopeAddOns(ctx: Ctx): AddOnRow[] {
  return (ctx.flow === 'booking' || ctx.flow === 'bookingApplication') && ctx.occ ? ctx.occ.addOns : ctx.cat.addOns;
}

export function domainOffers(offers: ReadonlyArray<OfferRow>) {
  return offers.map((o) => ({ _id: o.id, name: o.name, price: o.price, spaces: o.spaces, start_at: o.start_at, end_at: o.end_at }));
}

/** The selected duration option of a request (or null). */
export function selectedDuration(ctx: Ctx, durationId?: string | null): DurationPricing | null {
  const options = ctx.cat.course.duration_pricing ?? [];
  const id = durationId === undefined ? entry<DeliveryState>(ctx, 'delivery')?.selectedDurationId : durationId;
  return options.find((o) => o._id === id) ?? null;
}

/** Minutes of the request's duration: the selected option, else the course duration, else null. */
export function durationMinutes(ctx: Ctx, durationId?: string | null): number | null {
  const option = selectedDuration(ctx, durationId);
  if (option && typeof option.duration === 'number') return option.duration;
  return ctx.cat.course.course_duration ?? null;
}

export function calendarBased(ctx: Ctx): boolean {
  return isCalendarBased({
    dateRequests: ctx.cat.course.date_requests,
    durationMinutes: durationMinutes(ctx),
    skipAvailableDates: entry<DatesState>(ctx, 'dates')?.skipAvailableDates ?? false,
  });
}

export function instantBooking(ctx: Ctx): boolean {
  return ctx.flow === 'request' && isInstantBooking({ pricingType: ctx.cat.course.pricing_type, calendarBased: calendarBased(ctx) });
}

/** The selection the cost summary and the outcome are made of. */
export interface Selection {
  offers: SelectedOffer[];
  addOns: AddOnSelection[];
  extras: { label: string; cost: number; quantity: number }[];
  spaces: number;
  voucherId: string | null;
}

export function selection(ctx: Ctx): Selection | null {
  const offers = domainOffers(scopeOffers(ctx));
  switch (ctx.flow) {
    case 'booking':
    case 'bookingApplication':
    case 'order': {
      const price = entry<PriceState>(ctx, 'price');
      if (!price) return null;
      const spaces = offers.length > 0 ? spacesSelected(price.offers, offers) : price.spacesRequested;
      return { offers: price.offers, addOns: price.addOns, extras: [], spaces, voucherId: price.voucherId ?? null };
    }
    case 'request': {
      const d = entry<DeliveryState>(ctx, 'delivery');
      if (!d) return null;
      const chosen = d.pricing.type === 'offers' ? Object.entries(d.pricing.offers).map(([offerId, quantity]) => ({ offerId, quantity })) : [];
      const addOns = d.pricing.type === 'offers' ? Object.entries(d.pricing.addOns ?? {}).map(([addonId, quantity]) => ({ addonId, quantity })) : [];
      const option = selectedDuration(ctx, d.selectedDurationId);
      const extras = option && (option.extra_cost ?? 0) > 0
        ? [{ label: option.label || durationLabel(option.duration), cost: option.extra_cost as number, quantity: d.requestedSpaces }]
        : [];
      return { offers: chosen, addOns, extras, spaces: d.requestedSpaces, voucherId: null };
    }
    case 'dateBookingRequest':
    case 'groupBookingRequest': {
      const d = entry<DatesState>(ctx, 'dates');
      if (!d) return null;
      return { offers: d.offers ?? [], addOns: d.addOns ?? [], extras: [], spaces: d.spacesRequested ?? 0, voucherId: null };
    }
  }
}

export function durationLabel(minutes: number | null | undefined): string {
  if (!minutes) return 'Duration';
  if (minutes % 1440 === 0) return `${minutes / 1440} ${minutes === 1440 ? 'Day' : 'Days'}`;
  if (minutes % 60 === 0) return `${minutes / 60} ${minutes === 60 ? 'Hour' : 'Hours'}`;
  return `${minutes} Minutes`;
}

export interface VoucherLike {
  code: string;
  kind: 'percent' | 'fixed';
  amount: number;
}

/** The cost summary of a selection with the educator's VAT and fee settings. */
export function costOf(ctx: Pick<Ctx, 'cat' | 'flow' | 'occ'>, sel: Omit<Selection, 'spaces' | 'voucherId'>, voucher: VoucherLike | null): CostSummary {
  const offers = (ctx.flow === 'booking' || ctx.flow === 'bookingApplication') && ctx.occ ? ctx.occ.offers : ctx.cat.offers;
  const addOns = (ctx.flow === 'booking' || ctx.flow === 'bookingApplication') && ctx.occ ? ctx.occ.addOns : ctx.cat.addOns;
  const offerLines: PricedLine[] = sel.offers.map((line) => {
    const offer = offers.find((o) => o.id === line.offerId);
    return { name: offer?.name ?? line.offerId, price: offer?.price ?? 0, quantity: line.quantity };
  });
  const addOnLines: PricedLine[] = sel.addOns.map((line) => {
    const addOn = addOns.find((a) => a.id === line.addonId);
    return { name: addOn?.name ?? line.addonId, price: addOn?.price ?? 0, quantity: line.quantity };
  });
  return computeCostSummary({
    offers: offerLines,
    addOns: addOnLines,
    extras: sel.extras,
    voucher,
    vat: ctx.cat.educator.vat_settings,
    feesAbsorbed: ctx.cat.feesAbsorbed,
    currency: ctx.cat.course.currency || 'GBP',
  });
}

export async function loadVoucherLike(q: Q, voucherId: string | null): Promise<(VoucherLike & { id: string }) | null> {
  if (!voucherId) return null;
  const v = await q.selectFrom('vouchers').select(['id', 'code', 'kind', 'amount']).where('id', '=', voucherId).executeTakeFirst();
  return v ? { id: v.id, code: v.code, kind: v.kind, amount: Number(v.amount) } : null;
}

export async function checkoutCost(ctx: Ctx): Promise<CostSummary | null> {
  const sel = selection(ctx);
  if (!sel) return null;
  let voucher: (VoucherLike & { id: string }) | null = null;
  if (sel.voucherId) {
    ctx.vouchers ??= new Map();
    if (!ctx.vouchers.has(sel.voucherId)) ctx.vouchers.set(sel.voucherId, await loadVoucherLike(ctx.q, sel.voucherId));
    voucher = ctx.vouchers.get(sel.voucherId) ?? null;
  }
  return costOf(ctx, sel, voucher);
}

/**
 * Spec 2.14 "Step rules": booking and order need Payment when something costs money (before a selection:
 * when some offer or add-on has a price; after: when the selection's total is above 0); request when it is
 * an instant booking with a payable cost; the other flows never.
 */
export async function paymentRequired(ctx: Ctx): Promise<boolean> {
  const cost = ctx.flow === 'booking' || ctx.flow === 'order' ? await checkoutCost(ctx) : null;
  return paymentRequiredFor({
    flow: ctx.flow,
    selectionTotal: cost ? cost.total_cost : null,
    anyPaidItem: anyOfferPaid([...scopeOffers(ctx), ...scopeAddOns(ctx)]),
    instant: ctx.flow === 'request' && instantBooking(ctx),
    payableCost: entry<DeliveryState>(ctx, 'delivery')?.payableCost ?? 0,
  });
}

export async function stepsOf(ctx: Ctx): Promise<StepId[]> {
  return stepsFor({ flow: ctx.flow, loggedIn: !!ctx.user, paymentRequired: await paymentRequired(ctx) });
}
