/**
 * Promo codes in the admin (docs/admin.md "Promo codes"), relative to /admin/educators/{educatorId}:
 *
 *   GET    /promo-codes                → the educator's codes (uses, status) and courses to choose from
 *   POST   /promo-codes                → a new code {code, kind, amount, maxUses, expiresAt, courseId}
 *   PUT    /promo-codes/{id}           → the code, whole ({revision, …})
 *   DELETE /promo-codes/{id}?revision=N → refused once it has been used (set an expiry instead)
 *
 * They are the vouchers the checkout applies (api/checkout/vouchers.ts); the rules are src/domain/admin/promo-codes.ts.
 * Uses are counted by the checkout (`uses`, with the holds of learners paying now); the voucher row is locked by the
 * revision claim before its limit is compared with them.
 */
import { Hono, type Context } from 'hono';
import { sql } from 'kysely';
import type { AppEnv } from '../deps.ts';
import type { VouchersTable } from '../../db/schema.ts';
import type { Selectable } from 'kysely';
import { parseJson } from '../http/parse.ts';
import { newId } from '../shared/ids.ts';
import { adminEducatorId } from './access.ts';
import { claimRevision, diffFields } from './audit.ts';
import { audit, created, deleteRevision, educatorCourses, invalid, notYours, pathId, refused, removed, requireOwnCourses, type Trx } from './catalogue-saves.ts';
import { maxUsesProblem, promoCodeInputSchema, promoCodeUpdateSchema, promoDiscountText, promoStatus, type PromoCodeInput } from '../../src/domain/admin/promo-codes.ts';

type Q = Trx | AppEnv['Variables']['deps']['db'];
type VoucherRow = Selectable<VouchersTable>;

function view(v: VoucherRow, courses: Map<string, string>, now: number) {
  const shape = { expiresAt: v.expires_at === null ? null : Number(v.expires_at), maxUses: v.max_uses === null ? null : Number(v.max_uses), uses: Number(v.uses) };
  return {
    id: v.id, code: v.code, kind: v.kind, amount: Number(v.amount), currency: v.currency, ...shape, courseId: v.course_id,
    courseName: v.course_id ? courses.get(v.course_id) ?? null : null, revision: Number(v.revision),
    status: promoStatus(shape, now), discount: promoDiscountText({ kind: v.kind, amount: Number(v.amount), currency: v.currency }),
  };
}

function auditShape(v: Pick<VoucherRow, 'code' | 'kind' | 'amount' | 'max_uses' | 'expires_at' | 'course_id'>) {
  return { code: v.code, kind: v.kind, amount: Number(v.amount), max_uses: v.max_uses === null ? null : Number(v.max_uses), expires_at: v.expires_at === null ? null : Number(v.expires_at), course_id: v.course_id };
}

function columns(input: PromoCodeInput) {
  return { code: input.code, kind: input.kind, amount: input.amount, max_uses: input.maxUses, expires_at: input.expiresAt, course_id: input.courseId };
}

async function ownedCode(c: Context<AppEnv>, q: Q): Promise<VoucherRow> {
  const id = pathId.safeParse(c.req.param('voucherId'));
  if (!id.success) throw notYours('No promo code of yours has this id.');
  const row = await q.selectFrom('vouchers').selectAll().where('id', '=', id.data).where('educator_id', '=', adminEducatorId(c)).executeTakeFirst();
  if (!row) throw notYours('No promo code of yours has this id.');
  return row;
}

/** The checkout finds codes case-insensitively: two may not differ only in case. */
async function requireUniqueCode(q: Q, educatorId: string, code: string, self: string | null): Promise<void> {
  let query = q.selectFrom('vouchers').select('id').where('educator_id', '=', educatorId).where(sql<string>`lower(code)`, '=', code.toLowerCase());
  if (self) query = query.where('id', '<>', self);
  if (await query.executeTakeFirst()) throw invalid('code', 'is already one of your promo codes');
}

