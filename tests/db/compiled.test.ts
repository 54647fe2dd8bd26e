/**
 * db/compiled.ts: a statement compiled once answers each call for its own value, on the handle and in its
 * transactions, decodes rows like any query, and refuses a statement that binds anything but its one value.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compiledOnce } from '../../db/compiled.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

let t: TestDb;

const educator = (id: string, enquiryTypes: string[]) => ({
  id, slug: `compiled-${id}`, name: `Compiled ${id}`, feature_flags: {}, third_party_codes: {}, vat_settings: {}, links: {}, working_hours: {},
  enquiry_types: enquiryTypes, created_at: 1,
});

beforeAll(async () => {
  t = await createTestDb();
  await t.db.insertInto('educators').values([educator('edu_c1', ['general']), educator('edu_c2', ['group', 'private'])] as never).execute();
});

afterAll(async () => {
  await t?.close();
});

const byId = compiledOnce((q, id: string) => q.selectFrom('educators').select(['id', 'enquiry_types', 'claimed']).where('id', '=', id));

it('binds each call its own value, on the handle and in a transaction, and decodes the rows', async () => {
  expect(await byId(t.db, 'edu_c1')).toEqual([{ id: 'edu_c1', enquiry_types: ['general'], claimed: true }]);
  expect(await byId(t.db, 'edu_c2')).toEqual([{ id: 'edu_c2', enquiry_types: ['group', 'private'], claimed: true }]);
  expect(await byId(t.db, 'edu_none')).toEqual([]);
  const inTransaction = await t.db.transaction().execute((tx) => byId(tx, 'edu_c2'));
  expect(inTransaction.map((r) => r.id)).toEqual(['edu_c2']);
});

it('refuses a statement that binds more than its value', async () => {
  const twoValues = compiledOnce((q, id: string) => q.selectFrom('educators').select('id').where('id', '=', id).where('slug', '!=', 'x'));
  await expect(twoValues(t.db, 'edu_c1')).rejects.toThrow(/not a statement of one bound value/);
});
