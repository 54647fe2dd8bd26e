/**
 * A checkout is its owner's (only they may abandon it), and the cap on holding spaces is the learner's on a date,
 * not one checkout's: abandoning and booking again does not start it again. A gift card's hold is capped too when
 * no spaces are held. Through HTTP, on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { DAY, IDS, OFFERS, client, contactPayload, problemType, raceOccurrences, seedCheckoutCatalogue, type Client } from './checkout-fixtures.ts';
import { PLANS, seedPlans } from './membership-fixtures.ts';

const HOLD = 300;
const HOLD_CAP = 600;
let server: TestServer;
let now: number;
/** A fresh dated occurrence of the race course, so tests do not share spaces. */
let freshOccurrence: (spaces: number) => Promise<string>;

beforeAll(async () => {
  server = await startTestServer({
    RATE_LIMIT_LOGIN_PER_IP: '100000', LOG_LEVEL: 'silent', CHECKOUT_HOLD_SECONDS: String(HOLD), CHECKOUT_HOLD_MAX_SECONDS: String(HOLD_CAP),
  });
  now = Math.floor(Date.now() / 1000);
  await seedCheckoutCatalogue(server.db, now);
  freshOccurrence = raceOccurrences(server.db, 'occ_owner', () => now);
});
afterAll(async () => server?.close());
beforeEach(() => server.setNow(now));


async function learner(): Promise<{ api: Client; email: string }> {
  const { cookie, user } = await signUpAndLogin(server);
  return { api: client(server, cookie), email: user.email };
}

async function toPayment(api: Client, email: string, occurrenceId: string, quantity: number) {
  const init = await api.initialise('booking', { courseId: IDS.raceCourse, occurrenceId });
  expect(init.status).toBe(201);
  const id = init.body._id as string;
  expect((await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.race, quantity }] })).status).toBe(200);
  const res = await api.submit(id, 'contact details filled', contactPayload(email));
  return { id, res };
}

async function spacesLeft(occurrenceId: string): Promise<number> {
  const row = await server.db.selectFrom('occurrences').select('available_spaces').where('id', '=', occurrenceId).executeTakeFirstOrThrow();
  return Number(row.available_spaces);
}

