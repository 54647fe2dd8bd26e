import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { zonedIsoDateTime as zonedDateTime } from '../../src/domain/zone.ts';
import { DAY, NOW, TEST_ENV, expectProblem, insertPublicFixtures, postJson } from './public-fixtures.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(TEST_ENV);
  server.setNow(NOW);
  await insertPublicFixtures(server.db);
});
afterAll(async () => server.close());

type Occ = Record<string, unknown> & { _id: string };
async function occurrences(educatorId: string, courseId: string): Promise<Occ[]> {
  const res = await fetch(`${server.url}/api/get-course-data-ids/${educatorId}/${courseId}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const body = (await res.json()) as { occurrences: Occ[] };
  return body.occurrences;
}

describe('GET /api/get-course-data-ids/{educatorId}/{courseId}', () => {
  it('lists only listed occurrences: not yet started first, sorted by start', async () => {
    const list = await occurrences('edu_clay', 'crs_wheel');
    // Left out: private, all offers ended, a child that is not individually bookable.
    expect(list.map((o) => o._id)).toEqual(['occ_future1', 'occ_child_bookable', 'occ_future2', 'occ_ny', 'occ_started']);
  });

  it('answers each occurrence in the spec shape, with its own offers and add-ons or else the course-wide ones', async () => {
    const list = await occurrences('edu_clay', 'crs_wheel');
    const byId = Object.fromEntries(list.map((o) => [o._id, o]));
    expect(byId.occ_future1).toEqual({
      _id: 'occ_future1',
      start_datetime: NOW + 10 * DAY,
      end_datetime: NOW + 10 * DAY + 3 * 3600,
      times: { start: { zoned_datetime: '2025-06-25T16:06:40+01:00' }, end: { zoned_datetime: '2025-06-25T19:06:40+01:00' } },
      timezone: 'Europe/London',
      delivery: 'in-person',
      address: { line1: '5 Kiln Yard', city: 'Bristol' },
      spaces: 8,
      available_spaces: 5,
      parent_ref: null,
      individually_bookable: true,
      offers: [{ _id: 'off_early', type: 'offer', name: 'Early bird', description: null, price: 4000, spaces: 1, start_at: NOW - 10 * DAY, end_at: NOW + 5 * DAY }],
      add_ons: [{ _id: 'add_clay', name: 'Extra clay', description: null, price: 500 }],
    });
    expect(byId.occ_future2.offers).toEqual([
      { _id: 'off_standard', type: 'offer', name: 'Standard', description: 'One place', price: 4500, spaces: 1, start_at: null, end_at: null },
      { _id: 'off_premium', type: 'offer', name: 'Premium', description: null, price: 6000, spaces: 1, start_at: null, end_at: null },
    ]);
    expect(byId.occ_future2.add_ons).toEqual([{ _id: 'add_apron', name: 'Apron', description: 'Keep it', price: 1200 }]);
    expect(byId.occ_child_bookable).toMatchObject({ parent_ref: 'occ_future1', individually_bookable: true });
    expect(byId.occ_ny).toMatchObject({
      timezone: 'America/New_York', delivery: 'online', address: null, available_spaces: null,
      times: { start: { zoned_datetime: '2025-07-15T11:06:40-04:00' }, end: { zoned_datetime: '2025-07-15T14:06:40-04:00' } },
    });
  });

  it('answers live numbers and the listing rules at the current time', async () => {
    await server.db.updateTable('occurrences').set({ available_spaces: 2 }).where('id', '=', 'occ_future1').execute();
    expect((await occurrences('edu_clay', 'crs_wheel')).find((o) => o._id === 'occ_future1')).toMatchObject({ available_spaces: 2 });
    // Six days on, the early-bird window of occ_future1 (its only offer) has closed: it is no longer listed.
    server.setNow(NOW + 6 * DAY);
    try {
      expect((await occurrences('edu_clay', 'crs_wheel')).map((o) => o._id)).toEqual(['occ_child_bookable', 'occ_future2', 'occ_ny', 'occ_started']);
    } finally {
      server.setNow(NOW);
    }
  });

  it('answers a course without occurrences with an empty list', async () => {
    expect(await occurrences('edu_clay', 'crs_hand')).toEqual([]);
  });

  it('answers 404 for a course of another educator, an unknown course and an unpublished course', async () => {
    for (const path of ['edu_code/crs_wheel', 'edu_clay/crs_nope', 'edu_nope/crs_wheel', 'edu_clay/crs_raku']) {
      await expectProblem(await fetch(`${server.url}/api/get-course-data-ids/${path}`), {
        status: 404, type: 'generic/not-found', title: '404 - Not found', detail: 'No course of this educator has this id.',
      });
    }
  });
});

describe('zonedDateTime', () => {
  it('gives the local time with the zone offset, winter and summer', () => {
    expect(zonedDateTime(Date.UTC(2025, 0, 15, 10, 0, 0) / 1000, 'Europe/London')).toBe('2025-01-15T10:00:00+00:00');
    expect(zonedDateTime(Date.UTC(2025, 6, 15, 10, 0, 0) / 1000, 'Europe/London')).toBe('2025-07-15T11:00:00+01:00');
    expect(zonedDateTime(Date.UTC(2025, 6, 15, 10, 0, 0) / 1000, 'Asia/Kolkata')).toBe('2025-07-15T15:30:00+05:30');
    expect(zonedDateTime(Date.UTC(2025, 6, 15, 10, 0, 0) / 1000, 'Not/AZone')).toBe('2025-07-15T11:00:00+01:00');
  });
});

describe('POST /api/locations/by-ids', () => {
  const url = () => `${server.url}/api/locations/by-ids`;

  it('answers the known locations, in the order asked, once each', async () => {
    const res = await postJson(url(), { locationIds: ['loc_london', 'loc_nope', 'loc_bath', 'loc_london'] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { id: 'loc_london', _id: 'loc_london', city: 'London', formatted: '2 Mare Street\nLondon\nE8 4RP', name: null },
      { id: 'loc_bath', _id: 'loc_bath', city: 'Bath', formatted: '1 Abbey Green\nBath\nBA1 1NW', name: 'Bath studio' },
    ]);
  });

  it('answers an empty array when no id is known', async () => {
    const res = await postJson(url(), { locationIds: ['nope'] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });

  it('refuses an empty list, more than 100 ids and malformed bodies', async () => {
    for (const body of [{ locationIds: [] }, { locationIds: Array.from({ length: 101 }, (_, i) => `loc_${i}`) }, {}, { locationIds: 'loc_bath' }, { locationIds: [1] }]) {
      const problem = await expectProblem(await postJson(url(), body), { status: 400, type: 'generic/validation-error', title: 'Validation Error' });
      expect(String((problem.properties as Array<{ key: string }>)[0].key)).toMatch(/^locationIds/);
    }
    await expectProblem(await fetch(url(), { method: 'POST', body: 'nope', headers: { 'content-type': 'application/json' } }), {
      status: 400, type: 'generic/validation-error', title: 'Validation Error',
    });
  });
});
