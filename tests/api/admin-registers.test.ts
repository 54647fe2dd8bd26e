/**
 * The admin's Registers API (api/admin/registers.ts) through the real server, on SQLite and PostgreSQL: the
 * educator scope, a date's attendees with their answers, check-in (which makes the learner's review verified on
 * the published course page), and the streamed CSV exports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ADMIN_ENV, adminCall, adminFixture, expectGuarded, type AdminFixture } from '../helpers/admin.ts';
import { builtSite, testPublisher, type TestPublisher } from '../helpers/admin-publish.ts';
import { courseRow } from './public-fixtures.ts';
import { insertBooking, insertDate } from './admin-fixtures-business.ts';

let server: TestServer;
let fx: AdminFixture;
let base: string;
let site: Awaited<ReturnType<typeof builtSite>>;
let publisher: TestPublisher;
let educatorSlug: string;
const COURSE = 'crs_adm_rg_1';
const DATE = 'occ_adm_rg_1';
const THEIR_DATE = 'occ_adm_rg_x';
const NOW = Math.floor(Date.now() / 1000);

beforeAll(async () => {
  [server, site] = await Promise.all([startTestServer(ADMIN_ENV), builtSite()]);
  fx = await adminFixture(server, 'rg');
  base = `/api/admin/educators/${fx.educatorId}`;
  educatorSlug = (await server.db.selectFrom('educators').select('slug').where('id', '=', fx.educatorId).executeTakeFirstOrThrow()).slug;
  await server.db.insertInto('courses').values([
    courseRow({ id: COURSE, educator_id: fx.educatorId, slug: 'kiln-club', name: 'Kiln Club' }),
    courseRow({ id: 'crs_adm_rg_x', educator_id: fx.otherEducatorId, slug: 'theirs', name: 'Theirs' }),
  ]).execute();
  await insertDate(server, DATE, COURSE, NOW + 3 * 86_400);
  await insertDate(server, THEIR_DATE, 'crs_adm_rg_x', NOW + 3 * 86_400);
  await insertBooking(server, {
    id: 'bkg_adm_rg_1', educatorId: fx.educatorId, courseId: COURSE, occurrenceId: DATE, studentId: fx.learner.user.studentId, userId: fx.learner.user.id,
    booker: { system_first_name: 'Lee', system_last_name: 'Learner', system_email: 'lee@example.com', diet: 'Vegan' },
    attendees: [{ system_first_name: 'Sam', system_last_name: '=Guest', system_email: 'sam@example.com', diet: 'None, thanks' }],
  });
  await insertBooking(server, {
    id: 'bkg_adm_rg_2', educatorId: fx.educatorId, courseId: COURSE, occurrenceId: DATE, studentId: 'stu_adm_rg_cancelled', userId: fx.learner.user.id,
    booker: { system_first_name: 'Cancelled', system_last_name: 'Person', system_email: 'c@example.com' }, status: 'cancelled',
  });
  await insertBooking(server, {
    id: 'bkg_adm_rg_x', educatorId: fx.otherEducatorId, courseId: 'crs_adm_rg_x', occurrenceId: THEIR_DATE, studentId: 'stu_adm_rg_x', userId: fx.learner.user.id,
    booker: { system_first_name: 'Their', system_last_name: 'Learner', system_email: 'x@example.com' },
  });
  await server.db.insertInto('reviews').values({
    id: 'rev_adm_rg_1', educator_id: fx.educatorId, course_id: COURSE, entity: 'course', rating: 5, breakdown: null, verified: false, source_key: 'marketplace',
    source_label: 'Marketplace', external_url: null, reviewer_id: fx.learner.user.studentId, reviewer_name: 'Lee Learner', public_message: 'The kiln club was great',
    response_message: null, response_created_at: null, created_at: NOW - 60, archived_at: null,
  }).execute();
  publisher = testPublisher(server, site.distDir);
}, 300_000);
afterAll(async () => {
  await publisher?.close();
  await server?.close();
  site?.cleanup();
});

const call = (method: string, path: string, body?: unknown) => adminCall(server, fx.admin.cookie, method, `${base}${path}`, body);

describe('registers', () => {
  it('refuses nobody, a learner and another educator\'s admin, and 404s another educator\'s date and booking', async () => {
    const mark = { bookingId: 'bkg_adm_rg_1', attendee: 0, status: 'attended' };
    for (const [method, path, body] of [
      ['GET', '/registers'], ['GET', `/registers/${DATE}`], ['PUT', `/registers/${DATE}/attendance`, mark], ['GET', `/registers/${DATE}/attendees.csv`],
      ['GET', '/exports/bookings.csv'], ['GET', '/exports/enquiries.csv'],
    ] as const) await expectGuarded(server, fx, method, `${base}${path}`, body);
    expect((await call('GET', `/registers/${THEIR_DATE}`)).status).toBe(404);
    expect((await call('GET', `/registers/${THEIR_DATE}/attendees.csv`)).status).toBe(404);
    expect((await call('PUT', `/registers/${THEIR_DATE}/attendance`, { bookingId: 'bkg_adm_rg_x', attendee: 0, status: 'attended' })).status).toBe(404);
    expect((await call('PUT', `/registers/${DATE}/attendance`, { bookingId: 'bkg_adm_rg_x', attendee: 0, status: 'attended' })).status).toBe(404);
    expect(await server.db.selectFrom('attendance').selectAll().execute()).toEqual([]);
    const csv = (await call('GET', '/exports/bookings.csv')).text;
    expect(csv).not.toContain('bkg_adm_rg_x');
  });

  it('lists the coming dates and a date\'s attendees with their answers, cancelled bookings left out', async () => {
    const dates = (await call('GET', '/registers')).json().dates;
    expect(dates).toEqual([expect.objectContaining({ id: DATE, courseName: 'Kiln Club', booked: 2, spaces: 10 })]);
    const reg = (await call('GET', `/registers/${DATE}`)).json();
    expect(reg.attendees.map((a: { firstName: string; lastName: string; role: string; answers: Record<string, string> }) => [a.firstName, a.lastName, a.role, a.answers])).toEqual([
      ['Lee', 'Learner', 'booker', { diet: 'Vegan' }], ['Sam', '=Guest', 'guest', { diet: 'None, thanks' }],
    ]);
  });

  it('refuses a mark for an attendee the booking does not have', async () => {
    const res = await call('PUT', `/registers/${DATE}/attendance`, { bookingId: 'bkg_adm_rg_1', attendee: 2, status: 'attended' });
    expect(res.status).toBe(400);
    expect(res.json().properties).toEqual([expect.objectContaining({ key: 'attendee', message: 'is not an attendee of this booking' })]);
    expect((await call('PUT', `/registers/${DATE}/attendance`, { bookingId: 'bkg_adm_rg_1', attendee: 0, status: 'late' })).status).toBe(400);
  });

  it('check-in makes the learner\'s review verified on the published course page', async () => {
    await publisher.drain();
    const files = [`${educatorSlug}/kiln-club/index.html`, `minisite/${educatorSlug}/kiln-club/index.html`, `embed/${educatorSlug}/kiln-club/index.html`];
    for (const f of files) {
      expect(publisher.read(f), f).toContain('The kiln club was great');
      expect(publisher.read(f), f).toContain('Unverified');
    }
    const noShow = await call('PUT', `/registers/${DATE}/attendance`, { bookingId: 'bkg_adm_rg_1', attendee: 0, status: 'no-show' });
    expect(noShow.json()).toMatchObject({ status: 'no-show', reviewsVerified: 0 });
    const res = await call('PUT', `/registers/${DATE}/attendance`, { bookingId: 'bkg_adm_rg_1', attendee: 0, status: 'attended' });
    expect(res.json()).toMatchObject({ status: 'attended', reviewsVerified: 1 });
    expect((await server.db.selectFrom('reviews').select('verified').where('id', '=', 'rev_adm_rg_1').executeTakeFirstOrThrow()).verified).toBe(true);
    await publisher.drain();
    for (const f of files) {
      expect(publisher.read(f), f).toContain('Verified');
      expect(publisher.read(f), f).not.toContain('Unverified');
    }
    const reg = (await call('GET', `/registers/${DATE}`)).json();
    expect(reg.attendees.map((a: { attendance: string | null }) => a.attendance)).toEqual(['attended', null]);
    const log = (await call('GET', '/changes?entity=booking&entityId=bkg_adm_rg_1')).json().changes;
    expect(log[0]).toMatchObject({ action: 'check-in' });
  }, 180_000);

  it('exports the register as CSV, a spreadsheet formula never read as one', async () => {
    const res = await call('GET', `/registers/${DATE}/attendees.csv`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = res.text.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines).toEqual([
      'Booking,Attendee,First name,Last name,Email,Role,Booking status,Attendance,Answers',
      'bkg_adm_rg_1,1,Lee,Learner,lee@example.com,booker,confirmed,attended,diet: Vegan',
      "bkg_adm_rg_1,2,Sam,'=Guest,sam@example.com,guest,confirmed,,\"diet: None, thanks\"",
    ]);
    const bookings = (await call('GET', '/exports/bookings.csv')).text.trimEnd().split('\r\n');
    expect(bookings).toHaveLength(3);
    expect(bookings[1]).toContain('bkg_adm_rg_1');
  });
});
