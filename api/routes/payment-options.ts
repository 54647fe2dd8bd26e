/**
 * GET /api/checkout/payment-options?courseId={id}&educatorId={id} → {card, paypal, klarna, invoice, manual}
 * (spec 7): the course's own options, else the educator's, else card only.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseQuery } from '../http/parse.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { loadPaymentOptions } from '../../db/queries/checkout.ts';
import { DEFAULT_MANUAL_PAYMENT_LABEL, DEFAULT_MANUAL_PAYMENT_MESSAGE } from '../../src/domain/checkout/constants.ts';
import { availableMethods } from '../payments/registry.ts';

const query = z.object({ courseId: z.string().min(1).max(200).optional(), educatorId: z.string().min(1).max(200) });

export function paymentOptionsRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/checkout/payment-options', async (c) => {
    const { courseId, educatorId } = parseQuery(c, query);
    const db = c.var.deps.db;
    const educator = await db.selectFrom('educators').select('id').where('id', '=', educatorId).executeTakeFirst();
    if (!educator) throw new ProblemError(problems.notFound('No such educator'));
    if (courseId) {
      const course = await db.selectFrom('courses').select('id').where('id', '=', courseId).where('educator_id', '=', educatorId).executeTakeFirst();
      if (!course) throw new ProblemError(problems.notFound('No such course of this educator'));
    }
    const options = await loadPaymentOptions(db, educatorId, courseId ?? null);
    // A method no provider takes under this configuration (live mode without its keys) is not offered.
    const available = new Set(availableMethods(c.var.deps.config));
    const on = (method: 'card' | 'paypal' | 'klarna' | 'invoice' | 'manual') => !!options[method]?.enabled && available.has(method);
    return c.json({
      card: { enabled: on('card') },
      paypal: { enabled: on('paypal') },
      klarna: { enabled: on('klarna') },
      invoice: { enabled: on('invoice'), due_days: options.invoice_due_days },
      manual: {
        enabled: on('manual'),
        label: options.manual?.label?.trim() || DEFAULT_MANUAL_PAYMENT_LABEL,
        message: options.manual?.message?.trim() || DEFAULT_MANUAL_PAYMENT_MESSAGE,
      },
    });
  });
  return app;
}
