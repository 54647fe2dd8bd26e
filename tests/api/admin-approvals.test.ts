/**
 * Approvals and requests (docs/admin.md "Approvals and requests") through the real server: approving keeps the
 * spaces and tells the learner, declining a paid booking refunds it once and frees its spaces, applications are
 * booked or declined, and a request answered with a date and a price becomes a booking through the checkout the
 * answer prepared. SQLite and PostgreSQL (TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectGuarded } from '../helpers/admin.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { CARDS, OFFERS, client, contactPayload, payWithCard } from './checkout-fixtures.ts';
import { DAY, IDS, book, freshDate, mailsAbout, providerRefunds, requestKey, spacesOf, startWorld, type World } from './admin-bookings-fixtures.ts';

let w: World;

beforeAll(async () => {
  w = await startWorld();
});
afterAll(async () => {
  await w?.server.close();
});

const base = () => `/api/admin/educators/${IDS.educator}`;

/** A booking of the approval-required course, paid £10 by card. */
function bookAwaiting(extra: { quantity?: number } = {}) {
  return book(w, { course: IDS.guestsCourse, occurrenceId: IDS.guestsOcc, offerId: OFFERS.guests, ...extra });
}

async function application(): Promise<{ id: string; email: string; occurrenceId: string }> {
  const date = await freshDate(w, 5, { course: IDS.blendedCourse, price: 4000 });
  const { cookie, user } = await signUpAndLogin(w.server, { firstName: 'App', lastName: 'Licant' });
  const api = client(w.server, cookie);
  let res = await api.initialise('booking-application', { courseId: IDS.blendedCourse, occurrenceId: date.occurrenceId });
  const id = res.body._id;
  res = await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: date.offerId, quantity: 2 }] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  res = await api.submit(id, 'contact details filled', contactPayload(user.email));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.applicationId, email: user.email, occurrenceId: date.occurrenceId };
}

