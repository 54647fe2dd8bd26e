/**
 * The admin's Locations and Collections APIs (api/admin/locations.ts, api/admin/collections.ts) through the real
 * server, on SQLite and PostgreSQL: the educator scope, the checkout's multi-line address, removal refused for a
 * location a course offers or a booking shows, collections' courses in order (the educator's own only), revisions
 * and the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ADMIN_ENV, adminCall, adminFixture, expectGuarded, type AdminFixture } from '../helpers/admin.ts';
import { courseRow, postJson } from './public-fixtures.ts';

let server: TestServer;
let fx: AdminFixture;
let base: string;
const OTHER_LOCATION = 'loc_adm_lc_other';
const OTHER_COLLECTION = 'col_adm_lc_other';
const COURSES = ['crs_adm_lc_1', 'crs_adm_lc_2', 'crs_adm_lc_3'];

beforeAll(async () => {
  server = await startTestServer(ADMIN_ENV);
  fx = await adminFixture(server, 'lc');
  base = `/api/admin/educators/${fx.educatorId}`;
  await server.db.insertInto('locations').values({ id: OTHER_LOCATION, educator_id: fx.otherEducatorId, name: null, city: 'Leeds', formatted: 'Leeds' }).execute();
  await server.db.insertInto('collections').values({ id: OTHER_COLLECTION, educator_id: fx.otherEducatorId, name: 'Theirs', image_url: null }).execute();
  await server.db.insertInto('courses').values([
    ...COURSES.map((id, i) => courseRow({ id, educator_id: fx.educatorId, slug: `lc-${i}`, name: `Course ${i + 1}` })),
    courseRow({ id: 'crs_adm_lc_x', educator_id: fx.otherEducatorId, slug: 'lc-x', name: 'Theirs' }),
  ]).execute();
});
afterAll(() => server?.close());

const call = (method: string, path: string, body?: unknown) => adminCall(server, fx.admin.cookie, method, `${base}${path}`, body);
const studio = { name: 'The Studio', line1: '12 Kiln Lane', city: 'Bristol', postcode: 'BS1 4QA', lat: 51.45, lng: -2.58 };

describe('locations', () => {
  it('refuses nobody, a learner and another educator\'s admin, and 404s another educator\'s location', async () => {
    const loc = (await call('POST', '/locations', studio)).json();
    await expectGuarded(server, fx, 'GET', `${base}/locations`);
    await expectGuarded(server, fx, 'POST', `${base}/locations`, studio);
    await expectGuarded(server, fx, 'PUT', `${base}/locations/${loc.id}`, { ...studio, revision: 1 });
    await expectGuarded(server, fx, 'DELETE', `${base}/locations/${loc.id}?revision=1`);
    expect((await call('PUT', `/locations/${OTHER_LOCATION}`, { ...studio, revision: 1 })).status).toBe(404);
    expect((await call('DELETE', `/locations/${OTHER_LOCATION}?revision=1`)).status).toBe(404);
    expect((await server.db.selectFrom('locations').select('city').where('id', '=', OTHER_LOCATION).executeTakeFirstOrThrow()).city).toBe('Leeds');
  });

  it('answers a problem per field', async () => {
    const res = await call('POST', '/locations', { line1: '', city: '  ', lat: 91 });
    expect(Object.fromEntries(res.json().properties.map((p: { key: string; message: string }) => [p.key, p.message]))).toEqual({
      line1: 'is required', city: 'is required', lat: 'must be at most 90', lng: 'is required with the other coordinate',
    });
    const half = await call('POST', '/locations', { ...studio, lng: null });
    expect(half.json().properties).toEqual([{ key: 'lng', message: 'is required with the other coordinate' }]);
  });

  it('keeps the checkout\'s multi-line address, and refuses removing a location a course offers or a booking shows', async () => {
    const loc = (await call('POST', '/locations', studio)).json();
    expect(loc.formatted).toBe('The Studio\n12 Kiln Lane\nBristol\nBS1 4QA');
    const byIds = await (await postJson(`${server.url}/api/locations/by-ids`, { locationIds: [loc.id] })).json();
    expect(byIds).toEqual([{ id: loc.id, _id: loc.id, city: 'Bristol', formatted: 'The Studio\n12 Kiln Lane\nBristol\nBS1 4QA', name: 'The Studio' }]);

    await server.db.updateTable('courses').set({ student_travel_settings: { enabled: true, locations: [loc.id] } }).where('id', '=', COURSES[0]!).execute();
    expect((await call('GET', '/locations')).json().locations.find((l: { id: string }) => l.id === loc.id).usedBy).toEqual([{ id: COURSES[0], name: 'Course 1' }]);
    const offered = await call('DELETE', `/locations/${loc.id}?revision=1`);
    expect(offered.status).toBe(409);
    expect(offered.json().detail).toBe('The Studio is offered by Course 1. Take it off that course first.');
    await server.db.updateTable('courses').set({ student_travel_settings: { enabled: false, locations: [] } }).where('id', '=', COURSES[0]!).execute();

    await server.db.insertInto('checkouts').values({
      id: 'chk_adm_lc', flow: 'request', origin: 'marketplace', course_id: COURSES[0]!, educator_id: fx.educatorId, occurrence_id: null, user_id: null, student_id: null,
      current_step: 'message', step_state: {}, utms: null, booked_on_url: null, booking_id: null, order_id: null, request_id: null, application_id: null,
      outcome_kind: null, outcome_id: null, total_cost: null, cost_summary: null, payment_provider: null, payment_id: null, created_at: 1, updated_at: 1, completed_at: null,
    }).execute();
    await server.db.insertInto('bookings').values({
      id: 'bkg_adm_lc', checkout_id: 'chk_adm_lc', flow: 'request', course_id: COURSES[0]!, educator_id: fx.educatorId, user_id: fx.learner.user.id,
      student_id: fx.learner.user.studentId, origin: 'marketplace', lines: {}, contact_details: {}, total_cost: 0, created_at: 1, status: 'confirmed',
      details: { delivery: { delivery: { type: 'Student travels', location_ref: loc.id } } }, occurrence_id: null, spaces: 1, start_datetime: null, end_datetime: null,
      payment_method: null, payment_state: 'free', payment_id: null, invoice_details: null, due_date: null, manual_note: null,
    }).execute();
    const booked = await call('DELETE', `/locations/${loc.id}?revision=1`);
    expect(booked.status).toBe(409);
    expect(booked.json().detail).toContain('Edit it instead of removing it.');

    const moved = await call('PUT', `/locations/${loc.id}`, { ...studio, line1: '14 Kiln Lane', revision: 1 });
    expect(moved.json()).toMatchObject({ formatted: 'The Studio\n14 Kiln Lane\nBristol\nBS1 4QA', revision: 2 });
    expect((await call('PUT', `/locations/${loc.id}`, { ...studio, revision: 1 })).status).toBe(409);
    const log = (await call('GET', `/changes?entity=location&entityId=${loc.id}`)).json().changes;
    expect(log.map((l: { action: string }) => l.action).sort()).toEqual(['create', 'update']);

    const spare = (await call('POST', '/locations', { line1: '1 Spare St', city: 'Bath' })).json();
    expect(spare.formatted).toBe('1 Spare St\nBath');
    expect((await call('DELETE', `/locations/${spare.id}?revision=1`)).status).toBe(204);
  });
});

describe('collections', () => {
  it('refuses nobody, a learner and another educator\'s admin, and 404s another educator\'s collection', async () => {
    const col = (await call('POST', '/collections', { name: 'Guarded' })).json();
    await expectGuarded(server, fx, 'GET', `${base}/collections`);
    await expectGuarded(server, fx, 'POST', `${base}/collections`, { name: 'X' });
    await expectGuarded(server, fx, 'PUT', `${base}/collections/${col.id}`, { name: 'X', revision: 1 });
    await expectGuarded(server, fx, 'DELETE', `${base}/collections/${col.id}?revision=1`);
    expect((await call('PUT', `/collections/${OTHER_COLLECTION}`, { name: 'Mine', revision: 1 })).status).toBe(404);
    expect((await call('DELETE', `/collections/${OTHER_COLLECTION}?revision=1`)).status).toBe(404);
    expect((await server.db.selectFrom('collections').select('name').where('id', '=', OTHER_COLLECTION).executeTakeFirstOrThrow()).name).toBe('Theirs');
  });

  it('keeps its courses in the order given, only the educator\'s own, and answers a problem per field', async () => {
    const bad = await call('POST', '/collections', { name: '', imageUrl: 'ftp://x', courseIds: [COURSES[0], COURSES[0]] });
    expect(Object.fromEntries(bad.json().properties.map((p: { key: string; message: string }) => [p.key, p.message]))).toEqual({
      name: 'is required', imageUrl: 'must be a web address starting with https://', 'courseIds.1': 'is already in this collection',
    });
    const foreign = await call('POST', '/collections', { name: 'Mixed', courseIds: [COURSES[0], 'crs_adm_lc_x'] });
    expect(foreign.json().properties).toEqual([{ key: 'courseIds.1', message: 'is not one of your courses' }]);

    const col = (await call('POST', '/collections', { name: 'Beginners', imageUrl: '', published: true, courseIds: [COURSES[2], COURSES[0]] })).json();
    expect(col).toMatchObject({ name: 'Beginners', imageUrl: null, published: true, courseIds: [COURSES[2], COURSES[0]], revision: 1 });
    const reordered = await call('PUT', `/collections/${col.id}`, { name: 'Beginners', imageUrl: 'https://example.com/b.jpg', published: true, courseIds: [COURSES[0], COURSES[1], COURSES[2]], revision: 1 });
    expect(reordered.json()).toMatchObject({ courseIds: COURSES, imageUrl: 'https://example.com/b.jpg', revision: 2 });
    const rows = await server.db.selectFrom('collection_courses').select(['course_id', 'position']).where('collection_id', '=', col.id).orderBy('position').execute();
    expect(rows.map((r) => [r.course_id, Number(r.position)])).toEqual([[COURSES[0], 0], [COURSES[1], 1], [COURSES[2], 2]]);
    expect((await call('GET', '/collections')).json().collections.find((x: { id: string }) => x.id === col.id).courseIds).toEqual(COURSES);

    const stale = await call('PUT', `/collections/${col.id}`, { name: 'Mine', revision: 1 });
    expect(stale.status).toBe(409);
    expect((await call('DELETE', `/collections/${col.id}?revision=2`)).status).toBe(204);
    expect(await server.db.selectFrom('collection_courses').select('course_id').where('collection_id', '=', col.id).execute()).toEqual([]);
    const log = (await call('GET', `/changes?entity=collection&entityId=${col.id}`)).json().changes;
    expect(log.map((l: { action: string }) => l.action).sort()).toEqual(['create', 'delete', 'update']);
    expect(log.find((l: { action: string }) => l.action === 'update').changes.course_ids).toEqual([[COURSES[2], COURSES[0]], COURSES]);
  });
});
