/**
 * The admin's Dates API (api/admin/dates.ts) through the real server, on SQLite and PostgreSQL: the educator scope,
 * a weekly series across the March 2027 clock change stored at the right UTC instants and listed by the public
 * availability API at 10:00 London, spaces never below what is booked and held (the checkout's own holds), removal
 * refused for booked and held dates, revisions (409) and the audit log.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { rawRequest } from '../helpers/auth.ts';
import { ADMIN_ENV, ADMIN_HOST, adminCall, adminFixture, expectGuarded, type AdminFixture } from '../helpers/admin.ts';
import { courseRow } from './public-fixtures.ts';
import { acquireHold, commitHold } from '../../api/checkout/holds.ts';

let server: TestServer;
let fx: AdminFixture;
let base: string;
const COURSE = 'crs_adm_dates_a';
const OTHER_COURSE = 'crs_adm_dates_b';
const OTHER_OCC = 'occ_adm_dates_b';
/** 1 March 2027, 12:00 UTC: before the clocks change on 28 March. */
const NOW = Date.UTC(2027, 2, 1, 12) / 1000;
const utc = (y: number, m: number, d: number, h: number, min = 0) => Date.UTC(y, m - 1, d, h, min) / 1000;

beforeAll(async () => {
  server = await startTestServer(ADMIN_ENV);
  server.setNow(NOW);
  fx = await adminFixture(server, 'dates');
  base = `/api/admin/educators/${fx.educatorId}`;
  await server.db.insertInto('courses').values([
    courseRow({ id: COURSE, educator_id: fx.educatorId, slug: 'pottery-class', name: 'Pottery Class', spaces: 8 }),
    courseRow({ id: OTHER_COURSE, educator_id: fx.otherEducatorId, slug: 'other-class', name: 'Other Class', spaces: 8 }),
  ]).execute();
  await server.db.insertInto('occurrences').values({
    id: OTHER_OCC, course_id: OTHER_COURSE, start_datetime: NOW + 86400, end_datetime: NOW + 90000, delivery: 'online', spaces: 5, available_spaces: 5,
  }).execute();
});
afterAll(() => server?.close());
beforeEach(() => server.setNow(NOW));

const call = (method: string, path: string, body?: unknown) => adminCall(server, fx.admin.cookie, method, `${base}${path}`, body);
const single = (overrides: Record<string, unknown> = {}) => ({ kind: 'single', date: '2027-03-10', startTime: '18:00', endTime: '20:00', delivery: 'online', spaces: 6, ...overrides });

async function newCheckout(id: string, occurrenceId: string): Promise<void> {
  await server.db.insertInto('checkouts').values({
    id, flow: 'booking', origin: 'marketplace', course_id: COURSE, educator_id: fx.educatorId, occurrence_id: occurrenceId, user_id: null,
    student_id: null, current_step: 'payment', step_state: {}, utms: null, booked_on_url: null, status: 'open', booking_id: null, order_id: null,
    request_id: null, application_id: null, outcome_kind: null, outcome_id: null, total_cost: null, currency: 'GBP', cost_summary: null,
    payment_provider: null, payment_id: null, version: 0, created_at: NOW, updated_at: NOW, completed_at: null,
  }).execute();
}

/** A learner at Payment: the checkout's own hold on `spaces` (and, `book`, the booking it becomes). */
async function takeSpaces(occurrenceId: string, spaces: number, book: boolean): Promise<void> {
  const id = `chk_${Math.random().toString(36).slice(2, 10)}`;
  await newCheckout(id, occurrenceId);
  const result = await server.db.transaction().execute(async (tx) => {
    const held = await acquireHold(tx, server.testDb.dialect, { checkoutId: id, now: NOW, ttlSeconds: 600, occurrenceId, spaces, voucherId: null });
    if (held.ok && book) await commitHold(tx, server.testDb.dialect, held.hold, NOW);
    return held;
  });
  expect(result.ok).toBe(true);
  if (!book) return;
  await server.db.insertInto('bookings').values({
    id: `bkg_${id}`, checkout_id: id, flow: 'booking', course_id: COURSE, educator_id: fx.educatorId, user_id: fx.learner.user.id,
    student_id: fx.learner.user.studentId, origin: 'marketplace', lines: {}, contact_details: {}, details: {}, total_cost: 0, created_at: NOW,
    status: 'confirmed', occurrence_id: occurrenceId, spaces, start_datetime: null, end_datetime: null, payment_method: null, payment_state: 'free',
    payment_id: null, invoice_details: null, due_date: null, manual_note: null,
  }).execute();
}

