/**
 * POST /api/custom/get-checkout-summary (spec 7) →
 *   {summary_items{offerSummary, addOnSummary, discountSummary, voucherSummary, vatSummary, extraSummary},
 *    platform_fee, fees_absorbed, vat_amount, subtotal, total_cost, currency, pricing_hidden}
 * Body: {course_ref, occurrence_ref, voucher_ref, offers[{_id, quantity}], add_ons[{_id, quantity}], origin,
 *        payment_method, extras[{label, cost, quantity}], use_membership_credit}. All amounts in pence. Prices come
 * from the catalogue; an extra must be one of the course's duration options (its label or duration text, and its
 * extra_cost).
 *
 * The preview is the learner's own, like the checkout's: `voucher_ref` may be a gift card code of the educator (it
 * pays up to what is spendable now, as a negative line), and a signed-in member sees the plan's member prices and,
 * with `use_membership_credit`, the credit's line (docs/gifts-and-memberships.md) — so the screen shows before
 * Continue what the checkout will then charge.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseJson, pence } from '../http/parse.ts';
import { ProblemError, problems, type ProblemProperty } from '../../src/domain/problems.ts';
import type { CourseCatalogue } from '../../db/queries/checkout.ts';
import { catalogueCache } from '../checkout/catalogue-cache.ts';
import { costOf } from '../checkout/context.ts';
import { checkGiftCard, checkVoucher } from '../checkout/vouchers.ts';
import { applyGiftCard } from '../../src/domain/checkout/costSummary.ts';
import { memberDiscountLines } from '../../src/domain/memberships.ts';
import { benefitsFor } from '../memberships/service.ts';
import { membershipNow } from '../memberships/clock.ts';
import { voucherRules } from '../http/abuse-limits.ts';
import { refundHits, takeHits } from '../http/rate-limit.ts';
import { invalidVoucherProblem } from '../../src/domain/checkout/problems.ts';
import { CHECKOUT_ORIGINS } from '../../src/domain/checkout/flows.ts';
import { checkoutPricesVisible } from '../../src/domain/pricing.ts';
import { durationExtra } from '../../src/domain/checkout/request.ts';

const line = z.object({ _id: z.string().min(1).max(200), quantity: z.number().int().min(0).max(10_000) });
const body = z.object({
  course_ref: z.string().min(1).max(200),
  occurrence_ref: z.string().max(200).nullable().optional(),
  voucher_ref: z.string().max(200).nullable().optional(),
  offers: z.array(line).max(100).optional().default([]),
  add_ons: z.array(line).max(100).optional().default([]),
  origin: z.enum(CHECKOUT_ORIGINS).optional().default('marketplace'),
  payment_method: z.string().max(50).nullable().optional(),
  extras: z.array(z.object({ label: z.string().max(200), cost: pence.pipe(z.number().min(0)), quantity: z.number().int().min(0).max(10_000) })).max(10).optional().default([]),
  use_membership_credit: z.boolean().optional().default(false),
});

export function costSummaryRoutes() {
  const app = new Hono<AppEnv>();
  app.post('/custom/get-checkout-summary', async (c) => {
    const input = await parseJson(c, body);
    const { db, now } = c.var.deps;
    const catalogues = catalogueCache(db);
    const cat = await catalogues.course(db, input.course_ref);
    if (!cat || !cat.course.published) throw new ProblemError(problems.notFound('No such course'));
    const occ = input.occurrence_ref ? await catalogues.occurrence(db, input.occurrence_ref, cat) : null;
    if (input.occurrence_ref && !occ) throw new ProblemError(problems.validation([{ key: 'occurrence_ref', name: 'Occurrence', message: 'is not one of this course\u2019s dates' }]));
    const offers = occ ? occ.offers : cat.offers;
    const addOns = occ ? occ.addOns : cat.addOns;
    const properties: ProblemProperty[] = [];
    input.offers.forEach((l, i) => {
      if (!offers.some((o) => o.id === l._id)) properties.push({ key: `offers.${i}._id`, name: 'Offer', message: 'is not one of this course\u2019s offers' });
    });
    input.add_ons.forEach((l, i) => {
      if (!addOns.some((a) => a.id === l._id)) properties.push({ key: `add_ons.${i}._id`, name: 'Add-on', message: 'is not one of this course\u2019s add-ons' });
    });
    const options = cat.course.duration_pricing ?? [];
    input.extras.forEach((e, i) => {
      // The extra must be exactly what the duration's rule gives (spec 7: its label or duration text, its extra cost).
      const match = options.find((o) => {
        const extra = durationExtra(o, e.quantity);
        return extra !== null && extra.cost === e.cost && extra.label === e.label.trim();
      });
      if (!match) properties.push({ key: `extras.${i}`, name: 'Duration', message: 'is not one of this course\u2019s durations' });
    });
    if (properties.length) throw new ProblemError(problems.validation(properties));
    let voucher = null;
    let giftCard: { id: string; code: string; balance: number } | null = null;
    if (input.voucher_ref) {
      // A voucher code tried here counts against the same guessing limits as POST /vouchers/validate.
      const rules = voucherRules(c, cat.educator.id);
      const attempt = await takeHits(db, rules, now());
      const check = await checkVoucher(db, { educatorId: cat.educator.id, courseId: cat.course.id, codeOrId: input.voucher_ref, now: now() });
      if (check.ok) voucher = { code: check.voucher.code, kind: check.voucher.kind, amount: Number(check.voucher.amount) };
      else {
        const gift = check.reason === 'unknown' ? await checkGiftCard(db, { educatorId: cat.educator.id, code: input.voucher_ref, checkoutId: null, now: now() }) : null;
        if (!gift || !gift.ok) attempt.refuseIfLimited();
        if (!gift) throw new ProblemError(invalidVoucherProblem(check.reason));
        if (!gift.ok) throw new ProblemError(invalidVoucherProblem(gift.reason));
        giftCard = { id: gift.card.id, code: gift.card.code, balance: gift.spendable };
      }
      await refundHits(db, rules, now());
    }
    const selectedOffers = input.offers.map((l) => ({ offerId: l._id, quantity: l.quantity }));
    const summary = applyGiftCard(costOf(
      cat,
      { offers, addOns },
      {
        offers: selectedOffers,
        addOns: input.add_ons.map((l) => ({ addonId: l._id, quantity: l.quantity })),
        extras: input.extras,
      },
      voucher,
      { discounts: await memberPreview(c, cat, offers, selectedOffers, input.use_membership_credit) },
    ), giftCard);
    c.header('cache-control', 'no-store');
    return c.json({ ...summary, pricing_hidden: !checkoutPricesVisible(cat.educator.feature_flags?.hide_pricing, input.origin) });
  });
  return app;
}

/**
 * A signed-in member's discount lines for the preview, as the checkout computes them (api/checkout/context.ts
 * memberDiscounts): the plan's percentage off the offers and, when asked for and one is left, a credit for one space.
 */
async function memberPreview(
  c: Context<AppEnv>,
  cat: CourseCatalogue,
  offers: ReadonlyArray<{ id: string; price: number | null; spaces: number | null }>,
  selected: ReadonlyArray<{ offerId: string; quantity: number }>,
  useCredit: boolean,
): Promise<{ text: string; value: number }[]> {
  const user = c.var.user;
  if (!user || !cat.sellsMemberships || !selected.some((l) => l.quantity > 0)) return [];
  const { db } = c.var.deps;
  const member = await benefitsFor(db, { userId: user.id, educatorId: cat.educator.id, courseId: cat.course.id, now: () => membershipNow(c.var.deps, db, user.id) });
  if (!member) return [];
  const lines = selected.map((l) => {
    const offer = offers.find((o) => o.id === l.offerId);
    return { price: offer?.price ?? 0, quantity: l.quantity, spaces: offer?.spaces ?? 1 };
  });
  const credit = useCredit && Number(member.plan.credits_per_period) > 0 && member.creditsLeft > 0;
  return memberDiscountLines(lines, { discountPercent: member.discountPercent, useCredit: credit });
}
