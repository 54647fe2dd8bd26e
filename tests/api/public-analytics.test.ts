import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { COURSE_PAGE_VIEW, EDUCATOR_PROFILE_VIEW, ENQUIRY_SUBMITTED, EXTERNAL_REDIRECT, SOCIAL_LINK_TYPES } from '../../src/domain/analytics.ts';
import { NOW, TEST_ENV, expectProblem, insertPublicFixtures, postJson } from './public-fixtures.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(TEST_ENV);
  server.setNow(NOW);
  await insertPublicFixtures(server.db);
});
afterAll(async () => server.close());

const url = () => `${server.url}/api/analytics/events`;

/** Posts an event into an emptied table, so the one stored row is this event's. */
async function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  await server.db.deleteFrom('analytics_events').execute();
  return postJson(url(), body, headers);
}
async function lastEvent() {
  const rows = await server.db.selectFrom('analytics_events').selectAll().execute();
  expect(rows).toHaveLength(1);
  return rows[0];
}

describe('POST /api/analytics/events', () => {
  it('records an educator profile view', async () => {
    const res = await post({ name: EDUCATOR_PROFILE_VIEW, educator_ref: 'edu_clay', educator_name: 'Whatever the page says' });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: true });
    expect(await lastEvent()).toEqual({
      id: expect.stringMatching(/^evt_/),
      name: 'Educator Profile View',
      educator_id: 'edu_clay',
      course_id: null,
      // The educator's name as we hold it, not as sent.
      properties: { educator_ref: 'edu_clay', educator_name: 'Clay Studio' },
      context: 'marketplace',
      created_at: NOW,
    });
  });

  it('records a course page view with its course, and the context of the sending page', async () => {
    const res = await post(
      { name: COURSE_PAGE_VIEW, educator_ref: 'edu_clay', course_ref: 'crs_wheel' },
      { origin: 'http://localhost:4321', referer: 'http://localhost:4321/embed/clay-studio/pottery-wheel-basics' },
    );
    expect(res.status).toBe(202);
    expect(await lastEvent()).toMatchObject({
      name: COURSE_PAGE_VIEW, course_id: 'crs_wheel', context: 'embed',
      properties: { educator_ref: 'edu_clay', educator_name: 'Clay Studio', course_ref: 'crs_wheel' },
    });
  });

  it('records an External Redirect for every social link type', async () => {
    for (const link_type of SOCIAL_LINK_TYPES) {
      const res = await post({ name: EXTERNAL_REDIRECT, educator_ref: 'edu_code', link_type }, { origin: 'http://code-academy.localhost:4321' });
      expect(res.status).toBe(202);
      expect(await lastEvent()).toMatchObject({ name: 'External Redirect', educator_id: 'edu_code', context: 'minisite', properties: { link_type } });
    }
  });

  it("accepts 'Enquriy Sumbitted' spelled as the spec has it (with the enquiry it reports), and names in any case", async () => {
    // The enquiry recorded the event when it was made; the page sending it with the enquiry's id adds nothing.
    await server.db.insertInto('enquiries').values({
      id: 'enq_analytics', type: 'message', educator_id: 'edu_clay', course_id: null, first_name: 'Ada', last_name: 'Lovelace',
      email: 'ada@example.com', phone: '+447700900123', message: 'Hello', enquiry_type: null, occurrence_ref: null, course_slug: null, course_name: null,
      embedded: false, context: 'marketplace', site: 'localhost', user_id: null, ip_hash: null, created_at: NOW,
    }).execute();
    expect((await post({ name: 'Enquriy Sumbitted', educator_ref: 'edu_clay', enquiry_ref: 'enq_analytics' })).status).toBe(202);
    expect(await server.db.selectFrom('analytics_events').selectAll().execute()).toHaveLength(0);
    // Without one it is not accepted.
    const forged = await post({ name: ENQUIRY_SUBMITTED, educator_ref: 'edu_clay' });
    expect(forged.status).toBe(400);
    expect((await post({ name: 'educator profile view', educator_ref: 'edu_clay' })).status).toBe(202);
    expect(await lastEvent()).toMatchObject({ name: EDUCATOR_PROFILE_VIEW });
    expect((await post({ name: 'COURSE PAGE VIEW', educator_ref: 'edu_clay', course_ref: 'crs_glaze' })).status).toBe(202);
    expect(await lastEvent()).toMatchObject({ name: COURSE_PAGE_VIEW, course_id: 'crs_glaze' });
  });

  it('answers an unknown or missing educator with invalid-educator-id', async () => {
    for (const body of [{ name: EDUCATOR_PROFILE_VIEW, educator_ref: 'edu_nope' }, { name: EDUCATOR_PROFILE_VIEW }, { name: EXTERNAL_REDIRECT, educator_ref: 'clay-studio', link_type: 'web' }]) {
      await expectProblem(await postJson(url(), body), { status: 400, type: 'analytics/invalid-educator-id', title: 'Invalid Educator ID' });
    }
  });

  it('answers a bad or missing link type with invalid-educator-link-type', async () => {
    for (const body of [
      { name: EXTERNAL_REDIRECT, educator_ref: 'edu_clay', link_type: 'myspace' },
      { name: EXTERNAL_REDIRECT, educator_ref: 'edu_clay' },
      { name: EDUCATOR_PROFILE_VIEW, educator_ref: 'edu_clay', link_type: 'Facebook' },
    ]) {
      await expectProblem(await postJson(url(), body), {
        status: 400, type: 'analytics/invalid-educator-link-type', title: 'Invalid Link Type',
        detail: 'The link type must be one of facebook, instagram, linkedin, pinterest, twitter, web, youtube or tel.',
      });
    }
  });

  it('answers an unknown event name, a missing or foreign course, and a malformed body with a validation problem', async () => {
    const cases: Array<[unknown, string]> = [
      [{ name: 'page view', educator_ref: 'edu_clay' }, 'name'],
      [{ educator_ref: 'edu_clay' }, 'name'],
      [{ name: COURSE_PAGE_VIEW, educator_ref: 'edu_clay' }, 'course_ref'],
      [{ name: COURSE_PAGE_VIEW, educator_ref: 'edu_clay', course_ref: 'crs_python' }, 'course_ref'],
      [{ name: EDUCATOR_PROFILE_VIEW, educator_ref: 42 }, 'educator_ref'],
    ];
    for (const [body, key] of cases) {
      const problem = await expectProblem(await postJson(url(), body), { status: 400, type: 'generic/validation-error', title: 'Validation Error' });
      expect((problem.properties as Array<{ key: string }>)[0].key).toBe(key);
    }
  });
});
