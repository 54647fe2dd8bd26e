/**
 * The admin's Memberships API (api/admin/memberships.ts) through the real server, on SQLite and PostgreSQL: the
 * educator scope, plans checked by the shared planInputSchema, edits refused when they would take from current
 * members what they hold (interval, a smaller percentage, fewer credits, fewer courses), a new price for new members
 * only (current members keep theirs at renewal), removal refused once anyone joined, revisions and the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ADMIN_ENV, adminCall, adminFixture, expectGuarded, type AdminFixture } from '../helpers/admin.ts';
import { courseRow } from './public-fixtures.ts';

let server: TestServer;
let fx: AdminFixture;
let base: string;
const COURSES = ['crs_adm_mem_1', 'crs_adm_mem_2'];
const OTHER_PLAN = 'plan_adm_mem_other';
const NOW = Math.floor(Date.now() / 1000);

beforeAll(async () => {
  server = await startTestServer(ADMIN_ENV);
  fx = await adminFixture(server, 'mem');
  base = `/api/admin/educators/${fx.educatorId}`;
  await server.db.insertInto('courses').values([
    courseRow({ id: COURSES[0]!, educator_id: fx.educatorId, slug: 'clay-1', name: 'Clay One' }),
    courseRow({ id: COURSES[1]!, educator_id: fx.educatorId, slug: 'clay-2', name: 'Clay Two' }),
    courseRow({ id: 'crs_adm_mem_x', educator_id: fx.otherEducatorId, slug: 'x', name: 'X' }),
  ]).execute();
  await server.db.insertInto('membership_plans').values({ id: OTHER_PLAN, educator_id: fx.otherEducatorId, name: 'Theirs', interval: 'month', price: 1000, discount_percent: 10, course_ids: null, created_at: NOW }).execute();
});
afterAll(() => server?.close());

const call = (method: string, path: string, body?: unknown) => adminCall(server, fx.admin.cookie, method, `${base}${path}`, body);
const club = { name: 'Clay Club', description: 'Two classes a month', interval: 'month', price: 3900, discountPercent: 10, creditsPerPeriod: 2, courseIds: COURSES, listed: true };

async function join(planId: string, price: number): Promise<void> {
  await server.db.insertInto('memberships').values({
    id: `mem_${Math.random().toString(36).slice(2, 10)}`, plan_id: planId, educator_id: fx.educatorId, user_id: fx.learner.user.id, checkout_id: null,
    status: 'active', payment_method: 'card', provider: 'test-recurring', provider_customer_id: null, provider_subscription_id: null, price, currency: 'GBP',
    anchor_at: NOW, current_period_start: NOW, current_period_end: NOW + 30 * 86400, cancel_requested_at: null, ended_at: null, end_reason: null,
    next_attempt_at: NOW + 30 * 86400, claimed_at: null, created_at: NOW, updated_at: NOW,
  }).execute();
}

describe('who may use the membership plans API', () => {
  it('refuses nobody, a learner and another educator\'s admin, and 404s another educator\'s plan', async () => {
    const plan = (await call('POST', '/membership-plans', { ...club, name: 'Guarded' })).json();
    await expectGuarded(server, fx, 'GET', `${base}/membership-plans`);
    await expectGuarded(server, fx, 'POST', `${base}/membership-plans`, club);
    await expectGuarded(server, fx, 'PUT', `${base}/membership-plans/${plan.id}`, { ...club, revision: 1 });
    await expectGuarded(server, fx, 'DELETE', `${base}/membership-plans/${plan.id}?revision=1`);
    expect((await call('PUT', `/membership-plans/${OTHER_PLAN}`, { ...club, revision: 1 })).status).toBe(404);
    expect((await call('DELETE', `/membership-plans/${OTHER_PLAN}?revision=1`)).status).toBe(404);
    const foreign = await call('POST', '/membership-plans', { ...club, courseIds: [COURSES[0], 'crs_adm_mem_x'] });
    expect(foreign.json().properties).toEqual([{ key: 'courseIds.1', message: 'is not one of your courses' }]);
    expect((await server.db.selectFrom('membership_plans').select('name').where('id', '=', OTHER_PLAN).executeTakeFirstOrThrow()).name).toBe('Theirs');
  });
});

describe('plans', () => {
  it('checks a plan with the shared rules', async () => {
    const res = await call('POST', '/membership-plans', { ...club, interval: 'pass', discountPercent: 0, creditsPerPeriod: 0, price: 10 });
    expect(res.status).toBe(400);
    expect(res.json().properties.map((p: { key: string }) => p.key).sort()).toEqual(['discountPercent', 'passMonths', 'price']);
    expect((await call('PUT', `/membership-plans/${OTHER_PLAN}`, club)).status).toBe(400);
  });

  it('lets a plan without members change freely, and one with members only give more, with a new price for new members only', async () => {
    const plan = (await call('POST', '/membership-plans', club)).json();
    expect(plan).toMatchObject({ name: 'Clay Club', price: 3900, members: 0, revision: 1, listed: true });
    const free = await call('PUT', `/membership-plans/${plan.id}`, { ...club, interval: 'year', price: 39000, revision: 1 });
    expect(free.json()).toMatchObject({ interval: 'year', notice: null, revision: 2 });

    await join(plan.id, 39000);
    const taken = await call('PUT', `/membership-plans/${plan.id}`, { ...club, interval: 'month', discountPercent: 5, creditsPerPeriod: 1, courseIds: [COURSES[0]], revision: 2 });
    expect(taken.status).toBe(400);
    const messages = Object.fromEntries(taken.json().properties.map((p: { key: string; message: string }) => [p.key, p.message]));
    expect(messages).toEqual({
      interval: 'cannot change while the plan has 1 current member: their periods follow it. Make a new plan and stop listing this one.',
      discountPercent: 'cannot go down while the plan has 1 current member (it is 10%). Make a new plan and stop listing this one.',
      creditsPerPeriod: 'cannot go down while the plan has 1 current member (it is 2). Make a new plan and stop listing this one.',
      courseIds: 'cannot cover fewer courses while the plan has 1 current member. Make a new plan and stop listing this one.',
    });
    expect((await call('GET', '/membership-plans')).json().plans.find((p: { id: string }) => p.id === plan.id)).toMatchObject({ revision: 2, members: 1 });

    const more = await call('PUT', `/membership-plans/${plan.id}`, { ...club, interval: 'year', price: 42000, discountPercent: 15, creditsPerPeriod: 3, courseIds: null, revision: 2 });
    expect(more.status).toBe(200);
    expect(more.json().notice).toBe('New members pay £420.00. The 1 current member keeps paying £390.00 at each renewal.');
    // The member's own price is what renewals charge; the save did not touch it.
    const member = await server.db.selectFrom('memberships').select('price').where('plan_id', '=', plan.id).executeTakeFirstOrThrow();
    expect(Number(member.price)).toBe(39000);

    const removal = await call('DELETE', `/membership-plans/${plan.id}?revision=3`);
    expect(removal.status).toBe(409);
    expect(removal.json().title).toBe('Plan Has Members');
    const unlisted = await call('PUT', `/membership-plans/${plan.id}`, { ...club, interval: 'year', price: 42000, discountPercent: 15, creditsPerPeriod: 3, courseIds: null, listed: false, revision: 3 });
    expect(unlisted.json()).toMatchObject({ listed: false, revision: 4 });
    const publicPlans = await (await fetch(`${server.url}/api/educators/${fx.educatorId}/membership-plans`)).json();
    expect(JSON.stringify(publicPlans)).not.toContain(plan.id);
  });

  it('removes a plan nobody joined, refuses a stale save and logs each change', async () => {
    // The log lists by time: the three saves get their own clock, ahead of the real one however long the file ran.
    const at = Math.floor(Date.now() / 1000) + 3600;
    server.setNow(at);
    const plan = (await call('POST', '/membership-plans', { ...club, name: 'Short lived' })).json();
    server.setNow(at + 10);
    expect((await call('PUT', `/membership-plans/${plan.id}`, { ...club, name: 'Renamed', revision: 1 })).status).toBe(200);
    const stale = await call('PUT', `/membership-plans/${plan.id}`, { ...club, name: 'Mine', revision: 1 });
    expect(stale.status).toBe(409);
    expect(stale.json().title).toBe('Changed Since You Opened It');
    server.setNow(at + 20);
    expect((await call('DELETE', `/membership-plans/${plan.id}?revision=2`)).status).toBe(204);
    const log = (await call('GET', `/changes?entity=membership_plan&entityId=${plan.id}`)).json().changes;
    expect(log.map((l: { action: string }) => l.action)).toEqual(['delete', 'update', 'create']);
    expect(log[1].changes).toEqual({ name: ['Short lived', 'Renamed'] });
    server.setNow(null);
  });
});
