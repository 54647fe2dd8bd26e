/**
 * Guessing and flooding are limited per client and per target, atomically: voucher codes (wherever a code
 * is tried) and enquiries; the 'Enquriy Sumbitted' analytics event is accepted only with a real enquiry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { IDS, OFFERS, client, seedCheckoutCatalogue } from './checkout-fixtures.ts';
import { NOW, TEST_ENV, insertPublicFixtures, solvedCaptcha } from './public-fixtures.ts';

function count(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

describe('voucher-code guessing', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'true', RATE_LIMIT_LOGIN_PER_IP: '100000', LOG_LEVEL: 'silent', RATE_LIMIT_VOUCHER_PER_EDUCATOR: '100' });
    await seedCheckoutCatalogue(server.db, Math.floor(Date.now() / 1000));
  });
  afterAll(async () => server.close());

  const validate = (code: string, ip: string) => fetch(`${server.url}/api/vouchers/validate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ code, course_ref: IDS.classCourse, educator_ref: IDS.educator }),
  });

  it('stops one client after RATE_LIMIT_VOUCHER_PER_IP wrong codes, even sent in parallel, and then refuses the real code too', async () => {
    const limit = server.config.RATE_LIMIT_VOUCHER_PER_IP;
    const guesses = await Promise.all(Array.from({ length: 40 }, (_, i) => validate(`GUESS${i}`, '203.0.113.30')));
    expect(count(guesses.map((r) => r.status))).toEqual({ 400: limit, 429: 40 - limit });
    expect((await validate('TENOFF', '203.0.113.30')).status).toBe(429);
    // The cost summary is the same guessing surface.
    const summary = await fetch(`${server.url}/api/custom/get-checkout-summary`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.30' },
      body: JSON.stringify({ course_ref: IDS.classCourse, offers: [], add_ons: [], extras: [], voucher_ref: 'GUESS-X' }),
    });
    expect(summary.status).toBe(429);
    // Someone else is not affected, and a right code is never counted.
    for (let i = 0; i < limit + 2; i++) expect((await validate('TENOFF', '198.51.100.30')).status).toBe(200);
  });

  it('counts the checkout\'s promo-code field against the same limit', async () => {
    const { cookie } = await signUpAndLogin(server);
    const api = client(server, cookie);
    const init = await api.initialise('booking', { courseId: IDS.classCourse, occurrenceId: IDS.classOcc });
    expect(init.status).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < server.config.RATE_LIMIT_VOUCHER_PER_IP + 2; i++) {
      const res = await fetch(`${server.url}/api/checkout/${init.body._id}/submit-response`, {
        method: 'POST',
        headers: { origin: server.url, 'content-type': 'application/json', cookie, 'x-forwarded-for': '203.0.113.31' },
        body: JSON.stringify({ action: 'pricing options picked', payload: { selectedOffers: [{ offerId: OFFERS.standard, quantity: 1 }], appliedPromoCode: `GUESS${i}` } }),
      });
      statuses.push(res.status);
    }
    expect(count(statuses)).toEqual({ 400: server.config.RATE_LIMIT_VOUCHER_PER_IP, 429: 2 });
  });

  it('limits guesses at one educator\'s codes from many clients', async () => {
    const limit = server.config.RATE_LIMIT_VOUCHER_PER_EDUCATOR;
    const used = Number((await server.db.selectFrom('rate_limits').select('hits').where('bucket', 'like', 'voucher:educator:%').executeTakeFirstOrThrow()).hits);
    const left = limit - used;
    expect(left).toBeGreaterThan(0);
    const guesses = await Promise.all(Array.from({ length: left + 5 }, (_, i) => validate(`SPREAD${i}`, `192.0.2.${i + 1}`)));
    expect(count(guesses.map((r) => r.status))).toEqual({ 400: left, 429: 5 });
  });
});

describe('enquiry and analytics flooding', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ...TEST_ENV, TRUST_PROXY: 'true' });
    server.setNow(NOW);
    await insertPublicFixtures(server.db);
  });
  afterAll(async () => server.close());

  async function enquire(ip: string, i: number) {
    return fetch(`${server.url}/api/enquiries`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({
        contact_details: { first_name: 'Ada', last_name: 'Lovelace', email: `flood-${i}@example.com`, phone: '07700 900123' },
        details: { message: 'Hello', embedded: false, enquiry_type: 'General' },
        type: 'message',
        educator_slug: 'clay-studio',
        captchaToken: await solvedCaptcha(server.url),
      }),
    });
  }

  it('accepts RATE_LIMIT_ENQUIRY_PER_IP enquiries an hour from one client and refuses the rest', async () => {
    const limit = server.config.RATE_LIMIT_ENQUIRY_PER_IP;
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => enquire('203.0.113.40', i)));
    expect(count(answers.map((r) => r.status))).toEqual({ 201: limit, 429: 25 - limit });
    expect((await enquire('198.51.100.40', 99)).status).toBe(201);
  });

  it('refuses forged \'Enquriy Sumbitted\' events (no real enquiry) and records none, while page views flow', async () => {
    const post = (name: string, ip: string, extra: Record<string, unknown> = {}) => fetch(`${server.url}/api/analytics/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ name, educator_ref: 'edu_clay', ...extra }),
    });
    const events = async () => (await server.db.selectFrom('analytics_events').select('id').where('name', '=', 'Enquriy Sumbitted').execute()).length;
    const before = await events();
    const forged = await Promise.all(Array.from({ length: 50 }, (_, i) => post('Enquriy Sumbitted', '203.0.113.41', i % 2 ? { enquiry_ref: `enq_made_up_${i}` } : {})));
    expect(count(forged.map((r) => r.status))).toEqual({ 400: 50 });
    expect(await events()).toBe(before);
    // A real enquiry records its event once; the page sending it again with the enquiry's id adds nothing.
    const made = await enquire('198.51.100.43', 100);
    expect(made.status).toBe(201);
    const { id } = await made.json() as { id: string };
    expect(await events()).toBe(before + 1);
    expect((await post('Enquriy Sumbitted', '198.51.100.43', { enquiry_ref: id })).status).toBe(202);
    expect(await events()).toBe(before + 1);
    // Another educator's enquiry proves nothing here.
    const elsewhere = await fetch(`${server.url}/api/analytics/events`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.43' },
      body: JSON.stringify({ name: 'Enquriy Sumbitted', educator_ref: 'edu_code', enquiry_ref: id }),
    });
    expect(elsewhere.status).toBe(400);
    const views = await Promise.all(Array.from({ length: 40 }, () => post('Educator Profile View', '203.0.113.42')));
    expect(count(views.map((r) => r.status))).toEqual({ 202: server.config.RATE_LIMIT_ANALYTICS_PER_TARGET, 429: 40 - server.config.RATE_LIMIT_ANALYTICS_PER_TARGET });
  });
});
