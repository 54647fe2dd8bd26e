/**
 * POST /api/vouchers/validate {code, course_ref, educator_ref, origin} → {voucher_id, code, kind, amount}
 * (spec 7). Failures are checkout/invalid-voucher problems ("Invalid Voucher" + why). The use itself is
 * held with the spaces when the learner reaches Payment and committed with the outcome.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseJson } from '../http/parse.ts';
import { ProblemError } from '../../src/domain/problems.ts';
import { CHECKOUT_ORIGINS } from '../../src/domain/checkout/flows.ts';
import { checkGiftCard, checkVoucher } from '../checkout/vouchers.ts';
import { voucherRules } from '../http/abuse-limits.ts';
import { refundHits, takeHits } from '../http/rate-limit.ts';
import { formatGiftCode } from '../../src/domain/gifts.ts';
import { invalidVoucherProblem } from '../../src/domain/checkout/problems.ts';

const body = z.object({
  code: z.string().min(1).max(200),
  course_ref: z.string().min(1).max(200),
  educator_ref: z.string().min(1).max(200),
  origin: z.enum(CHECKOUT_ORIGINS).optional(),
});

export function vouchersRoutes() {
  const app = new Hono<AppEnv>();
  app.post('/vouchers/validate', async (c) => {
    const input = await parseJson(c, body);
    const { db, now } = c.var.deps;
    // Every look-up counts against the guessing limits until it turns out right (then it is given back).
    const rules = voucherRules(c, input.educator_ref);
    const attempt = await takeHits(db, rules, now());
    // A failed look-up past the educator's budget (allowed only because this client is clean) answers 429.
    const refuse = (reason: Parameters<typeof invalidVoucherProblem>[0]): never => {
      attempt.refuseIfLimited();
      throw new ProblemError(invalidVoucherProblem(reason));
    };
    const course = await db.selectFrom('courses').select(['id']).where('id', '=', input.course_ref).where('educator_id', '=', input.educator_ref).executeTakeFirst();
    if (!course) return refuse('wrongCourse');
    const check = await checkVoucher(db, { educatorId: input.educator_ref, courseId: course.id, codeOrId: input.code, now: now() });
    if (!check.ok && check.reason === 'unknown') {
      // "Apply promo code or gift card": one of the educator's gift cards, under the same guessing limits (on top of
      // 2^79 possible codes).
      const gift = await checkGiftCard(db, { educatorId: input.educator_ref, code: input.code, checkoutId: null, now: now() });
      if (!gift) return refuse('unknown');
      if (!gift.ok) return refuse(gift.reason);
      await refundHits(db, rules, now());
      // The checkout takes the code itself (the card's id is not what the learner typed).
      return c.json({ voucher_id: gift.card.code, code: formatGiftCode(gift.card.code), kind: 'giftCard', amount: gift.spendable, currency: gift.card.currency });
    }
    if (!check.ok) return refuse(check.reason);
    await refundHits(db, rules, now());
    const v = check.voucher;
    return c.json({ voucher_id: v.id, code: v.code, kind: v.kind, amount: Number(v.amount), currency: v.currency });
  });
  return app;
}
