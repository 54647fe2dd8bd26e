/**
 * The Money screen's API (api/admin/money.ts), messages to a date's or a course's learners (api/admin/messages.ts)
 * and the waitlist told when spaces free up (api/admin/inbox.ts notifyWaitlistOfDate), through the real server on
 * SQLite and PostgreSQL: the educator scope on every route, figures equal to the rows recorded (and none of another
 * educator's or outside the period), the CSV exports, one e-mail per learner in the outbox kept on each booking's
 * page, and each waitlisted learner e-mailed once, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ADMIN_ENV, adminCall, adminFixture, expectGuarded, type AdminFixture } from '../helpers/admin.ts';
import { courseRow } from './public-fixtures.ts';
import { insertBooking, insertDate, insertOrder } from './admin-fixtures-business.ts';

let server: TestServer;
let fx: AdminFixture;
let base: string;
const NOW = Math.floor(Date.now() / 1000);
const DAY = 86_400;
const COURSE = 'crs_adm_money_1';
const WAIT_COURSE = 'crs_adm_money_w';
const OTHER_COURSE = 'crs_adm_money_x';
const RECORDED_COURSE = 'crs_adm_money_od';
const DATE = 'occ_adm_money_1';
const PAST_DATE = 'occ_adm_money_p';
const FULL_DATE = 'occ_adm_money_f';
const OTHER_DATE = 'occ_adm_money_x';

const booker = (n: number, email = `learner${n}@example.com`) => ({ system_first_name: `Learner${n}`, system_last_name: 'Money', system_email: email });

beforeAll(async () => {
  server = await startTestServer(ADMIN_ENV);
  fx = await adminFixture(server, 'money');
  base = `/api/admin/educators/${fx.educatorId}`;
  const e = fx.educatorId;
  await server.db.insertInto('courses').values([
    courseRow({ id: COURSE, educator_id: e, slug: 'money-course', name: 'Money Course', spaces: 10 }),
    courseRow({ id: WAIT_COURSE, educator_id: e, slug: 'wait-course', name: 'Wait Course', spaces: 2 }),
    courseRow({ id: OTHER_COURSE, educator_id: fx.otherEducatorId, slug: 'other-course', name: 'Other Course', spaces: 10 }),
    courseRow({ id: RECORDED_COURSE, educator_id: e, slug: 'recorded-course', name: 'Recorded Course', type: 'on-demand', delivery_modes: ['on-demand'] }),
  ]).execute();
  await insertDate(server, DATE, COURSE, NOW + 7 * DAY);
  await insertDate(server, PAST_DATE, COURSE, NOW - 7 * DAY);
  await insertDate(server, OTHER_DATE, OTHER_COURSE, NOW + 7 * DAY);
  const u = fx.learner.user;
  const mk = (id: string, occurrenceId: string, n: number, extra: Partial<Parameters<typeof insertBooking>[1]> = {}, courseId = COURSE, educatorId = e) =>
    insertBooking(server, { id, educatorId, courseId, occurrenceId, studentId: u.studentId, userId: u.id, booker: booker(n), ...extra });
  await mk('bk_adm_money_1', DATE, 1, { paymentState: 'paid' });
  await mk('bk_adm_money_2', DATE, 2);
  // The same learner again on the same date: one e-mail, both bookings keep the message.
  await mk('bk_adm_money_3', DATE, 1);
  await mk('bk_adm_money_c', DATE, 4, { status: 'cancelled' });
  await mk('bk_adm_money_p', PAST_DATE, 5);
  await mk('bk_adm_money_x', OTHER_DATE, 6, {}, OTHER_COURSE, fx.otherEducatorId);
  await seedMoney();
});
afterAll(() => server?.close());

const call = (method: string, path: string, body?: unknown) => adminCall(server, fx.admin.cookie, method, `${base}${path}`, body);
const outbox = (tag: string) => server.db.selectFrom('outbox_messages').select(['id', 'to_address', 'subject', 'text_body']).where('tag', '=', tag).orderBy('created_at').orderBy('id').execute();

/** A paid booking's money (through the test provider, with its fee), a refund, gift cards and memberships. */
async function seedMoney(): Promise<void> {
  const e = fx.educatorId;
  await server.db.updateTable('checkouts').set({ completed_at: NOW - DAY, total_cost: 5150, cost_summary: { platform_fee: 150, fees_absorbed: false } }).where('id', '=', 'chk_bk_adm_money_1').execute();
  await server.db.updateTable('checkouts').set({ completed_at: NOW - DAY, total_cost: 4000, cost_summary: { platform_fee: 120, fees_absorbed: false } }).where('id', '=', 'chk_bk_adm_money_x').execute();
  await server.db.updateTable('bookings').set({ payment_state: 'paid' }).where('id', '=', 'bk_adm_money_x').execute();
  await server.db.insertInto('checkout_payments').values([
    { id: 'cpay_adm_money_1', checkout_id: 'chk_bk_adm_money_1', provider: 'test', provider_payment_id: 'tp_money_1', amount: 5150, currency: 'GBP', status: 'succeeded', created_at: NOW - DAY, updated_at: NOW - DAY, checked_at: null },
    // Long before the period: not counted.
    { id: 'cpay_adm_money_2', checkout_id: 'chk_bk_adm_money_2', provider: 'test', provider_payment_id: 'tp_money_2', amount: 999, currency: 'GBP', status: 'succeeded', created_at: NOW - 400 * DAY, updated_at: NOW - 400 * DAY, checked_at: null },
    // Another educator's.
    { id: 'cpay_adm_money_x', checkout_id: 'chk_bk_adm_money_x', provider: 'test', provider_payment_id: 'tp_money_x', amount: 4000, currency: 'GBP', status: 'succeeded', created_at: NOW - DAY, updated_at: NOW - DAY, checked_at: null },
  ]).execute();
  await server.db.insertInto('refunds').values({
    id: 'rfd_adm_money_1', educator_id: e, booking_id: 'bk_adm_money_1', seq: 1, request_key: 'money-1', kind: 'refund', amount: 2000, platform_fee_refunded: 58,
    provider: 'test', provider_payment_id: 'tp_money_1', provider_key: 'refund_rfd_adm_money_1', provider_refund_id: 're_1', status: 'succeeded', created_at: NOW - 3600,
    last_error: null, reason: null, created_by: null, checked_at: null, completed_at: NOW - 3600,
  }).execute();
  const card = (id: string, educatorId: string, amount: number, balance: number, createdAt: number, expiresAt: number) => ({
    id, educator_id: educatorId, code: `GIFT-${id.toUpperCase()}`, amount, balance, checkout_id: null, buyer_user_id: null, buyer_name: 'Bea Buyer', buyer_email: 'bea@example.com',
    recipient_name: 'Rita Recipient', recipient_email: 'rita@example.com', send_at: createdAt, recipient_sent_at: createdAt, expires_at: expiresAt, design_colour: null,
    payment_method: 'card', payment_id: null, created_at: createdAt,
  });
  await server.db.insertInto('gift_cards').values([
    card('gc_money_1', e, 5000, 2000, NOW - 2 * DAY, NOW + 300 * DAY),
    card('gc_money_2', e, 2500, 2500, NOW - 3 * DAY, NOW + 300 * DAY),
    card('gc_money_old', e, 1000, 400, NOW - 500 * DAY, NOW - 100 * DAY),
    card('gc_money_x', fx.otherEducatorId, 9000, 9000, NOW - DAY, NOW + 300 * DAY),
  ]).execute();
  await server.db.insertInto('gift_card_redemptions').values({
    id: 'gcr_money_1', gift_card_id: 'gc_money_1', checkout_id: 'chk_gcr_money_1', amount: 3000, status: 'committed', expires_at: NOW, outcome_kind: 'booking', outcome_id: 'bk_adm_money_2', created_at: NOW - DAY, updated_at: NOW - DAY,
  }).execute();
  await server.db.insertInto('membership_plans').values({ id: 'pln_money_1', educator_id: e, name: 'Monthly Club', interval: 'month', pass_months: null, price: 1500, course_ids: null, created_at: NOW - 90 * DAY }).execute();
  const member = (id: string, userId: string, status: 'active' | 'past_due' | 'ended', createdAt: number, endReason: string | null = null) => ({
    id, plan_id: 'pln_money_1', educator_id: e, user_id: userId, checkout_id: null, status, payment_method: 'card', provider: 'test-recurring', provider_customer_id: null,
    provider_subscription_id: null, price: 1500, currency: 'GBP', anchor_at: createdAt, current_period_start: NOW - 10 * DAY, current_period_end: NOW + 20 * DAY,
    cancel_requested_at: null, ended_at: status === 'ended' ? NOW - DAY : null, end_reason: endReason, next_attempt_at: null, claimed_at: null, created_at: createdAt, updated_at: createdAt,
  });
  await server.db.insertInto('memberships').values([
    member('mem_money_a', fx.admin.user.id, 'active', NOW - 60 * DAY), member('mem_money_p', fx.learner.user.id, 'past_due', NOW - 50 * DAY),
    member('mem_money_e', fx.otherAdmin.user.id, 'ended', NOW - 40 * DAY, 'payment_failed'), member('mem_money_c', 'usr_money_gone', 'ended', NOW - 30 * DAY, 'cancelled'),
  ]).execute();
  const pay = (id: string, membershipId: string, status: 'paid' | 'failed', attempt: number, failure: string | null) => ({
    id, membership_id: membershipId, educator_id: e, kind: 'renewal' as const, period_index: 1, attempt, period_start: NOW - 10 * DAY, period_end: NOW + 20 * DAY,
    amount: 1500, currency: 'GBP', status, provider: 'test-recurring', provider_payment_id: null, receipt_number: null, failure, created_at: NOW - 5 * DAY + attempt,
  });
  await server.db.insertInto('membership_payments').values([
    pay('mpay_money_1', 'mem_money_a', 'paid', 1, null), pay('mpay_money_2', 'mem_money_p', 'failed', 1, 'Your card was declined.'),
  ]).execute();
}

