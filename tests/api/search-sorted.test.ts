/**
 * Words sorted by newest or by price (db/queries/search/sqlite.ts: the sort tables of migration 0250;
 * db/queries/search/postgres.ts: a walk of the sort's index or every match sorted) answer, page by page, exactly what
 * a plain query answers: the courses whose text has the word, filtered and sorted by the spec's order, from the
 * read model's facts. On a catalogue made of ties (courses created in the same second, sharing a price and a
 * popularity), prices on and beyond the sort keys' caps, no price, and after every kind of write that moves a
 * course in or out of a sort's order. Same on both engines; on PostgreSQL, each way of reading.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { SEARCH_COUNT_STEP, SEARCH_TUNING, rebuildSearchIndex } from '../../db/queries/search.ts';
import { SORT_POPULARITY_CAP, SORT_PRICE_CAP } from '../../db/migrations/0250_search_sort_tables.ts';
import { DAY, NOW, TEST_ENV, courseRow, educatorRow } from './public-fixtures.ts';
import type { NewCourse } from '../../db/schema.ts';

const postgres = Boolean(process.env.TEST_DATABASE_URL);
let server: TestServer;

/** [from, to] in pence; null: price on enquiry; 'free'. Around the caps of the price sorts' keys too. */
const PRICES: Array<[number, number] | null | 'free'> = [
  'free', null, [1000, 1000], [1000, 5000], [2500, 2500], [999, 1001], [SORT_PRICE_CAP - 1, SORT_PRICE_CAP - 1],
  [SORT_PRICE_CAP, SORT_PRICE_CAP], [SORT_PRICE_CAP + 1, 3_000_000], [2_000_000, 2_000_000], [2500, 2500], [5000, 40_000],
];
/** Where the word is: name, description, keyword, or only the educator's name. */
const PLACES = ['name', 'name', 'description', 'keyword', 'educator'] as const;

function heliosCourse(i: number): NewCourse {
  const price = PRICES[i % PRICES.length];
  const place = PLACES[i % PLACES.length];
  const id = `crs_h${String((i * 37) % 1000).padStart(3, '0')}`;
  return courseRow({
    id,
    slug: id,
    educator_id: place === 'educator' ? 'edu_helio' : i % 2 ? 'edu_one' : 'edu_two',
    name: place === 'name' ? `Helio Class ${i}` : `Plain Class ${i}`,
    description: place === 'description' ? `<p>All about helio things, part ${i}.</p>` : '<p>Nothing.</p>',
    keyword: place === 'keyword' ? 'helio' : null,
    // Runs of four created in the same second; one at the epoch.
    created_at: i === 7 ? 0 : NOW - 1000 * Math.floor(i / 4) - (i % 9 === 0 ? 400 * DAY : 0),
    category_id: i % 3 === 0 ? 'cat_a' : i % 3 === 1 ? 'cat_b' : null,
    delivery_modes: i % 2 ? ['online'] : i % 4 === 0 ? ['in-person'] : ['in-person', 'online'],
    pricing_type: price === 'free' ? 'free' : price === null ? 'price-on-enquiry' : 'price-range',
    minimum_price: Array.isArray(price) ? price[0] : null,
    maximum_price: Array.isArray(price) ? price[1] : null,
  });
}

const aggregate = (courseId: string, rating: number, count: number) => ({
  subject_type: 'course' as const, subject_id: courseId, count, rating,
  material: null, facilitator: null, organiser: null, resources: null, delivery: null, communication: null,
});

const SORTS = ['newest', 'price_asc', 'price_desc'] as const;
type Sort = (typeof SORTS)[number];
interface FilterSet {
  qs: string;
  educators?: string[];
  category?: string;
  online?: boolean;
  min?: number;
  max?: number;
}
const FILTERS: FilterSet[] = [
  { qs: '' },
  { qs: 'category_slug=cat-a', category: 'cat_a' },
  { qs: 'delivery=online', online: true },
  { qs: 'min_price=2500', min: 2500 },
  { qs: 'max_price=5000', max: 5000 },
  { qs: `min_price=1000&max_price=${SORT_PRICE_CAP}`, min: 1000, max: SORT_PRICE_CAP },
  { qs: 'category_slug=cat-b&delivery=online&max_price=2000000', category: 'cat_b', online: true, max: 2_000_000 },
];