describe('who may use the dates API', () => {
  it('refuses nobody, a learner and another educator\'s admin on every route', async () => {
    const date = (await call('POST', `/courses/${COURSE}/dates`, single())).json().dates[0];
    await expectGuarded(server, fx, 'GET', `${base}/courses/${COURSE}/dates`);
    await expectGuarded(server, fx, 'POST', `${base}/courses/${COURSE}/dates`, single());
    await expectGuarded(server, fx, 'PUT', `${base}/courses/${COURSE}/dates/${date.id}`, { ...single(), revision: 1 });
    await expectGuarded(server, fx, 'DELETE', `${base}/courses/${COURSE}/dates/${date.id}?revision=1`);
    await expectGuarded(server, fx, 'PUT', `${base}/courses/${COURSE}/series/ser_x`, { revisions: {}, startTime: '10:00', endTime: '11:00', delivery: 'online' });
    await expectGuarded(server, fx, 'POST', `${base}/courses/${COURSE}/series/ser_x/remove`, { revisions: {} });
    // Nothing was changed by the refused calls.
    const after = (await call('GET', `/courses/${COURSE}/dates`)).json().dates.find((d: { id: string }) => d.id === date.id);
    expect(after.revision).toBe(1);
  });

  it('answers 404 for another educator\'s course and date through this educator\'s URL, and changes nothing', async () => {
    expect((await call('GET', `/courses/${OTHER_COURSE}/dates`)).status).toBe(404);
    expect((await call('POST', `/courses/${OTHER_COURSE}/dates`, single())).status).toBe(404);
    expect((await call('PUT', `/courses/${COURSE}/dates/${OTHER_OCC}`, { ...single(), revision: 1 })).status).toBe(404);
    expect((await call('PUT', `/courses/${OTHER_COURSE}/dates/${OTHER_OCC}`, { ...single(), revision: 1 })).status).toBe(404);
    expect((await call('DELETE', `/courses/${OTHER_COURSE}/dates/${OTHER_OCC}?revision=1`)).status).toBe(404);
    expect((await call('DELETE', `/courses/${COURSE}/dates/${OTHER_OCC}?revision=1`)).status).toBe(404);
    // A child session cannot hang under another educator's date either.
    const child = await call('POST', `/courses/${COURSE}/dates`, single({ parentRef: OTHER_OCC }));
    expect(child.status).toBe(400);
    expect(child.json().properties).toEqual([{ key: 'parentRef', message: 'is not a date of this course' }]);
    const other = await server.db.selectFrom('occurrences').selectAll().where('id', '=', OTHER_OCC).executeTakeFirstOrThrow();
    expect(Number(other.revision)).toBe(1);
    expect(Number(other.spaces)).toBe(5);
  });
});

describe('the admin app\'s own origin', () => {
  it('is accepted for saves on the admin host only (the admin host is no minisite)', async () => {
    const onAdmin = await call('POST', `/courses/${COURSE}/dates`, single({ date: '2027-03-11' }));
    expect(onAdmin.status).toBe(201);
    const onPublic = await rawRequest(server, `${base}/courses/${COURSE}/dates`, {
      method: 'POST', host: 'localhost:4321', headers: { cookie: fx.admin.cookie, origin: `http://${ADMIN_HOST}` }, body: single({ date: '2027-03-11' }),
    });
    expect(onPublic.status).toBe(403);
    expect(onPublic.json().title).toBe('Cross-Site Request Refused');
  });
});

