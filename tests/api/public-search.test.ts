import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { rebuildSearchIndex, searchCourses } from '../../db/queries/search.ts';
import { DAY, NOW, TEST_ENV, expectProblem, insertPublicFixtures } from './public-fixtures.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(TEST_ENV);
  server.setNow(NOW);
  await insertPublicFixtures(server.db);
});
afterAll(async () => server.close());

interface Result {
  results: Array<Record<string, unknown> & { _id: string }>;
  total: number;
  page: number;
  size: number;
}

async function search(qs: string): Promise<Result> {
  const res = await fetch(`${server.url}/api/courses/search${qs ? `?${qs}` : ''}`);
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  return (await res.json()) as Result;
}
const ids = (r: Result) => r.results.map((c) => c._id);

describe('GET /api/courses/search', () => {
  it('lists only published courses, by rating × count and then newest when there is no query', async () => {
    const r = await search('');
    expect(r).toMatchObject({ total: 6, page: 1, size: 11 });
    expect(ids(r)).toEqual(['crs_wheel', 'crs_glaze', 'crs_python', 'crs_hand', 'crs_listed', 'crs_web']);
  });

  it('answers course cards in the agreed shape', async () => {
    const r = await search('educator_ref=edu_clay');
    const byId = Object.fromEntries(r.results.map((c) => [c._id, c]));
    expect(byId.crs_wheel).toEqual({
      _id: 'crs_wheel',
      slug: 'pottery-wheel-basics',
      name: 'Pottery Wheel Basics',
      educator_ref: 'edu_clay',
      educator: { name: 'Clay Studio', slug: 'clay-studio' },
      educator_slug: 'clay-studio',
      img_url: '/images/wheel.jpg',
      type: 'class',
      delivery: ['in-person'],
      keyword: 'workshop',
      level: 'Beginner',
      // price-offers without stored prices: the range of its offers.
      pricing_option: { type: 'price-offers', minimumPrice: 4000, maximumPrice: 6000 },
      currency: 'GBP',
      reviews: { rating: 4.5, count: 20 },
      location: 'Bristol',
      locations: ['Bristol'],
      // occ_started has begun, occ_future1 (10 days) is the next listed one.
      next_occurrence: NOW + 10 * DAY,
      hide_pricing: false,
    });
    expect(byId.crs_glaze).toMatchObject({
      img_url: '/images/auto/glaze.svg', delivery: ['online'], location: null, next_occurrence: NOW + 3 * DAY,
      pricing_option: { type: 'price-range', minimumPrice: 2000, maximumPrice: 2000 }, reviews: { rating: 5, count: 2 },
    });
    // No address: the city of its first location, and every city learners travel to; free: 0–0; no dates.
    expect(byId.crs_hand).toMatchObject({
      img_url: null, location: 'Bath', locations: ['Bath', 'London'], next_occurrence: null, type: 'on-demand', delivery: ['on-demand'],
      pricing_option: { type: 'free', minimumPrice: 0, maximumPrice: 0 }, reviews: { rating: 0, count: 0 },
    });
    const code = await search('educator_ref=edu_code');
    expect(code.results.every((c) => c.hide_pricing === true)).toBe(true);
    expect(code.results.find((c) => c._id === 'crs_web')).toMatchObject({ pricing_option: { type: 'price-on-enquiry', minimumPrice: null, maximumPrice: null } });
  });

  it('"Next date" on a card is never a sold-out date', async () => {
    // Pottery Wheel Basics: occ_future1 (10 days) sells out; the next bookable one is occ_child_bookable (11 days).
    await server.db.updateTable('occurrences').set({ available_spaces: 0 }).where('id', '=', 'occ_future1').execute();
    try {
      const r = await search('educator_ref=edu_clay');
      expect(r.results.find((c) => c._id === 'crs_wheel')?.next_occurrence).toBe(NOW + 11 * DAY);
    } finally {
      await server.db.updateTable('occurrences').set({ available_spaces: 5 }).where('id', '=', 'occ_future1').execute();
    }
  });

  it('puts a name match first, and matches educator, category and description text too', async () => {
    const r = await search('query=pottery');
    expect(r.results[0]._id).toBe('crs_wheel');
    expect(new Set(ids(r))).toEqual(new Set(['crs_wheel', 'crs_glaze', 'crs_hand', 'crs_web']));
    expect(r.total).toBe(4);
    // Description only ranks below the name and the category.
    expect(ids(r).indexOf('crs_web')).toBeGreaterThan(ids(r).indexOf('crs_glaze'));

    expect(ids(await search('query=glaze'))).toEqual(['crs_glaze']);
    expect(ids(await search('query=Code%20Academy'))).toEqual(expect.arrayContaining(['crs_python', 'crs_web']));
    expect(ids(await search('query=Bristol&sort=relevance'))).toEqual(['crs_wheel']);
    expect(ids(await search('query=workshop'))).toEqual(['crs_wheel']);
  });

  it('matches every word, each as a prefix, ignoring case and punctuation', async () => {
    expect(ids(await search('query=pyth'))).toEqual(['crs_python']);
    expect(ids(await search('query=WHEEL%20bas'))).toEqual(['crs_wheel']);
    expect(ids(await search('query=wheel%20python'))).toEqual([]);
    // Full-text syntax in the query is never interpreted.
    const odd = await search(`query=${encodeURIComponent('"pottery" OR * NEAR( -wheel')}`);
    expect(odd.total).toBe(0);
    expect((await search(`query=${encodeURIComponent('*"()')}`)).total).toBe(6);
  });

  it('filters by educator (one, several, repeated), category and delivery', async () => {
    expect(new Set(ids(await search('educator_ref=edu_code')))).toEqual(new Set(['crs_python', 'crs_web']));
    expect(ids(await search('educator_ref=edu_code,edu_listed'))).toHaveLength(3);
    expect(ids(await search('educator_ref=edu_code&educator_ref=edu_listed'))).toHaveLength(3);
    expect(ids(await search('educator_ref=edu_ghost'))).toEqual([]);
    expect(new Set(ids(await search('category_slug=coding-tech')))).toEqual(new Set(['crs_python', 'crs_web']));
    expect(ids(await search('category_slug=unknown'))).toEqual([]);
    expect(new Set(ids(await search('delivery=online')))).toEqual(new Set(['crs_glaze', 'crs_python', 'crs_listed']));
    expect(new Set(ids(await search('delivery=online,hybrid')))).toEqual(new Set(['crs_glaze', 'crs_python', 'crs_listed', 'crs_web']));
    expect(ids(await search('delivery=on-demand'))).toEqual(['crs_hand']);
    expect(ids(await search('delivery=in-person&query=pottery'))).toEqual(['crs_wheel']);
  });

  it('filters by price range (pence), leaving out unpriced courses', async () => {
    expect(new Set(ids(await search('price_max=2000')))).toEqual(new Set(['crs_glaze', 'crs_hand']));
    expect(new Set(ids(await search('price_min=5000')))).toEqual(new Set(['crs_wheel', 'crs_python']));
    expect(ids(await search('price_min=3000&price_max=5000'))).toEqual(['crs_wheel']);
    expect(ids(await search('price_min=0'))).toHaveLength(4);
    // The pages' client names them min_price / max_price.
    expect(ids(await search('min_price=3000&max_price=5000'))).toEqual(['crs_wheel']);
  });

  it('sorts by newest and by price', async () => {
    expect(ids(await search('sort=newest'))).toEqual(['crs_python', 'crs_glaze', 'crs_hand', 'crs_listed', 'crs_wheel', 'crs_web']);
    expect(ids(await search('sort=price_asc'))).toEqual(['crs_hand', 'crs_glaze', 'crs_wheel', 'crs_python', 'crs_listed', 'crs_web']);
    expect(ids(await search('sort=price_desc'))).toEqual(['crs_python', 'crs_wheel', 'crs_glaze', 'crs_hand', 'crs_listed', 'crs_web']);
  });

  it('pages', async () => {
    const p2 = await search('size=2&page=2');
    expect(p2).toMatchObject({ total: 6, page: 2, size: 2 });
    expect(ids(p2)).toEqual(['crs_python', 'crs_hand']);
    expect(ids(await search('size=2&page=3'))).toEqual(['crs_listed', 'crs_web']);
    expect(await search('size=2&page=4')).toEqual({ results: [], total: 6, page: 4, size: 2 });
    expect((await search('size=50')).results).toHaveLength(6);
  });

  it('treats embed as minisite: the same results in every context', async () => {
    const embed = await search('query=pottery&context=embed&educator_ref=edu_clay');
    const minisite = await search('query=pottery&context=minisite&educator_ref=edu_clay');
    const marketplace = await search('query=pottery&context=marketplace&educator_ref=edu_clay');
    expect(embed).toEqual(minisite);
    expect(marketplace).toEqual(minisite);
  });

  it('answers bad parameters with a validation problem naming them', async () => {
    const cases: Array<[string, string]> = [
      ['size=51', 'size'],
      ['size=0', 'size'],
      ['size=ten', 'size'],
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['sort=popular', 'sort'],
      ['delivery=teleport', 'delivery.0'],
      ['price_min=-1', 'price_min'],
      ['price_max=9.99', 'price_max'],
      ['context=admin', 'context'],
      ['price_min=500&price_max=100', 'price_max'],
      [`query=${'x'.repeat(201)}`, 'query'],
    ];
    for (const [qs, key] of cases) {
      const body = await expectProblem(await fetch(`${server.url}/api/courses/search?${qs}`), {
        status: 400, type: 'generic/validation-error', title: 'Validation Error',
      });
      expect((body.properties as Array<{ key: string }>).map((p) => p.key), qs).toContain(key);
    }
  });

  it('is callable at build time without the server (db/queries/search.ts)', async () => {
    const r = await searchCourses(server.db, { educatorRefs: ['edu_clay'], size: 11 }, { now: NOW });
    expect(r.results.map((c) => c._id)).toEqual(['crs_wheel', 'crs_glaze', 'crs_hand']);
  });
});

