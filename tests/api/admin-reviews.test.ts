/**
 * The admin's Reviews API (api/admin/reviews.ts) through the real server, on SQLite and PostgreSQL: the educator
 * scope, newest-first paging, the response written, edited and removed (and what the publisher then puts on the
 * course page in all three contexts), reports for the platform team, and the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ADMIN_ENV, adminCall, adminFixture, expectGuarded, type AdminFixture } from '../helpers/admin.ts';
import { builtSite, testPublisher, type TestPublisher } from '../helpers/admin-publish.ts';
import { courseRow } from './public-fixtures.ts';
import { REVIEWS_PAGE_SIZE } from '../../src/domain/admin/reviews.ts';

let server: TestServer;
let fx: AdminFixture;
let base: string;
let site: Awaited<ReturnType<typeof builtSite>>;
let publisher: TestPublisher;
let educatorSlug: string;
const COURSE = 'crs_adm_rv_1';
const THEIR_REVIEW = 'rev_adm_rv_other';
const T0 = 1_760_000_000;

beforeAll(async () => {
  [server, site] = await Promise.all([startTestServer(ADMIN_ENV), builtSite()]);
  fx = await adminFixture(server, 'rv');
  base = `/api/admin/educators/${fx.educatorId}`;
  educatorSlug = (await server.db.selectFrom('educators').select('slug').where('id', '=', fx.educatorId).executeTakeFirstOrThrow()).slug;
  await server.db.insertInto('courses').values([
    courseRow({ id: COURSE, educator_id: fx.educatorId, slug: 'glaze-lab', name: 'Glaze Lab' }),
    courseRow({ id: 'crs_adm_rv_x', educator_id: fx.otherEducatorId, slug: 'theirs', name: 'Theirs' }),
  ]).execute();
  const review = (id: string, i: number, educatorId = fx.educatorId, courseId: string | null = COURSE) => ({
    id, educator_id: educatorId, course_id: courseId, entity: (courseId ? 'course' : 'educator') as 'course' | 'educator', rating: 5, breakdown: null,
    verified: false, source_key: 'marketplace', source_label: 'Marketplace', external_url: null, reviewer_id: `stu_rv_${i}`,
    reviewer_name: `Reviewer ${i}`, public_message: `Lovely class number ${i}`, response_message: null, response_created_at: null,
    created_at: T0 + i * 60, archived_at: null,
  });
  await server.db.insertInto('reviews').values([
    ...Array.from({ length: REVIEWS_PAGE_SIZE + 3 }, (_, i) => review(`rev_adm_rv_${String(i).padStart(2, '0')}`, i)),
    review(THEIR_REVIEW, 99, fx.otherEducatorId, 'crs_adm_rv_x'),
  ]).execute();
  publisher = testPublisher(server, site.distDir);
}, 300_000);
afterAll(async () => {
  await publisher?.close();
  await server?.close();
  site?.cleanup();
});

const call = (method: string, path: string, body?: unknown) => adminCall(server, fx.admin.cookie, method, `${base}${path}`, body);
const NEWEST = `rev_adm_rv_${String(REVIEWS_PAGE_SIZE + 2).padStart(2, '0')}`;

describe('reviews', () => {
  it('refuses nobody, a learner and another educator\'s admin, and 404s another educator\'s review', async () => {
    await expectGuarded(server, fx, 'GET', `${base}/reviews`);
    await expectGuarded(server, fx, 'PUT', `${base}/reviews/${NEWEST}/response`, { message: 'Thanks' });
    await expectGuarded(server, fx, 'DELETE', `${base}/reviews/${NEWEST}/response`);
    await expectGuarded(server, fx, 'POST', `${base}/reviews/${NEWEST}/report`, { reason: 'Spam' });
    expect((await call('PUT', `/reviews/${THEIR_REVIEW}/response`, { message: 'Mine now' })).status).toBe(404);
    expect((await call('DELETE', `/reviews/${THEIR_REVIEW}/response`)).status).toBe(404);
    expect((await call('POST', `/reviews/${THEIR_REVIEW}/report`, { reason: 'Spam' })).status).toBe(404);
    const theirs = await server.db.selectFrom('reviews').select('response_message').where('id', '=', THEIR_REVIEW).executeTakeFirstOrThrow();
    expect(theirs.response_message).toBeNull();
    expect(await server.db.selectFrom('review_reports').selectAll().where('review_id', '=', THEIR_REVIEW).execute()).toEqual([]);
  });

  it('lists the educator\'s reviews newest first, a page at a time, never another educator\'s', async () => {
    const first = (await call('GET', '/reviews')).json();
    expect(first.reviews).toHaveLength(REVIEWS_PAGE_SIZE);
    expect(first.reviews[0]).toMatchObject({ id: NEWEST, reviewerName: `Reviewer ${REVIEWS_PAGE_SIZE + 2}`, course: { id: COURSE, name: 'Glaze Lab' }, response: null, reported: false });
    const second = (await call('GET', `/reviews?before=${encodeURIComponent(first.next)}`)).json();
    expect(second.reviews.map((r: { id: string }) => r.id)).toEqual(['rev_adm_rv_02', 'rev_adm_rv_01', 'rev_adm_rv_00']);
    expect(second.next).toBeNull();
    expect((await call('GET', '/reviews?before=nonsense')).status).toBe(400);
  });

  it('answers "is required" for an empty response or reason', async () => {
    const res = await call('PUT', `/reviews/${NEWEST}/response`, { message: '   ' });
    expect(res.status).toBe(400);
    expect(res.json().properties).toEqual([expect.objectContaining({ key: 'message', message: 'is required' })]);
    const report = await call('POST', `/reviews/${NEWEST}/report`, {});
    expect(report.json().properties).toEqual([expect.objectContaining({ key: 'reason', message: 'is required' })]);
  });

  it('puts the response on the published course page in all three contexts, edited and removed', async () => {
    await publisher.drain();
    const files = [`${educatorSlug}/glaze-lab/index.html`, `minisite/${educatorSlug}/glaze-lab/index.html`, `embed/${educatorSlug}/glaze-lab/index.html`];
    for (const file of files) {
      expect(publisher.read(file), file).toContain(`Lovely class number ${REVIEWS_PAGE_SIZE + 2}`);
      expect(publisher.read(file), file).not.toContain('Thank you for coming to the glaze lab');
    }
    const res = await call('PUT', `/reviews/${NEWEST}/response`, { message: 'Thank you for coming to the glaze lab' });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ reviewId: NEWEST, response: { message: 'Thank you for coming to the glaze lab' } });
    await publisher.drain();
    for (const file of files) {
      const html = publisher.read(file)!;
      expect(html, file).toContain('Thank you for coming to the glaze lab');
      expect(html, file).toContain('Responded');
    }
    for (const file of [`${educatorSlug}/reviews/index.html`, `minisite/${educatorSlug}/reviews/index.html`, `embed/${educatorSlug}/reviews/index.html`]) {
      expect(publisher.read(file), file).toContain('Thank you for coming to the glaze lab');
    }

    await call('PUT', `/reviews/${NEWEST}/response`, { message: 'Edited: thanks for the lovely words' });
    await publisher.drain();
    for (const file of files) {
      expect(publisher.read(file), file).toContain('Edited: thanks for the lovely words');
      expect(publisher.read(file), file).not.toContain('Thank you for coming to the glaze lab');
    }

    expect((await call('DELETE', `/reviews/${NEWEST}/response`)).status).toBe(204);
    await publisher.drain();
    for (const file of files) expect(publisher.read(file), file).not.toContain('Edited: thanks for the lovely words');
    expect((await call('GET', '/reviews')).json().reviews[0].response).toBeNull();

    const log = (await call('GET', `/changes?entity=review&entityId=${NEWEST}`)).json().changes;
    // Entries of the same second have no order between them.
    expect(log.map((e: { action: string }) => e.action).sort()).toEqual(['remove-response', 'respond', 'update-response']);
  }, 180_000);

  it('stores a report for the platform team', async () => {
    const res = await call('POST', `/reviews/${NEWEST}/report`, { reason: 'Not a learner of ours: spam' });
    expect(res.status).toBe(201);
    const rows = await server.db.selectFrom('review_reports').selectAll().where('review_id', '=', NEWEST).execute();
    expect(rows).toEqual([expect.objectContaining({ educator_id: fx.educatorId, user_id: fx.admin.user.id, reason: 'Not a learner of ours: spam', resolved_at: null })]);
    expect((await call('GET', '/reviews')).json().reviews[0].reported).toBe(true);
  });
});