describe('validation', () => {
  it('answers a problem per field, never a 500', async () => {
    const res = await call('POST', `/courses/${COURSE}/dates`, { kind: 'weekly', firstDate: '2027-03-21', startTime: '10:00', endTime: '09:00', weekdays: [], delivery: 'in-person' });
    expect(res.status).toBe(400);
    const keys = Object.fromEntries(res.json().properties.map((p: { key: string; message: string }) => [p.key, p.message]));
    expect(keys).toMatchObject({
      weekdays: 'choose at least one day', endTime: 'must be after the start time', until: 'choose an end date or a number of dates',
      'address.line1': 'is required for in-person and hybrid dates',
    });
    expect((await call('POST', `/courses/${COURSE}/dates`, { kind: 'monthly' })).status).toBe(400);
    expect((await call('POST', `/courses/${COURSE}/dates`, 'not json')).status).toBe(400);
    const past = await call('POST', `/courses/${COURSE}/dates`, single({ date: '2027-02-01' }));
    expect(past.json().properties).toEqual([{ key: 'date', message: 'must be in the future' }]);
    const offer = await call('POST', `/courses/${COURSE}/dates`, single({ offers: [{ name: 'Early bird', price: 12.5 }] }));
    expect(offer.status).toBe(400);
    expect(offer.json().properties).toEqual([{ key: 'offers.0.price', message: 'must be a whole number of pence' }]);
    expect((await call('DELETE', `/courses/${COURSE}/dates/occ_nothing`)).status).toBe(400);
  });

  it('refuses dates for a course learners book without one', async () => {
    await server.db.insertInto('courses').values(courseRow({ id: 'crs_adm_dates_od', educator_id: fx.educatorId, slug: 'on-demand', name: 'Recorded', type: 'on-demand' })).execute();
    const res = await call('POST', '/courses/crs_adm_dates_od/dates', single());
    expect(res.status).toBe(409);
    expect(res.json().detail).toBe('Recorded is an on-demand course: learners book it without a date.');
  });
});

