/**
 * The educator's gift voucher settings in the admin (docs/admin.md "Gift vouchers"; docs/gifts-and-memberships.md),
 * relative to /admin/educators/{educatorId}:
 *
 *   GET /gift-vouchers → the settings, their revision (0: never saved), whether gift vouchers are on sale
 *                        (`vouchers_app_installed` = switched on AND payable by card or wallet) and the cards sold
 *   PUT /gift-vouchers → the settings, whole ({revision, enabled, fixedAmounts, customMin, customMax, expiryMonths, designColour})
 *
 * The rules are src/domain/gifts.ts's (giftSettingsSchema, giftVouchersOnSale), the same the public settings route
 * (api/routes/gift-vouchers.ts) applies; the row is written by db/queries/gifts.ts saveGiftSettings. A save names the
 * revision it was made on (migration 0260), like every admin save.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv, Deps } from '../deps.ts';
import { parseWith, readJson } from '../http/parse.ts';
import { ProblemError } from '../../src/domain/problems.ts';
import { adminEducatorId } from './access.ts';
import { diffFields, listChanges, staleRevision } from './audit.ts';
import { audit, type Trx } from './catalogue-saves.ts';
import { giftSettingsSchema, type GiftSettings } from '../../src/domain/gifts.ts';
import { giftVouchersSold, loadGiftSettings, saveGiftSettings } from '../../db/queries/gifts.ts';
import { availableMethods } from '../payments/registry.ts';

const ENTITY = 'gift_voucher_settings';
const revisionBody = z.object({ revision: z.number({ error: 'is required' }).int('must be a whole number').min(0, 'must be at least 0') });

async function answer(deps: Deps, educatorId: string) {
  const [settings, row, sold] = await Promise.all([
    loadGiftSettings(deps.db, educatorId),
    deps.db.selectFrom('gift_voucher_settings').select('revision').where('educator_id', '=', educatorId).executeTakeFirst(),
    deps.db.selectFrom('gift_cards').select((eb) => eb.fn.countAll<number | string>().as('n')).where('educator_id', '=', educatorId).executeTakeFirst(),
  ]);
  const payable = await giftVouchersSold(deps.db, educatorId, { ...settings, enabled: true }, availableMethods(deps.config));
  return {
    settings,
    revision: row ? Number(row.revision) : 0,
    vouchers_app_installed: settings.enabled && payable,
    enabled: settings.enabled,
    payable,
    cardsSold: Number(sold?.n ?? 0),
  };
}

/** Raises the settings' revision from `expected` (0: no row yet) or refuses with what changed since. */
async function claim(trx: Trx, educatorId: string, expected: number, now: number): Promise<number> {
  const result = expected === 0
    ? await trx.insertInto('gift_voucher_settings').values({ educator_id: educatorId, updated_at: now, revision: 1 }).onConflict((oc) => oc.column('educator_id').doNothing()).executeTakeFirst()
    : await trx.updateTable('gift_voucher_settings').set((eb) => ({ revision: eb('revision', '+', 1) })).where('educator_id', '=', educatorId).where('revision', '=', expected).executeTakeFirst();
  const changed = Number('numInsertedOrUpdatedRows' in result ? result.numInsertedOrUpdatedRows ?? 0 : result.numUpdatedRows);
  if (changed === 1) return expected + 1;
  const row = await trx.selectFrom('gift_voucher_settings').select('revision').where('educator_id', '=', educatorId).executeTakeFirst();
  const since = await listChanges(trx, { educatorId, entity: ENTITY, entityId: educatorId, afterRevision: expected });
  throw new ProblemError(staleRevision(since, row ? Number(row.revision) : 0));
}

function auditShape(s: GiftSettings) {
  return { enabled: s.enabled, fixed_amounts: [...s.fixedAmounts].sort((a, b) => a - b), custom_min: s.customMin, custom_max: s.customMax, expiry_months: s.expiryMonths, design_colour: s.designColour };
}

export function giftVouchersAdminRoutes() {
  const app = new Hono<AppEnv>();

  app.get('/gift-vouchers', async (c) => c.json(await answer(c.var.deps, adminEducatorId(c))));

  app.put('/gift-vouchers', async (c) => {
    const body = await readJson(c);
    const { revision } = parseWith(revisionBody, body);
    const settings = parseWith(giftSettingsSchema, body);
    const { db, now } = c.var.deps;
    const educatorId = adminEducatorId(c);
    await db.transaction().execute(async (trx) => {
      const before = await loadGiftSettings(trx, educatorId);
      const next = await claim(trx, educatorId, revision, now());
      await saveGiftSettings(trx, educatorId, settings, now());
      await audit(trx, c, { entity: ENTITY, entityId: educatorId, action: 'update', revision: next, changes: diffFields(auditShape(before), auditShape(settings)) });
    });
    return c.json(await answer(c.var.deps, educatorId));
  });

  return app;
}
