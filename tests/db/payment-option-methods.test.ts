/**
 * Migration 0090 moves payment options from one column per method to one row per method: every existing set
 * keeps what it enabled and the in-person method's label and message, on SQLite and PostgreSQL; and the
 * checkout reads the rows back as before.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { down, up } from '../../db/migrations/0090_payment_option_methods.ts';
import { loadPaymentOptions } from '../../db/queries/checkout.ts';

let t: TestDb;

beforeAll(async () => {
  t = await createTestDb();
  await t.db.insertInto('educators').values({
    id: 'edu_pm', slug: 'payment-methods-test', name: 'Payment Methods Test', feature_flags: {}, third_party_codes: {}, vat_settings: {},
    links: {}, working_hours: {}, enquiry_types: [], created_at: 1,
  } as never).execute();
});

afterAll(async () => {
  await t?.close();
});

it('copies each set of options into one row per method, then reads them back as the checkout did', async () => {
  // Back to the column layout, with the rows an older database holds (dropping a table: see TestDb.changeSchema).
  await t.changeSchema(async () => {
    await down(t.db as never);
    await sql`insert into payment_options (id, educator_id, course_id, card_enabled, paypal_enabled, klarna_enabled, invoice_enabled, manual_enabled, manual_label, manual_message, invoice_due_days)
      values ('pay_a', 'edu_pm', null, ${sql.lit(false)}, ${sql.lit(true)}, ${sql.lit(false)}, ${sql.lit(true)}, ${sql.lit(true)}, 'Pay at the door', 'Cash only.', 30)`.execute(t.db);
    await up(t.db as never);
  });

  const rows = await t.db.selectFrom('payment_option_methods').selectAll().where('payment_options_id', '=', 'pay_a').orderBy('method').execute();
  expect(rows).toEqual([
    { payment_options_id: 'pay_a', method: 'card', enabled: false, label: null, message: null },
    { payment_options_id: 'pay_a', method: 'invoice', enabled: true, label: null, message: null },
    { payment_options_id: 'pay_a', method: 'klarna', enabled: false, label: null, message: null },
    { payment_options_id: 'pay_a', method: 'manual', enabled: true, label: 'Pay at the door', message: 'Cash only.' },
    { payment_options_id: 'pay_a', method: 'paypal', enabled: true, label: null, message: null },
  ]);
  expect(await loadPaymentOptions(t.db, 'edu_pm', null)).toEqual({
    card: { enabled: false }, paypal: { enabled: true }, klarna: { enabled: false }, invoice: { enabled: true },
    manual: { enabled: true, label: 'Pay at the door', message: 'Cash only.' }, invoice_due_days: 30,
  });
  // The per-method columns are gone.
  const options = await t.db.selectFrom('payment_options').selectAll().where('id', '=', 'pay_a').executeTakeFirstOrThrow();
  expect(Object.keys(options).sort()).toEqual(['course_id', 'educator_id', 'id', 'invoice_due_days', 'revision']);
});

it('a method without a row is not offered, and a row for a method this build does not know is ignored', async () => {
  await t.db.deleteFrom('payment_option_methods').where('payment_options_id', '=', 'pay_a').execute();
  await t.db.insertInto('payment_option_methods').values([
    { payment_options_id: 'pay_a', method: 'klarna', enabled: true, label: null, message: null },
    { payment_options_id: 'pay_a', method: 'carrier-pigeon', enabled: true, label: null, message: null },
  ]).execute();
  expect(await loadPaymentOptions(t.db, 'edu_pm', null)).toEqual({
    card: { enabled: false }, paypal: { enabled: false }, klarna: { enabled: true }, invoice: { enabled: false },
    manual: { enabled: false, label: null, message: null }, invoice_due_days: 30,
  });
});

it('a method switched on or off is in the public pages\' change feed, for its educator', async () => {
  await t.db.deleteFrom('page_changes').execute();
  await t.db.updateTable('payment_option_methods').set({ enabled: false }).where('payment_options_id', '=', 'pay_a').where('method', '=', 'klarna').execute();
  const feed = await t.db.selectFrom('page_changes').select(['educator_id', 'educator_slug']).execute();
  expect(feed.length).toBeGreaterThan(0);
  expect(feed.every((r) => r.educator_id === 'edu_pm' && r.educator_slug === 'payment-methods-test')).toBe(true);
});
