/**
 * The admin's Numbers API (api/admin/numbers.ts) through the real server, on SQLite and PostgreSQL: the educator
 * scope and a funnel whose figures equal the events and checkouts recorded in the period (and none outside it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ADMIN_ENV, adminCall, adminFixture, expectGuarded, type AdminFixture } from '../helpers/admin.ts';
import { courseRow } from './public-fixtures.ts';
import { COURSE_PAGE_VIEW, EDUCATOR_PROFILE_VIEW, ENQUIRY_SUBMITTED } from '../../src/domain/analytics.ts';

let server: TestServer;
let fx: AdminFixture;
let base: string;
const A = 'crs_adm_nb_a';
const B = 'crs_adm_nb_b';
const DAY0 = Date.UTC(2026, 5, 1) / 1000;
let n = 0;

const event = (educatorId: string, name: string, context: string, courseId: string | null, at = DAY0 + 3600) => ({
  id: `evt_adm_nb_${++n}`, name, educator_id: educatorId, course_id: courseId, properties: {}, context, created_at: at,
});
const checkout = (educatorId: string, origin: 'marketplace' | 'embed' | 'landing_page', courseId: string, steps: string[], completed: boolean, at = DAY0 + 7200) => ({
  id: `chk_adm_nb_${++n}`, flow: 'booking' as const, origin, course_id: courseId, educator_id: educatorId, occurrence_id: null, user_id: null, student_id: null,
  current_step: 'payment', step_state: Object.fromEntries(steps.map((s) => [s, { status: 'complete', state: {} }])), utms: null, booked_on_url: null,
  booking_id: null, order_id: null, request_id: null, application_id: null, outcome_kind: null, outcome_id: null, total_cost: null, cost_summary: null,
  payment_provider: null, payment_id: null, created_at: at, updated_at: at, completed_at: completed ? at : null,
});

beforeAll(async () => {
  server = await startTestServer(ADMIN_ENV);
  fx = await adminFixture(server, 'nb');
  base = `/api/admin/educators/${fx.educatorId}`;
  await server.db.insertInto('courses').values([
    courseRow({ id: A, educator_id: fx.educatorId, slug: 'nb-a', name: 'Course A' }),
    courseRow({ id: B, educator_id: fx.educatorId, slug: 'nb-b', name: 'Course B' }),
    courseRow({ id: 'crs_adm_nb_x', educator_id: fx.otherEducatorId, slug: 'nb-x', name: 'Theirs' }),
  ]).execute();
  const e = fx.educatorId;
  await server.db.insertInto('analytics_events').values([
    event(e, EDUCATOR_PROFILE_VIEW, 'marketplace', null), event(e, EDUCATOR_PROFILE_VIEW, 'minisite', null),
    ...Array.from({ length: 10 }, () => event(e, COURSE_PAGE_VIEW, 'marketplace', A)),
    ...Array.from({ length: 4 }, () => event(e, COURSE_PAGE_VIEW, 'minisite', A)),
    ...Array.from({ length: 5 }, () => event(e, COURSE_PAGE_VIEW, 'embed', B)),
    event(e, ENQUIRY_SUBMITTED, 'marketplace', null), event(e, ENQUIRY_SUBMITTED, 'embed', null),
    // Outside the period, and another educator's: never counted.
    event(e, COURSE_PAGE_VIEW, 'marketplace', A, DAY0 - 10), event(fx.otherEducatorId, COURSE_PAGE_VIEW, 'marketplace', 'crs_adm_nb_x'),
  ]).execute();
  await server.db.insertInto('checkouts').values([
    checkout(e, 'marketplace', A, ['date', 'spaces', 'contactDetails', 'payment'], true),
    checkout(e, 'marketplace', A, ['date', 'spaces', 'contactDetails'], false),
    checkout(e, 'marketplace', A, ['date'], false),
    checkout(e, 'landing_page', A, ['date', 'spaces', 'contactDetails', 'payment'], true),
    checkout(e, 'embed', B, [], false),
    checkout(e, 'marketplace', A, ['date'], true, DAY0 - 10),
    checkout(fx.otherEducatorId, 'marketplace', 'crs_adm_nb_x', ['date'], true),
  ]).execute();
});
afterAll(() => server?.close());

const call = (path: string) => adminCall(server, fx.admin.cookie, 'GET', `${base}${path}`);

describe('numbers', () => {
  it('refuses nobody, a learner and another educator\'s admin', async () => {
    await expectGuarded(server, fx, 'GET', `${base}/numbers`);
  });

  it('counts exactly the events and checkouts recorded in the period: views, enquiries, the funnel, conversion', async () => {
    const res = await call('/numbers?from=2026-06-01&to=2026-06-01');
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ profileViews: 2, courseViews: 19, enquiries: 2 });
    expect(body.funnel).toEqual([
      { step: 'started', label: 'Checkout started', count: 5 },
      { step: 'date', label: 'Date chosen', count: 4 },
      { step: 'spaces', label: 'Spaces chosen', count: 3 },
      { step: 'contactDetails', label: 'Contact details given', count: 3 },
      { step: 'payment', label: 'Payment made', count: 2 },
      { step: 'completed', label: 'Completed', count: 2 },
    ]);
    expect(body.byContext).toEqual([
      { context: 'marketplace', views: 10, checkouts: 3, completed: 1, conversion: 0.1 },
      { context: 'minisite', views: 4, checkouts: 1, completed: 1, conversion: 0.25 },
      { context: 'embed', views: 5, checkouts: 1, completed: 0, conversion: 0 },
    ]);
    expect(body.byCourse).toEqual([
      { courseId: A, courseName: 'Course A', views: 14, checkouts: 4, completed: 2, conversion: 2 / 14 },
      { courseId: B, courseName: 'Course B', views: 5, checkouts: 1, completed: 0, conversion: 0 },
    ]);
  });

  it('answers a bad period with a problem', async () => {
    expect((await call('/numbers?from=2026-06-02&to=2026-06-01')).status).toBe(400);
    expect((await call('/numbers?from=yesterday')).status).toBe(400);
    const empty = (await call('/numbers?from=2025-01-01&to=2025-01-02')).json();
    expect(empty.funnel).toEqual([{ step: 'started', label: 'Checkout started', count: 0 }, { step: 'completed', label: 'Completed', count: 0 }]);
  });
});
