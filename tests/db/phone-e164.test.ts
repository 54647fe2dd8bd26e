/**
 * Phone numbers stored with the UK trunk 0 after the country code ('+4407700900123') are rewritten to
 * E.164 ('+447700900123') by migration 0050; other numbers are left alone.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { up } from '../../db/migrations/0050_phone_e164.ts';

let t: TestDb;

beforeAll(async () => {
  t = await createTestDb();
  await t.db.insertInto('educators').values({
    id: 'edu_p', slug: 'phone-test', name: 'Phone Test', feature_flags: {}, third_party_codes: {}, vat_settings: {},
    links: {}, working_hours: {}, enquiry_types: [], created_at: 1,
  } as never).execute();
});

afterAll(async () => {
  await t?.close();
});

it('rewrites +440… to +44… in enquiries and claims, and nothing else', async () => {
  const base = { type: 'message', educator_id: 'edu_p', first_name: 'A', last_name: 'B', email: 'a@example.co.uk', context: 'marketplace', created_at: 1 };
  await t.db.insertInto('enquiries').values([
    { ...base, id: 'e1', phone: '+4407700900123' },
    { ...base, id: 'e2', phone: '+447700900456' },
    { ...base, id: 'e3', phone: '+33123456789' },
    { ...base, id: 'e4', phone: '+4401632960000' },
  ] as never).execute();
  await up(t.db as never);
  const rows = await t.db.selectFrom('enquiries').select(['id', 'phone']).orderBy('id').execute();
  expect(rows).toEqual([
    { id: 'e1', phone: '+447700900123' },
    { id: 'e2', phone: '+447700900456' },
    { id: 'e3', phone: '+33123456789' },
    { id: 'e4', phone: '+441632960000' },
  ]);
});
