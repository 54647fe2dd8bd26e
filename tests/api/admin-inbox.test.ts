/**
 * The admin's Inbox API (api/admin/inbox.ts) through the real server, on SQLite and PostgreSQL: the educator
 * scope, enquiries and waitlist entries listed and opened, a reply e-mailed through the outbox in the reply's
 * transaction, done and reopened, and the waitlist told once per entry, in order, when a date is added.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ADMIN_ENV, adminCall, adminFixture, expectGuarded, type AdminFixture } from '../helpers/admin.ts';
import { courseRow } from './public-fixtures.ts';

let server: TestServer;
let fx: AdminFixture;
let base: string;
const COURSE = 'crs_adm_ib_1';
const T0 = Math.floor(Date.now() / 1000) - 3600;

const enquiry = (id: string, educatorId: string, type: 'message' | 'waitlist', i: number, courseId: string | null = null) => ({
  id, type, educator_id: educatorId, course_id: courseId, first_name: `First${i}`, last_name: 'Learner', email: `l${i}@example.com`, phone: '+447700900123',
  message: type === 'message' ? `Question number ${i}` : null, enquiry_type: null, occurrence_ref: null, course_slug: null, course_name: courseId ? 'Wheel Club' : null,
  embedded: false, context: 'marketplace', site: 'localhost', user_id: null, ip_hash: null, created_at: T0 + i,
});

beforeAll(async () => {
  server = await startTestServer(ADMIN_ENV);
  fx = await adminFixture(server, 'ib');
  base = `/api/admin/educators/${fx.educatorId}`;
  await server.db.insertInto('courses').values([
    courseRow({ id: COURSE, educator_id: fx.educatorId, slug: 'wheel-club', name: 'Wheel Club' }),
  ]).execute();
  await server.db.insertInto('enquiries').values([
    enquiry('enq_adm_ib_1', fx.educatorId, 'message', 1),
    enquiry('enq_adm_ib_w1', fx.educatorId, 'waitlist', 2, COURSE),
    enquiry('enq_adm_ib_w2', fx.educatorId, 'waitlist', 3, COURSE),
    enquiry('enq_adm_ib_x', fx.otherEducatorId, 'message', 4),
  ]).execute();
});
afterAll(() => server?.close());

const call = (method: string, path: string, body?: unknown) => adminCall(server, fx.admin.cookie, method, `${base}${path}`, body);
const outbox = (tag: string) => server.db.selectFrom('outbox_messages').select(['id', 'to_address', 'subject', 'text_body', 'tag']).where('tag', '=', tag).orderBy('created_at').orderBy('id').execute();

describe('inbox', () => {
  it('refuses nobody, a learner and another educator\'s admin, and 404s another educator\'s enquiry', async () => {
    await expectGuarded(server, fx, 'GET', `${base}/inbox`);
    await expectGuarded(server, fx, 'GET', `${base}/inbox/enq_adm_ib_1`);
    await expectGuarded(server, fx, 'POST', `${base}/inbox/enq_adm_ib_1/reply`, { message: 'Hi' });
    await expectGuarded(server, fx, 'PUT', `${base}/inbox/enq_adm_ib_1/done`, { done: true });
    expect((await call('GET', '/inbox/enq_adm_ib_x')).status).toBe(404);
    expect((await call('POST', '/inbox/enq_adm_ib_x/reply', { message: 'Hi' })).status).toBe(404);
    expect((await call('PUT', '/inbox/enq_adm_ib_x/done', { done: true })).status).toBe(404);
    expect(await outbox('enquiry-reply')).toEqual([]);
    const theirs = await server.db.selectFrom('enquiries').select(['read_at', 'done_at']).where('id', '=', 'enq_adm_ib_x').executeTakeFirstOrThrow();
    expect(theirs).toEqual({ read_at: null, done_at: null });
  });

  it('lists the educator\'s enquiries and waitlist entries newest first, unread until opened', async () => {
    const all = (await call('GET', '/inbox')).json();
    expect(all.items.map((i: { id: string }) => i.id)).toEqual(['enq_adm_ib_w2', 'enq_adm_ib_w1', 'enq_adm_ib_1']);
    expect(all.items[2]).toMatchObject({ readAt: null, message: 'Question number 1' });
    const waitlist = (await call('GET', '/inbox?type=waitlist')).json();
    expect(waitlist.items.map((i: { id: string }) => i.id)).toEqual(['enq_adm_ib_w2', 'enq_adm_ib_w1']);
    const opened = (await call('GET', '/inbox/enq_adm_ib_1')).json();
    expect(opened.readAt).toEqual(expect.any(Number));
    expect((await call('GET', '/inbox?type=message')).json().items[0].readAt).toEqual(expect.any(Number));
    expect((await call('GET', '/inbox?type=other')).status).toBe(400);
  });

  it('e-mails a reply through the outbox, recorded with it', async () => {
    expect((await call('POST', '/inbox/enq_adm_ib_1/reply', { message: '' })).json().properties).toEqual([expect.objectContaining({ key: 'message', message: 'is required' })]);
    const res = await call('POST', '/inbox/enq_adm_ib_1/reply', { message: 'Yes, aprons are provided.' });
    expect(res.status).toBe(201);
    const mails = await outbox('enquiry-reply');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to_address: 'l1@example.com' });
    expect(mails[0]!.subject).toMatch(/^Re: your enquiry to Educator /);
    expect(mails[0]!.text_body).toContain('Yes, aprons are provided.');
    expect(mails[0]!.text_body).toContain('> Question number 1');
    const replies = await server.db.selectFrom('enquiry_replies').selectAll().where('enquiry_id', '=', 'enq_adm_ib_1').execute();
    expect(replies).toEqual([expect.objectContaining({ message: 'Yes, aprons are provided.', outbox_id: mails[0]!.id, user_id: fx.admin.user.id })]);
    expect((await call('GET', '/inbox/enq_adm_ib_1')).json().replies).toEqual([expect.objectContaining({ message: 'Yes, aprons are provided.' })]);
  });

  it('marks an enquiry done and reopens it', async () => {
    expect((await call('PUT', '/inbox/enq_adm_ib_1/done', { done: true })).json().doneAt).toEqual(expect.any(Number));
    expect((await call('GET', '/inbox')).json().items.map((i: { id: string }) => i.id)).not.toContain('enq_adm_ib_1');
    expect((await call('GET', '/inbox?state=done')).json().items.map((i: { id: string }) => i.id)).toEqual(['enq_adm_ib_1']);
    expect((await call('PUT', '/inbox/enq_adm_ib_1/done', { done: false })).json().doneAt).toBeNull();
    const log = (await call('GET', '/changes?entity=enquiry&entityId=enq_adm_ib_1')).json().changes.map((e: { action: string }) => e.action);
    // Entries of the same second have no order between them.
    expect([...log].sort()).toEqual(['done', 'reopen', 'reply']);
  });

  it('e-mails each waitlisted learner once, oldest first, when a date is added (and not again for the next date)', async () => {
    const date = (day: string) => ({ kind: 'single', date: day, startTime: '18:00', endTime: '20:00', delivery: 'online', spaces: 6 });
    const year = new Date().getUTCFullYear() + 1;
    expect((await call('POST', `/courses/${COURSE}/dates`, date(`${year}-03-10`))).status).toBe(201);
    const first = await outbox('waitlist-available');
    expect(first.map((m) => m.to_address)).toEqual(['l2@example.com', 'l3@example.com']);
    expect(first[0]!.subject).toBe('New dates for Wheel Club');
    expect(first[0]!.text_body).toContain(`/wheel-club`);
    expect((await call('POST', `/courses/${COURSE}/dates`, date(`${year}-03-17`))).status).toBe(201);
    expect(await outbox('waitlist-available')).toHaveLength(2);
    // A learner who joins later is told at the next date, once.
    await server.db.insertInto('enquiries').values(enquiry('enq_adm_ib_w3', fx.educatorId, 'waitlist', 5, COURSE)).execute();
    expect((await call('POST', `/courses/${COURSE}/dates`, date(`${year}-03-24`))).status).toBe(201);
    expect((await outbox('waitlist-available')).map((m) => m.to_address)).toEqual(['l2@example.com', 'l3@example.com', 'l5@example.com']);
    const notified = (await call('GET', '/inbox?type=waitlist')).json().items;
    expect(notified.every((i: { notifiedAt: number | null }) => i.notifiedAt !== null)).toBe(true);
  });
});
