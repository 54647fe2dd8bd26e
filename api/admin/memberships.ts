/**
 * The educator's membership plans in the admin (docs/admin.md "Memberships"; docs/gifts-and-memberships.md),
 * relative to /admin/educators/{educatorId}:
 *
 *   GET    /membership-plans                 → the plans with their current members, and the courses to choose from
 *   POST   /membership-plans                 → a new plan (planInputSchema's fields, and `listed`), listed last
 *   PUT    /membership-plans/{id}            → the plan, whole ({revision, …}); refused when it would take from
 *                                             current members what they hold (src/domain/admin/memberships.ts)
 *   DELETE /membership-plans/{id}?revision=N → refused once anyone has joined it (stop listing it instead)
 *
 * A plan's row is locked by the revision claim before its members are counted, so a learner joining meanwhile is
 * either counted or joins the plan as saved.
 */
import { Hono, type Context } from 'hono';
import type { Selectable } from 'kysely';
import type { AppEnv } from '../deps.ts';
import type { MembershipPlansTable } from '../../db/schema/memberships.ts';
import { parseWith, readJson } from '../http/parse.ts';
import { newId } from '../shared/ids.ts';
import { adminEducatorId } from './access.ts';
import { claimRevision, diffFields } from './audit.ts';
import { audit, created, deleteRevision, educatorCourses, invalid, invalidFields, notYours, pathId, refused, removed, requireOwnCourses, type Trx } from './catalogue-saves.ts';
import { planTerms } from '../../src/domain/memberships.ts';
import { planEditProblems, planExtrasSchema, planInputSchema, priceChangeNotice, type PlanInput } from '../../src/domain/admin/memberships.ts';

type Q = Trx | AppEnv['Variables']['deps']['db'];
type PlanRow = Selectable<MembershipPlansTable>;

function view(row: PlanRow, members: number) {
  const t = planTerms(row);
  return {
    id: row.id, name: row.name, description: row.description, interval: t.interval, passMonths: t.passMonths, price: t.price, currency: t.currency,
    discountPercent: t.discountPercent, creditsPerPeriod: t.creditsPerPeriod, courseIds: t.courseIds, listed: !!row.listed, position: Number(row.position),
    revision: Number(row.revision), members,
  };
}

function columns(p: PlanInput, listed: boolean) {
  return {
    name: p.name, description: p.description, interval: p.interval, pass_months: p.passMonths, price: p.price, currency: p.currency,
    discount_percent: p.discountPercent, credits_per_period: p.creditsPerPeriod, course_ids: p.courseIds, listed,
  };
}

function auditShape(row: Pick<PlanRow, 'name' | 'description' | 'interval' | 'pass_months' | 'price' | 'discount_percent' | 'credits_per_period' | 'course_ids' | 'listed'>) {
  return {
    name: row.name, description: row.description, interval: row.interval, pass_months: row.pass_months, price: Number(row.price),
    discount_percent: Number(row.discount_percent), credits_per_period: Number(row.credits_per_period), course_ids: row.course_ids, listed: !!row.listed,
  };
}