describe('a weekly series across the March clock change', () => {
  it('stores 10:00 London at 10:00 UTC before 28 March and 09:00 UTC from it, and the public API lists them at 10:00 London', async () => {
    const res = await call('POST', `/courses/${COURSE}/dates`, {
      kind: 'weekly', firstDate: '2027-03-21', startTime: '10:00', endTime: '11:30', weekdays: ['sunday'], count: 3,
      delivery: 'in-person', address: { line1: '1 Kiln Lane', city: 'Bristol' }, spaces: 6,
      offers: [{ name: 'Standard', price: 2500 }], addOns: [{ name: 'Clay pack', price: 800 }],
    });
    expect(res.status).toBe(201);
    const { dates, seriesId } = res.json();
    expect(seriesId).toMatch(/^ser_/);
    expect(dates.map((d: { start: number }) => d.start)).toEqual([utc(2027, 3, 21, 10), utc(2027, 3, 28, 9), utc(2027, 4, 4, 9)]);
    expect(dates.map((d: { local: unknown }) => d.local)).toEqual([
      { date: '2027-03-21', startTime: '10:00', endDate: '2027-03-21', endTime: '11:30' },
      { date: '2027-03-28', startTime: '10:00', endDate: '2027-03-28', endTime: '11:30' },
      { date: '2027-04-04', startTime: '10:00', endDate: '2027-04-04', endTime: '11:30' },
    ]);
    const stored = await server.db.selectFrom('occurrences').select(['start_datetime', 'end_datetime', 'series_id', 'address', 'available_spaces'])
      .where('series_id', '=', seriesId).orderBy('start_datetime').execute();
    expect(stored.map((r) => Number(r.start_datetime))).toEqual([utc(2027, 3, 21, 10), utc(2027, 3, 28, 9), utc(2027, 4, 4, 9)]);
    expect(stored.map((r) => Number(r.end_datetime))).toEqual([utc(2027, 3, 21, 11, 30), utc(2027, 3, 28, 10, 30), utc(2027, 4, 4, 10, 30)]);
    expect(stored[0]).toMatchObject({ address: { line1: '1 Kiln Lane', city: 'Bristol' } });
    expect(Number(stored[0]!.available_spaces)).toBe(6);

    const listed = await (await fetch(`${server.url}/api/get-course-data-ids/${fx.educatorId}/${COURSE}`)).json();
    const ours = listed.occurrences.filter((o: { _id: string }) => dates.some((d: { id: string }) => d.id === o._id));
    expect(ours.map((o: { times: { start: { zoned_datetime: string } } }) => o.times.start.zoned_datetime)).toEqual([
      '2027-03-21T10:00:00+00:00', '2027-03-28T10:00:00+01:00', '2027-04-04T10:00:00+01:00',
    ]);
    expect(ours[1].offers.map((o: { name: string; price: number }) => [o.name, o.price])).toEqual([['Standard', 2500]]);
    expect(ours[1].add_ons.map((a: { name: string }) => a.name)).toEqual(['Clay pack']);

    const view = (await call('GET', `/courses/${COURSE}/dates`)).json();
    expect(view.series.find((s: { id: string }) => s.id === seriesId)).toMatchObject({ count: 3, upcoming: 3, weekdays: ['sunday'], startTime: '10:00', endTime: '11:30' });
  });

  it('edits the whole series\' times on each date\'s own day, then removes it, with an audit entry per date', async () => {
    const { dates, seriesId } = (await call('POST', `/courses/${COURSE}/dates`, {
      kind: 'weekly', firstDate: '2027-03-24', startTime: '18:00', endTime: '19:00', weekdays: ['wednesday'], until: '2027-04-07', delivery: 'online', spaces: 4,
      offers: [{ name: 'Drop-in', price: 1500 }],
    })).json();
    expect(dates).toHaveLength(3);
    const revisions = Object.fromEntries(dates.map((d: { id: string; revision: number }) => [d.id, d.revision]));
    server.setNow(NOW + 10);
    const edit = await call('PUT', `/courses/${COURSE}/series/${seriesId}`, { revisions, startTime: '09:30', endTime: '10:45', delivery: 'online', spaces: 5, visibility: 'private', offers: [{ name: 'Drop-in', price: 1800 }] });
    expect(edit.status).toBe(200);
    const edited = edit.json().dates;
    expect(edited.map((d: { start: number }) => d.start)).toEqual([utc(2027, 3, 24, 9, 30), utc(2027, 3, 31, 8, 30), utc(2027, 4, 7, 8, 30)]);
    expect(edited.every((d: { visibility: string; spaces: number; revision: number }) => d.visibility === 'private' && d.spaces === 5 && d.revision === 2)).toBe(true);
    // The offers kept their ids (a learner's selection stays good), with the new price.
    expect(edited.map((d: { offers: { id: string }[] }) => d.offers[0]!.id)).toEqual(dates.map((d: { offers: { id: string }[] }) => d.offers[0]!.id));
    expect(edited[0].offers[0].price).toBe(1800);

    // Saving again on the old revisions is refused.
    const stale = await call('PUT', `/courses/${COURSE}/series/${seriesId}`, { revisions, startTime: '09:30', endTime: '10:45', delivery: 'online' });
    expect(stale.status).toBe(409);
    expect(stale.json().title).toBe('Changed Since You Opened It');

    const changes = (await call('GET', `/changes?entity=occurrence&entityId=${dates[1].id}`)).json().changes;
    expect(changes.map((ch: { action: string }) => ch.action)).toEqual(['update', 'create']);
    expect(changes[0].changes.start_datetime).toEqual([utc(2027, 3, 31, 17), utc(2027, 3, 31, 8, 30)]);
    expect(changes[0].by.name).toBe('Ada Admin');

    server.setNow(NOW + 20);
    const newRevisions = Object.fromEntries(edited.map((d: { id: string; revision: number }) => [d.id, d.revision]));
    const gone = await call('POST', `/courses/${COURSE}/series/${seriesId}/remove`, { revisions: newRevisions });
    expect(gone.status).toBe(200);
    expect(gone.json().removed).toHaveLength(3);
    expect(await server.db.selectFrom('occurrences').select('id').where('series_id', '=', seriesId).execute()).toEqual([]);
    expect(await server.db.selectFrom('offers').select('id').where('occurrence_id', 'in', dates.map((d: { id: string }) => d.id)).execute()).toEqual([]);
    expect((await call('GET', `/changes?entity=occurrence&entityId=${dates[0].id}`)).json().changes[0].action).toBe('delete');
  });
});

