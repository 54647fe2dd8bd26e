/**
 * Calendar files, cancellation and the outcome e-mails through the real server, with
 * bookings completed by the checkout engine.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { deliverMail } from '../helpers/mail.ts';
import {
  CARDS, DAY, IDS, OFFERS, booker, client, contactPayload, payWithCard, problemType, seedCheckoutCatalogue, type Client,
} from './checkout-fixtures.ts';
import { formatDay } from '../../src/lib/format.ts';
import { bookingCalendar } from '../../api/documents/ical.ts';
import { addLocalDays } from '../../src/domain/zone.ts';

/** Day of the month of the last Sunday of October (the day UK clocks go back). */
function lastSundayOfOctober(year: number): number {
  const last = new Date(Date.UTC(year, 9, 31));
  return 31 - last.getUTCDay();
}
const formatLongLondonDate = (epoch: number) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'Europe/London' }).format(epoch * 1000);

let server: TestServer;
let now: number;
let outbox: string;

const YEAR = new Date().getUTCFullYear() + 1;
/** 15 July next year, 09:00 UTC = 10:00 BST; 15 January next year, 10:00 UTC = 10:00 GMT. */
const SUMMER = Date.UTC(YEAR, 6, 15, 9, 0) / 1000;
const WINTER = Date.UTC(YEAR, 0, 15, 10, 0) / 1000;

beforeAll(async () => {
  outbox = mkdtempSync(join(tmpdir(), 'docs-outbox-'));
  server = await startTestServer({ RATE_LIMIT_LOGIN_PER_IP: '100000', LOG_LEVEL: 'silent', OUTBOX_DIR: outbox });
  now = Math.floor(Date.now() / 1000);
  await seedCheckoutCatalogue(server.db, now);
  const occurrence = (id: string, start: number, extra: Record<string, unknown> = {}) => ({
    id, course_id: IDS.classCourse, visibility: 'public', start_datetime: start, end_datetime: start + 3 * 3600, timezone: 'Europe/London',
    delivery: 'in-person' as const, address: { line1: 'The Old Dairy', city: 'Bristol', postcode: 'BS1 4DJ' }, spaces: 10, available_spaces: 10,
    parent_ref: null, individually_bookable: true, ...extra,
  });
  await server.db.insertInto('occurrences').values([
    occurrence('occ_summer', SUMMER),
    occurrence('occ_winter', WINTER, { delivery: 'online', address: null }),
    occurrence('occ_cancel', now + 30 * DAY, { spaces: 6, available_spaces: 6 }),
    occurrence('occ_soon', now + 3 * DAY),
  ]).execute();
  const offer = (id: string, occurrenceId: string) => ({
    id, course_id: IDS.classCourse, occurrence_id: occurrenceId, position: 0, name: 'Standard', description: null, price: 3000, spaces: 1, start_at: null, end_at: null,
  });
  await server.db.insertInto('offers').values([
    offer('off_summer', 'occ_summer'), offer('off_winter', 'occ_winter'), offer('off_cancel', 'occ_cancel'), offer('off_soon', 'occ_soon'),
  ]).execute();
});
afterAll(async () => {
  await server?.close();
  rmSync(outbox, { recursive: true, force: true });
});

interface Learner {
  api: Client;
  cookie: string;
  email: string;
}

async function learner(): Promise<Learner> {
  const { cookie, user } = await signUpAndLogin(server, { firstName: 'Ada', lastName: 'Lovelace' });
  return { api: client(server, cookie), cookie, email: user.email };
}

async function bookWithCard(who: Learner, occurrenceId: string, offerId: string, quantity = 1): Promise<any> {
  const { api, email } = who;
  let res = await api.initialise('booking', { courseId: IDS.classCourse, occurrenceId });
  expect(res.status).toBe(201);
  const id = res.body._id;
  res = await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId, quantity }], selectedAddons: [] });
  expect(res.status).toBe(200);
  res = await api.submit(id, 'contact details filled', contactPayload(email, { bookerFormResponse: booker(email, { phone: '07700900123' }) }));
  expect(res.status).toBe(200);
  res = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
  expect(res.status).toBe(200);
  expect((await payWithCard(server, res.body, CARDS.success)).status).toBe(200);
  res = await api.submit(id, 'payment was successful', {});
  expect(res.status).toBe(200);
  return res.body;
}