async function courseNames(q: Q, educatorId: string): Promise<Map<string, string>> {
  return new Map((await educatorCourses(q, educatorId)).map((c) => [c.id, c.name]));
}

export function promoCodesAdminRoutes() {
  const app = new Hono<AppEnv>();

  app.get('/promo-codes', async (c) => {
    const { db, now } = c.var.deps;
    const educatorId = adminEducatorId(c);
    const [rows, courses] = await Promise.all([
      db.selectFrom('vouchers').selectAll().where('educator_id', '=', educatorId).orderBy('created_at', 'desc').orderBy('id').execute(),
      educatorCourses(db, educatorId),
    ]);
    const names = new Map(courses.map((x) => [x.id, x.name]));
    return c.json({ promoCodes: rows.map((r) => view(r, names, now())), courses });
  });

  app.post('/promo-codes', async (c) => {
    const { db, now } = c.var.deps;
    const input = await parseJson(c, promoCodeInputSchema);
    const educatorId = adminEducatorId(c);
    const result = await db.transaction().execute(async (trx) => {
      if (input.courseId) await requireOwnCourses(trx, educatorId, [input.courseId], 'courseId', true);
      await requireUniqueCode(trx, educatorId, input.code, null);
      const row: VoucherRow = { id: newId('vch'), educator_id: educatorId, ...columns(input), currency: 'GBP', uses: 0, created_at: now(), revision: 1 };
      await trx.insertInto('vouchers').values(row).execute();
      await audit(trx, c, { entity: 'voucher', entityId: row.id, action: 'create', revision: 1, changes: created(auditShape(row)) });
      return view(row, await courseNames(trx, educatorId), now());
    });
    return c.json(result, 201);
  });

  app.put('/promo-codes/:voucherId', async (c) => {
    const { db, now } = c.var.deps;
    const input = await parseJson(c, promoCodeUpdateSchema);
    const educatorId = adminEducatorId(c);
    const result = await db.transaction().execute(async (trx) => {
      const found = await ownedCode(c, trx);
      const revision = await claimRevision(trx, { table: 'vouchers', id: found.id, expected: input.revision, educatorId, entity: 'voucher' });
      // Read again under the row's lock: a learner may have used it since.
      const before = await ownedCode(c, trx);
      if (input.courseId) await requireOwnCourses(trx, educatorId, [input.courseId], 'courseId', true);
      await requireUniqueCode(trx, educatorId, input.code, before.id);
      const problem = maxUsesProblem(input.maxUses, Number(before.uses));
      if (problem) throw invalid('maxUses', problem);
      await trx.updateTable('vouchers').set(columns(input)).where('id', '=', before.id).execute();
      const after = { ...before, ...columns(input), revision };
      await audit(trx, c, { entity: 'voucher', entityId: before.id, action: 'update', revision, changes: diffFields(auditShape(before), auditShape(after)) });
      return view(after, await courseNames(trx, educatorId), now());
    });
    return c.json(result);
  });

  app.delete('/promo-codes/:voucherId', async (c) => {
    const { db } = c.var.deps;
    const revision = deleteRevision(c);
    const educatorId = adminEducatorId(c);
    await db.transaction().execute(async (trx) => {
      const found = await ownedCode(c, trx);
      await claimRevision(trx, { table: 'vouchers', id: found.id, expected: revision, educatorId, entity: 'voucher' });
      const row = await ownedCode(c, trx);
      const uses = Number(row.uses);
      if (uses > 0) {
        throw refused('Promo Code Used', `${row.code} has been used or is held ${uses} ${uses === 1 ? 'time' : 'times'}, and the bookings made with it keep its record. Set an expiry date to stop it being used again.`);
      }
      await trx.deleteFrom('vouchers').where('id', '=', row.id).execute();
      await audit(trx, c, { entity: 'voucher', entityId: row.id, action: 'delete', changes: removed(auditShape(row)) });
    });
    return c.body(null, 204);
  });

  return app;
}