describe('the search index follows the catalogue', () => {
  it('sees renamed courses, educators and categories, new courses and deleted ones', async () => {
    const { db } = server;
    await db.updateTable('courses').set({ name: 'Stoneware Throwing' }).where('id', '=', 'crs_wheel').execute();
    expect(ids(await search('query=stoneware'))).toEqual(['crs_wheel']);
    expect(ids(await search('query=wheel'))).toEqual([]);

    await db.updateTable('educators').set({ name: 'Mudlark Collective' }).where('id', '=', 'edu_clay').execute();
    expect(new Set(ids(await search('query=mudlark')))).toEqual(new Set(['crs_wheel', 'crs_glaze', 'crs_hand']));

    await db.updateTable('categories').set({ name: 'Ceramic Arts' }).where('id', '=', 'cat_pottery').execute();
    expect(new Set(ids(await search('query=ceramic')))).toEqual(new Set(['crs_wheel', 'crs_glaze', 'crs_hand']));

    await db.updateTable('courses').set({ published: true }).where('id', '=', 'crs_raku').execute();
    expect(ids(await search('query=raku'))).toEqual(['crs_raku']);

    await db.deleteFrom('courses').where('id', '=', 'crs_listed').execute();
    expect(ids(await search('query=listed'))).toEqual([]);
    const count = await sql<{ n: number | string }>`select count(*) as n from course_search`.execute(db);
    expect(Number(count.rows[0].n)).toBe(7);

    // A rebuild gives the same index.
    const before = ids(await search('query=mudlark'));
    await rebuildSearchIndex(db);
    expect(ids(await search('query=mudlark'))).toEqual(before);
    const after = await sql<{ n: number | string }>`select count(*) as n from course_search`.execute(db);
    expect(Number(after.rows[0].n)).toBe(7);
  });
});
