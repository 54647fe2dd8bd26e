/** The demo catalogue's membership plans: loaded on SQLite and PostgreSQL, and emptied with the catalogue. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { loadCatalogue, resetCatalogue } from '../../db/seed/load.ts';
import { planInputSchema } from '../../src/domain/memberships.ts';

const NOW = Date.UTC(2026, 0, 15) / 1000;
let t: TestDb;

beforeAll(async () => {
  t = await createTestDb();
  await loadCatalogue(t.db, { seed: 1, educators: 12, now: NOW });
});
afterAll(async () => {
  await t?.close();
});

describe('demo membership plans', () => {
  it('stillwater-yoga has a monthly plan with credits and a percentage, a yearly plan and a pass on two classes', async () => {
    const plans = await t.db.selectFrom('membership_plans').selectAll().where('educator_id', '=', 'edu_0004').orderBy('position').execute();
    expect(plans.map((p) => [p.name, p.interval, p.price, p.credits_per_period, p.discount_percent, p.listed])).toEqual([
      ['Unlimited Calm', 'month', 4900, 8, 20, true],
      ['Annual Friend', 'year', 9900, 0, 15, true],
      ['Five-Class Pass', 'pass', 5500, 5, 0, true],
    ]);
    expect(plans[0]!.course_ids).toBeNull();
    expect(plans[2]!.pass_months).toBe(3);
    expect(plans[2]!.course_ids).toEqual(['crs_0004_03', 'crs_0004_04']);
  });
  it('clay-and-kiln has a plan on three courses; every stored plan passes the plan rules', async () => {
    const all = await t.db.selectFrom('membership_plans').selectAll().execute();
    expect(all.filter((p) => p.educator_id === 'edu_0001').map((p) => p.course_ids)).toEqual([['crs_0001_03', 'crs_0001_01', 'crs_0001_04']]);
    for (const p of all) {
      expect(planInputSchema.safeParse({
        name: p.name, description: p.description, interval: p.interval, passMonths: p.pass_months, price: p.price, currency: p.currency,
        discountPercent: p.discount_percent, creditsPerPeriod: p.credits_per_period, courseIds: p.course_ids,
      }).success).toBe(true);
    }
  });
  it('resetting the catalogue removes them', async () => {
    await resetCatalogue(t.db);
    expect(await t.db.selectFrom('membership_plans').select('id').execute()).toEqual([]);
  });
});
