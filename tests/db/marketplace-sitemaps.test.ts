/**
 * The marketplace sitemaps' layout (db/queries/sitemaps.ts): every URL in exactly one child, each educator's URLs
 * in one child, and a change to one educator rewrites only the first child, that educator's child and the index —
 * giving exactly what a full generation of the changed data gives. Children are made small here (a few dozen
 * URLs) so that a small catalogue spreads over several.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { loadCatalogue } from '../../db/seed/load.ts';
import { parseCatalogueCommand, runCatalogueCommand } from '../../db/catalogue-cli.ts';
import {
  marketplaceSitemapUpdate, marketplaceSitemaps, minisiteSitemaps, parseSitemapIndex, sitemapBucket, sitemapBuckets,
} from '../../src/lib/sitemaps.ts';
import { marketplaceUrl, minisiteUrl } from '../../src/lib/config.ts';

const NOW = Date.UTC(2026, 0, 15) / 1000;
const LIMITS = { urlsPerChild: 30 };
let t: TestDb;

beforeAll(async () => {
  t = await createTestDb();
  await loadCatalogue(t.db, { seed: 1, educators: 12, now: NOW });
});
afterAll(async () => {
  await t?.close();
});

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);

describe('marketplace sitemaps', () => {
  it('sizes the buckets in powers of two, and spreads educators by id', () => {
    expect(sitemapBuckets(0, 30)).toBe(1);
    expect(sitemapBuckets(30, 30)).toBe(1);
    expect(sitemapBuckets(31, 30)).toBe(2);
    expect(sitemapBuckets(121, 30)).toBe(8);
    expect(sitemapBucket('edu_1', 8)).toBe(sitemapBucket('edu_1', 8));
    const spread = new Set(Array.from({ length: 200 }, (_, i) => sitemapBucket(`edu_${i}`, 8)));
    expect(spread.size).toBe(8);
  });

  it('lists every URL once, home and categories first, each educator in one child', async () => {
    const set = await marketplaceSitemaps(t.db, LIMITS);
    expect(set.children.size).toBeGreaterThan(2);
    const index = parseSitemapIndex(set.index);
    expect(index.map((c) => c.loc)).toEqual([...set.children.keys()].map((name) => marketplaceUrl(`/${name}`)));
    expect(locs(set.children.get('sitemap-1.xml')!)[0]).toBe(marketplaceUrl('/'));
    const all = [...set.children.values()].flatMap(locs);
    expect(new Set(all).size).toBe(all.length);
    const educators = await t.db.selectFrom('educators').select('slug').execute();
    for (const { slug } of educators) {
      const holding = [...set.children.entries()].filter(([, xml]) => xml.includes(`<loc>${marketplaceUrl(`/${slug}`)}</loc>`));
      expect(holding, slug).toHaveLength(1);
      const [, child] = holding[0]!;
      expect(all.filter((loc) => loc.startsWith(marketplaceUrl(`/${slug}/`))).every((loc) => child.includes(`<loc>${loc}</loc>`)), slug).toBe(true);
    }
  });

  it('a change to one educator rewrites the first child, its child and the index: as a full generation would', async () => {
    const before = await marketplaceSitemaps(t.db, LIMITS);
    const course = await t.db.selectFrom('courses').innerJoin('educators', 'educators.id', 'courses.educator_id')
      .select(['courses.id', 'courses.educator_id', 'educators.slug']).where('courses.published', '=', true)
      .orderBy('courses.id').executeTakeFirstOrThrow();
    await runCatalogueCommand(t.db, parseCatalogueCommand(['unpublish', course.id]));
    const update = await marketplaceSitemapUpdate(t.db, [course.educator_id], before.index, LIMITS);
    expect(update.full).toBe(false);
    const buckets = before.children.size - 1;
    expect([...update.children.keys()].sort()).toEqual(['sitemap-1.xml', `sitemap-${sitemapBucket(course.educator_id, buckets) + 2}.xml`].sort());
    const after = await marketplaceSitemaps(t.db, LIMITS);
    expect(update.index).toBe(after.index);
    expect([...update.named].sort()).toEqual([...after.children.keys()].sort());
    for (const [name, xml] of after.children) expect(update.children.get(name) ?? before.children.get(name), name).toBe(xml);
    expect(update.index).not.toBe(before.index);
  });

  it('writes every child again when the layout changed or there is no index', async () => {
    const current = await marketplaceSitemaps(t.db, LIMITS);
    const other = await marketplaceSitemapUpdate(t.db, [], current.index, { urlsPerChild: 1_000_000 });
    expect(other.full).toBe(true);
    expect([...other.children.keys()]).toEqual(['sitemap-1.xml', 'sitemap-2.xml']);
    const none = await marketplaceSitemapUpdate(t.db, [], null, LIMITS);
    expect(none.full).toBe(true);
    expect(none.index).toBe(current.index);
  });
});

describe('memberships pages in the sitemaps', () => {
  it('list the memberships page of each educator with plans listed, in the marketplace and on the minisite; not the empty ones', async () => {
    const educators = await t.db.selectFrom('educators').select(['id', 'slug']).execute();
    const listed = new Set((await t.db.selectFrom('membership_plans').select('educator_id').where('listed', '=', true).execute()).map((r) => r.educator_id));
    expect(listed.size).toBeGreaterThan(0);
    expect(listed.size).toBeLessThan(educators.length);
    const marketplace = [...(await marketplaceSitemaps(t.db, LIMITS)).children.values()].flatMap(locs);
    for (const e of educators) {
      expect(marketplace.includes(marketplaceUrl(`/${e.slug}/memberships`)), e.slug).toBe(listed.has(e.id));
      const minisite = (await minisiteSitemaps(t.db, e.id))!;
      const urls = [...minisite.set.children.values()].flatMap(locs);
      expect(urls.includes(minisiteUrl(e.slug, '/memberships')), e.slug).toBe(listed.has(e.id));
    }
  });
});

describe('categories in the sitemap', () => {
  it('lists the categories with a published course, not the empty ones', async () => {
    const categories = await t.db.selectFrom('categories').select(['id', 'slug']).execute();
    const withCourses = new Set((await t.db.selectFrom('courses').select('category_id').where('published', '=', true).execute()).map((r) => r.category_id));
    const empty = categories.filter((c) => !withCourses.has(c.id));
    expect(empty.length).toBeGreaterThan(0);
    const first = locs((await marketplaceSitemaps(t.db, LIMITS)).children.get('sitemap-1.xml')!);
    for (const c of categories) expect(first.includes(marketplaceUrl(`/courses/${c.slug}`)), c.slug).toBe(withCourses.has(c.id));
  });
});
