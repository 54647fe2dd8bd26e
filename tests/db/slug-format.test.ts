/**
 * Slugs name the built site's folders and files, so the database refuses a slug that is not one safe path
 * segment on every write, whichever program writes (migration 0160): `../../../x`, `../other-educator`, `..`,
 * a slash, a dot, upper case, an empty slug. The rule is the domain's (src/domain/slugs.ts), on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { loadCatalogue } from '../../db/seed/load.ts';
import { isSafeSlug, SLUG_MAX_LENGTH } from '../../src/domain/slugs.ts';

const NOW = Date.UTC(2026, 0, 15) / 1000;
let t: TestDb;
let educator: { id: string; slug: string };
let course: { id: string; slug: string };
let category: { id: string; slug: string };

beforeAll(async () => {
  t = await createTestDb();
  await loadCatalogue(t.db, { seed: 1, educators: 2, now: NOW });
  educator = await t.db.selectFrom('educators').select(['id', 'slug']).orderBy('id').executeTakeFirstOrThrow();
  course = await t.db.selectFrom('courses').select(['id', 'slug']).where('educator_id', '=', educator.id).orderBy('id').executeTakeFirstOrThrow();
  category = await t.db.selectFrom('categories').select(['id', 'slug']).orderBy('id').executeTakeFirstOrThrow();
});
afterAll(async () => {
  await t?.close();
});

const BAD = ['../../../x', '../other-educator', '..', '.', '', 'a/b', 'a\\b', 'a.b', 'Upper', '-lead', 'trail-', 'sp ace', 'pct%2f', 'é', 'x'.repeat(SLUG_MAX_LENGTH + 1)];
const GOOD = ['a', 'pottery-taster', 'course_2', 'x'.repeat(SLUG_MAX_LENGTH)];

describe('slug format, enforced by the database', () => {
  it('the domain rule refuses what the database refuses', () => {
    for (const slug of BAD) expect(isSafeSlug(slug), slug).toBe(false);
    for (const slug of GOOD) expect(isSafeSlug(slug), slug).toBe(true);
  });

  it.each([
    ['educators', () => educator.id],
    ['courses', () => course.id],
    ['categories', () => category.id],
  ] as const)('refuses a bad slug written to %s by any program, and keeps good ones', async (table, id) => {
    for (const slug of BAD) {
      // Plain SQL, as another program (the educator admin app) would write it.
      await expect(sql`update ${sql.table(table)} set slug = ${slug} where id = ${id()}`.execute(t.db), `${table} ${JSON.stringify(slug)}`).rejects.toThrow(/slug/);
    }
    const before = await sql<{ slug: string }>`select slug from ${sql.table(table)} where id = ${id()}`.execute(t.db);
    for (const slug of GOOD) await sql`update ${sql.table(table)} set slug = ${slug} where id = ${id()}`.execute(t.db);
    await sql`update ${sql.table(table)} set slug = ${before.rows[0]!.slug} where id = ${id()}`.execute(t.db);
  });

  it('refuses a new educator, course or category with a bad slug', async () => {
    const row = await t.db.selectFrom('educators').selectAll().where('id', '=', educator.id).executeTakeFirstOrThrow();
    await expect(t.db.insertInto('educators').values({ ...row, id: 'edu_climber', slug: '..' }).execute()).rejects.toThrow(/slug/);
    await expect(t.db.insertInto('educators').values({ ...row, id: 'edu_climber', slug: '../x' }).execute()).rejects.toThrow(/slug/);
    const courseRow = await t.db.selectFrom('courses').selectAll().where('id', '=', course.id).executeTakeFirstOrThrow();
    await expect(t.db.insertInto('courses').values({ ...courseRow, id: 'crs_climber', slug: `../${educator.slug}` }).execute()).rejects.toThrow(/slug/);
    await expect(t.db.insertInto('categories').values({ id: 'cat_climber', slug: '../..', name: 'Climbing' }).execute()).rejects.toThrow(/slug/);
    expect(await t.db.selectFrom('courses').select('id').where('id', '=', 'crs_climber').executeTakeFirst()).toBeUndefined();
    await t.db.insertInto('categories').values({ id: 'cat_fine', slug: 'fine-category', name: 'Fine' }).execute();
    await t.db.deleteFrom('categories').where('id', '=', 'cat_fine').execute();
  });
});
