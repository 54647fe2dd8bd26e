/**
 * Stored search cards (migration 0041): the search API answers cards kept in `search_cards`, so every write a
 * card reads must make the next search show it, and "next date" must follow the clock without any write.
 * The reference is searchCourses, which builds every card afresh from the catalogue (loadCourseCards).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { searchCourses, type CourseSearchParams } from '../../db/queries/search.ts';
import { DAY, NOW, TEST_ENV, courseRow, insertPublicFixtures } from './public-fixtures.ts';

let server: TestServer;
let now = NOW;
beforeAll(async () => {
  server = await startTestServer(TEST_ENV);
  server.setNow(NOW);
  await insertPublicFixtures(server.db);
});
afterAll(async () => server.close());

function setNow(seconds: number) {
  now = seconds;
  server.setNow(seconds);
}

async function apiText(qs: string): Promise<string> {
  const res = await fetch(`${server.url}/api/courses/search?${qs}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return res.text();
}

/** The API's answer, byte for byte, is the JSON of the reference answer (cards built afresh). */
async function expectFresh(qs: string, params: CourseSearchParams): Promise<void> {
  const expected = JSON.stringify(await searchCourses(server.db, params, { now }));
  // Twice: the first search may compute and store cards, the second reads them.
  expect(await apiText(qs)).toBe(expected);
  expect(await apiText(qs)).toBe(expected);
}

const ALL = { query: '', size: 50 } satisfies CourseSearchParams;
const stored = async (courseId: string) =>
  (await sql<{ card: string | null; version: number }>`select card, version from search_cards where course_id = ${courseId}`.execute(server.db)).rows[0];

