/**
 * Every word of a query is a prefix (db/queries/search.ts): "zeph" finds every course with a word it begins, words
 * written since included, whichever way a search reads. On PostgreSQL a prefix that begins few words is read as
 * those words from the vocabulary its triggers keep (migration 0296, `search_expand`), and a price bound or the
 * price bands at a sort's end as one lexeme of the price's reach: these tests are what would catch a word missing
 * from the vocabulary, or a course left out at a band's edge. On SQLite a prefix longer than FTS5's prefix indexes
 * (eight characters) is read as the words of the vocabulary it begins (db/queries/search/sqlite.ts, wordsMatch).
 * Same on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { rebuildSearchIndex } from '../../db/queries/search.ts';
import { PRICE_BANDS } from '../../db/migrations/0110_search_facets.ts';
import { SEARCH_EXPAND_MAX_LEXEMES } from '../../db/migrations/0296_search_lexemes.ts';
import { NOW, TEST_ENV, courseRow, educatorRow } from './public-fixtures.ts';
import type { NewCourse } from '../../db/schema.ts';

let server: TestServer;
const postgres = Boolean(process.env.TEST_DATABASE_URL);

function priced(id: string, name: string, from: number, to: number, extra: Partial<NewCourse> = {}): NewCourse {
  return courseRow({ id, slug: id, educator_id: 'edu_p', name, pricing_type: 'price-range', minimum_price: from, maximum_price: to, ...extra });
}

/** The ids a search answers, every page of 50 (the query string without size and page). */
async function ids(qs: string): Promise<string[]> {
  const found: string[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${server.url}/api/courses/search?${qs}&size=50&page=${page}`);
    expect(res.status, qs).toBe(200);
    const { results } = (await res.json()) as { results: Array<{ _id: string }> };
    found.push(...results.map((r) => r._id));
    if (results.length < 50) return found.sort();
  }
}

const SORTS = ['relevance', 'newest', 'price_asc', 'price_desc'];

/**
 * The same set of courses on every sort. On PostgreSQL, also: the vocabulary holds every lexeme of the read model the
 * query's prefix begins, and the prefix is read as the vocabulary's words (a prefix the vocabulary knows none of would
 * stay a prefix and find them all the same, so a vocabulary left behind by a write shows only here).
 */
async function expectFound(query: string, expected: string[], filters = ''): Promise<void> {
  for (const sort of SORTS) expect(await ids(`query=${query}&sort=${sort}${filters}`), `${query} ${sort} ${filters}`).toEqual([...expected].sort());
  // A query of several words is checked by its answers alone.
  if (!postgres || /\s/.test(query)) return;
  // The prefix as PostgreSQL stems it ("photography" is 'photographi').
  const [{ q }] = (await sql<{ q: string }>`select to_tsquery('english', ${`${query}:*`})::text as q`.execute(server.db)).rows;
  const prefix = /^'([^']+)':\*$/.exec(q)?.[1];
  if (prefix === undefined) return;
  const { rows: held } = await sql<{ l: string }>`select distinct l from course_search, unnest(tsvector_to_array(doc_l1)) l
    where l like ${`${prefix}%`} order by l`.execute(server.db);
  const { rows: known } = await sql<{ l: string }>`select lexeme as l from search_lexemes where lexeme like ${`${prefix}%`}
    order by lexeme`.execute(server.db);
  // The vocabulary holds every word of the read model (and may keep words no course holds any more).
  expect(known.map((r) => r.l), query).toEqual(expect.arrayContaining(held.map((r) => r.l)));
  const words = known.length <= SEARCH_EXPAND_MAX_LEXEMES ? known.map((r) => `'${r.l}'`).join(' | ') : `'${prefix}':*`;
  const [{ got, want }] = (await sql<{ got: string; want: string }>`select search_expand(${`'${prefix}':*`})::text as got,
    ${words}::tsquery::text as want`.execute(server.db)).rows;
  expect(got, query).toBe(want);
}

beforeAll(async () => {
  server = await startTestServer(TEST_ENV);
  server.setNow(NOW);
  await server.db.insertInto('educators').values(educatorRow({ id: 'edu_p', slug: 'prefix-school', name: 'Prefix School' })).execute();
  await server.db.insertInto('courses').values([
    priced('crs_z1', 'Zephyr Basics', 1000, 1000),
    priced('crs_z2', 'Zephyrine Painting', 2000, 9000),
    // Ten words that "quokk" begins: more than a prefix is spelt out as.
    ...['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'].map((w, i) =>
      priced(`crs_q${i}`, `Quokka${w} Walks`, 500 * (i + 1), 500 * (i + 1))),
    // Long words: "photography" is stemmed "photographi", which begins "photographist" too, not "photograph".
    priced('crs_p1', 'Photography Walks', 1000, 1000),
    priced('crs_p2', 'Photographies Anciennes', 2000, 2000),
    priced('crs_p3', 'Photographist Club', 3000, 3000),
    priced('crs_p4', 'Photographic Memory', 4000, 4000),
    priced('crs_p5', 'Photograph Restoration', 5000, 5000),
    // Ten words that "longprefix" begins: more than a long prefix is read as.
    ...['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'].map((w, i) =>
      priced(`crs_l${i}`, `Longprefix${w} Talks`, 500 * (i + 1), 500 * (i + 1))),
    // Prices on the bounds of the bands.
    ...PRICE_BANDS.map((bound, i) => priced(`crs_b${String(i).padStart(2, '0')}`, `Bandwagon ${i}`, bound, bound)),
  ]).execute();
});
afterAll(async () => server.close());

describe('a word typed in part', () => {
  it('finds every course with a word it begins, on every sort', async () => {
    await expectFound('zeph', ['crs_z1', 'crs_z2']);
    await expectFound('zephyri', ['crs_z2']);
    await expectFound('quokk', Array.from({ length: 10 }, (_, i) => `crs_q${i}`));
    await expectFound('quokkaech', ['crs_q4']);
  });

  it('finds words written since: a new course, a new description, a new name, a moved price, after a rebuild', async () => {
    const { db } = server;
    await db.insertInto('courses').values(priced('crs_z3', 'Zephyrus Flight', 3000, 3000)).execute();
    await expectFound('zeph', ['crs_z1', 'crs_z2', 'crs_z3']);
    await db.updateTable('courses').set({ description: '<p>Grinding zephyrite crystals.</p>' }).where('id', '=', 'crs_q0').execute();
    await expectFound('zeph', ['crs_z1', 'crs_z2', 'crs_z3', 'crs_q0']);
    await db.updateTable('courses').set({ name: 'Zephyrology Evenings' }).where('id', '=', 'crs_q1').execute();
    await expectFound('zephyro', ['crs_q1']);
    await db.updateTable('courses').set({ minimum_price: 90_000, maximum_price: 90_000 }).where('id', '=', 'crs_z1').execute();
    await expectFound('zeph', ['crs_z1'], '&min_price=80000');
    if (postgres) {
      // A row's widest level text rewritten in place (as a moved price does) with a word new to the read model.
      await sql`update course_search set doc_l1 = doc_l1 || 'zephyrwave'::tsvector where course_id = 'crs_z2'`.execute(db);
      await expectFound('zephyrw', ['crs_z2']);
    }
    await rebuildSearchIndex(db);
    await expectFound('zeph', ['crs_z1', 'crs_z2', 'crs_z3', 'crs_q0', 'crs_q1']);
  });

  it('finds every course with a word a long prefix begins (past the prefix indexes), words written since included', async () => {
    await expectFound('photography', ['crs_p1', 'crs_p2', 'crs_p3']);
    await expectFound('photographi', ['crs_p1', 'crs_p2', 'crs_p3']);
    await expectFound('photographies', ['crs_p1', 'crs_p2'], '&max_price=2500');
    await expectFound('photographic', ['crs_p1', 'crs_p2', 'crs_p3', 'crs_p4', 'crs_p5']);
    await expectFound('longprefix', Array.from({ length: 10 }, (_, i) => `crs_l${i}`));
    await expectFound('longprefixech', ['crs_l4']);
    await expectFound('photography walks', ['crs_p1']);
    await server.db.insertInto('courses').values(priced('crs_p6', 'Photographiste Evenings', 6000, 6000)).execute();
    await server.db.updateTable('courses').set({ description: '<p>Street photographiques.</p>' }).where('id', '=', 'crs_q2').execute();
    await expectFound('photography', ['crs_p1', 'crs_p2', 'crs_p3', 'crs_p6', 'crs_q2']);
  });

  it('with a price filter, keeps every course priced on a band\'s bound and none a penny beyond', async () => {
    const all = PRICE_BANDS.map((_, i) => `crs_b${String(i).padStart(2, '0')}`);
    for (const [i, bound] of PRICE_BANDS.entries()) {
      await expectFound('bandwag', all.slice(0, i + 1), `&max_price=${bound}`);
      await expectFound('bandwag', all.slice(i), `&min_price=${bound}`);
      await expectFound('bandwag', all.slice(0, i), `&max_price=${bound - 1}`);
      await expectFound('bandwag', all.slice(i + 1), `&min_price=${bound + 1}`);
    }
  });
});
