/**
 * Gift vouchers of an educator:
 *   GET /api/educators/{educatorId or slug}/gift-vouchers → what is on sale (`vouchers_app_installed`: switched on
 *       and payable by card or wallet; amounts, expiry months, design colour); anyone may read it (the gift checkout
 *       and the booking aside show it). `enabled` and `payable` say why it is not, for the educator's admins.
 *   PUT /api/educators/{educatorId}/gift-vouchers → the educator's admins change the settings (zod-checked rules
 *       of src/domain/gifts.ts: amounts £5–£1,000, custom min ≤ max, expiry at least 12 months, a #rrggbb colour).
 */
import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { parseJson } from '../http/parse.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { giftSettingsSchema, type GiftSettings } from '../../src/domain/gifts.ts';
import { giftVouchersSold, loadGiftSettings, saveGiftSettings } from '../../db/queries/gifts.ts';
import { availableMethods } from '../payments/registry.ts';
import { requireUser } from '../auth/middleware.ts';
import { authProblems } from '../auth/problems.ts';

/**
 * What is on sale: `vouchers_app_installed` is true only while gift vouchers can be bought — switched on (`enabled`)
 * and `payable` (the educator takes card or wallet here: the gift flow never takes invoice or in person).
 */
export function publicGiftSettings(s: GiftSettings, payable: boolean, feesAbsorbed: boolean) {
  const onSale = s.enabled && payable;
  return {
    vouchers_app_installed: onSale,
    enabled: s.enabled,
    payable,
    fixedAmounts: onSale ? s.fixedAmounts : [],
    customMin: onSale ? s.customMin : null,
    customMax: onSale ? s.customMax : null,
    expiryMonths: s.expiryMonths,
    designColour: s.designColour,
    currency: 'GBP',
    // Whether the educator absorbs the platform fee: the Amount step shows the cost summary before Continue.
    fees_absorbed: feesAbsorbed,
  };
}

async function answer(deps: AppEnv['Variables']['deps'], educatorId: string) {
  const settings = await loadGiftSettings(deps.db, educatorId);
  const payable = await giftVouchersSold(deps.db, educatorId, { ...settings, enabled: true }, availableMethods(deps.config));
  const fee = await deps.db.selectFrom('educator_fee_settings').select('fees_absorbed').where('educator_id', '=', educatorId).executeTakeFirst();
  // As the checkout's catalogue reads it (db/queries/checkout.ts): no settings, the educator absorbs the fee.
  return publicGiftSettings(settings, payable, fee ? !!fee.fees_absorbed : true);
}

export function giftVoucherRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/educators/:educator/gift-vouchers', async (c) => {
    const ref = c.req.param('educator').slice(0, 200);
    const db = c.var.deps.db;
    const educator = await db.selectFrom('educators').select('id').where((eb) => eb.or([eb('id', '=', ref), eb('slug', '=', ref)])).executeTakeFirst();
    if (!educator) throw new ProblemError(problems.notFound('No such educator'));
    return c.json(await answer(c.var.deps, educator.id));
  });
  app.put('/educators/:educator/gift-vouchers', async (c) => {
    const user = requireUser(c);
    const educatorId = c.req.param('educator').slice(0, 200);
    if (!user.educatorIds.includes(educatorId)) throw new ProblemError(authProblems.forbidden('Only the educator’s admins can change its gift vouchers.'));
    const settings = await parseJson(c, giftSettingsSchema);
    const { db, now } = c.var.deps;
    await saveGiftSettings(db, educatorId, settings, now());
    return c.json(await answer(c.var.deps, educatorId));
  });
  return app;
}