describe('who may see the money and message learners', () => {
  it('refuses nobody, a learner and another educator\'s admin on every route', async () => {
    for (const path of ['/money', '/money/gift-cards', '/money/members?state=chase', '/exports/gift-cards.csv', '/exports/members.csv', `/registers/${DATE}/messages`, `/courses/${COURSE}/messages`]) {
      await expectGuarded(server, fx, 'GET', `${base}${path}`);
    }
    await expectGuarded(server, fx, 'POST', `${base}/registers/${DATE}/messages`, { subject: 'Room change', message: 'Room 2' });
    await expectGuarded(server, fx, 'POST', `${base}/courses/${COURSE}/messages`, { subject: 'Room change', message: 'Room 2' });
    expect(await outbox('learner-message')).toEqual([]);
  });

  it('answers 404 for another educator\'s date or course through this educator\'s URL', async () => {
    expect((await call('POST', `/registers/${OTHER_DATE}/messages`, { subject: 'Hi', message: 'Hello' })).status).toBe(404);
    expect((await call('POST', `/courses/${OTHER_COURSE}/messages`, { subject: 'Hi', message: 'Hello' })).status).toBe(404);
    expect((await call('GET', `/registers/${OTHER_DATE}/messages`)).status).toBe(404);
    expect(await outbox('learner-message')).toEqual([]);
  });
});