/**
 * The reference: every published course with "helio" in its text anywhere (or, `words` false, every published course),
 * filtered and sorted plainly.
 */
async function reference(sort: Sort, f: FilterSet, words: boolean): Promise<string[]> {
  const id = postgres ? sql`s.course_id collate "C"` : sql`s.course_id`;
  const popular = sql`s.popularity desc, s.created_at desc, ${id}`;
  const order = {
    newest: sql`s.created_at desc, ${id}`,
    price_asc: sql`(s.from_price is null), s.from_price, ${popular}`,
    price_desc: sql`(s.to_price is null), s.to_price desc, ${popular}`,
  }[sort];
  const has = (column: unknown) => sql`(' ' || lower(coalesce(${column}, '')) || ' ') like '%helio%'`;
  const { rows } = await sql<{ course_id: string }>`select s.course_id from course_search s
    join courses c on c.id = s.course_id join educators e on e.id = c.educator_id left join categories cat on cat.id = c.category_id
    where s.published
      and ${words ? sql`(${has(sql`c.name`)} or ${has(sql`c.description`)} or ${has(sql`c.keyword`)} or ${has(sql`e.name`)} or ${has(sql`cat.name`)})` : sql`1 = 1`}
      and ${f.educators ? sql`s.educator_id in (${sql.join(f.educators)})` : sql`1 = 1`}
      and ${f.category ? sql`s.category_id = ${f.category}` : sql`1 = 1`}
      and ${f.online ? sql`(s.delivery_mask & 1) <> 0` : sql`1 = 1`}
      and ${f.min !== undefined ? sql`s.to_price >= ${f.min}` : sql`1 = 1`}
      and ${f.max !== undefined ? sql`s.from_price <= ${f.max}` : sql`1 = 1`}
    order by ${order}`.execute(server.db);
  return rows.map((r) => r.course_id);
}

interface Answer {
  results: Array<{ _id: string }>;
  total: number;
  total_capped?: true;
}

