/**
 * Migration 0070: a checkout may sell from an educator without a course (course_id null), while the table keeps
 * its foreign keys — to courses and educators, and from space holds (cascading) — on SQLite, where the table is
 * rebuilt, as on PostgreSQL.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/db.ts';

let t: TestDb;

const checkout = (id: string, courseId: string | null) => ({
  id, flow: 'booking', origin: 'marketplace', course_id: courseId, educator_id: 'edu_g', current_step: 'payment', step_state: {},
  created_at: 1, updated_at: 1,
});

beforeAll(async () => {
  t = await createTestDb();
  await t.db.insertInto('educators').values({
    id: 'edu_g', slug: 'gift-test', name: 'Gift Test', feature_flags: {}, third_party_codes: {}, vat_settings: {},
    links: {}, working_hours: {}, enquiry_types: [], created_at: 1,
  } as never).execute();
});

afterAll(async () => {
  await t?.close();
});

it('stores a checkout without a course, with its generic outcome columns', async () => {
  await t.db.insertInto('checkouts').values(checkout('chk_none', null) as never).execute();
  await t.db.updateTable('checkouts').set({ outcome_kind: 'giftVoucher', outcome_id: 'gv_1' }).where('id', '=', 'chk_none').execute();
  const row = await t.db.selectFrom('checkouts').select(['course_id', 'outcome_kind', 'outcome_id']).where('id', '=', 'chk_none').executeTakeFirstOrThrow();
  expect(row).toEqual({ course_id: null, outcome_kind: 'giftVoucher', outcome_id: 'gv_1' });
});

it('still refuses an unknown course and an unknown educator', async () => {
  await expect(t.db.insertInto('checkouts').values(checkout('chk_bad', 'crs_missing') as never).execute()).rejects.toThrow();
  await expect(t.db.insertInto('checkouts').values({ ...checkout('chk_bad2', null), educator_id: 'edu_missing' } as never).execute()).rejects.toThrow();
});

it('still cascades a deleted checkout to its space hold', async () => {
  await t.db.insertInto('checkouts').values(checkout('chk_hold', null) as never).execute();
  await t.db.insertInto('space_holds').values({
    id: 'hold_1', checkout_id: 'chk_hold', occurrence_id: null, spaces: 0, voucher_id: null, status: 'held', expires_at: 10, created_at: 1, updated_at: 1,
  }).execute();
  await expect(t.db.insertInto('space_holds').values({
    id: 'hold_2', checkout_id: 'chk_missing', occurrence_id: null, spaces: 0, voucher_id: null, status: 'held', expires_at: 10, created_at: 1, updated_at: 1,
  }).execute()).rejects.toThrow();
  await t.db.deleteFrom('checkouts').where('id', '=', 'chk_hold').execute();
  expect(await t.db.selectFrom('space_holds').select('id').where('id', '=', 'hold_1').execute()).toEqual([]);
});
