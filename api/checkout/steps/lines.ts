/**
 * Offer and add-on lines chosen in a step (spec 5 "Offer quantity"), checked against the flow's catalogue and
 * the space pool, shared by the Spaces, Offers, Delivery and group Dates steps.
 */
import { ProblemError, problems, type ProblemProperty } from '../../../src/domain/problems.ts';
import { offerSaleText, spacesPoolBase, spacesSelected, type SelectedOffer } from '../../../src/domain/pricing.ts';
import { soldOutProblem } from '../../../src/domain/checkout/problems.ts';
import { ensureAvailableSpaces, readHold, lockOccurrence, sweepExpired } from '../holds.ts';
import { courseOf, domainOffers, type Ctx } from '../context.ts';
import type { AddOnSelection } from '../../../src/domain/checkout/step-state.ts';

export function invalid(properties: ProblemProperty[]): never {
  throw new ProblemError(problems.validation(properties));
}

/**
 * The space pool of the checkout: a dated checkout's occurrence (after sweeping its lapsed holds, which give
 * spaces back, and counting the checkout's own hold as still its own); otherwise the flow's fixed pool (spec 9).
 * When the occurrence as read in this action already has the `needed` spaces, that is the answer: nothing is
 * taken here (the hold at Payment is the guard), so nothing needs the occurrence's lock or a sweep.
 */
async function spacePool(ctx: Ctx, needed: number): Promise<number> {
  if (ctx.occ) {
    if (ctx.occ.occurrence.available_spaces !== null) {
      const base = spacesPoolBase(ctx.def.rules.spaces, { occurrence: ctx.occ.occurrence, course: courseOf(ctx) });
      if (needed <= base) return base;
    }
    const id = ctx.occ.occurrence.id;
    await lockOccurrence(ctx.q, ctx.dialect, id);
    await sweepExpired(ctx.q, ctx.dialect, ctx.now, { occurrenceId: id });
    await ensureAvailableSpaces(ctx.q, id);
    const fresh = await ctx.q.selectFrom('occurrences').select(['available_spaces', 'spaces']).where('id', '=', id).executeTakeFirstOrThrow();
    ctx.occ = { ...ctx.occ, occurrence: { ...ctx.occ.occurrence, available_spaces: fresh.available_spaces, spaces: fresh.spaces } };
    // Read under the occurrence's lock: another checkout's sweep may have released this one's lapsed hold.
    const hold = await readHold(ctx.q, ctx.row.id);
    const own = hold?.status === 'held' && hold.occurrence_id === id ? Number(hold.spaces) : 0;
    return spacesPoolBase(ctx.def.rules.spaces, { occurrence: ctx.occ.occurrence, course: courseOf(ctx) }) + own;
  }
  return spacesPoolBase(ctx.def.rules.spaces, { occurrence: null, course: courseOf(ctx) });
}

/**
 * Validates offer and add-on lines: known ids, offers with a quantity inside their sale window, at least one
 * space, and no more spaces than the pool. Returns the normalised lines and the spaces they take.
 */
export async function validateLines(
  ctx: Ctx,
  offersIn: ReadonlyArray<SelectedOffer>,
  addOnsIn: ReadonlyArray<AddOnSelection>,
  paths: { offers: string; addOns: string },
  spacesRequested?: number,
): Promise<{ offers: SelectedOffer[]; addOns: AddOnSelection[]; spaces: number }> {
  const { offers: catalogue, addOns: addOnCatalogue } = ctx.def.catalogue(ctx);
  const offers = domainOffers(catalogue);
  const properties: ProblemProperty[] = [];
  const merged = new Map<string, number>();
  offersIn.forEach((line, index) => {
    const offer = catalogue.find((o) => o.id === line.offerId);
    if (!offer) {
      properties.push({ key: `${paths.offers}.${index}.offerId`, name: 'Offer', message: 'is not one of this course\u2019s offers' });
      return;
    }
    if (line.quantity > 0) {
      const sale = offerSaleText(offer, ctx.now);
      if (sale) properties.push({ key: `${paths.offers}.${index}.quantity`, name: offer.name, message: sale });
    }
    merged.set(line.offerId, (merged.get(line.offerId) ?? 0) + line.quantity);
  });
  const addOnsMerged = new Map<string, number>();
  addOnsIn.forEach((line, index) => {
    if (!addOnCatalogue.some((a) => a.id === line.addonId)) {
      properties.push({ key: `${paths.addOns}.${index}.addonId`, name: 'Add-on', message: 'is not one of this course\u2019s add-ons' });
      return;
    }
    addOnsMerged.set(line.addonId, (addOnsMerged.get(line.addonId) ?? 0) + line.quantity);
  });
  if (properties.length) invalid(properties);
  const lines = [...merged].map(([offerId, quantity]) => ({ offerId, quantity }));
  const spaces = catalogue.length > 0 ? spacesSelected(lines, offers) : spacesRequested ?? 1;
  if (spaces <= 0) invalid([{ key: paths.offers, name: 'Spaces', message: 'must include at least one space' }]);
  const pool = await spacePool(ctx, spaces);
  if (spaces > pool) throw new ProblemError(soldOutProblem(Math.max(0, pool), paths.offers));
  return { offers: lines, addOns: [...addOnsMerged].map(([addonId, quantity]) => ({ addonId, quantity })), spaces };
}

/** The offers and add-ons a dated flow sells: its occurrence's once picked, else the course's. */
export function datedCatalogue(ctx: Ctx) {
  return ctx.occ ? { offers: ctx.occ.offers, addOns: ctx.occ.addOns } : { offers: ctx.cat.offers, addOns: ctx.cat.addOns };
}

/** The offers and add-ons of a flow that sells the course itself. */
export function courseCatalogue(ctx: Ctx) {
  return { offers: ctx.cat.offers, addOns: ctx.cat.addOns };
}
