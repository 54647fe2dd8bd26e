/**
 * The change feed (migration 0030): every write to a table that a public page shows records, in the
 * writer's transaction, the educator and course it touches — whoever writes (here the admin-app stand-in
 * `npm run catalogue`); a rolled-back write records nothing; a bulk load records nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { loadCatalogue } from '../../db/seed/load.ts';
import { parseCatalogueCommand, runCatalogueCommand } from '../../db/catalogue-cli.ts';

const NOW = Date.UTC(2026, 0, 15) / 1000;
let t: TestDb;
let course: { id: string; educator_id: string; category_id: string | null; slug: string; educatorSlug: string };

beforeAll(async () => {
  t = await createTestDb();
  await loadCatalogue(t.db, { seed: 1, educators: 4, now: NOW });
  const row = await t.db.selectFrom('courses').innerJoin('educators', 'educators.id', 'courses.educator_id')
    .select(['courses.id', 'courses.educator_id', 'courses.category_id', 'courses.slug', 'educators.slug as educatorSlug'])
    .where('courses.published', '=', true).orderBy('courses.id').executeTakeFirstOrThrow();
  course = row;
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.db.deleteFrom('page_changes').execute();
});

const changes = () => t.db.selectFrom('page_changes').select(['educator_id', 'educator_slug', 'course_id', 'category_id']).orderBy('id').execute();

describe('change feed', () => {
  it('a bulk load leaves the feed empty', async () => {
    await loadCatalogue(t.db, { seed: 1, educators: 0, now: NOW }).catch(() => undefined);
    expect(await changes()).toEqual([]);
  });

  it('set-price records the course and its educator', async () => {
    await runCatalogueCommand(t.db, parseCatalogueCommand(['set-price', `${course.educatorSlug}/${course.slug}`, '4200']));
    const rows = await changes();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r).toMatchObject({ educator_id: course.educator_id, educator_slug: course.educatorSlug });
    expect(rows.some((r) => r.course_id === course.id)).toBe(true);
  });

  it('add-date, unpublish and rename-educator each record the educator', async () => {
    for (const args of [
      ['add-date', course.id, '2026-03-01T10:00:00Z'],
      ['unpublish', course.id],
      ['rename-educator', course.educatorSlug, 'Renamed Educator'],
    ]) {
      await t.db.deleteFrom('page_changes').execute();
      await runCatalogueCommand(t.db, parseCatalogueCommand(args));
      const rows = await changes();
      expect(rows.length, args[0]).toBeGreaterThan(0);
      expect(rows.every((r) => r.educator_id === course.educator_id && r.educator_slug === course.educatorSlug), args[0]).toBe(true);
    }
    // The educator's pages carry the time of the change as their sitemap lastmod.
    const lastmod = await t.db.selectFrom('educator_lastmod').select('modified_at').where('educator_id', '=', course.educator_id).executeTakeFirstOrThrow();
    expect(Number(lastmod.modified_at)).toBeGreaterThan(NOW);
  });

  it('a review and its aggregate record the educator and course; a rolled-back write records nothing', async () => {
    await t.db.transaction().execute(async (trx) => {
      await trx.insertInto('reviews').values({
        id: 'rev_feed_1', educator_id: course.educator_id, course_id: course.id, entity: 'course', rating: 5, breakdown: null,
        source_key: 'marketplace', source_label: 'Marketplace', external_url: null, reviewer_id: null, reviewer_name: 'Feed Tester',
        public_message: 'Great', response_message: null, response_created_at: null, created_at: NOW, archived_at: null,
      }).execute();
    });
    expect(await changes()).toContainEqual({ educator_id: course.educator_id, educator_slug: course.educatorSlug, course_id: course.id, category_id: null });
    await t.db.deleteFrom('page_changes').execute();
    await t.db.transaction().execute(async (trx) => {
      await trx.updateTable('reviews').set({ public_message: 'Changed' }).where('id', '=', 'rev_feed_1').execute();
      throw new Error('rolled back');
    }).catch(() => undefined);
    expect(await changes()).toEqual([]);
  });

  it('a removed educator keeps its slug in the feed', async () => {
    const other = await t.db.selectFrom('educators').select(['id', 'slug']).where('id', '!=', course.educator_id).orderBy('id').executeTakeFirstOrThrow();
    await t.db.deleteFrom('educators').where('id', '=', other.id).execute();
    expect(await changes()).toContainEqual({ educator_id: other.id, educator_slug: other.slug, course_id: null, category_id: null });
  });

  it('refuses bad input with a message', () => {
    expect(() => parseCatalogueCommand(['set-price', 'x', '-1'])).toThrow(/pence/);
    expect(() => parseCatalogueCommand(['add-date', 'x', 'tomorrow'])).toThrow(/ISO/);
    expect(() => parseCatalogueCommand(['nope'])).toThrow(/Usage/);
  });
});