async function spacesOf(occurrenceId: string): Promise<number> {
  const row = await server.db.selectFrom('occurrences').select('available_spaces').where('id', '=', occurrenceId).executeTakeFirstOrThrow();
  return Number(row.available_spaces);
}

// ---------------------------------------------------------------------------------------------
// A tiny RFC 5545 reader: unfold, then NAME;PARAM=VALUE:VALUE per line.

interface Prop {
  name: string;
  params: Record<string, string>;
  value: string;
}

function parseIcs(text: string): Prop[] {
  expect(text).toMatch(/\r\n$/);
  const unfolded = text.replace(/\r\n[ \t]/g, '');
  return unfolded.split('\r\n').filter(Boolean).map((line) => {
    const colon = line.search(/:(?=(?:[^"]*"[^"]*")*[^"]*$)/);
    const head = line.slice(0, colon);
    const value = line.slice(colon + 1);
    const [name, ...rawParams] = head.split(';');
    const params = Object.fromEntries(rawParams.map((p) => p.split('=') as [string, string]));
    return { name: name.toUpperCase(), params, value };
  });
}

/** The properties of the first component named `component` (e.g. VEVENT). */
function component(props: Prop[], name: string): Prop[] {
  const start = props.findIndex((p) => p.name === 'BEGIN' && p.value === name);
  const end = props.findIndex((p, i) => i > start && p.name === 'END' && p.value === name);
  expect(start).toBeGreaterThanOrEqual(0);
  return props.slice(start + 1, end);
}

function prop(props: Prop[], name: string): Prop {
  const found = props.find((p) => p.name === name);
  if (!found) throw new Error(`no ${name}`);
  return found;
}

function unescapeText(value: string): string {
  return value.replace(/\\n/gi, '\n').replace(/\\([,;\\])/g, '$1');
}

async function getIcs(path: string, cookie = ''): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${server.url}${path}`, { headers: cookie ? { cookie } : {} });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

// ---------------------------------------------------------------------------------------------

describe('GET /api/bookings/{id}/ical', () => {
  it('in British Summer Time: the occurrence\u2019s local times with TZID=Europe/London and a VTIMEZONE', async () => {
    const ada = await learner();
    const state = await bookWithCard(ada, 'occ_summer', 'off_summer');
    const id = state.bookingId as string;
    const ics = await getIcs(`/api/bookings/${id}/ical`, ada.cookie);
    expect(ics.status).toBe(200);
    expect(ics.type).toContain('text/calendar');
    const props = parseIcs(ics.text);
    expect(props[0]).toMatchObject({ name: 'BEGIN', value: 'VCALENDAR' });
    expect(prop(props, 'VERSION').value).toBe('2.0');
    const tz = component(props, 'VTIMEZONE');
    expect(prop(tz, 'TZID').value).toBe('Europe/London');
    const daylight = component(tz, 'DAYLIGHT');
    expect(prop(daylight, 'TZOFFSETTO').value).toBe('+0100');
    expect(prop(daylight, 'RRULE').value).toBe('FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU');
    const event = component(props, 'VEVENT');
    const start = prop(event, 'DTSTART');
    expect(start.params.TZID).toBe('Europe/London');
    // 09:00 UTC in July is 10:00 in London.
    expect(start.value).toBe(`${YEAR}0715T100000`);
    expect(prop(event, 'DTEND')).toMatchObject({ params: { TZID: 'Europe/London' }, value: `${YEAR}0715T130000` });
    expect(prop(event, 'UID').value).toBe(`${id}@localhost`);
    expect(prop(event, 'STATUS').value).toBe('CONFIRMED');
    expect(unescapeText(prop(event, 'SUMMARY').value)).toBe('Course crs_class with Clay Studio');
    expect(unescapeText(prop(event, 'LOCATION').value)).toBe('The Old Dairy, Bristol, BS1 4DJ');
    expect(prop(event, 'URL').value).toBe(`http://localhost/clay-studio/crs-class/details/occ_summer?booking=${id}`);
    expect(unescapeText(prop(event, 'DESCRIPTION').value)).toContain(`Booking reference: ${id}`);
    expect(prop(event, 'DTSTAMP').value).toMatch(/^\d{8}T\d{6}Z$/);
    // Lines are at most 75 octets.
    for (const line of ics.text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    // Stable: the same file (and UID) again.
    expect((await getIcs(`/api/bookings/${id}/ical`, ada.cookie)).text).toBe(ics.text);
  });

  it('in Greenwich Mean Time, online: 10:00 UTC is 10:00 in London; the signed link works without a session', async () => {
    const ada = await learner();
    const state = await bookWithCard(ada, 'occ_winter', 'off_winter');
    const ics = await getIcs(state.outcome.links.ical);
    expect(ics.status).toBe(200);
    const event = component(parseIcs(ics.text), 'VEVENT');
    expect(prop(event, 'DTSTART')).toMatchObject({ params: { TZID: 'Europe/London' }, value: `${YEAR}0115T100000` });
    expect(prop(event, 'DTEND').value).toBe(`${YEAR}0115T130000`);
    expect(prop(event, 'LOCATION').value).toBe('Online');
    // The local times match the occurrence in Europe/London, whatever the server's zone.
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(WINTER * 1000));
    expect(local).toBe(`${prop(event, 'DTSTART').value.slice(9, 11)}:${prop(event, 'DTSTART').value.slice(11, 13)}`);
  });

  it('around the clock changes every start and end reads back as the same instant (RFC 5545 takes a repeated local time as the first)', () => {
    const day = lastSundayOfOctober(YEAR);
    const cases: [number, string][] = [
      [Date.UTC(YEAR, 9, day, 0, 30) / 1000, `DTSTART;TZID=Europe/London:${YEAR}10${day}T013000`], // 01:30 BST, the first 01:30
      [Date.UTC(YEAR, 9, day, 1, 30) / 1000, `DTSTART:${YEAR}10${day}T013000Z`], // 01:30 GMT, the second 01:30: written in UTC
      [Date.UTC(YEAR, 9, day, 9, 0) / 1000, `DTSTART;TZID=Europe/London:${YEAR}10${day}T090000`],
      [Date.UTC(YEAR, 9, day - 1, 8, 0) / 1000, `DTSTART;TZID=Europe/London:${YEAR}10${day - 1}T090000`],
    ];
    for (const [start, line] of cases) {
      const ics = bookingCalendar({ id: 'BKG-DST', courseName: 'Night class', educatorName: 'Owl', start, end: start + 3600, uidHost: 'example.com', status: 'CONFIRMED', stamp: start - DAY });
      expect(ics.split('\r\n')).toContain(line);
    }
  });

  it('escapes text and folds long lines at 75 octets without splitting a character', () => {
    const ics = bookingCalendar({
      id: 'BKG-X', courseName: 'Tea; cakes, and \\ “crème brûlée” — a very long course name that needs folding ✓✓✓', educatorName: 'Café Ŵales',
      start: SUMMER, end: SUMMER + 3600, location: 'Line 1\nLine 2', uidHost: 'example.com', status: 'CONFIRMED', stamp: SUMMER - DAY,
    });
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const event = component(parseIcs(ics), 'VEVENT');
    expect(unescapeText(prop(event, 'SUMMARY').value)).toBe('Tea; cakes, and \\ “crème brûlée” — a very long course name that needs folding ✓✓✓ with Café Ŵales');
    expect(prop(event, 'LOCATION').value).toBe('Line 1\\nLine 2');
  });

  it('requests and applications have no calendar file; others and forged tokens get 404', async () => {
    const ada = await learner();
    let res = await ada.api.initialise('booking-application', { courseId: IDS.blendedCourse, occurrenceId: IDS.blendedOcc });
    const id = res.body._id;
    await ada.api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.blended, quantity: 1 }] });
    res = await ada.api.submit(id, 'contact details filled', contactPayload(ada.email));
    expect(res.body.applicationId).toMatch(/^APP-/);
    expect((await getIcs(`/api/bookings/${res.body.applicationId}/ical`, ada.cookie)).status).toBe(404);

    const state = await bookWithCard(ada, 'occ_summer', 'off_summer');
    const eve = await learner();
    expect((await getIcs(`/api/bookings/${state.bookingId}/ical`, eve.cookie)).status).toBe(404);
    expect((await getIcs(`/api/bookings/${state.bookingId}/ical?token=forged`)).status).toBe(404);
  });
});

