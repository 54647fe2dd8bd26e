/**
 * Migration 0170 on a database that already holds two running memberships of one plan for one learner: the later
 * one is ended (the older kept), and the unique index is built; ended memberships are left as they were.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { down, up } from '../../db/migrations/0170_one_membership_per_plan.ts';

let t: TestDb;

beforeAll(async () => {
  t = await createTestDb();
  await t.db.insertInto('educators').values({
    id: 'edu_m', slug: 'member-test', name: 'Member Test', feature_flags: {}, third_party_codes: {}, vat_settings: {},
    links: {}, working_hours: {}, enquiry_types: [], created_at: 1,
  } as never).execute();
  await t.db.insertInto('membership_plans').values({
    id: 'plan_m', educator_id: 'edu_m', name: 'Monthly', description: '', interval: 'month', pass_months: null, price: 1000,
    currency: 'GBP', discount_percent: 0, credits_per_period: 1, course_ids: null, position: 1, listed: true, created_at: 1,
  } as never).execute();
});

afterAll(async () => {
  await t?.close();
});

function row(id: string, userId: string, status: string, createdAt: number) {
  return {
    id, plan_id: 'plan_m', educator_id: 'edu_m', user_id: userId, checkout_id: null, status, payment_method: 'card', provider: 'test',
    provider_customer_id: null, provider_subscription_id: null, price: 1000, currency: 'GBP', anchor_at: createdAt, period_index: 0,
    current_period_start: createdAt, current_period_end: createdAt + 100, credits_left: 1, cancel_at_period_end: false,
    cancel_requested_at: null, ended_at: null, end_reason: null, renewal_attempts: 0, next_attempt_at: createdAt + 100,
    claimed_at: null, created_at: createdAt, updated_at: createdAt,
  };
}

it('ends the later of two running memberships of one plan, keeps the older and the ended ones, then refuses another', async () => {
  await down(t.db as never);
  await t.db.insertInto('memberships').values([
    row('mem_old', 'usr_1', 'active', 10),
    row('mem_new', 'usr_1', 'past_due', 20),
    row('mem_gone', 'usr_1', 'ended', 5),
    row('mem_other', 'usr_2', 'active', 20),
  ] as never).execute();
  await up(t.db as never);
  const rows = await t.db.selectFrom('memberships').select(['id', 'status', 'end_reason', 'next_attempt_at']).orderBy('id').execute();
  expect(rows.map((r) => ({ ...r, next_attempt_at: r.next_attempt_at === null ? null : Number(r.next_attempt_at) }))).toEqual([
    { id: 'mem_gone', status: 'ended', end_reason: null, next_attempt_at: 105 },
    { id: 'mem_new', status: 'ended', end_reason: 'duplicate', next_attempt_at: null },
    { id: 'mem_old', status: 'active', end_reason: null, next_attempt_at: 110 },
    { id: 'mem_other', status: 'active', end_reason: null, next_attempt_at: 120 },
  ]);
  await expect(t.db.insertInto('memberships').values(row('mem_again', 'usr_2', 'active', 30) as never).execute()).rejects.toThrow();
});