describe('money', () => {
  it('totals the period per provider, the platform fees, gift cards and members from the rows recorded', async () => {
    const res = await call('GET', '/money');
    expect(res.status).toBe(200);
    const m = res.json();
    expect(m.providers).toEqual([
      expect.objectContaining({ provider: 'test', payments: 1, taken: 5150, refunds: 1, refunded: 2000, net: 3150 }),
      expect.objectContaining({ provider: 'test-recurring', payments: 1, taken: 1500, refunds: 0, refunded: 0, net: 1500 }),
    ]);
    expect(m.fees).toEqual({ charged: 150, paidByLearners: 150, absorbed: 0, refunded: 58, sales: 1 });
    expect(m.giftCards).toEqual({ sold: 3, amount: 8500, redeemed: 3600, outstanding: 4500, expiredUnused: 400, soldInPeriod: 2, amountInPeriod: 7500 });
    expect(m.members).toEqual({ active: 1, pastDue: 1, ended: 2, renewalsPaid: 1, renewalsAmount: 1500, renewalsFailed: 1 });
    const old = (await call('GET', '/money?from=2020-01-01&to=2020-12-31')).json();
    expect(old.providers).toEqual([]);
    expect(old.fees.charged).toBe(0);
    const bad = await call('GET', '/money?from=2026-05-01&to=2026-04-01');
    expect(bad.status).toBe(400);
    expect(bad.json().properties).toEqual([expect.objectContaining({ key: 'from' })]);
    expect((await call('GET', '/money?from=yesterday')).status).toBe(400);
  });

  it('lists gift cards newest first with their balance and redemptions, showing only the end of each code', async () => {
    const page = (await call('GET', '/money/gift-cards')).json();
    expect(page.items.map((g: { id: string }) => g.id)).toEqual(['gc_money_1', 'gc_money_2', 'gc_money_old']);
    expect(page.items[0]).toMatchObject({ amount: 5000, balance: 2000, redeemed: 3000, redemptions: 1, codeEnd: 'EY_1' });
    expect(JSON.stringify(page)).not.toContain('GIFT-GC_MONEY_1');
    expect(page.next).toBeNull();
    expect((await call('GET', '/money/gift-cards?before=nope')).status).toBe(400);
  });

  it('lists members with the failed renewals to chase', async () => {
    const all = (await call('GET', '/money/members')).json();
    expect(all.items.map((m: { id: string }) => m.id)).toEqual(['mem_money_c', 'mem_money_e', 'mem_money_p', 'mem_money_a']);
    const chase = (await call('GET', '/money/members?state=chase')).json();
    expect(chase.items.map((m: { id: string }) => m.id)).toEqual(['mem_money_e', 'mem_money_p']);
    expect(chase.items[1]).toMatchObject({ status: 'past_due', toChase: true, failure: 'Your card was declined.', lastFailedAt: NOW - 5 * DAY + 1, email: fx.learner.user.email, planName: 'Monthly Club' });
    expect((await call('GET', '/money/members?state=late')).json().properties).toEqual([expect.objectContaining({ key: 'state' })]);
  });

  it('exports gift cards and members as streamed CSV', async () => {
    const cards = await call('GET', '/exports/gift-cards.csv');
    expect(cards.status).toBe(200);
    expect(cards.headers['content-type']).toContain('text/csv');
    const lines = cards.text.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Gift card,Code ends,Sold,Amount (pence),Balance (pence),Redeemed (pence),Redemptions,Currency,Expires,Buyer name,Buyer email,Recipient name,Recipient email,Sent to recipient');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['gc_money_old', 'gc_money_2', 'gc_money_1']);
    expect(cards.text).not.toContain('gc_money_x');
    const members = await call('GET', '/exports/members.csv');
    const rows = members.text.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(rows).toHaveLength(5);
    expect(rows.find((r) => r.startsWith('mem_money_p'))).toContain('Your card was declined.');
    expect(rows.find((r) => r.startsWith('mem_money_p'))!.endsWith(',yes')).toBe(true);
    expect(rows.find((r) => r.startsWith('mem_money_a'))!.endsWith(',no')).toBe(true);
  });
});