/** Every page of the search through the API against the reference, ids and totals; `words` false: no query. */
async function expectSame(sort: Sort, f: FilterSet, size: number, words = true): Promise<void> {
  const expected = await reference(sort, f, words);
  const got: string[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${server.url}/api/courses/search?${words ? 'query=helio&' : ''}sort=${sort}&size=${size}&page=${page}${f.qs ? `&${f.qs}` : ''}`);
    expect(res.status).toBe(200);
    const answer = (await res.json()) as Answer;
    const countTo = Math.ceil((page * size + 1) / SEARCH_COUNT_STEP) * SEARCH_COUNT_STEP;
    expect({ total: answer.total, capped: answer.total_capped ?? false }, `${sort} ${f.qs} page ${page}`)
      .toEqual({ total: Math.min(expected.length, countTo), capped: expected.length > countTo });
    got.push(...answer.results.map((c) => c._id));
    if (answer.results.length < size) break;
  }
  expect(got, `${sort} ${f.qs}`).toEqual(expected);
}

async function expectAllSame(filters: FilterSet[], size: number, words = true): Promise<void> {
  for (const sort of SORTS) for (const f of filters) await expectSame(sort, f, size, words);
}

const COURSES = 150;

beforeAll(async () => {
  server = await startTestServer(TEST_ENV);
  server.setNow(NOW);
  const { db } = server;
  await db.insertInto('categories').values([{ id: 'cat_a', slug: 'cat-a', name: 'Alpha' }, { id: 'cat_b', slug: 'cat-b', name: 'Beta' }]).execute();
  await db.insertInto('educators').values([
    educatorRow({ id: 'edu_one', slug: 'one', name: 'First School' }),
    educatorRow({ id: 'edu_two', slug: 'two', name: 'Second School' }),
    educatorRow({ id: 'edu_helio', slug: 'helio-teachers', name: 'Helio Teachers' }),
  ]).execute();
  const courses = Array.from({ length: COURSES }, (_, i) => heliosCourse(i));
  for (let i = 0; i < courses.length; i += 50) await db.insertInto('courses').values(courses.slice(i, i + 50)).execute();
  await db.insertInto('courses').values(Array.from({ length: 20 }, (_, i) => courseRow({
    id: `crs_other_${i}`, slug: `other-${i}`, educator_id: 'edu_one', name: `Heli Other ${i}`, pricing_type: 'free',
  }))).execute();
  // Popularity in ties: whole values shared, fractions apart, and beyond the price keys' popularity cap.
  await db.insertInto('review_aggregates').values(courses.filter((_, i) => i % 5 !== 0).map((c, i) => aggregate(c.id, [4, 4.5, 5][i % 3], 1 + (i % 4)))).execute();
  await db.updateTable('review_aggregates').set({ rating: 5, count: SORT_POPULARITY_CAP }).where('subject_id', 'in', [courses[11].id, courses[23].id]).execute();
});
afterAll(async () => server.close());

describe('words sorted by newest or price', () => {
  it('answer the plain query\'s courses in its order, page by page, with its totals', async () => {
    expect((await reference('newest', FILTERS[0], true)).length).toBeGreaterThan(100);
    await expectAllSame(FILTERS, 7);
    // Pages of 50 cross the count's first step (100).
    await expectAllSame(FILTERS.slice(0, 2), 50);
  });

  // Three ways of reading, each over every word, sort and page: more than the default 30 s on a loaded machine.
  it.skipIf(!postgres)('PostgreSQL: answer the same whether every match is sorted, only those of the price bands at the sort\'s end, or the sort\'s index walked', { timeout: 120_000 }, async () => {
    try {
      for (const way of ['all', 'bands', 'walk'] as const) {
        SEARCH_TUNING.postgresSortedWay = way;
        await expectAllSame(FILTERS, 7);
      }
    } finally {
      SEARCH_TUNING.postgresSortedWay = null;
    }
  });

  it('follow every write that moves a course in or out of a sort\'s order', async () => {
    const { db } = server;
    const check = () => expectAllSame([FILTERS[0], FILTERS[3]], 7);
    // New courses created in the same second as others, at the same prices.
    await db.insertInto('courses').values(Array.from({ length: 12 }, (_, i) => heliosCourse(COURSES + i)).map((c, i) => ({
      ...c, created_at: NOW - 1000 * (i % 3),
    }))).execute();
    await check();
    // Prices: a course's own range, and offers of a price-offers course.
    await db.updateTable('courses').set({ minimum_price: 2600, maximum_price: 2600 }).where('id', 'in', ['crs_h037', 'crs_h074']).execute();
    await db.updateTable('courses').set({ pricing_type: 'price-offers', minimum_price: null, maximum_price: null }).where('id', '=', 'crs_h111').execute();
    await db.insertInto('offers').values([
      { id: 'off_h1', course_id: 'crs_h111', occurrence_id: null, position: 0, name: 'A', description: null, price: 4000, spaces: 1, start_at: null, end_at: null },
      { id: 'off_h2', course_id: 'crs_h111', occurrence_id: null, position: 1, name: 'B', description: null, price: 9000, spaces: 1, start_at: null, end_at: null },
    ]).execute();
    await check();
    await db.updateTable('offers').set({ price: SORT_PRICE_CAP + 5 }).where('id', '=', 'off_h2').execute();
    await db.deleteFrom('offers').where('id', '=', 'off_h1').execute();
    await check();
    // Popularity: new, changed and removed review aggregates.
    await db.insertInto('review_aggregates').values(aggregate('crs_h000', 5, 9)).onConflict((oc) => oc.doNothing()).execute();
    await db.updateTable('review_aggregates').set({ count: 30 }).where('subject_id', '=', 'crs_h148').execute();
    await db.deleteFrom('review_aggregates').where('subject_id', '=', 'crs_h222').execute();
    await check();
    // The word leaves and comes back with the educator's name; courses unpublished, deleted, created at another time.
    await db.updateTable('educators').set({ name: 'Plain Teachers' }).where('id', '=', 'edu_helio').execute();
    await check();
    await db.updateTable('educators').set({ name: 'Helio Teachers' }).where('id', '=', 'edu_helio').execute();
    await db.updateTable('courses').set({ published: false }).where('id', 'in', ['crs_h259', 'crs_h296']).execute();
    await db.deleteFrom('courses').where('id', '=', 'crs_h333').execute();
    await db.updateTable('courses').set({ created_at: NOW + 50 }).where('id', '=', 'crs_h370').execute();
    await db.updateTable('categories').set({ name: 'Helio Category' }).where('id', '=', 'cat_b').execute();
    await check();
  });

  it('answer the same after the search index is rebuilt at once (the sort tables written in one go, not by their triggers)', async () => {
    await rebuildSearchIndex(server.db);
    const paused = await server.db.selectFrom('catalogue_meta').select('key').where('key', '=', 'search_sort_tables_paused').execute();
    expect(paused).toEqual([]);
    await expectAllSame(FILTERS.slice(0, 4), 7);
    // Its triggers keep them again.
    await server.db.updateTable('courses').set({ minimum_price: 1, maximum_price: 1 }).where('id', '=', 'crs_h407').execute();
    await expectAllSame([FILTERS[0]], 7);
  });
});

// On SQLite, filters without words sorted by newest or price are read off the sort tables' facet tokens, not off
// course_search's indexes (db/queries/search/sqlite.ts, sorted): the same answers, and the same after every write
// that changes a course's facets.
describe('filters without words, sorted by newest or price', () => {
  it('answer the plain query\'s courses in its order, page by page, with its totals', async () => {
    await expectAllSame(FILTERS, 7, false);
    await expectAllSame(FILTERS.slice(1, 3), 50, false);
    // Educators, alone and several, and a category that does not exist.
    await expectAllSame([{ qs: 'educator_ref=edu_one', educators: ['edu_one'] }, { qs: 'educator_ref=edu_helio,edu_two&delivery=online', educators: ['edu_helio', 'edu_two'], online: true }], 7, false);
    for (const sort of SORTS) {
      const none = await fetch(`${server.url}/api/courses/search?category_slug=no-such-category&sort=${sort}`).then((r) => r.json()) as Answer;
      expect({ results: none.results, total: none.total }).toEqual({ results: [], total: 0 });
    }
  });

  it('follow every write that changes a course\'s category, delivery modes, price or publication', async () => {
    const { db } = server;
    const check = () => expectAllSame(FILTERS.slice(1), 7, false);
    await db.updateTable('courses').set({ category_id: 'cat_a' }).where('id', 'in', ['crs_h037', 'crs_h111']).execute();
    await db.updateTable('courses').set({ category_id: null }).where('id', '=', 'crs_h000').execute();
    await check();
    await db.updateTable('courses').set({ delivery_modes: ['in-person'] }).where('id', '=', 'crs_h148').execute();
    await db.updateTable('courses').set({ delivery_modes: ['online'] }).where('id', '=', 'crs_h074').execute();
    await check();
    await db.updateTable('courses').set({ minimum_price: 1500, maximum_price: 1500 }).where('id', '=', 'crs_h185').execute();
    await db.updateTable('courses').set({ published: false }).where('id', '=', 'crs_h222').execute();
    await db.updateTable('courses').set({ published: true }).where('id', '=', 'crs_h259').execute();
    await check();
  });
});