describe('POST /api/bookings/{id}/cancel', () => {
  it('inside the window: frees exactly the booked spaces, refunds the card, e-mails both; a second cancel changes nothing', async () => {
    const ada = await learner();
    const before = await spacesOf('occ_cancel');
    const state = await bookWithCard(ada, 'occ_cancel', 'off_cancel', 2);
    const id = state.bookingId as string;
    expect(await spacesOf('occ_cancel')).toBe(before - 2);

    // The booking as the page sees it: free cancellation 7 days prior, allowed now.
    let res = await ada.api.get(`/bookings/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.cancellationPolicy).toMatchObject({ text: 'Free cancellation 7 days prior', allowed: true });
    expect(res.body.documentLabel).toBe('Download Receipt');

    res = await ada.api.post(`/bookings/${id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'cancelled', spacesReleased: 2, refund: 'refunded', cancellation: { spacesReleased: 2, refundStatus: 'refunded', refundAmount: 6000 } });
    expect(await spacesOf('occ_cancel')).toBe(before);
    const payment = await server.db.selectFrom('test_payments').select('status').where('id', '=', state.stepState.payment.state.paymentId).executeTakeFirstOrThrow();
    expect(payment.status).toBe('refunded');

    // Twice: refused, nothing released again.
    res = await ada.api.post(`/bookings/${id}/cancel`);
    expect(res.status).toBe(409);
    expect(problemType(res.body)).toBe('booking/already-cancelled');
    expect(res.body.title).toBe('Booking Already Cancelled');
    expect(await spacesOf('occ_cancel')).toBe(before);

    // The calendar file now says CANCELLED; the receipt says so too.
    const ics = await getIcs(`/api/bookings/${id}/ical`, ada.cookie);
    const event = component(parseIcs(ics.text), 'VEVENT');
    expect(prop(event, 'STATUS').value).toBe('CANCELLED');
    expect(prop(event, 'SEQUENCE').value).toBe('1');

    const mails = await server.db.selectFrom('outbox_messages').selectAll().where('tag', 'in', ['booking-cancelled', 'booking-cancelled-educator']).execute();
    const mine = mails.filter((m) => m.text_body.includes(id));
    expect(mine.map((m) => m.to_address).sort()).toEqual([ada.email, 'clay-studio@example.com'].sort());
    const learnerMail = mine.find((m) => m.to_address === ada.email)!;
    expect(learnerMail.subject).toBe(`Booking Cancelled: Course crs_class (${id})`);
    expect(learnerMail.text_body).toContain('£60.00 has been refunded');
  });

  it('never gives back more than the capacity, and two cancels at once release once', async () => {
    const ada = await learner();
    const state = await bookWithCard(ada, 'occ_cancel', 'off_cancel', 2);
    const id = state.bookingId as string;
    // Someone (an educator edit) has already put a space back: only one more fits under the capacity of 6.
    await server.db.updateTable('occurrences').set({ available_spaces: 5 }).where('id', '=', 'occ_cancel').execute();
    const results = await Promise.all([ada.api.post(`/bookings/${id}/cancel`), ada.api.post(`/bookings/${id}/cancel`)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 200)!.body.spacesReleased).toBe(1);
    expect(await spacesOf('occ_cancel')).toBe(6);
    const rows = await server.db.selectFrom('booking_cancellations').selectAll().where('booking_id', '=', id).execute();
    expect(rows).toHaveLength(1);
  });

  it('outside the window: refused with a clear title, nothing changes', async () => {
    const ada = await learner();
    const state = await bookWithCard(ada, 'occ_soon', 'off_soon');
    const id = state.bookingId as string;
    const before = await spacesOf('occ_soon');
    const res = await ada.api.post(`/bookings/${id}/cancel`);
    expect(res.status).toBe(409);
    expect(problemType(res.body)).toBe('booking/cancellation-window-passed');
    expect(res.body.title).toBe('Cancellation Window Has Passed');
    expect(res.body.detail).toMatch(/^Free cancellation ends 7 days before the start \(.+\)\. Please contact Clay Studio\.$/);
    expect(await spacesOf('occ_soon')).toBe(before);
    const booking = await server.db.selectFrom('bookings').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(booking.status).toBe('confirmed');
    expect((await ada.api.get(`/bookings/${id}`)).body.cancellationPolicy).toMatchObject({ allowed: false, reason: 'window-passed' });
  });

  it('the window is measured from the start: allowed up to start − N days, refused a second later', async () => {
    const ada = await learner();
    const state = await bookWithCard(ada, 'occ_cancel', 'off_cancel');
    const id = state.bookingId as string;
    const occ = await server.db.selectFrom('occurrences').select('start_datetime').where('id', '=', 'occ_cancel').executeTakeFirstOrThrow();
    const deadline = addLocalDays(Number(occ.start_datetime), -7);
    try {
      server.setNow(deadline + 1);
      expect((await ada.api.post(`/bookings/${id}/cancel`)).status).toBe(409);
      server.setNow(deadline);
      expect((await ada.api.post(`/bookings/${id}/cancel`)).status).toBe(200);
    } finally {
      server.setNow(null);
    }
  });

  it('N days prior counts London calendar days: across the autumn clock change the window closes 7 days and 1 hour before', async () => {
    // 10:00 GMT on the Monday after the clocks go back (last Sunday of October next year); the deadline is 10:00 BST a week before.
    const change = lastSundayOfOctober(YEAR);
    const start = Date.UTC(YEAR, 9, change + 1, 10, 0) / 1000;
    const deadline = Date.UTC(YEAR, 9, change - 6, 9, 0) / 1000;
    const original = await server.db.selectFrom('occurrences').select(['start_datetime', 'end_datetime']).where('id', '=', 'occ_cancel').executeTakeFirstOrThrow();
    await server.db.updateTable('occurrences').set({ start_datetime: start, end_datetime: start + 3 * 3600 }).where('id', '=', 'occ_cancel').execute();
    try {
      server.setNow(deadline - 2 * DAY);
      const ada = await learner();
      const id = (await bookWithCard(ada, 'occ_cancel', 'off_cancel')).bookingId as string;
      server.setNow(deadline + 1800); // 10:30 BST a week before: 7 × 86400 s would still allow it
      const refused = await ada.api.post(`/bookings/${id}/cancel`);
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toContain(formatLongLondonDate(deadline));
      server.setNow(deadline);
      expect((await ada.api.post(`/bookings/${id}/cancel`)).status).toBe(200);
    } finally {
      server.setNow(null);
      await server.db.updateTable('occurrences').set({ start_datetime: original.start_datetime, end_datetime: original.end_datetime }).where('id', '=', 'occ_cancel').execute();
    }
  });

  it('owner only, signed in, CSRF-protected; no cancellation when the educator offers none', async () => {
    const ada = await learner();
    const state = await bookWithCard(ada, 'occ_cancel', 'off_cancel');
    const id = state.bookingId as string;
    const eve = await learner();
    let res = await eve.api.post(`/bookings/${id}/cancel`);
    expect(res.status).toBe(404);
    res = await client(server).post(`/bookings/${id}/cancel`);
    expect(res.status).toBe(401);
    const cross = await fetch(`${server.url}/api/bookings/${id}/cancel`, { method: 'POST', headers: { cookie: ada.cookie, origin: 'https://evil.example' } });
    expect(cross.status).toBe(403);
    expect((await server.db.selectFrom('bookings').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('confirmed');

    await server.db.updateTable('educators').set({ cancellation_allowed: null }).where('id', '=', IDS.educator).execute();
    try {
      res = await ada.api.post(`/bookings/${id}/cancel`);
      expect(res.status).toBe(409);
      expect(problemType(res.body)).toBe('booking/cancellation-not-available');
    } finally {
      await server.db.updateTable('educators').set({ cancellation_allowed: 7 }).where('id', '=', IDS.educator).execute();
    }
  });
});

// ---------------------------------------------------------------------------------------------

/** The decoded text/calendar part of an .eml file, or null. */
function calendarPart(eml: string): string | null {
  const match = /Content-Type: text\/calendar[^]*?\r?\n\r?\n([^]*?)\r?\n--/i.exec(eml);
  if (!match) return null;
  const headers = eml.slice(match.index, match.index + match[0].length - match[1].length);
  const body = match[1];
  if (/Content-Transfer-Encoding: base64/i.test(headers)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(headers)) {
    return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  }
  return body;
}

describe('e-mails', () => {
  it('booking: "Booking Confirmed" to the learner with the reference, the booking page, text + HTML and the .ics; the educator is told', async () => {
    const ada = await learner();
    const state = await bookWithCard(ada, 'occ_summer', 'off_summer', 2);
    const id = state.bookingId as string;
    await deliverMail(server);
    const mails = await server.db.selectFrom('outbox_messages').selectAll().where('to_address', '=', ada.email).execute();
    const confirmation = mails.find((m) => m.tag === 'booking-confirmation')!;
    expect(confirmation).toBeTruthy();
    expect(confirmation.subject).toBe(`Booking Confirmed: Course crs_class (${id})`);
    expect(confirmation.text_body).toContain(`Booking reference: ${id}`);
    expect(confirmation.text_body).toContain(`View & Manage Booking: http://localhost/clay-studio/crs-class/details/occ_summer?booking=${id}`);
    expect(confirmation.text_body).toContain('Free cancellation 7 days prior.');
    expect(confirmation.text_body).toContain('Spaces: 2');
    expect(confirmation.text_body).toContain('Total: £60.00 paid by Card');
    expect(confirmation.text_body).toMatch(/Download Receipt: http:\/\/localhost\/api\/booking\/BKG-[A-Z0-9]+\/invoice\?token=/);
    expect(confirmation.text_body).toContain(`Date: ${formatDay(SUMMER)}, 10:00 – 13:00 (UK time)`);
    expect(confirmation.html_body).toContain('<h1');
    expect(confirmation.html_body).toContain('Booking Confirmed');
    expect(confirmation.html_body).toContain(`href="http://localhost/clay-studio/crs-class/details/occ_summer?booking=${id}"`);
    // The .eml carries the calendar file.
    expect(confirmation.eml_file).toBeTruthy();
    const eml = readFileSync(confirmation.eml_file!, 'utf8');
    expect(eml).toContain(`${id}.ics`);
    const ics = calendarPart(eml);
    expect(ics).toBeTruthy();
    const event = component(parseIcs(ics!.endsWith('\r\n') ? ics! : `${ics}\r\n`), 'VEVENT');
    expect(prop(event, 'DTSTART').value).toBe(`${YEAR}0715T100000`);

    const educator = await server.db.selectFrom('outbox_messages').selectAll()
      .where('to_address', '=', 'clay-studio@example.com').where('tag', '=', 'booking-educator-notification').execute();
    const notice = educator.find((m) => m.text_body.includes(id))!;
    expect(notice.subject).toBe(`New booking: Course crs_class (${id})`);
    expect(notice.text_body).toContain('Ada Lovelace');
    expect(notice.text_body).toContain(ada.email);
  });

  it('approval required: "Your Booking is Awaiting Approval"; order: "Order Confirmed"; requests and applications', async () => {
    const ada = await learner();
    let res = await ada.api.initialise('booking', { courseId: IDS.guestsCourse, occurrenceId: IDS.guestsOcc });
    let id = res.body._id;
    await ada.api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.guests, quantity: 1 }] });
    await ada.api.submit(id, 'contact details filled', contactPayload(ada.email));
    res = await ada.api.submit(id, 'manual payment confirmed', {});
    expect(res.status).toBe(200);
    const awaiting = res.body.bookingId as string;

    res = await ada.api.initialise('order', { courseId: IDS.onDemand });
    id = res.body._id;
    await ada.api.submit(id, 'order pricing options picked', { selectedOffers: [{ offerId: OFFERS.onDemand, quantity: 1 }] });
    await ada.api.submit(id, 'order contact details filled', contactPayload(ada.email));
    res = await ada.api.submit(id, 'invoice details added', { billing_name: 'Acme Ltd', billing_address: '1 Road, Bristol' });
    expect(res.status).toBe(200);
    const order = res.body.orderId as string;

    res = await ada.api.initialise('booking-application', { courseId: IDS.blendedCourse, occurrenceId: IDS.blendedOcc });
    id = res.body._id;
    await ada.api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.blended, quantity: 1 }] });
    res = await ada.api.submit(id, 'contact details filled', contactPayload(ada.email));
    const application = res.body.applicationId as string;

    res = await ada.api.initialise('request', { courseId: IDS.requestPref });
    id = res.body._id;
    res = await ada.api.submit(id, 'request delivery configured', { delivery: { type: 'Student travels', location_ref: IDS.locA }, pricing: { type: 'spaces', quantity: 1 } });
    expect(res.status).toBe(200);
    await ada.api.submit(id, 'request preferred dates selected', { preferredDates: ['2099-03-01'] });
    await ada.api.submit(id, 'request message filled', { message: 'Weekends' });
    res = await ada.api.submit(id, 'contact details filled', contactPayload(ada.email));
    expect(res.status).toBe(200);
    const request = res.body.requestId as string;

    await deliverMail(server);
    const mails = await server.db.selectFrom('outbox_messages').selectAll().where('to_address', '=', ada.email).execute();
    const find = (ref: string) => mails.find((m) => m.subject.includes(ref))!;
    expect(find(awaiting).subject).toBe(`Your Booking is Awaiting Approval: Course crs_guests (${awaiting})`);
    expect(find(awaiting).text_body).toContain('Total: £10.00 due');
    expect(find(order).subject).toBe(`Order Confirmed: Course crs_ondemand (${order})`);
    expect(find(order).text_body).toContain(`Order reference: ${order}`);
    expect(find(order).text_body).toContain('Pay Invoice: http://localhost/complete-order/');
    expect(find(order).text_body).toContain(`Access Course: http://localhost/clay-studio/crs-ondemand/details?orderId=${order}`);
    expect(find(order).text_body).toContain('Download Invoice: ');
    expect(find(order).eml_file && readFileSync(find(order).eml_file!, 'utf8')).not.toContain('text/calendar');
    expect(find(application).subject).toBe(`Application Sent: Course crs_blended (${application})`);
    expect(find(application).text_body).toContain(`Application reference: ${application}`);
    expect(find(request).subject).toBe(`Request Sent: Course crs_req_pref (${request})`);
    expect(find(request).text_body).toContain(`Request reference: ${request}`);
    for (const m of [find(awaiting), find(order), find(application), find(request)]) expect(m.html_body).toContain('<!doctype html>');
  });
});