describe('messages to learners', () => {
  it('validates the subject and message with a problem per field', async () => {
    const empty = await call('POST', `/registers/${DATE}/messages`, { subject: '', message: '' });
    expect(empty.status).toBe(400);
    expect(empty.json().properties.map((p: { key: string }) => p.key).sort()).toEqual(['message', 'subject']);
    const long = await call('POST', `/registers/${DATE}/messages`, { subject: 'x'.repeat(151), message: 'y'.repeat(5001) });
    expect(long.json().properties).toEqual(expect.arrayContaining([
      expect.objectContaining({ key: 'subject', message: 'must be at most 150 characters' }), expect.objectContaining({ key: 'message', message: 'must be at most 5000 characters' }),
    ]));
    expect((await call('POST', `/registers/${DATE}/messages`, { subject: 'a\nBcc: x@example.com', message: 'Hi' })).json().properties).toEqual([expect.objectContaining({ key: 'subject', message: 'must be one line' })]);
    expect(await outbox('learner-message')).toEqual([]);
  });

  it('e-mails every learner of a date once through the outbox, kept on each booking\'s page and in the audit log', async () => {
    const res = await call('POST', `/registers/${DATE}/messages`, { subject: 'Room change', message: 'We are in Room 2 on Saturday.' });
    expect(res.status).toBe(201);
    expect(res.json()).toMatchObject({ recipients: 2 });
    const mails = await outbox('learner-message');
    expect(mails.map((m) => m.to_address).sort()).toEqual(['learner1@example.com', 'learner2@example.com']);
    expect(mails.every((m) => m.text_body.includes('We are in Room 2 on Saturday.'))).toBe(true);
    expect(mails.find((m) => m.to_address === 'learner2@example.com')!.subject).toBe('Room change (bk_adm_money_2)');
    const recipients = await server.db.selectFrom('learner_message_recipients').select(['booking_id', 'outbox_id']).orderBy('booking_id').execute();
    expect(recipients.map((r) => r.booking_id)).toEqual(['bk_adm_money_1', 'bk_adm_money_2', 'bk_adm_money_3']);
    expect(recipients[0]!.outbox_id).toBe(recipients[2]!.outbox_id);
    for (const id of ['bk_adm_money_1', 'bk_adm_money_3']) {
      const page = (await call('GET', `/bookings/${id}`)).json();
      expect(page.messages).toEqual([expect.objectContaining({ subject: 'Room change', message: 'We are in Room 2 on Saturday.', by: 'Ada Admin' })]);
    }
    expect((await call('GET', '/bookings/bk_adm_money_c')).json().messages).toEqual([]);
    expect((await call('GET', `/registers/${DATE}/messages`)).json().messages).toEqual([expect.objectContaining({ subject: 'Room change', recipients: 2 })]);
    const audit = await server.db.selectFrom('audit_log').select(['entity', 'entity_id', 'action', 'user_id']).where('educator_id', '=', fx.educatorId).where('action', '=', 'message').execute();
    expect(audit).toEqual([{ entity: 'occurrence', entity_id: DATE, action: 'message', user_id: fx.admin.user.id }]);
  });

  it('e-mails a course\'s learners of dates still to come, and refuses a message to nobody', async () => {
    const before = (await outbox('learner-message')).length;
    const res = await call('POST', `/courses/${COURSE}/messages`, { subject: 'Bring an apron', message: 'Aprons please.' });
    expect(res.status).toBe(201);
    const mails = (await outbox('learner-message')).slice(before);
    expect(mails.map((m) => m.to_address).sort()).toEqual(['learner1@example.com', 'learner2@example.com']);
    const none = await call('POST', `/courses/${WAIT_COURSE}/messages`, { subject: 'Hello', message: 'Anyone?' });
    expect(none.status).toBe(409);
    expect(none.json().title).toBe('Nobody To Message');
    expect(await server.db.selectFrom('learner_messages').select('id').where('course_id', '=', WAIT_COURSE).execute()).toEqual([]);
  });
});