describe('spaces never below what is booked and held', () => {
  it('refuses fewer spaces than booked plus held, and moves the checkout\'s counter with the capacity', async () => {
    const date = (await call('POST', `/courses/${COURSE}/dates`, single({ date: '2027-03-12', spaces: 6 }))).json().dates[0];
    await takeSpaces(date.id, 2, true);
    await takeSpaces(date.id, 1, false);
    const seen = (await call('GET', `/courses/${COURSE}/dates`)).json().dates.find((d: { id: string }) => d.id === date.id);
    expect(seen).toMatchObject({ booked: 2, held: 1, bookings: 1, capacity: 6, available: 3 });

    const tooFew = await call('PUT', `/courses/${COURSE}/dates/${date.id}`, { ...single({ date: '2027-03-12', spaces: 2 }), revision: date.revision });
    expect(tooFew.status).toBe(400);
    expect(tooFew.json().properties).toEqual([{ key: 'spaces', message: 'must be at least 3: 2 booked and 1 held by learners paying now' }]);
    // The refused save changed nothing (not even the revision).
    const row = await server.db.selectFrom('occurrences').select(['spaces', 'available_spaces', 'revision']).where('id', '=', date.id).executeTakeFirstOrThrow();
    expect([Number(row.spaces), Number(row.available_spaces), Number(row.revision)]).toEqual([6, 3, 1]);

    const exact = await call('PUT', `/courses/${COURSE}/dates/${date.id}`, { ...single({ date: '2027-03-12', spaces: 3 }), revision: 1 });
    expect(exact.status).toBe(200);
    expect(exact.json()).toMatchObject({ spaces: 3, available: 0, revision: 2 });
    expect(Number((await server.db.selectFrom('occurrences').select('available_spaces').where('id', '=', date.id).executeTakeFirstOrThrow()).available_spaces)).toBe(0);
    const more = await call('PUT', `/courses/${COURSE}/dates/${date.id}`, { ...single({ date: '2027-03-12', spaces: 10 }), revision: 2 });
    expect(more.json()).toMatchObject({ spaces: 10, available: 7, revision: 3 });

    // Once the learner's hold lapses, its space counts as free (as the checkout counts it).
    server.setNow(NOW + 601);
    const fewer = await call('PUT', `/courses/${COURSE}/dates/${date.id}`, { ...single({ date: '2027-03-12', spaces: 2 }), revision: 3 });
    expect(fewer.status).toBe(200);
    expect(fewer.json()).toMatchObject({ booked: 2, held: 0, available: 0 });
  });

  it('refuses removing or moving a booked date with a reason, and removing a held one', async () => {
    const booked = (await call('POST', `/courses/${COURSE}/dates`, single({ date: '2027-03-13' }))).json().dates[0];
    await takeSpaces(booked.id, 1, true);
    const remove = await call('DELETE', `/courses/${COURSE}/dates/${booked.id}?revision=1`);
    expect(remove.status).toBe(409);
    expect(remove.json().detail).toBe('This date has 1 booking. Cancel it from Bookings, which tells the learners and refunds them.');
    const move = await call('PUT', `/courses/${COURSE}/dates/${booked.id}`, { ...single({ date: '2027-03-14' }), revision: 1 });
    expect(move.status).toBe(409);
    expect(move.json().detail).toContain('Cancel it from Bookings and add a new date');
    // Other changes to a booked date are fine.
    expect((await call('PUT', `/courses/${COURSE}/dates/${booked.id}`, { ...single({ date: '2027-03-13', visibility: 'private' }), revision: 1 })).status).toBe(200);

    const held = (await call('POST', `/courses/${COURSE}/dates`, single({ date: '2027-03-15' }))).json().dates[0];
    await takeSpaces(held.id, 1, false);
    const removeHeld = await call('DELETE', `/courses/${COURSE}/dates/${held.id}?revision=1`);
    expect(removeHeld.status).toBe(409);
    expect(removeHeld.json().title).toBe('Spaces Held Now');
    expect(await server.db.selectFrom('occurrences').select('id').where('id', 'in', [booked.id, held.id]).execute()).toHaveLength(2);
  });
});

