/**
 * What a signed-in learner does: saving courses, writing and deleting their own
 * reviews (verified by a booking or order, aggregates kept in step), claiming an educator, settings,
 * account deletion — and that nobody can act on another user's data, even by calling the API directly.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { DEFAULT_PASSWORD, lastMailTo, logIn, signUpAndLogin, tokenFromMail, uniqueEmail, type SignedInUser } from '../helpers/auth.ts';
import { loadCatalogue } from '../../db/seed/load.ts';

const ANCHOR = 1_750_032_000;

let server: TestServer;
let courses: { id: string; slug: string; educator_id: string; educator_slug: string }[];
let unpublished: { id: string } | undefined;

beforeAll(async () => {
  server = await startTestServer({ OUTBOX_DIR: mkdtempSync(join(tmpdir(), 'mkt-outbox-')) });
  await loadCatalogue(server.db, { seed: 1, educators: 6, now: ANCHOR });
  courses = await server.db
    .selectFrom('courses as c')
    .innerJoin('educators as e', 'e.id', 'c.educator_id')
    .select(['c.id', 'c.slug', 'c.educator_id', 'e.slug as educator_slug'])
    .where('c.published', '=', true)
    .orderBy('c.id')
    .execute();
  unpublished = await server.db.selectFrom('courses').select('id').where('published', '=', false).executeTakeFirst();
}, 120_000);
afterAll(async () => server.close());

function call(method: string, path: string, who?: SignedInUser | null, body?: unknown) {
  const headers: Record<string, string> = {};
  if (who) headers.cookie = who.cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${server.url}/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function problemType(res: Response): Promise<string> {
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  return (await res.json()).type;
}

describe('saved courses', () => {
  it('adds, reports and removes saved courses for the signed-in learner only', async () => {
    const me = await signUpAndLogin(server);
    const other = await signUpAndLogin(server);
    const [a, b, c] = courses;

    expect((await call('POST', '/student/me/saved-courses', me, { courseId: a.id })).status).toBe(200);
    const added = await call('POST', '/student/me/saved-courses', me, { courseId: b.id });
    expect(await added.json()).toEqual({ courseId: b.id, saved: true });
    // Saving twice is harmless.
    expect((await call('POST', '/student/me/saved-courses', me, { courseId: b.id })).status).toBe(200);

    const status = await call('GET', `/student/me/saved-courses/by-course-id?courseIds=${a.id},${b.id},${c.id}`, me);
    expect(await status.json()).toEqual({ [a.id]: true, [b.id]: true, [c.id]: false });
    // Another learner sees only their own.
    const theirs = await call('GET', `/student/me/saved-courses/by-course-id?courseIds=${a.id},${b.id}`, other);
    expect(await theirs.json()).toEqual({ [a.id]: false, [b.id]: false });

    const list = await (await call('GET', '/student/me/saved-courses', me)).json();
    expect(list.courses.map((card: { _id: string }) => card._id).sort()).toEqual([a.id, b.id].sort());
    expect(list.courses[0]).toHaveProperty('educator_slug');

    const removed = await call('DELETE', `/student/me/saved-courses/${a.id}`, me);
    expect(await removed.json()).toEqual({ courseId: a.id, saved: false });
    const after = await (await call('GET', `/student/me/saved-courses/by-course-id?courseIds=${a.id},${b.id}`, me)).json();
    expect(after).toEqual({ [a.id]: false, [b.id]: true });
  });

  it('needs a signed-in learner, a real published course, and sane input', async () => {
    const me = await signUpAndLogin(server);
    const anon = await call('GET', `/student/me/saved-courses/by-course-id?courseIds=${courses[0].id}`);
    expect(anon.status).toBe(401);
    expect(await problemType(anon)).toMatch(/auth\/unauthenticated$/);
    expect((await call('POST', '/student/me/saved-courses', null, { courseId: courses[0].id })).status).toBe(401);
    expect((await call('DELETE', `/student/me/saved-courses/${courses[0].id}`)).status).toBe(401);

    expect((await call('POST', '/student/me/saved-courses', me, { courseId: 'no-such-course' })).status).toBe(404);
    if (unpublished) expect((await call('POST', '/student/me/saved-courses', me, { courseId: unpublished.id })).status).toBe(404);
    const bad = await call('POST', '/student/me/saved-courses', me, { course: 'x' });
    expect(bad.status).toBe(400);
    expect(await problemType(bad)).toMatch(/generic\/validation-error$/);
    const empty = await call('GET', '/student/me/saved-courses/by-course-id?courseIds=', me);
    expect(await empty.json()).toEqual({});
  });
});

describe('learner reviews', () => {
  async function aggregate(subjectType: 'educator' | 'course', id: string) {
    return server.db.selectFrom('review_aggregates').selectAll().where('subject_type', '=', subjectType).where('subject_id', '=', id).executeTakeFirst();
  }

  it('writes a course review (unverified without a booking) and updates both aggregates; the author deletes it', async () => {
    const me = await signUpAndLogin(server, { firstName: 'Rita', lastName: 'Reviewer' });
    const course = courses[1];
    const beforeCourse = await aggregate('course', course.id);
    const beforeEducator = await aggregate('educator', course.educator_id);

    const res = await call('POST', '/reviews', me, {
      educatorSlug: course.educator_slug, courseSlug: course.slug, rating: 5,
      breakdown: { material: 5, facilitator: 4, organiser: null }, message: '  Brilliant course.  ',
    });
    expect(res.status).toBe(201);
    const review = await res.json();
    expect(review).toMatchObject({
      rating: 5, verified: false, sourceKey: 'marketplace', entity: 'course', publicMessage: 'Brilliant course.',
      reviewer: { id: me.user.studentId, name: 'Rita Reviewer' }, course: { slug: course.slug },
    });
    expect(review.breakdown).toMatchObject({ material: 5, facilitator: 4, organiser: null });

    const courseAgg = await aggregate('course', course.id);
    expect(courseAgg?.count).toBe((beforeCourse?.count ?? 0) + 1);
    expect((await aggregate('educator', course.educator_id))?.count).toBe((beforeEducator?.count ?? 0) + 1);

    // It shows in the public listing, with the author's studentId as reviewer.id.
    const listed = await (await fetch(`${server.url}/api/reviews/${course.educator_slug}/${course.slug}/list`)).json();
    expect(listed.reviews[0]).toMatchObject({ id: review.id, reviewer: { id: me.user.studentId } });

    // A second live review of the same course is refused.
    const twice = await call('POST', '/reviews', me, { educatorSlug: course.educator_slug, courseSlug: course.slug, rating: 3, message: 'Again' });
    expect(twice.status).toBe(409);

    const deleted = await call('DELETE', `/reviews/${review.id}`, me);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ id: review.id, archived: true });
    const row = await server.db.selectFrom('reviews').select('archived_at').where('id', '=', review.id).executeTakeFirstOrThrow();
    expect(row.archived_at).not.toBeNull();
    expect((await aggregate('course', course.id))?.count ?? 0).toBe(beforeCourse?.count ?? 0);
    expect((await aggregate('educator', course.educator_id))?.count ?? 0).toBe(beforeEducator?.count ?? 0);
    const relisted = await (await fetch(`${server.url}/api/reviews/${course.educator_slug}/${course.slug}/list`)).json();
    expect(relisted.reviews.map((r: { id: string }) => r.id)).not.toContain(review.id);
    // Gone is gone.
    expect((await call('DELETE', `/reviews/${review.id}`, me)).status).toBe(404);
  });

  it('refuses to delete another user’s review, even through the API, and a visitor’s request', async () => {
    const author = await signUpAndLogin(server);
    const other = await signUpAndLogin(server);
    const course = courses[2];
    const review = await (await call('POST', '/reviews', author, { educatorSlug: course.educator_slug, rating: 4, message: 'Good people.' })).json();
    expect(review.entity).toBe('educator');

    const refused = await call('DELETE', `/reviews/${review.id}`, other);
    expect(refused.status).toBe(403);
    expect(await problemType(refused)).toMatch(/auth\/forbidden$/);
    expect((await call('DELETE', `/reviews/${review.id}`)).status).toBe(401);
    // A seeded review by someone else cannot be archived either.
    const seeded = await server.db.selectFrom('reviews').select('id').where('reviewer_id', 'is not', null).where('archived_at', 'is', null).where('id', '!=', review.id).executeTakeFirstOrThrow();
    expect((await call('DELETE', `/reviews/${seeded.id}`, other)).status).toBe(403);
    // A cross-site page cannot make the author's browser do it.
    const forged = await fetch(`${server.url}/api/reviews/${review.id}`, { method: 'DELETE', headers: { cookie: author.cookie, origin: 'https://evil.example' } });
    expect(forged.status).toBe(403);

    const row = await server.db.selectFrom('reviews').select('archived_at').where('id', '=', review.id).executeTakeFirstOrThrow();
    expect(row.archived_at).toBeNull();
  });

  it('marks a review verified when the reviewer has a booking or an order', async () => {
    const me = await signUpAndLogin(server);
    const course = courses[3];
    const other = courses.find((c) => c.educator_id !== course.educator_id)!;
    await server.db.insertInto('bookings').values({
      id: `bkg_${me.user.id}`, checkout_id: `chk_${me.user.id}`, flow: 'booking', course_id: course.id, educator_id: course.educator_id,
      user_id: me.user.id, student_id: me.user.studentId, origin: 'marketplace', lines: {}, contact_details: {}, details: {},
      total_cost: 0, created_at: ANCHOR, status: 'confirmed', occurrence_id: null, spaces: 1, start_datetime: null, end_datetime: null,
      payment_method: null, payment_state: 'free', payment_id: null, invoice_details: null, due_date: null, manual_note: null,
    }).execute();
    const courseReview = await (await call('POST', '/reviews', me, { educatorSlug: course.educator_slug, courseSlug: course.slug, rating: 4, message: 'Booked and loved it.' })).json();
    expect(courseReview.verified).toBe(true);
    const educatorReview = await (await call('POST', '/reviews', me, { educatorSlug: course.educator_slug, rating: 5, message: 'Great educator.' })).json();
    expect(educatorReview.verified).toBe(true);
    const elsewhere = await (await call('POST', '/reviews', me, { educatorSlug: other.educator_slug, rating: 3, message: 'Never booked here.' })).json();
    expect(elsewhere.verified).toBe(false);
  });

  it('validates the rating, the breakdown and the message, and needs a real educator and course', async () => {
    const me = await signUpAndLogin(server);
    const course = courses[0];
    for (const body of [
      { educatorSlug: course.educator_slug, rating: 0, message: 'x' },
      { educatorSlug: course.educator_slug, rating: 6, message: 'x' },
      { educatorSlug: course.educator_slug, rating: 4.5, message: 'x' },
      { educatorSlug: course.educator_slug, rating: 4, message: '   ' },
      { educatorSlug: course.educator_slug, rating: 4, message: 'x', breakdown: { material: 9 } },
      { educatorSlug: course.educator_slug, rating: 4, message: 'x', breakdown: { taste: 3 } },
    ]) {
      const res = await call('POST', '/reviews', me, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await call('POST', '/reviews', me, { educatorSlug: 'no-such-educator', rating: 4, message: 'x' })).status).toBe(404);
    expect((await call('POST', '/reviews', me, { educatorSlug: course.educator_slug, courseSlug: 'no-such-course', rating: 4, message: 'x' })).status).toBe(404);
    expect((await call('POST', '/reviews', null, { educatorSlug: course.educator_slug, rating: 4, message: 'x' })).status).toBe(401);
  });
});

describe('claim profile', () => {
  it('stores a signed-in user’s request for an unclaimed educator, once', async () => {
    const me = await signUpAndLogin(server);
    const unclaimed = await server.db.selectFrom('educators').select(['id', 'slug']).where('claimed', '=', false).executeTakeFirst();
    const claimed = await server.db.selectFrom('educators').select(['id', 'slug']).where('claimed', '=', true).executeTakeFirstOrThrow();
    const target = unclaimed ?? (await (async () => {
      await server.db.updateTable('educators').set({ claimed: false }).where('id', '=', claimed.id).execute();
      return claimed;
    })());
    const first = await call('POST', `/educators/${target.slug}/claim`, me, { message: 'I run this studio.', phone: '+44 7700 900123' });
    expect(first.status).toBe(201);
    const claim = await first.json();
    expect(claim).toMatchObject({ status: 'pending', educatorId: target.id });
    const again = await call('POST', `/educators/${target.slug}/claim`, me, {});
    expect(again.status).toBe(200);
    expect((await again.json()).id).toBe(claim.id);
    const stored = await server.db.selectFrom('educator_claims').selectAll().where('id', '=', claim.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ user_id: me.user.id, message: 'I run this studio.', phone: '+447700900123' });
    const status = await (await call('GET', `/educators/${target.slug}/claim`, me)).json();
    expect(status).toMatchObject({ claimed: false, request: { id: claim.id } });

    expect((await call('POST', `/educators/${target.slug}/claim`, null, {})).status).toBe(401);
    expect((await call('POST', '/educators/no-such-educator/claim', me, {})).status).toBe(404);
    const other = await server.db.selectFrom('educators').select('slug').where('claimed', '=', true).where('id', '!=', target.id).executeTakeFirstOrThrow();
    expect((await call('POST', `/educators/${other.slug}/claim`, me, {})).status).toBe(409);
  });
});

describe('user settings', () => {
  it('changes the name; other users are untouched', async () => {
    const me = await signUpAndLogin(server, { firstName: 'Old', lastName: 'Name' });
    const other = await signUpAndLogin(server, { firstName: 'Other', lastName: 'Person' });
    const res = await call('PATCH', '/account', me, { firstName: 'New', lastName: 'Surname' });
    expect(await res.json()).toMatchObject({ firstName: 'New', lastName: 'Surname', hasPassword: true, email: me.user.email });
    const identity = await (await call('GET', '/identity', me)).json();
    expect(identity).toMatchObject({ firstName: 'New', lastName: 'Surname' });
    expect(await (await call('GET', '/account', other)).json()).toMatchObject({ firstName: 'Other' });
    // There is no way to name another user: unknown fields are refused.
    expect((await call('PATCH', '/account', me, { id: other.user.id, firstName: 'X' })).status).toBe(400);
    expect((await call('GET', '/account')).status).toBe(401);
  });

  it('changes the e-mail address after the new address confirms it', async () => {
    const me = await signUpAndLogin(server);
    const next = uniqueEmail('moved');
    expect((await call('POST', '/account/email', me, { email: next })).status).toBe(202);
    expect((await (await call('GET', '/account', me)).json()).email).toBe(me.user.email);
    const token = tokenFromMail((await lastMailTo(server.db, next))!.text_body);
    const other = await signUpAndLogin(server);
    expect((await call('POST', '/account/email/confirm', other, { token })).status).toBe(400);
    const confirmed = await call('POST', '/account/email/confirm', me, { token });
    expect(await confirmed.json()).toMatchObject({ email: next, emailConfirmed: true });
    expect(await logIn(server, next, DEFAULT_PASSWORD)).toMatch(/^mk_session=/);

    // An address that has an account: the same answer, and its owner is told instead.
    const res = await call('POST', '/account/email', me, { email: other.user.email });
    expect(res.status).toBe(202);
    expect((await lastMailTo(server.db, other.user.email))?.subject).toBe('Your e-mail address');
  });

  it('changes the password with the current one, and ends the other logins', async () => {
    const me = await signUpAndLogin(server);
    const elsewhere = await logIn(server, me.user.email, DEFAULT_PASSWORD);
    const wrong = await call('POST', '/account/password', me, { currentPassword: 'not it at all', newPassword: 'a brand new password' });
    expect(wrong.status).toBe(400);
    const ok = await call('POST', '/account/password', me, { currentPassword: DEFAULT_PASSWORD, newPassword: 'a brand new password' });
    expect(ok.status).toBe(204);
    expect((await (await call('GET', '/identity', me)).json()).authenticated).toBe(true);
    const other = await fetch(`${server.url}/api/identity`, { headers: { cookie: elsewhere } });
    expect((await other.json()).authenticated).toBe(false);
    expect(await logIn(server, me.user.email, 'a brand new password')).toMatch(/^mk_session=/);
  });

  it('deletes the account with its reviews and saved courses', async () => {
    const me = await signUpAndLogin(server);
    const course = courses[4];
    await call('POST', '/student/me/saved-courses', me, { courseId: course.id });
    const before = await server.db.selectFrom('review_aggregates').select('count').where('subject_type', '=', 'course').where('subject_id', '=', course.id).executeTakeFirst();
    const review = await (await call('POST', '/reviews', me, { educatorSlug: course.educator_slug, courseSlug: course.slug, rating: 1, message: 'Meh.' })).json();

    expect((await call('DELETE', '/account', me, { password: 'wrong password' })).status).toBe(400);
    const res = await call('DELETE', '/account', me, { password: DEFAULT_PASSWORD });
    expect(res.status).toBe(204);
    expect(await server.db.selectFrom('users').select('id').where('id', '=', me.user.id).executeTakeFirst()).toBeUndefined();
    expect(await server.db.selectFrom('saved_courses').select('course_id').where('student_id', '=', me.user.studentId).execute()).toEqual([]);
    expect(await server.db.selectFrom('reviews').select('id').where('id', '=', review.id).executeTakeFirst()).toBeUndefined();
    expect(await server.db.selectFrom('sessions').select('token_hash').where('user_id', '=', me.user.id).execute()).toEqual([]);
    const after = await server.db.selectFrom('review_aggregates').select('count').where('subject_type', '=', 'course').where('subject_id', '=', course.id).executeTakeFirst();
    expect(after?.count ?? 0).toBe(before?.count ?? 0);
    expect((await (await call('GET', '/identity', me)).json()).authenticated).toBe(false);
  });
});