describe('only the checkout\u2019s owner may abandon it', () => {
  it('without the learner\u2019s session, or with another learner\u2019s, abandoning answers 404 and the hold stays', async () => {
    const occ = await freshOccurrence(3);
    const owner = await learner();
    const { id, res } = await toPayment(owner.api, owner.email, occ, 2);
    expect(res.body.currentStep).toBe('payment');
    expect(await spacesLeft(occ)).toBe(1);
    // Whoever saw the id in a URL (an analytics pixel, the embedding site)…
    const anonymous = await client(server).post(`/checkout/${id}/abandon`);
    expect(anonymous.status).toBe(404);
    const stranger = await learner();
    expect((await stranger.api.post(`/checkout/${id}/abandon`)).status).toBe(404);
    expect(await spacesLeft(occ)).toBe(2 - 2 + 1);
    const mine = await owner.api.get(`/checkout/${id}`);
    expect(mine.body).toMatchObject({ status: 'open', hold: { spaces: 2, status: 'held' } });
    // The owner may.
    const abandoned = await owner.api.post(`/checkout/${id}/abandon`);
    expect(abandoned.status).toBe(200);
    expect(abandoned.body.status).toBe('abandoned');
    expect(await spacesLeft(occ)).toBe(3);
  });

  it('a signed-in learner\u2019s checkout is theirs from the moment it reaches Payment, before they act on it', async () => {
    await seedPlans(server);
    const owner = await learner();
    const init = await owner.api.initialise('membership', { educatorId: IDS.educator });
    const id = init.body._id as string;
    const picked = await owner.api.submit(id, 'membership plan picked', { planId: PLANS.monthly });
    expect(picked.body.currentStep).toBe('payment');
    expect((await client(server).post(`/checkout/${id}/abandon`)).status).toBe(404);
    expect((await owner.api.get(`/checkout/${id}`)).body.status).toBe('open');
  });

  it('a checkout nobody has logged in to (it holds nothing) is reachable by its id, as for reading it', async () => {
    const visitor = client(server);
    const init = await visitor.initialise('booking', { courseId: IDS.raceCourse, occurrenceId: IDS.raceOcc });
    const res = await client(server).post(`/checkout/${init.body._id}/abandon`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('abandoned');
  });
});

describe('the hold cap is the learner\u2019s on a date, not one checkout\u2019s', () => {
  it('abandoning and booking again keeps the first cap; after it, the learner waits while others book', async () => {
    const occ = await freshOccurrence(3);
    const a = await learner();
    const first = await toPayment(a.api, a.email, occ, 3);
    expect(first.res.body.hold.expiresAt).toBe(now + HOLD);
    server.setNow(now + HOLD_CAP - 100);
    expect((await a.api.post(`/checkout/${first.id}/abandon`)).status).toBe(200);
    // A fresh checkout holds only until the learner's cap, not for a new one.
    const second = await toPayment(a.api, a.email, occ, 3);
    expect(second.res.status).toBe(200);
    expect(second.res.body.hold.expiresAt).toBe(now + HOLD_CAP);
    server.setNow(now + HOLD_CAP + 1);
    const renewed = await a.api.submit(second.id, 'payment method selected', { paymentMethod: 'invoice' });
    expect(renewed.status).toBe(409);
    expect(problemType(renewed.body)).toBe('checkout/hold-lapsed');
    expect(await spacesLeft(occ)).toBe(3);
    // Booking again at once: refused, told when they may; the spaces stay free.
    const third = await toPayment(a.api, a.email, occ, 3);
    expect(third.res.status).toBe(409);
    expect(problemType(third.res.body)).toBe('checkout/hold-lapsed');
    expect(third.res.body.detail).toContain('again in 10 minutes');
    expect(await spacesLeft(occ)).toBe(3);
    // Another learner gets them meanwhile.
    const b = await learner();
    const other = await toPayment(b.api, b.email, occ, 3);
    expect(other.res.status).toBe(200);
    expect(other.res.body.hold).toMatchObject({ spaces: 3, status: 'held' });
    expect((await b.api.post(`/checkout/${other.id}/abandon`)).status).toBe(200);
    // After the rest, the first learner may hold again, for a new cap.
    server.setNow(now + 2 * HOLD_CAP + 1);
    const later = await toPayment(a.api, a.email, occ, 1);
    expect(later.res.status).toBe(200);
    expect(later.res.body.hold.expiresAt).toBe(now + 2 * HOLD_CAP + 1 + HOLD);
  });

  it('a learner who booked the date may book it again later without waiting', async () => {
    const occ = await freshOccurrence(4);
    const a = await learner();
    const first = await toPayment(a.api, a.email, occ, 1);
    const paid = await a.api.submit(first.id, 'invoice details added', { billing_name: 'Ada', billing_address: '1 Lane' });
    expect(paid.body.status).toBe('completed');
    server.setNow(now + HOLD_CAP + 60);
    const again = await toPayment(a.api, a.email, occ, 1);
    expect(again.res.status).toBe(200);
    expect(again.res.body.hold.expiresAt).toBe(now + HOLD_CAP + 60 + HOLD);
  });
});

describe('a gift card\u2019s hold without spaces is capped too', () => {
  const CODE = 'HJKM2345NPQR6789';
  beforeAll(async () => {
    await server.db.insertInto('gift_cards').values({
      id: 'gft_capped', educator_id: IDS.educator, code: CODE, amount: 1500, balance: 1500, currency: 'GBP', checkout_id: null,
      buyer_user_id: null, buyer_name: 'Ada', buyer_email: 'ada@example.com', recipient_name: 'Grace', recipient_email: 'grace@example.com',
      message: '', send_at: now, recipient_sent_at: now, expires_at: now + 400 * DAY, design_colour: null, payment_method: 'card',
      payment_id: null, total_paid: 1500, created_at: now,
    }).execute();
  });

  async function balance(): Promise<number> {
    return Number((await server.db.selectFrom('gift_cards').select('balance').where('id', '=', 'gft_capped').executeTakeFirstOrThrow()).balance);
  }

  it('an order paid partly by a gift card: renewals stop at the cap and the card\u2019s balance comes back', async () => {
    const { api, email } = await learner();
    const init = await api.initialise('order', { courseId: IDS.onDemand });
    const id = init.body._id as string;
    const priced = await api.submit(id, 'order pricing options picked', { selectedOffers: [{ offerId: OFFERS.onDemand, quantity: 1 }], appliedPromoCode: CODE });
    expect(priced.status).toBe(200);
    const res = await api.submit(id, 'order contact details filled', contactPayload(email));
    expect(res.body).toMatchObject({ currentStep: 'payment' });
    expect(res.body.hold).toBeNull();
    expect(await balance()).toBe(0);
    server.setNow(now + HOLD_CAP - 100);
    expect((await api.submit(id, 'payment method selected', { paymentMethod: 'invoice' })).status).toBe(200);
    const held = await server.db.selectFrom('gift_card_redemptions').select('expires_at').where('checkout_id', '=', id).executeTakeFirstOrThrow();
    expect(Number(held.expires_at)).toBe(now + HOLD_CAP);
    server.setNow(now + HOLD_CAP + 1);
    const lapsed = await api.submit(id, 'payment method selected', { paymentMethod: 'invoice' });
    expect(lapsed.status).toBe(409);
    expect(problemType(lapsed.body)).toBe('checkout/hold-lapsed');
    expect(await balance()).toBe(1500);
    expect((await api.get(`/checkout/${id}`)).body.status).toBe('abandoned');
  });
});