describe('stored search cards', () => {
  it('answer exactly the cards built afresh, for every kind of search, and are stored after the first', async () => {
    expect((await stored('crs_wheel'))?.card).toBeNull();
    await expectFresh('size=50', ALL);
    await expectFresh('query=pottery&size=5&page=2', { query: 'pottery', size: 5, page: 2 });
    await expectFresh('educator_ref=edu_clay&size=11', { educatorRefs: ['edu_clay'], size: 11 });
    await expectFresh('sort=price_desc&size=3', { sort: 'price_desc', size: 3 });
    await expectFresh('query=nothingmatches', { query: 'nothingmatches' });
    expect(JSON.parse((await stored('crs_wheel'))?.card ?? 'null')).toMatchObject({ _id: 'crs_wheel', next_occurrence: null });
  });

  it('show every write a card reads at the next search', async () => {
    const db = server.db;
    const writes: Array<[string, () => Promise<unknown>, string]> = [
      ['course renamed', () => db.updateTable('courses').set({ name: 'Pottery Wheel Basics II' }).where('id', '=', 'crs_wheel').execute(), 'crs_wheel'],
      ['course image', () => db.updateTable('courses').set({ img_urls: ['/images/other.jpg'] }).where('id', '=', 'crs_wheel').execute(), 'crs_wheel'],
      ['educator renamed', () => db.updateTable('educators').set({ name: 'Clay Studio Bristol', slug: 'clay-studio-bristol' }).where('id', '=', 'edu_clay').execute(), 'crs_glaze'],
      ['educator hides prices', () => db.updateTable('educators').set({
        feature_flags: { hide_marketing_consent: false, hide_terms: false, hide_pricing: true, hide_social_prompts: false },
      }).where('id', '=', 'edu_clay').execute(), 'crs_hand'],
      ['reviews counted', () => db.updateTable('review_aggregates').set({ count: 21, rating: 4.4 }).where('subject_id', '=', 'crs_wheel').execute(), 'crs_wheel'],
      ['first review', () => db.insertInto('review_aggregates').values({
        subject_type: 'course', subject_id: 'crs_python', count: 1, rating: 3, material: null, facilitator: null, organiser: null, resources: null, delivery: null, communication: null,
      }).execute(), 'crs_python'],
      ['reviews gone', () => db.deleteFrom('review_aggregates').where('subject_id', '=', 'crs_glaze').execute(), 'crs_glaze'],
      ['offer price', () => db.updateTable('offers').set({ price: 7000 }).where('id', '=', 'off_premium').execute(), 'crs_wheel'],
      ['offer added', () => db.insertInto('offers').values({
        id: 'off_cheap', course_id: 'crs_wheel', occurrence_id: null, position: 2, name: 'Cheap', description: null, price: 100, spaces: 1, start_at: null, end_at: null,
      }).execute(), 'crs_wheel'],
      ['offer removed', () => db.deleteFrom('offers').where('id', '=', 'off_cheap').execute(), 'crs_wheel'],
      ['next date sells out', () => db.updateTable('occurrences').set({ available_spaces: 0 }).where('id', '=', 'occ_future1').execute(), 'crs_wheel'],
      ['next date reopens', () => db.updateTable('occurrences').set({ available_spaces: 3 }).where('id', '=', 'occ_future1').execute(), 'crs_wheel'],
      ['date moved', () => db.updateTable('occurrences').set({ start_datetime: NOW + 2 * DAY }).where('id', '=', 'occ_glaze').execute(), 'crs_glaze'],
      ['date made private', () => db.updateTable('occurrences').set({ visibility: 'private' }).where('id', '=', 'occ_glaze').execute(), 'crs_glaze'],
      ['date added', () => db.insertInto('occurrences').values({
        id: 'occ_python', course_id: 'crs_python', start_datetime: NOW + DAY, end_datetime: NOW + DAY + 3600, delivery: 'online', spaces: 5,
        available_spaces: 5, visibility: 'public', timezone: 'Europe/London', individually_bookable: true,
      }).execute(), 'crs_python'],
      ['course capacity used up', () => db.updateTable('occurrences').set({ available_spaces: null, spaces: null }).where('id', '=', 'occ_python').execute()
        .then(() => db.updateTable('courses').set({ spaces: 0 }).where('id', '=', 'crs_python').execute()), 'crs_python'],
      ['date removed', () => db.deleteFrom('occurrences').where('id', '=', 'occ_python').execute(), 'crs_python'],
      ['location renamed', () => db.updateTable('locations').set({ city: 'Bath Spa' }).where('id', '=', 'loc_bath').execute(), 'crs_hand'],
      ['location removed', () => db.deleteFrom('locations').where('id', '=', 'loc_london').execute(), 'crs_hand'],
      ['course added', () => db.insertInto('courses').values(courseRow({ id: 'crs_new', educator_id: 'edu_fresh', slug: 'new-course', name: 'New Course' })).execute(), 'crs_new'],
      ['course unpublished', () => db.updateTable('courses').set({ published: false }).where('id', '=', 'crs_listed').execute(), 'crs_listed'],
    ];
    await expectFresh('size=50', ALL);
    for (const [what, write, courseId] of writes) {
      const before = await stored(courseId);
      await write();
      const after = await stored(courseId);
      expect({ what, card: after?.card ?? null }).toEqual({ what, card: null });
      if (before) expect(Number(after?.version), what).toBeGreaterThan(Number(before.version));
      await expectFresh('size=50', ALL);
    }
  });

  it('a booking that leaves spaces does not touch the card', async () => {
    await expectFresh('size=50', ALL);
    const before = await stored('crs_wheel');
    await server.db.updateTable('occurrences').set({ available_spaces: 2 }).where('id', '=', 'occ_future1').execute();
    expect(await stored('crs_wheel')).toEqual(before);
  });

  it('a card computed before a write is not stored over it', async () => {
    const { version } = (await stored('crs_glaze'))!;
    await server.db.updateTable('courses').set({ keyword: 'glazes' }).where('id', '=', 'crs_glaze').execute();
    // What a search that read the version before the write would try to store.
    await sql`update search_cards set card = 'stale', upcoming = '[]', computed_at = ${now}
      where course_id = 'crs_glaze' and version = ${version}`.execute(server.db);
    expect((await stored('crs_glaze'))?.card).toBeNull();
    await expectFresh('size=50', ALL);
  });

  it('"next date" follows the clock without any write: starts, sale ends and an earlier clock', async () => {
    await expectFresh('size=50', ALL);
    // Pottery Wheel Basics: occ_future1 starts at NOW + 10 days; its own offer (Early bird) ends at NOW + 5 days,
    // so from then on it is not listed and occ_child_bookable (11 days) is next.
    for (const t of [NOW + 5 * DAY - 1, NOW + 5 * DAY, NOW + 11 * DAY, NOW + 11 * DAY + 1, NOW + 40 * DAY]) {
      setNow(t);
      await expectFresh('size=50', ALL);
    }
    // A clock behind the time the cards were stored at (dates then already past are upcoming again).
    setNow(NOW);
    await expectFresh('size=50', ALL);
  });

  it('a course without a stored row is answered and gets one', async () => {
    await sql`delete from search_cards where course_id = 'crs_python'`.execute(server.db);
    await expectFresh('size=50', ALL);
    expect(await stored('crs_python')).toBeDefined();
  });
});
