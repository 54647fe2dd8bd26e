/**
 * Memberships (docs/gifts-and-memberships.md "## Memberships"):
 *   GET  /api/educators/{educatorId}/membership-plans → the educator's listed plans (the checkout's Plan step)
 *   GET  /api/memberships → the signed-in learner's memberships with next renewal, credits left and payments
 *   POST /api/memberships/{id}/cancel → cancels at the end of the paid period
 *   GET  /api/membership-payments/{id}/receipt[?token=] → the payment's PDF receipt
 * Test mode only (PAYMENTS_MODE=test, membershipTestRoutes), for the signed-in learner alone:
 *   POST /api/test-payments/clock {advanceSeconds} → moves the learner's memberships' test clock and runs the renewals
 *        now due
 *   POST /api/test-payments/memberships/{id}/card {card_number} → changes the card on file of the learner's membership
 *        (4000000000000002 declines)
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseJson } from '../http/parse.ts';
import { requireUser } from '../auth/middleware.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { planBenefitTexts, planPriceText, planTerms } from '../../src/domain/memberships.ts';
import { documentToken, verifyDocumentToken } from '../shared/document-tokens.ts';
import { benefitsFor, cancelMembership, membershipsOf, renewDue } from '../memberships/service.ts';
import { advanceTestClock, membershipNow } from '../memberships/clock.ts';
import { membershipReceiptPdf } from '../memberships/receipt.ts';

function receiptLink(c: Context<AppEnv>, paymentId: string): string {
  return `/api/membership-payments/${paymentId}/receipt?token=${documentToken(c.var.deps.config.APP_SECRET, 'membership_payment', paymentId)}`;
}

export function membershipsRoutes() {
  const app = new Hono<AppEnv>();

  app.get('/educators/:educatorId/membership-plans', async (c) => {
    const educatorId = c.req.param('educatorId');
    const plans = await c.var.deps.db.selectFrom('membership_plans').selectAll().where('educator_id', '=', educatorId).where('listed', '=', true)
      .orderBy('position').orderBy('id').execute();
    return c.json({
      plans: plans.map((p) => {
        const terms = planTerms(p);
        return { id: p.id, name: p.name, description: p.description, ...terms, priceText: planPriceText(terms), benefits: planBenefitTexts(terms) };
      }),
    });
  });

  // The signed-in learner's benefits on one course (the Spaces step's "Use 1 credit", the booking aside).
  app.get('/memberships/benefits', async (c) => {
    const query = benefitsQuery.safeParse({ courseId: c.req.query('courseId') });
    if (!query.success) throw new ProblemError(problems.validation([{ key: 'courseId', name: 'courseId', message: 'is required' }]));
    const user = c.var.user;
    const { deps } = c.var;
    const course = await deps.db.selectFrom('courses').select(['id', 'educator_id']).where('id', '=', query.data.courseId).executeTakeFirst();
    if (!user || !course) return c.json({ member: null });
    const b = await benefitsFor(deps.db, { userId: user.id, educatorId: course.educator_id, courseId: course.id, now: () => membershipNow(deps, deps.db, user.id) });
    return c.json({
      member: b ? { membershipId: b.membership.id, planName: b.plan.name, discountPercent: b.discountPercent, creditsLeft: b.creditsLeft, creditsPerPeriod: Number(b.plan.credits_per_period) } : null,
    });
  });

  app.get('/memberships', async (c) => {
    const user = requireUser(c);
    const { now, rows, payments } = await membershipsOf(c.var.deps, user.id);
    return c.json({
      now,
      memberships: rows.map((m) => ({
        id: m.id, planId: m.plan_id, planName: m.plan_name, educatorName: m.educator_name, educatorSlug: m.educator_slug,
        status: m.status, price: Number(m.price), currency: m.currency, interval: m.interval,
        priceText: planPriceText({ interval: m.interval, passMonths: m.pass_months, price: Number(m.price), currency: m.currency }),
        currentPeriodStart: Number(m.current_period_start), currentPeriodEnd: Number(m.current_period_end),
        // The next renewal: the period end of a renewing plan not cancelled; a retry after a failed renewal.
        nextRenewal: m.status === 'ended' || m.cancel_at_period_end || m.interval === 'pass' ? null : Number(m.next_attempt_at ?? m.current_period_end),
        creditsLeft: Number(m.credits_left), cancelAtPeriodEnd: m.cancel_at_period_end, endedAt: m.ended_at, endReason: m.end_reason,
        payments: payments.filter((p) => p.membership_id === m.id).map((p) => ({
          id: p.id, kind: p.kind, status: p.status, amount: Number(p.amount), currency: p.currency, periodStart: Number(p.period_start),
          periodEnd: Number(p.period_end), receiptNumber: p.receipt_number, createdAt: Number(p.created_at), failure: p.failure,
          receipt: p.status === 'paid' ? receiptLink(c, p.id) : null,
        })),
      })),
    });
  });

  app.post('/memberships/:id/cancel', async (c) => {
    const user = requireUser(c);
    const row = await cancelMembership(c.var.deps, user.id, c.req.param('id'));
    if (!row) throw new ProblemError(problems.notFound('No such membership'));
    return c.json({ id: row.id, status: row.status, cancelAtPeriodEnd: row.cancel_at_period_end, currentPeriodEnd: Number(row.current_period_end) });
  });

  app.get('/membership-payments/:id/receipt', async (c) => {
    const id = c.req.param('id');
    const { deps } = c.var;
    const payment = await deps.db.selectFrom('membership_payments as p').innerJoin('memberships as m', 'm.id', 'p.membership_id')
      .select(['p.id', 'p.status', 'm.user_id']).where('p.id', '=', id).executeTakeFirst();
    const user = c.var.user;
    const allowed = !!payment && ((user && user.id === payment.user_id) || verifyDocumentToken(deps.config.APP_SECRET, 'membership_payment', id, c.req.query('token')));
    if (!payment || !allowed || payment.status !== 'paid') throw new ProblemError(problems.notFound('No such receipt'));
    const { pdf, filename } = await membershipReceiptPdf(deps.db, id);
    return new Response(new Uint8Array(pdf), {
      headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${filename}"`, 'cache-control': 'private, no-store' },
    });
  });
  return app;
}

const benefitsQuery = z.object({ courseId: z.string().min(1).max(200) });
const clockBody = z.object({ advanceSeconds: z.number().int().min(0).max(5 * 366 * 86400) });
const cardBody = z.object({ card_number: z.string().min(12).max(40) });

export function membershipTestRoutes() {
  const app = new Hono<AppEnv>();
  // Test mode is where demos and staging run with real visitors: a learner moves only their own clock and card.
  app.post('/test-payments/clock', async (c) => {
    const user = requireUser(c);
    const body = await parseJson(c, clockBody);
    const { deps } = c.var;
    await advanceTestClock(deps.db, user.id, body.advanceSeconds);
    // Renewals due at the new time run now (the background job would, a moment later), so a test can read them.
    let renewed = 0;
    for (let pass = 0; pass < 10; pass++) {
      const n = await renewDue(deps);
      renewed += n;
      if (n === 0) break;
    }
    return c.json({ now: await membershipNow(deps, deps.db, user.id), renewed });
  });
  app.post('/test-payments/memberships/:id/card', async (c) => {
    const user = requireUser(c);
    const body = await parseJson(c, cardBody);
    const last4 = body.card_number.replace(/[\s-]/g, '').slice(-4);
    const res = await c.var.deps.db.updateTable('memberships').set({ provider_customer_id: `tcus_${last4}` })
      .where('id', '=', c.req.param('id')).where('user_id', '=', user.id).where('provider', '=', 'test').executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new ProblemError(problems.notFound('No such membership'));
    return c.json({ id: c.req.param('id'), card: last4 });
  });
  return app;
}
