/**
 * The codec (db/codec.ts) on the engine under test: objects and arrays are stored as JSON text and read back as
 * values, booleans as the engine stores them, wherever a value is bound — the query builder, a value list, a
 * `sql` template, an inline literal, a column default.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDb, type TestDb } from '../helpers/db.ts';

let t: TestDb;

const educator = (id: string, extra: Record<string, unknown> = {}) => ({
  id, slug: `codec-${id}`, name: `Codec ${id}`, feature_flags: { reviews: true }, third_party_codes: {}, vat_settings: { rate: 20 },
  links: { site: 'https://example.org' }, working_hours: {}, enquiry_types: ['general', 'group'], created_at: 1, ...extra,
});

beforeAll(async () => {
  t = await createTestDb();
});

afterAll(async () => {
  await t?.close();
});

it('stores objects and arrays as JSON text and reads them back as values', async () => {
  await t.db.insertInto('educators').values(educator('edu_codec_a') as never).execute();
  const row = await t.db.selectFrom('educators').select(['feature_flags', 'enquiry_types', 'vat_settings']).where('id', '=', 'edu_codec_a').executeTakeFirstOrThrow();
  expect(row).toEqual({ feature_flags: { reviews: true }, enquiry_types: ['general', 'group'], vat_settings: { rate: 20 } });
  // What is on disk is JSON text, whatever the engine's column type.
  const raw = await sql<{ text: string }>`select cast(enquiry_types as text) as text from educators where id = ${'edu_codec_a'}`.execute(t.db);
  expect(JSON.parse(raw.rows[0].text)).toEqual(['general', 'group']);
});

it('binds booleans in the builder, in value lists and in sql templates, and reads them back as booleans', async () => {
  await t.db.insertInto('educators').values(educator('edu_codec_b', { claimed: false, can_be_contacted: true }) as never).execute();
  const byBuilder = await t.db.selectFrom('educators').select(['id', 'claimed', 'can_be_contacted'])
    .where('id', 'in', ['edu_codec_a', 'edu_codec_b']).where('claimed', '=', false).execute();
  expect(byBuilder).toEqual([{ id: 'edu_codec_b', claimed: false, can_be_contacted: true }]);
  const byList = await t.db.selectFrom('educators').select('id').where('claimed', 'in', [false]).where('id', 'like', 'edu_codec_%').execute();
  expect(byList.map((r) => r.id)).toEqual(['edu_codec_b']);
  const byTemplate = await sql<{ id: string }>`select id from educators where claimed = ${false} and id like ${'edu_codec_%'}`.execute(t.db);
  expect(byTemplate.rows.map((r) => r.id)).toEqual(['edu_codec_b']);
  const byLiteral = await sql<{ id: string }>`select id from educators where claimed = ${sql.lit(false)} and id like ${'edu_codec_%'}`.execute(t.db);
  expect(byLiteral.rows.map((r) => r.id)).toEqual(['edu_codec_b']);
});

it('gives boolean columns their default when a row leaves them out', async () => {
  // claimed defaults to true, whitelabelling_enabled to false (db/migrations/0001_catalogue.ts).
  await t.db.insertInto('educators').values(educator('edu_codec_c') as never).execute();
  const row = await t.db.selectFrom('educators').select(['claimed', 'whitelabelling_enabled']).where('id', '=', 'edu_codec_c').executeTakeFirstOrThrow();
  expect(row).toEqual({ claimed: true, whitelabelling_enabled: false });
});

it('encodes bound values in the compiled query, as the engine takes them', () => {
  const compiled = t.db.updateTable('educators').set({ vat_settings: { rate: 20 }, claimed: true } as never).where('id', '=', 'x').compile();
  expect(compiled.parameters).toEqual(['{"rate":20}', t.dialect === 'sqlite' ? 1 : true, 'x']);
});
