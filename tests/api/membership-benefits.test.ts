/**
 * A member's benefits at checkout: member prices (the plan's percentage) and a credit that pays one space, spent
 * exactly once even when the member books many times at the same moment — SQLite, or PostgreSQL with
 * TEST_DATABASE_URL. Controls: a visitor and a non-member pay full price and cannot spend a credit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { IDS, OFFERS, booker, client, contactPayload, problemType, type Client } from './checkout-fixtures.ts';
import { PLANS, join, startMembershipServer } from './membership-fixtures.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startMembershipServer({ RATE_LIMIT_LOGIN_PER_IP: '100000' });
}, 60_000);
afterAll(async () => server?.close());

type State = { _id: string; currentStep: string; status: string; steps: string[]; totalCost: number | null; bookingId: string | null;
  costSummary: { total_cost: number; summary_items: { discountSummary: { text: string; value: number }[] } } };

async function pick(api: Client, offerId: string, quantity: number, useMembershipCredit = false) {
  const init = await api.initialise('booking', { courseId: IDS.classCourse, occurrenceId: IDS.classOcc });
  const id = (init.body as State)._id;
  return { id, res: await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId, quantity }], useMembershipCredit }) };
}

async function creditsLeft(membershipId: string): Promise<number> {
  const row = await server.db.selectFrom('memberships').select('credits_left').where('id', '=', membershipId).executeTakeFirstOrThrow();
  return Number(row.credits_left);
}

describe('member prices', () => {
  it('a member sees the plan’s percentage off the offers as a discount line; a non-member does not', async () => {
    const { api } = await join(server, PLANS.monthly);
    const { res } = await pick(api, OFFERS.standard, 2);
    expect(res.status).toBe(200);
    const state = res.body as State;
    expect(state.costSummary.summary_items.discountSummary).toEqual([{ text: 'Member price (10% off)', value: -600 }]);
    expect(state.costSummary.total_cost).toBe(5400);
    const { cookie } = await signUpAndLogin(server);
    const other = (await pick(client(server, cookie), OFFERS.standard, 2)).res.body as State;
    expect(other.costSummary.summary_items.discountSummary).toEqual([]);
    expect(other.costSummary.total_cost).toBe(6000);
  });

  it('the cost summary preview (before Continue) shows a member the same prices, and the credit when asked for', async () => {
    const { api } = await join(server, PLANS.monthly);
    const body = { course_ref: IDS.classCourse, occurrence_ref: IDS.classOcc, offers: [{ _id: OFFERS.standard, quantity: 2 }], add_ons: [] };
    let res = await api.post('/custom/get-checkout-summary', body);
    expect(res.status).toBe(200);
    expect(res.body.summary_items.discountSummary).toEqual([{ text: 'Member price (10% off)', value: -600 }]);
    expect(res.body.total_cost).toBe(5400);
    res = await api.post('/custom/get-checkout-summary', { ...body, use_membership_credit: true });
    expect(res.body.summary_items.discountSummary).toEqual([
      { text: 'Membership credit (1 space)', value: -3000 }, { text: 'Member price (10% off)', value: -300 },
    ]);
    expect(res.body.total_cost).toBe(2700);
    // What Continue then shows is the same.
    const { res: picked } = await pick(api, OFFERS.standard, 2, true);
    expect((picked.body as State).costSummary.total_cost).toBe(2700);
    // A visitor and a non-member see full prices, and asking for a credit changes nothing.
    for (const other of [client(server), client(server, (await signUpAndLogin(server)).cookie)]) {
      res = await other.post('/custom/get-checkout-summary', { ...body, use_membership_credit: true });
      expect(res.status).toBe(200);
      expect(res.body.summary_items.discountSummary).toEqual([]);
      expect(res.body.total_cost).toBe(6000);
    }
  });

  it('a plan on selected courses gives nothing on another course', async () => {
    const { api } = await join(server, PLANS.pass); // pass: 3 credits on classCourse only, no percentage
    const init = await api.initialise('booking', { courseId: IDS.raceCourse, occurrenceId: IDS.raceOcc });
    const res = await api.submit((init.body as State)._id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.race, quantity: 1 }], useMembershipCredit: true });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('needs a membership with credits for this course');
  });
});

describe('paying with a credit', () => {
  it('one space paid by a credit: nothing to pay, no Payment step, the booking recorded and the credit spent', async () => {
    const { api, email, membershipId } = await join(server, PLANS.monthly);
    const { id, res } = await pick(api, OFFERS.standard, 1, true);
    expect(res.status).toBe(200);
    const picked = res.body as State;
    expect(picked.costSummary.summary_items.discountSummary).toEqual([{ text: 'Membership credit (1 space)', value: -3000 }]);
    expect(picked.costSummary.total_cost).toBe(0);
    expect(picked.steps).toEqual(['date', 'spaces', 'contactDetails', 'confirmation']);
    const done = await api.submit(id, 'contact details filled', contactPayload(email, { bookerFormResponse: booker(email, { phone: '07700 900123' }) }));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((done.body as State).status).toBe('completed');
    expect(await creditsLeft(membershipId)).toBe(1);
    const use = await server.db.selectFrom('membership_credit_uses').selectAll().where('checkout_id', '=', id).executeTakeFirstOrThrow();
    expect(use).toMatchObject({ membership_id: membershipId, booking_id: (done.body as State).bookingId, value: 3000, period_index: 0 });
  });

  it('two spaces with a credit: one is paid by the credit, the other at the member price', async () => {
    const { api } = await join(server, PLANS.monthly);
    const { res } = await pick(api, OFFERS.standard, 2, true);
    const state = res.body as State;
    expect(state.costSummary.summary_items.discountSummary).toEqual([
      { text: 'Membership credit (1 space)', value: -3000 }, { text: 'Member price (10% off)', value: -300 },
    ]);
    expect(state.costSummary.total_cost).toBe(2700);
  });

  it('refuses a credit on an offer of two spaces, a credit without a membership, and a credit when none is left', async () => {
    const { api, membershipId } = await join(server, PLANS.monthly);
    const pair = await pick(api, OFFERS.pair, 1, true);
    expect(pair.res.status).toBe(400);
    expect(problemType(pair.res.body as never)).toBe('generic/validation-error');
    const { cookie } = await signUpAndLogin(server);
    expect((await pick(client(server, cookie), OFFERS.standard, 1, true)).res.status).toBe(400);
    await server.db.updateTable('memberships').set({ credits_left: 0 }).where('id', '=', membershipId).execute();
    const none = await pick(api, OFFERS.standard, 1, true);
    expect(none.res.status).toBe(400);
    expect(JSON.stringify(none.res.body)).toContain('none left this period');
  });

  it('never oversells credits: 12 bookings at once with 2 credits left make exactly 2 bookings', async () => {
    const { api, email, membershipId } = await join(server, PLANS.monthly);
    expect(await creditsLeft(membershipId)).toBe(2);
    // Every checkout reaches Contact details with a credit while 2 are left…
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const { id, res } = await pick(api, OFFERS.standard, 1, true);
      expect(res.status).toBe(200);
      ids.push(id);
    }
    // …then all complete at the same moment.
    const results = await Promise.all(ids.map((id) => api.submit(id, 'contact details filled', contactPayload(email, { bookerFormResponse: booker(email, { phone: '07700 900123' }) }))));
    const completed = results.filter((r) => r.status === 200 && (r.body as State).status === 'completed');
    expect(completed).toHaveLength(2);
    for (const r of results.filter((x) => x.status !== 200)) expect(JSON.stringify(r.body)).toContain('none left this period');
    expect(await creditsLeft(membershipId)).toBe(0);
    const uses = await server.db.selectFrom('membership_credit_uses').select('id').where('membership_id', '=', membershipId).execute();
    expect(uses).toHaveLength(2);
    const bookings = await server.db.selectFrom('bookings').select('id').where('checkout_id', 'in', ids).execute();
    expect(bookings).toHaveLength(2);
  });
});
