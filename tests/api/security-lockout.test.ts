/**
 * One client's guesses cannot lock others out (api/http/rate-limit.ts): an attempt refused by the client's own
 * limit spends no shared budget, and once other clients' guesses have spent a shared budget, the owner's right
 * password or a learner's real gift card from a clean client still gets in, while a wrong one is refused.
 * Also: every place a promo code or gift card is typed in the checkout shares the voucher-guessing limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { DEFAULT_PASSWORD, countStatuses, loginFrom, signUpAndLogin } from '../helpers/auth.ts';
import { IDS, OFFERS, client, seedCheckoutCatalogue } from './checkout-fixtures.ts';

const PER_EMAIL = 4;
const ALL_IPS = 12;
const VOUCHER_PER_IP = 5;
const VOUCHER_PER_EDUCATOR = 15;

let server: TestServer;
let now: number;
const GIFT_CODE = 'ABCD2345EFGH6789';

beforeAll(async () => {
  server = await startTestServer({
    TRUST_PROXY: 'true', LOG_LEVEL: 'silent',
    RATE_LIMIT_LOGIN_PER_EMAIL: String(PER_EMAIL), RATE_LIMIT_LOGIN_PER_EMAIL_ALL_IPS: String(ALL_IPS), RATE_LIMIT_LOGIN_PER_IP: '100000',
    RATE_LIMIT_VOUCHER_PER_IP: String(VOUCHER_PER_IP), RATE_LIMIT_VOUCHER_PER_EDUCATOR: String(VOUCHER_PER_EDUCATOR),
  });
  // Pinned inside one rate-limit window (15 minutes), so no count starts again halfway through a test.
  const real = Math.floor(Date.now() / 1000);
  now = real - (real % 900) + 60;
  server.setNow(now);
  await seedCheckoutCatalogue(server.db, now);
});
afterAll(async () => server?.close());

const login = (email: string, password: string, ip: string) => loginFrom(server.url, email, password, ip);
const count = countStatuses;

async function loginHits(): Promise<number> {
  const rows = await server.db.selectFrom('rate_limits').select('hits').where('bucket', 'like', 'login:email:%').execute();
  return rows.reduce((t, r) => t + Number(r.hits), 0);
}

describe('login: someone else\u2019s wrong passwords never lock the owner out', () => {
  it('attempts refused by one client\u2019s own limit spend nothing of the address\u2019s budget from all clients', async () => {
    const { user } = await signUpAndLogin(server);
    const before = await loginHits();
    // Far more than the budget from all clients, from one address.
    const wrong = await Promise.all(Array.from({ length: ALL_IPS + 10 }, (_, i) => login(user.email, `wrong ${i}`, '203.0.113.40')));
    expect(count(wrong.map((r) => r.status))).toEqual({ 401: PER_EMAIL, 429: ALL_IPS + 10 - PER_EMAIL });
    expect((await loginHits()) - before).toBe(PER_EMAIL);
    // Again after the guesser has hammered its own limit: the owner from another address logs in.
    expect((await login(user.email, DEFAULT_PASSWORD, '198.51.100.40')).status).toBe(200);
  });

  it('once many clients have spent the shared budget, a clean client is still checked: right gets in, wrong is refused', async () => {
    const { user } = await signUpAndLogin(server);
    const clients = Math.ceil(ALL_IPS / PER_EMAIL) + 1;
    for (let c = 0; c < clients; c++) {
      await Promise.all(Array.from({ length: PER_EMAIL }, (_, i) => login(user.email, `wrong ${c}-${i}`, `192.0.2.${c + 10}`)));
    }
    // A guesser that has already failed is refused at once.
    expect((await login(user.email, DEFAULT_PASSWORD, '192.0.2.10')).status).toBe(429);
    // A clean client guessing gets 429, never "wrong password": the budget is spent for guesses.
    const guess = await login(user.email, 'another wrong one', '198.51.100.41');
    expect(guess.status).toBe(429);
    expect(Number(guess.headers.get('retry-after'))).toBeGreaterThan(0);
    // The owner, from a clean client, after a typo: still logs in.
    expect((await login(user.email, DEFAULT_PASSWORD, '198.51.100.42')).status).toBe(200);
    expect((await login(user.email, DEFAULT_PASSWORD, '198.51.100.41')).status).toBe(200);
  });
});

describe('voucher codes: one educator\u2019s codes stay usable under guessing', () => {
  beforeAll(async () => {
    await server.db.insertInto('gift_cards').values({
      id: 'gft_lockout', educator_id: IDS.educator, code: GIFT_CODE, amount: 2000, balance: 2000, currency: 'GBP', checkout_id: null,
      buyer_user_id: null, buyer_name: 'Ada', buyer_email: 'ada@example.com', recipient_name: 'Grace', recipient_email: 'grace@example.com',
      message: '', send_at: now, recipient_sent_at: now, expires_at: now + 400 * 86400, design_colour: null, payment_method: 'card',
      payment_id: null, total_paid: 2000, created_at: now,
    }).execute();
  });

  const validate = (code: string, ip: string) => fetch(`${server.url}/api/vouchers/validate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ code, course_ref: IDS.classCourse, educator_ref: IDS.educator }),
  });

  it('a real gift card from a clean client answers 200 after one client\u2019s and then many clients\u2019 guesses', async () => {
    // One client, far past everything: only its own limit is spent.
    const one = await Promise.all(Array.from({ length: VOUCHER_PER_EDUCATOR + 20 }, (_, i) => validate(`ONE${i}`, '203.0.113.50')));
    expect(count(one.map((r) => r.status))).toEqual({ 400: VOUCHER_PER_IP, 429: VOUCHER_PER_EDUCATOR + 20 - VOUCHER_PER_IP });
    expect((await validate(GIFT_CODE, '198.51.100.50')).status).toBe(200);
    // Many clients spend the educator's budget.
    for (let c = 0; c < Math.ceil(VOUCHER_PER_EDUCATOR / VOUCHER_PER_IP) + 1; c++) {
      await Promise.all(Array.from({ length: VOUCHER_PER_IP }, (_, i) => validate(`MANY${c}X${i}`, `192.0.2.${c + 60}`)));
    }
    // A further guess from a clean client is refused; guessers that failed are refused, even with the real code.
    expect((await validate('CLEAN-GUESS', '198.51.100.51')).status).toBe(429);
    expect((await validate(GIFT_CODE, '192.0.2.60')).status).toBe(429);
    // The gift card's holder and a learner with a real promo code, each from a clean client, are not refused.
    const gift = await validate(GIFT_CODE.toLowerCase(), '198.51.100.52');
    expect(gift.status).toBe(200);
    expect(gift.body).not.toBeNull();
    expect((await validate('TENOFF', '198.51.100.53')).status).toBe(200);
  });
});

describe('the request flow\u2019s "request delivery configured" shares the voucher-guessing limit', () => {
  it('a client trying codes there is stopped after RATE_LIMIT_VOUCHER_PER_IP wrong ones, and its real code then answers 429', async () => {
    // A fresh window for the educator's codes (the test above spent it).
    await server.db.deleteFrom('rate_limits').where('bucket', 'like', 'voucher:%').execute();
    const { cookie } = await signUpAndLogin(server);
    const api = client(server, cookie);
    const init = await api.initialise('request', { courseId: IDS.requestCal });
    expect(init.status).toBe(201);
    const submit = (code: string) => fetch(`${server.url}/api/checkout/${init.body._id}/submit-response`, {
      method: 'POST',
      headers: { origin: server.url, 'content-type': 'application/json', cookie, 'x-forwarded-for': '203.0.113.70' },
      body: JSON.stringify({
        action: 'request delivery configured',
        payload: { selectedDurationId: 'dur_60', delivery: { type: 'Online' }, pricing: { type: 'offers', offers: { [OFFERS.requestCal]: 1 }, addOns: {} }, appliedPromoCode: code },
      }),
    });
    const statuses: number[] = [];
    for (let i = 0; i < VOUCHER_PER_IP + 3; i++) statuses.push((await submit(`REQGUESS${i}`)).status);
    expect(count(statuses)).toEqual({ 400: VOUCHER_PER_IP, 429: 3 });
    expect((await submit(GIFT_CODE)).status).toBe(429);
  });
});