describe('one date', () => {
  it('edits a date with its own offers and a child session, refuses a stale revision with who changed what, and removes it', async () => {
    const parent = (await call('POST', `/courses/${COURSE}/dates`, single({ date: '2027-03-20', startTime: '09:00', endTime: '17:00', offers: [{ name: 'Full day', price: 9000 }] }))).json().dates[0];
    const child = (await call('POST', `/courses/${COURSE}/dates`, single({ date: '2027-03-20', startTime: '09:00', endTime: '12:00', parentRef: parent.id, individuallyBookable: false }))).json().dates[0];
    expect(child).toMatchObject({ parentRef: parent.id, individuallyBookable: false });
    const grandchild = await call('POST', `/courses/${COURSE}/dates`, single({ parentRef: child.id }));
    expect(grandchild.json().properties).toEqual([{ key: 'parentRef', message: 'is itself a session of another date' }]);
    // Child sessions that are not individually bookable are not listed publicly (spec 4).
    const listed = await (await fetch(`${server.url}/api/get-course-data-ids/${fx.educatorId}/${COURSE}`)).json();
    expect(listed.occurrences.some((o: { _id: string }) => o._id === child.id)).toBe(false);
    expect(listed.occurrences.some((o: { _id: string }) => o._id === parent.id)).toBe(true);

    const offerId = parent.offers[0].id;
    server.setNow(NOW + 10);
    const saved = await call('PUT', `/courses/${COURSE}/dates/${parent.id}`, {
      ...single({ date: '2027-03-20', startTime: '09:30', endTime: '17:00', offers: [{ id: offerId, name: 'Full day', price: 9500 }, { name: 'Half day', price: 5000 }] }), revision: 1,
    });
    expect(saved.status).toBe(200);
    expect(saved.json().offers.map((o: { id: string; price: number }) => o.price)).toEqual([9500, 5000]);
    expect(saved.json().offers[0].id).toBe(offerId);
    const stranger = await call('PUT', `/courses/${COURSE}/dates/${parent.id}`, { ...single({ date: '2027-03-20', offers: [{ id: 'off_not_here', name: 'X' }] }), revision: 2 });
    expect(stranger.json().properties).toEqual([{ key: 'offers.0.id', message: 'is not an offer of this date' }]);

    const stale = await call('PUT', `/courses/${COURSE}/dates/${parent.id}`, { ...single({ date: '2027-03-20' }), revision: 1 });
    expect(stale.status).toBe(409);
    expect(stale.json()).toMatchObject({ title: 'Changed Since You Opened It', currentRevision: 2 });
    expect(stale.json().detail).toContain('Ada Admin');
    expect(stale.json().detail).toContain('start_datetime');

    expect((await call('DELETE', `/courses/${COURSE}/dates/${parent.id}?revision=1`)).status).toBe(409);
    server.setNow(NOW + 20);
    expect((await call('DELETE', `/courses/${COURSE}/dates/${parent.id}?revision=2`)).status).toBe(204);
    expect(await server.db.selectFrom('occurrences').select('id').where('id', 'in', [parent.id, child.id]).execute()).toEqual([]);
    const log = (await call('GET', `/changes?entity=occurrence&entityId=${parent.id}`)).json().changes;
    expect(log.map((l: { action: string }) => l.action)).toEqual(['delete', 'update', 'create']);
    expect(log[1].changes.offers[1]).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Half day' })]));
  });
});
