/**
 * A membership credit is held with the spaces from the moment Payment is entered, as a voucher or a gift card is:
 * a credit spent by another checkout of the member can never leave one stuck at Payment, charging the card and
 * refunding it on every try. SQLite, or PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.ts';
import { CARDS, IDS, OFFERS, booker, contactPayload, payWithCard, type Client } from './checkout-fixtures.ts';
import { PLANS, join, startMembershipServer } from './membership-fixtures.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startMembershipServer({ RATE_LIMIT_LOGIN_PER_IP: '100000' });
}, 60_000);
afterAll(async () => server?.close());

type State = { _id: string; currentStep: string; status: string; totalCost: number | null;
  stepState: Record<string, { state: Record<string, unknown> }>;
  costSummary: { total_cost: number; summary_items: { discountSummary: { text: string; value: number }[] } } };

/** Two spaces with a credit: one paid by the credit, the other at the member price — Payment is needed. */
async function toContactDetails(api: Client): Promise<string> {
  const init = await api.initialise('booking', { courseId: IDS.classCourse, occurrenceId: IDS.classOcc });
  const id = (init.body as State)._id;
  const picked = await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.standard, quantity: 2 }], useMembershipCredit: true });
  expect(picked.status, JSON.stringify(picked.body)).toBe(200);
  expect((picked.body as State).currentStep).toBe('contactDetails');
  return id;
}

const contact = (email: string) => contactPayload(email, { bookerFormResponse: booker(email, { phone: '07700 900123' }) });

async function creditsLeft(membershipId: string): Promise<number> {
  const row = await server.db.selectFrom('memberships').select('credits_left').where('id', '=', membershipId).executeTakeFirstOrThrow();
  return Number(row.credits_left);
}

async function paymentsTaken(checkoutId: string): Promise<string[]> {
  const rows = await server.db.selectFrom('checkout_payments').select('status').where('checkout_id', '=', checkoutId).execute();
  return rows.map((r) => r.status);
}

describe('a membership credit held at Payment', () => {
  it('one credit, two checkouts: the second cannot reach Payment with it, so no money moves and nothing answers 500', async () => {
    const { api, email, membershipId } = await join(server, PLANS.monthly);
    await server.db.updateTable('memberships').set({ credits_left: 1 }).where('id', '=', membershipId).execute();
    const first = await toContactDetails(api);
    const second = await toContactDetails(api);

    const a = await api.submit(first, 'contact details filled', contact(email));
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect((a.body as State).currentStep).toBe('payment');
    // Entering Payment took the credit off the period, as the spaces are taken off the occurrence.
    expect(await creditsLeft(membershipId)).toBe(0);

    const b = await api.submit(second, 'contact details filled', contact(email));
    expect(b.status, JSON.stringify(b.body)).toBe(400);
    expect(JSON.stringify(b.body)).toContain('none left this period');
    const bState = (await api.get(`/checkout/${second}`)).body as State;
    expect(bState.currentStep).toBe('contactDetails');
    expect(await paymentsTaken(second)).toEqual([]);

    // The first pays: the held credit is spent once, with the booking.
    const method = await api.submit(first, 'payment method selected', { paymentMethod: 'card' });
    expect(method.status, JSON.stringify(method.body)).toBe(200);
    expect((await payWithCard(server, method.body as never, CARDS.success)).status).toBe(200);
    const done = await api.submit(first, 'payment was successful', {});
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((done.body as State).status).toBe('completed');
    expect(await creditsLeft(membershipId)).toBe(0);
    const uses = await server.db.selectFrom('membership_credit_uses').select(['checkout_id', 'value']).where('membership_id', '=', membershipId).execute();
    expect(uses).toEqual([{ checkout_id: first, value: 3000 }]);

    // The second goes back, leaves the credit out and pays the member price for both spaces.
    expect((await api.submit(second, 'go back', {})).status).toBe(200);
    const repriced = await api.submit(second, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.standard, quantity: 2 }], useMembershipCredit: false });
    expect(repriced.status, JSON.stringify(repriced.body)).toBe(200);
    expect((repriced.body as State).costSummary.total_cost).toBe(5400);
  });

  it('going back from Payment gives the credit back', async () => {
    const { api, email, membershipId } = await join(server, PLANS.monthly);
    const id = await toContactDetails(api);
    expect((await api.submit(id, 'contact details filled', contact(email))).status).toBe(200);
    expect(await creditsLeft(membershipId)).toBe(1);
    expect((await api.submit(id, 'go back', {})).status).toBe(200);
    expect(await creditsLeft(membershipId)).toBe(2);
  });

  it('a credit spent while a lapsed hold was away: Payment answers a clear problem before any money moves, never a 500', async () => {
    const { api, email, membershipId } = await join(server, PLANS.monthly);
    await server.db.updateTable('memberships').set({ credits_left: 1 }).where('id', '=', membershipId).execute();
    const id = await toContactDetails(api);
    expect((await api.submit(id, 'contact details filled', contact(email))).status).toBe(200);
    // The hold lapses and the credit is spent elsewhere meanwhile (another device, after the sweeper gave it back).
    await server.db.updateTable('membership_credit_holds').set({ status: 'released' }).where('checkout_id', '=', id).execute();
    await server.db.updateTable('memberships').set({ credits_left: 0 }).where('id', '=', membershipId).execute();
    const method = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    expect(method.status, JSON.stringify(method.body)).toBe(400);
    expect(JSON.stringify(method.body)).toContain('none left this period');
    expect(await paymentsTaken(id)).not.toContain('succeeded');
  });
});