describe('messages to an on-demand course\'s learners', () => {
  it('e-mails each learner who ordered the course once, kept on each order\'s page, beside its bookings\' learners', async () => {
    const u = fx.learner.user;
    const order = (id: string, n: number, email?: string) => insertOrder(server, { id, educatorId: fx.educatorId, courseId: RECORDED_COURSE, studentId: u.studentId, userId: u.id, booker: booker(n, email) });
    await order('ord_adm_money_1', 7);
    await order('ord_adm_money_2', 8);
    // The same learner's second order: one e-mail, both orders keep the message.
    await order('ord_adm_money_3', 7);
    const before = (await outbox('learner-message')).length;
    const res = await call('POST', `/courses/${RECORDED_COURSE}/messages`, { subject: 'New chapter', message: 'Chapter 9 is up.' });
    expect(res.status).toBe(201);
    expect(res.json()).toMatchObject({ recipients: 2 });
    const mails = (await outbox('learner-message')).slice(before);
    expect(mails.map((m) => m.to_address).sort()).toEqual(['learner7@example.com', 'learner8@example.com']);
    expect(mails.every((m) => m.text_body.includes('Chapter 9 is up.'))).toBe(true);
    const reached = await server.db.selectFrom('learner_message_order_recipients').select(['order_id', 'outbox_id']).orderBy('order_id').execute();
    expect(reached.map((r) => r.order_id)).toEqual(['ord_adm_money_1', 'ord_adm_money_2', 'ord_adm_money_3']);
    expect(reached[0]!.outbox_id).toBe(reached[2]!.outbox_id);
    for (const id of ['ord_adm_money_1', 'ord_adm_money_3']) {
      const page = await call('GET', `/orders/${id}`);
      expect(page.status, page.text).toBe(200);
      expect(page.json().messages).toEqual([expect.objectContaining({ subject: 'New chapter', message: 'Chapter 9 is up.', by: 'Ada Admin' })]);
    }
    expect((await call('GET', `/courses/${RECORDED_COURSE}/messages`)).json().messages).toEqual([expect.objectContaining({ subject: 'New chapter', recipients: 2 })]);
  });
});