async function dateRequest(spaces = 6): Promise<{ id: string; email: string; cookie: string }> {
  const { cookie, user } = await signUpAndLogin(w.server, { firstName: 'Req', lastName: 'Uester' });
  const api = client(w.server, cookie);
  let res = await api.initialise('group-booking-request', { courseId: IDS.raceCourse });
  const id = res.body._id;
  res = await api.submit(id, 'dates and prices selected', { selectedDates: ['2099-05-01'], selectedOffers: [{ offerId: OFFERS.race, quantity: spaces }] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  res = await api.submit(id, 'message filled', { message: 'A team day for six' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  res = await api.submit(id, 'contact details filled', contactPayload(user.email));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.requestId, email: user.email, cookie };
}

describe('who may decide', () => {
  it('refuses nobody, a learner and another educator\'s admin on every route', async () => {
    const awaiting = await bookAwaiting();
    const app = await application();
    const req = await dateRequest();
    await expectGuarded(w.server, w.fx, 'GET', `${base()}/requests`);
    await expectGuarded(w.server, w.fx, 'POST', `${base()}/bookings/${awaiting.bookingId}/approve`, {});
    await expectGuarded(w.server, w.fx, 'POST', `${base()}/bookings/${awaiting.bookingId}/decline`, { requestKey: requestKey() });
    await expectGuarded(w.server, w.fx, 'POST', `${base()}/applications/${app.id}/accept`, {});
    await expectGuarded(w.server, w.fx, 'POST', `${base()}/applications/${app.id}/decline`, {});
    const quote = { start: w.now + 40 * DAY, end: w.now + 40 * DAY + 7200, price: 20000 };
    await expectGuarded(w.server, w.fx, 'POST', `${base()}/requests/${req.id}/answer`, quote);
    await expectGuarded(w.server, w.fx, 'POST', `${base()}/requests/${req.id}/decline`, {});
    // Another educator's admin through their own educator's URL: not found.
    expect((await w.otherApi('POST', `/bookings/${awaiting.bookingId}/approve`, {})).status).toBe(404);
    expect((await w.otherApi('POST', `/bookings/${awaiting.bookingId}/decline`, { requestKey: requestKey() })).status).toBe(404);
    expect((await w.otherApi('POST', `/applications/${app.id}/accept`, {})).status).toBe(404);
    expect((await w.otherApi('POST', `/requests/${req.id}/answer`, quote)).status).toBe(404);
    expect((await w.otherApi('POST', `/requests/${req.id}/decline`, {})).status).toBe(404);
    const theirs = await w.otherApi('GET', '/requests');
    expect(theirs.body.awaitingApproval).toEqual([]);
    // Nothing changed.
    const row = await w.server.db.selectFrom('bookings').select('status').where('id', '=', awaiting.bookingId).executeTakeFirstOrThrow();
    expect(row.status).toBe('awaiting-approval');
  });
});

describe('bookings awaiting approval', () => {
  it('approving confirms it, keeps its spaces and e-mails the learner their confirmation', async () => {
    const before = await spacesOf(w, IDS.guestsOcc);
    const b = await bookAwaiting();
    expect(await spacesOf(w, IDS.guestsOcc)).toBe(before - 1);
    const list = await w.api('GET', '/requests');
    expect(list.body.awaitingApproval.map((x: { id: string }) => x.id)).toContain(b.bookingId);
    const res = await w.api('POST', `/bookings/${b.bookingId}/approve`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ status: 'confirmed', changed: true });
    expect(await spacesOf(w, IDS.guestsOcc)).toBe(before - 1);
    const mails = (await mailsAbout(w, b.email, b.bookingId)).filter((m) => m.tag === 'booking-approved');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Booking Confirmed: Course crs_guests (${b.bookingId})`);
    // Pressed twice: nothing more.
    const again = await w.api('POST', `/bookings/${b.bookingId}/approve`, {});
    expect(again.body).toEqual({ status: 'confirmed', changed: false });
    expect((await mailsAbout(w, b.email, b.bookingId)).filter((m) => m.tag === 'booking-approved')).toHaveLength(1);
    const detail = await w.api('GET', `/bookings/${b.bookingId}`);
    expect(detail.body.history.map((h: { action: string }) => h.action)).toEqual(['approve']);
  });

  it('declining a paid one refunds it in full once, frees its spaces and tells the learner', async () => {
    const before = await spacesOf(w, IDS.guestsOcc);
    const b = await bookAwaiting();
    const key = requestKey('decline');
    const [one, two] = await Promise.all([
      w.api('POST', `/bookings/${b.bookingId}/decline`, { requestKey: key, reason: 'Full of beginners' }),
      w.api('POST', `/bookings/${b.bookingId}/decline`, { requestKey: key, reason: 'Full of beginners' }),
    ]);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(two.status, JSON.stringify(two.body)).toBe(200);
    expect(await spacesOf(w, IDS.guestsOcc)).toBe(before);
    const refunds = await providerRefunds(w, b.paymentId!);
    expect(refunds).toHaveLength(1);
    expect(Number(refunds[0]!.amount)).toBe(b.total);
    const mails = (await mailsAbout(w, b.email, b.bookingId)).filter((m) => m.tag === 'booking-declined');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Booking Declined');
    expect(mails[0]!.text_body).toContain('£10.00 has been refunded to your Card.');
    // A confirmed booking cannot be declined, a declined one not approved.
    expect((await w.api('POST', `/bookings/${b.bookingId}/approve`, {})).status).toBe(409);
    const confirmed = await book(w, await freshDate(w));
    expect((await w.api('POST', `/bookings/${confirmed.bookingId}/decline`, { requestKey: requestKey() })).status).toBe(409);
  });
});

describe('booking applications', () => {
  it('accepting one books its spaces, to be paid in person, and e-mails the learner', async () => {
    const app = await application();
    expect(await spacesOf(w, app.occurrenceId)).toBe(5);
    const list = await w.api('GET', '/requests');
    expect(list.body.applications.map((a: { id: string }) => a.id)).toContain(app.id);
    const res = await w.api('POST', `/applications/${app.id}/accept`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.changed).toBe(true);
    expect(await spacesOf(w, app.occurrenceId)).toBe(3);
    const booking = await w.server.db.selectFrom('bookings').selectAll().where('id', '=', res.body.bookingId).executeTakeFirstOrThrow();
    expect(booking).toMatchObject({ status: 'confirmed', spaces: 2, occurrence_id: app.occurrenceId, payment_method: 'manual', payment_state: 'unpaid', total_cost: 8000 });
    const mails = (await mailsAbout(w, app.email, res.body.bookingId)).filter((m) => m.tag === 'booking-approved');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Application Accepted');
    const again = await w.api('POST', `/applications/${app.id}/accept`, {});
    expect(again.body).toEqual({ bookingId: res.body.bookingId, changed: false });
    expect(await spacesOf(w, app.occurrenceId)).toBe(3);
  });

  it('accepting one when its date is full says how many spaces are left', async () => {
    const app = await application();
    await w.server.db.updateTable('occurrences').set({ available_spaces: 1 }).where('id', '=', app.occurrenceId).execute();
    const res = await w.api('POST', `/applications/${app.id}/accept`, {});
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe('Only 1 space is left on this date; the application asks for 2.');
  });

  it('declining one tells the learner', async () => {
    const app = await application();
    const res = await w.api('POST', `/applications/${app.id}/decline`, { reason: 'Needs more experience' });
    expect(res.status).toBe(200);
    const mails = (await mailsAbout(w, app.email, app.id)).filter((m) => m.tag === 'application-declined');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text_body).toContain('Needs more experience');
    expect((await w.api('POST', `/applications/${app.id}/accept`, {})).status).toBe(409);
  });
});

describe('booking requests', () => {
  it('an answer with a date and a price e-mails a link whose checkout makes a confirmed, paid booking', async () => {
    const req = await dateRequest(6);
    const list = await w.api('GET', '/requests');
    expect(list.body.requests.find((r: { id: string }) => r.id === req.id)).toMatchObject({ flow: 'groupBookingRequest', spaces: 6, message: 'A team day for six' });
    const start = w.now + 45 * DAY;
    const bad = await w.api('POST', `/requests/${req.id}/answer`, { start, end: start - 60, price: 18000 });
    expect(bad.status).toBe(400);
    expect(bad.body.properties).toEqual([expect.objectContaining({ key: 'end', message: 'must be after the start' })]);
    const res = await w.api('POST', `/requests/${req.id}/answer`, { start, end: start + 3 * 3600, price: 18000, message: 'We can do the 1st' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { checkoutId, occurrenceId, link } = res.body;
    expect(link).toBe(`http://localhost:4321/checkout?flow=booking&course=${IDS.raceCourse}&checkoutId=${checkoutId}`);
    const mail = (await mailsAbout(w, req.email, req.id)).find((m) => m.tag === 'request-answered');
    expect(mail?.text_body).toContain(link);
    expect(mail?.text_body).toContain('£180.00');
    // Answering twice is refused.
    expect((await w.api('POST', `/requests/${req.id}/answer`, { start, end: start + 3600, price: 1 })).status).toBe(409);
    // The private date is nobody else's: another learner cannot book it or open the checkout.
    const other = await signUpAndLogin(w.server);
    const otherApi = client(w.server, other.cookie);
    expect((await otherApi.get(`/checkout/${checkoutId}`)).status).toBe(404);
    expect((await otherApi.initialise('booking', { courseId: IDS.raceCourse, occurrenceId })).status).toBe(400);
    // The learner opens the link (the page initialises with the checkout id), confirms their details and pays.
    const api = client(w.server, req.cookie);
    let state = await api.initialise('booking', { checkoutId, courseId: IDS.raceCourse });
    expect(state.body._id).toBe(checkoutId);
    expect(state.body.currentStep).toBe('contactDetails');
    state = await api.submit(checkoutId, 'contact details filled', contactPayload(req.email));
    expect(state.status, JSON.stringify(state.body)).toBe(200);
    expect(state.body.currentStep).toBe('payment');
    expect(state.body.totalCost).toBe(18000);
    state = await api.submit(checkoutId, 'payment method selected', { paymentMethod: 'card' });
    expect((await payWithCard(w.server, state.body, CARDS.success)).status).toBe(200);
    state = await api.submit(checkoutId, 'payment was successful', {});
    expect(state.body.status).toBe('completed');
    const booking = await w.server.db.selectFrom('bookings').selectAll().where('id', '=', state.body.bookingId).executeTakeFirstOrThrow();
    expect(booking).toMatchObject({ status: 'confirmed', spaces: 6, occurrence_id: occurrenceId, payment_state: 'paid', total_cost: 18000, start_datetime: start });
    const answered = (await w.api('GET', '/requests')).body.answered.find((q: { requestId: string }) => q.requestId === req.id);
    expect(answered).toMatchObject({ state: 'booked', bookingId: booking.id });
    expect(await spacesOf(w, occurrenceId)).toBe(0);
  });

  it('a declined request tells the learner', async () => {
    const req = await dateRequest(2);
    const res = await w.api('POST', `/requests/${req.id}/decline`, { reason: 'Fully booked that month' });
    expect(res.status).toBe(200);
    const mails = (await mailsAbout(w, req.email, req.id)).filter((m) => m.tag === 'request-declined');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text_body).toContain('Fully booked that month');
    expect((await w.api('GET', '/requests')).body.requests.map((r: { id: string }) => r.id)).not.toContain(req.id);
  });
});
