/**
 * The Spaces step (booking, bookingApplication) and the Offers step (order): offers, add-ons and a promo code
 * or gift card (spec 2.14, 5 "Offer quantity"). Writes stepState.price.
 */
import type { z } from 'zod';
import { defaultOfferSelection } from '../../../src/domain/checkout/defaults.ts';
import { voucherProperty } from '../../../src/domain/checkout/problems.ts';
import { ACTION_PAYLOADS } from '../actions.ts';
import { ADVANCE, action, defineStep, type StepDef } from '../definition.ts';
import { courseOf, domainOffers, entry, memberOf, setEntry, stepObject, type Ctx } from '../context.ts';
import type { PriceState } from '../../../src/domain/checkout/step-state.ts';
import { creditApplies } from '../../../src/domain/memberships.ts';
import { PRICING_ACTIONS, type PricingAction } from '../../../src/domain/checkout/steps.ts';
import { checkGiftCard, checkVoucher } from '../vouchers.ts';
import { invalid, validateLines } from './lines.ts';
import { currentHold } from '../holds.ts';

async function pickPricing(ctx: Ctx, payload: z.output<(typeof ACTION_PAYLOADS)[PricingAction]>): Promise<void> {
  // A dated flow sells its occurrence's offers: the date comes first.
  if (stepObject(ctx, 'date') && !ctx.occ) {
    invalid([{ key: 'payload.selectedOffers', name: 'Date', message: 'must be picked first' }]);
  }
  const offersIn = payload.selectedOffers ?? defaultOfferSelection(domainOffers(ctx.def.catalogue(ctx).offers), ctx.now);
  const { offers, addOns, spaces } = await validateLines(
    ctx, offersIn, payload.selectedAddons, { offers: 'payload.selectedOffers', addOns: 'payload.selectedAddons' }, payload.spacesRequested,
  );
  const { voucherId, giftCardId } = await resolveCode(ctx, payload.appliedPromoCode, entry(ctx, 'price'));
  const state: PriceState = { offers, addOns, spacesRequested: spaces, voucherId, giftCardId, ...(payload.useMembershipCredit ? { useCredit: true } : {}) };
  if (payload.useMembershipCredit) await checkCredit(ctx, offers);
  setEntry(ctx, 'price', state);
}

/**
 * "Apply promo code or gift card": a promo code of the course, else one of the educator's gift cards (it pays up to
 * its balance); refused with the voucher problems. `previous`: what this checkout chose before — the promo code whose use
 * it may already hold (renewing its own hold is not "used up"), and the gift card, which the screen sends back by its
 * id when the learner returns to the step.
 */
export async function resolveCode(
  ctx: Ctx, input: string | null | undefined, previous: { voucherId?: string | null; giftCardId?: string | null } | null,
): Promise<{ voucherId: string | null; giftCardId: string | null }> {
  let code = input?.trim() ?? '';
  if (!code) return { voucherId: null, giftCardId: null };
  if (previous?.giftCardId && code === previous.giftCardId) {
    const card = await ctx.q.selectFrom('gift_cards').select('code').where('id', '=', code).where('educator_id', '=', ctx.cat.educator.id).executeTakeFirst();
    if (card) code = card.code;
  }
  const hold = await currentHold(ctx.q, ctx.row.id);
  const ownHold = hold?.status === 'held' ? hold : undefined;
  const check = await checkVoucher(ctx.q, {
    educatorId: ctx.cat.educator.id, courseId: courseOf(ctx).id, codeOrId: code, now: ctx.now,
    ownHold: !!ownHold?.voucher_id && ownHold.voucher_id === (previous?.voucherId ?? null),
  });
  if (check.ok) return { voucherId: check.voucher.id, giftCardId: null };
  // Not a promo code of this course: perhaps one of the educator's gift cards.
  const gift = check.reason === 'unknown' ? await checkGiftCard(ctx.q, { educatorId: ctx.cat.educator.id, code, checkoutId: ctx.row.id, now: ctx.now }) : null;
  if (!gift) invalid([voucherProperty(check.reason)]);
  if (!gift.ok) invalid([voucherProperty(gift.reason)]);
  return { voucherId: null, giftCardId: gift.card.id };
}

/**
 * A credit asked for by a signed-in member must be there now (a visitor's is checked once they are known, when it
 * is spent); and a credit pays one space, so the selection needs an offer of one space.
 */
async function checkCredit(ctx: Ctx, offers: ReadonlyArray<{ offerId: string; quantity: number }>): Promise<void> {
  const catalogue = ctx.def.catalogue(ctx).offers;
  const lines = offers.map((l) => ({ price: 0, quantity: l.quantity, spaces: catalogue.find((o) => o.id === l.offerId)?.spaces ?? 1 }));
  if (!creditApplies(lines)) invalid([{ key: 'payload.useMembershipCredit', name: 'Membership credit', message: 'pays for one space: choose an offer of one space' }]);
  if (!ctx.user && !ctx.row.user_id) return;
  const member = await memberOf(ctx);
  if (!member || Number(member.plan.credits_per_period) === 0) invalid([{ key: 'payload.useMembershipCredit', name: 'Membership credit', message: 'needs a membership with credits for this course' }]);
  if (member.creditsLeft <= 0) invalid([{ key: 'payload.useMembershipCredit', name: 'Membership credit', message: 'none left this period' }]);
}

/** A step that writes stepState.price, under its spec 4 action name (PRICING_ACTIONS: Offers is the order flow's). */
export function pricingStep<I extends 'spaces' | 'offers'>(id: I): StepDef<I> {
  const actionName = PRICING_ACTIONS[id];
  return defineStep({
    id,
    isComplete: (ctx) => entry(ctx, 'price') !== null,
    actions: {
      [actionName]: action({
        payload: ACTION_PAYLOADS[actionName],
        handle: async (ctx, payload) => {
          await pickPricing(ctx, payload);
          return ADVANCE;
        },
      }),
    },
  });
}

/** The price entry as a selection (booking, bookingApplication, order). */
export function priceSelection(ctx: Ctx) {
  const price = entry(ctx, 'price');
  if (!price) return null;
  return { offers: price.offers, addOns: price.addOns, extras: [], spaces: price.spacesRequested, voucherId: price.voucherId ?? null, giftCardId: price.giftCardId ?? null };
}