/** Current members (active or past due) per plan. */
async function memberCounts(q: Q, planIds: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (planIds.length === 0) return out;
  const rows = await q.selectFrom('memberships').select(['plan_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('plan_id', 'in', [...planIds]).where('status', 'in', ['active', 'past_due']).groupBy('plan_id').execute();
  for (const r of rows) out.set(r.plan_id, Number(r.n));
  return out;
}

async function ownedPlan(c: Context<AppEnv>, q: Q): Promise<PlanRow> {
  const id = pathId.safeParse(c.req.param('planId'));
  if (!id.success) throw notYours('No membership plan of yours has this id.');
  const row = await q.selectFrom('membership_plans').selectAll().where('id', '=', id.data).where('educator_id', '=', adminEducatorId(c)).executeTakeFirst();
  if (!row) throw notYours('No membership plan of yours has this id.');
  return row;
}

async function readPlan(c: Context<AppEnv>, { needsRevision }: { needsRevision: boolean }) {
  const body = await readJson(c);
  const extras = parseWith(planExtrasSchema, body);
  const plan = parseWith(planInputSchema, body);
  if (needsRevision && extras.revision === undefined) throw invalid('revision', 'is required');
  return { plan, listed: extras.listed, revision: extras.revision ?? 1 };
}

export function membershipsAdminRoutes() {
  const app = new Hono<AppEnv>();

  app.get('/membership-plans', async (c) => {
    const { db } = c.var.deps;
    const educatorId = adminEducatorId(c);
    const [rows, courses] = await Promise.all([
      db.selectFrom('membership_plans').selectAll().where('educator_id', '=', educatorId).orderBy('position').orderBy('created_at').orderBy('id').execute(),
      educatorCourses(db, educatorId),
    ]);
    const members = await memberCounts(db, rows.map((r) => r.id));
    return c.json({ plans: rows.map((r) => view(r, members.get(r.id) ?? 0)), courses });
  });

  app.post('/membership-plans', async (c) => {
    const { db, now } = c.var.deps;
    const { plan, listed } = await readPlan(c, { needsRevision: false });
    const educatorId = adminEducatorId(c);
    const result = await db.transaction().execute(async (trx) => {
      if (plan.courseIds) await requireOwnCourses(trx, educatorId, plan.courseIds, 'courseIds');
      const last = await trx.selectFrom('membership_plans').select((eb) => eb.fn.max<number | string | null>('position').as('p')).where('educator_id', '=', educatorId).executeTakeFirst();
      const row: PlanRow = {
        id: newId('plan'), educator_id: educatorId, ...columns(plan, listed),
        position: last?.p === null || last?.p === undefined ? 0 : Number(last.p) + 1, created_at: now(), revision: 1,
      };
      await trx.insertInto('membership_plans').values(row).execute();
      await audit(trx, c, { entity: 'membership_plan', entityId: row.id, action: 'create', revision: 1, changes: created(auditShape(row)) });
      return view(row, 0);
    });
    return c.json(result, 201);
  });

  app.put('/membership-plans/:planId', async (c) => {
    const { db } = c.var.deps;
    const { plan, listed, revision: expected } = await readPlan(c, { needsRevision: true });
    const educatorId = adminEducatorId(c);
    const result = await db.transaction().execute(async (trx) => {
      const found = await ownedPlan(c, trx);
      const revision = await claimRevision(trx, { table: 'membership_plans', id: found.id, expected, educatorId, entity: 'membership_plan' });
      const before = await ownedPlan(c, trx);
      if (plan.courseIds) await requireOwnCourses(trx, educatorId, plan.courseIds, 'courseIds');
      const members = (await memberCounts(trx, [before.id])).get(before.id) ?? 0;
      const problems = planEditProblems(planTerms(before), plan, members);
      if (problems.length) throw invalidFields(problems.map((p) => ({ key: p.key, message: p.message })));
      const values = columns(plan, listed);
      await trx.updateTable('membership_plans').set(values).where('id', '=', before.id).execute();
      const after = { ...before, ...values, revision };
      await audit(trx, c, { entity: 'membership_plan', entityId: before.id, action: 'update', revision, changes: diffFields(auditShape(before), auditShape(after)) });
      return { ...view(after, members), notice: priceChangeNotice(planTerms(before), plan, members) };
    });
    return c.json(result);
  });

  app.delete('/membership-plans/:planId', async (c) => {
    const { db } = c.var.deps;
    const revision = deleteRevision(c);
    const educatorId = adminEducatorId(c);
    await db.transaction().execute(async (trx) => {
      const row = await ownedPlan(c, trx);
      await claimRevision(trx, { table: 'membership_plans', id: row.id, expected: revision, educatorId, entity: 'membership_plan' });
      const joined = await trx.selectFrom('memberships').select((eb) => eb.fn.countAll<number | string>().as('n')).where('plan_id', '=', row.id).executeTakeFirst();
      const n = Number(joined?.n ?? 0);
      if (n > 0) {
        throw refused('Plan Has Members', `${n} ${n === 1 ? 'learner has' : 'learners have'} joined ${row.name}, and their memberships, payments and receipts refer to it. Stop listing it instead: nobody new can join, and current members keep it until they leave.`);
      }
      await trx.deleteFrom('membership_plans').where('id', '=', row.id).execute();
      await audit(trx, c, { entity: 'membership_plan', entityId: row.id, action: 'delete', changes: removed(auditShape(row)) });
    });
    return c.body(null, 204);
  });

  return app;
}