describe('the waitlist when spaces free up', () => {
  const waitlisted = (id: string, i: number) => ({
    id, type: 'waitlist' as const, educator_id: fx.educatorId, course_id: WAIT_COURSE, first_name: `Wait${i}`, last_name: 'Listed', email: `wait${i}@example.com`, phone: '+447700900123',
    message: null, enquiry_type: null, occurrence_ref: null, course_slug: null, course_name: 'Wait Course', embedded: false, context: 'marketplace', site: 'localhost', user_id: null,
    ip_hash: null, created_at: NOW - 1000 + i,
  });

  it('e-mails each waitlisted learner once, in order, when a cancellation gives spaces back on a full date', async () => {
    await insertDate(server, FULL_DATE, WAIT_COURSE, NOW + 10 * DAY, 1);
    await insertBooking(server, { id: 'bk_adm_money_w1', educatorId: fx.educatorId, courseId: WAIT_COURSE, occurrenceId: FULL_DATE, studentId: fx.learner.user.studentId, userId: fx.learner.user.id, booker: booker(7) });
    await server.db.updateTable('occurrences').set({ available_spaces: 0 }).where('id', '=', FULL_DATE).execute();
    await server.db.insertInto('enquiries').values([waitlisted('enq_money_w2', 2), waitlisted('enq_money_w1', 1)]).execute();
    const res = await call('POST', '/bookings/bk_adm_money_w1/cancel', { refund: 'none', requestKey: 'money-wait-1' });
    expect(res.status, res.text).toBe(200);
    // Oldest entry first is notifyWaitlist's order (tests/api/admin-inbox.test.ts); e-mails queued in the same
    // millisecond have no order of their own in the outbox, so the set is what is checked here.
    const told = await outbox('waitlist-available');
    expect(told.map((m) => m.to_address).sort()).toEqual(['wait1@example.com', 'wait2@example.com']);
    // Another space freed: nobody is told twice.
    await server.db.updateTable('occurrences').set({ available_spaces: 0 }).where('id', '=', FULL_DATE).execute();
    await insertBooking(server, { id: 'bk_adm_money_w2', educatorId: fx.educatorId, courseId: WAIT_COURSE, occurrenceId: FULL_DATE, studentId: fx.learner.user.studentId, userId: fx.learner.user.id, booker: booker(8) });
    expect((await call('POST', '/bookings/bk_adm_money_w2/cancel', { refund: 'none', requestKey: 'money-wait-2' })).status).toBe(200);
    expect(await outbox('waitlist-available')).toHaveLength(2);
  });

  it('e-mails a learner who joined since when an admin raises a full date\'s spaces, and not when the date stays full', async () => {
    await server.db.updateTable('occurrences').set({ available_spaces: 0 }).where('id', '=', FULL_DATE).execute();
    await server.db.insertInto('enquiries').values(waitlisted('enq_money_w3', 3)).execute();
    const dates = (await call('GET', `/courses/${WAIT_COURSE}/dates`)).json();
    const date = dates.dates.find((d: { id: string }) => d.id === FULL_DATE);
    // The date has no booking left, so it may be moved to a whole hour here.
    const body = {
      kind: 'single', date: `${new Date().getUTCFullYear() + 1}-03-10`, startTime: '18:00', endTime: '20:00', delivery: 'in-person',
      address: { line1: '1 High Street', city: 'London', postcode: 'N1 1AA' }, visibility: 'public', revision: date.revision,
    };
    // Same spaces (still full): nobody is told.
    const same = await call('PUT', `/courses/${WAIT_COURSE}/dates/${FULL_DATE}`, { ...body, spaces: 1 });
    expect(same.status, same.text).toBe(200);
    expect(await outbox('waitlist-available')).toHaveLength(2);
    const raised = await call('PUT', `/courses/${WAIT_COURSE}/dates/${FULL_DATE}`, { ...body, spaces: 3, revision: same.json().revision });
    expect(raised.status, raised.text).toBe(200);
    expect((await outbox('waitlist-available')).map((m) => m.to_address).sort()).toEqual(['wait1@example.com', 'wait2@example.com', 'wait3@example.com']);
  });
});
