/**
 * Joining a membership through the checkout (the membership flow, test card), renewals by the test clock, a failed
 * renewal and its retries, cancellation at period end, receipts and e-mails — on SQLite, or PostgreSQL when
 * TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { CARDS, IDS, client, problemType, type Client } from './checkout-fixtures.ts';
import { PLANS, join, startMembershipServer } from './membership-fixtures.ts';

const DAY = 86400;
let server: TestServer;

/** Moves the learner's own test clock (and runs the renewals then due). */
async function advance(api: Client, seconds: number): Promise<{ renewed: number; now: number }> {
  const res = await api.post('/test-payments/clock', { advanceSeconds: seconds });
  expect(res.status).toBe(200);
  return res.body as { renewed: number; now: number };
}

async function setCard(api: Client, membershipId: string, card: string): Promise<void> {
  const res = await api.post(`/test-payments/memberships/${membershipId}/card`, { card_number: card });
  expect(res.status).toBe(200);
}

async function mine(api: Client) {
  const res = await api.get('/memberships');
  expect(res.status).toBe(200);
  return (res.body as { memberships: Array<Record<string, any>> }).memberships;  
}

async function mails(email: string): Promise<string[]> {
  const rows = await server.db.selectFrom('outbox_messages').select('subject').where('to_address', '=', email).execute();
  return rows.map((r) => r.subject);
}

beforeAll(async () => {
  server = await startMembershipServer();
}, 60_000);
afterAll(async () => server?.close());

describe('plans', () => {
  it('lists the educator’s listed plans with price and benefit texts', async () => {
    const res = await client(server).get(`/educators/${IDS.educator}/membership-plans`);
    expect(res.status).toBe(200);
    const plans = (res.body as { plans: { id: string; priceText: string; benefits: string[] }[] }).plans;
    expect(plans.map((p) => [p.id, p.priceText])).toEqual([[PLANS.monthly, '£25 / month'], [PLANS.pass, '£60 for 2 months']]);
    expect(plans[0]!.benefits).toEqual(['2 credits a month, each one space on all courses', '10% off all courses']);
  });

  it('refuses an unlisted plan, another educator’s plan, and a plan the learner already has', async () => {
    const { cookie } = await signUpAndLogin(server);
    const api = client(server, cookie);
    const init = await api.initialise('membership', { educatorId: IDS.educator });
    const id = (init.body as { _id: string })._id;
    const hidden = await api.submit(id, 'membership plan picked', { planId: PLANS.hidden });
    expect(hidden.status).toBe(400);
    expect(problemType(hidden.body as never)).toBe('generic/validation-error');
    const missing = await api.submit(id, 'membership plan picked', { planId: 'plan_nope' });
    expect(missing.status).toBe(400);
    const { api: member } = await join(server, PLANS.monthly);
    const again = await member.initialise('membership', { educatorId: IDS.educator });
    const second = await member.submit((again.body as { _id: string })._id, 'membership plan picked', { planId: PLANS.monthly });
    expect(second.status).toBe(400);
    expect(JSON.stringify(second.body)).toContain('already one of your memberships');
  });

  it('a plan picked while logged out: the login step, then Payment with the total fixed and the checkout bound to the learner', async () => {
    const visitor = client(server);
    const init = await visitor.initialise('membership', { educatorId: IDS.educator });
    const id = (init.body as { _id: string })._id;
    const picked = await visitor.submit(id, 'membership plan picked', { planId: PLANS.monthly });
    expect(picked.body).toMatchObject({ currentStep: 'login', steps: ['plan', 'login', 'payment', 'confirmation'] });
    expect((picked.body as { costSummary: { summary_items: { extraSummary: unknown[] } } }).costSummary.summary_items.extraSummary)
      .toEqual([{ text: 'Studio Monthly (£25 / month)', value: 2500 }]);
    const { cookie, user } = await signUpAndLogin(server);
    const learner = client(server, cookie);
    const state = await learner.get(`/checkout/${id}`);
    expect(state.body).toMatchObject({ currentStep: 'payment' });
    expect((state.body as { totalCost: number }).totalCost).toBeGreaterThanOrEqual(2500);
    const row = await server.db.selectFrom('checkouts').select(['user_id', 'total_cost']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.user_id).toBe(user.id);
  });

  it('a course flow still needs its course; the membership flow needs its educator', async () => {
    const api = client(server);
    expect((await api.initialise('membership', {})).status).toBe(400);
    expect((await api.initialise('membership', { educatorId: 'edu_nope' })).status).toBe(404);
  });
});

describe('joining, renewing, failing and cancelling', () => {
  it('joins by card: a month from now, the plan’s credits, a receipt numbered from the educator’s sequence, a welcome e-mail', async () => {
    const { api, email, membershipId } = await join(server, PLANS.monthly);
    const [m] = await mine(api);
    expect(m).toMatchObject({ id: membershipId, status: 'active', planName: 'Studio Monthly', creditsLeft: 2, cancelAtPeriodEnd: false });
    expect(m!.nextRenewal).toBe(m!.currentPeriodEnd);
    expect(m!.currentPeriodEnd - m!.currentPeriodStart).toBeGreaterThanOrEqual(28 * DAY);
    expect(m!.currentPeriodEnd - m!.currentPeriodStart).toBeLessThanOrEqual(31 * DAY + 3600);
    expect(m!.payments).toHaveLength(1);
    expect(m!.payments[0]).toMatchObject({ kind: 'join', status: 'paid' });
    expect(m!.payments[0].receiptNumber).toMatch(/^INV-\d{6}$/);
    // The platform fee is part of what the learner pays each period (not absorbed in the fixtures).
    expect(m!.price).toBeGreaterThanOrEqual(2500);
    const pdf = await fetch(`${server.url}${m!.payments[0].receipt}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect((await fetch(`${server.url}/api/membership-payments/${m!.payments[0].id}/receipt?token=wrong`)).status).toBe(404);
    await expect.poll(() => mails(email)).toContain('Welcome to Studio Monthly – Clay Studio');
  });

  it('renews when the test clock passes the period end: a new period, the credits back, a second receipt, an e-mail', async () => {
    const { api, email, membershipId } = await join(server, PLANS.monthly);
    await server.db.updateTable('memberships').set({ credits_left: 0 }).where('id', '=', membershipId).execute();
    const [before] = await mine(api);
    // Just before the end: nothing is due. The test clock runs on with the real one between two calls, so "just
    // before" leaves a few seconds (one second of slack once let a slow run cross the end here).
    const now = (await advance(api, 0)) as unknown as { now: number };
    await advance(api, before!.currentPeriodEnd - now.now - 5);
    expect((await mine(api))[0]).toMatchObject({ creditsLeft: 0, currentPeriodEnd: before!.currentPeriodEnd });
    await advance(api, 6);
    const [after] = await mine(api);
    expect(after).toMatchObject({ status: 'active', creditsLeft: 2, currentPeriodStart: before!.currentPeriodEnd });
    expect(after!.payments.map((p: { kind: string; status: string }) => [p.kind, p.status])).toEqual([['join', 'paid'], ['renewal', 'paid']]);
    expect(after!.payments[1].receiptNumber).not.toBe(after!.payments[0].receiptNumber);
    await expect.poll(() => mails(email)).toContain('Your Studio Monthly membership has renewed');
    // Moving the clock again without passing the next end renews nothing twice.
    await advance(api, 60);
    expect((await mine(api))[0]!.payments).toHaveLength(2);
  });

  it('a declined renewal pauses the benefits, is retried after 1 and 3 days, then the membership ends', async () => {
    const { api, email, membershipId } = await join(server, PLANS.monthly);
    await setCard(api, membershipId, CARDS.declined);
    const [m] = await mine(api);
    const { now } = (await advance(api, 0)) as unknown as { now: number };
    await advance(api, m!.currentPeriodEnd - now);
    let [after] = await mine(api);
    expect(after).toMatchObject({ status: 'past_due' });
    expect(after!.nextRenewal).toBeGreaterThan(m!.currentPeriodEnd);
    await expect.poll(() => mails(email)).toContain('We could not renew your Studio Monthly membership');
    // The first retry fails too; then the card is fixed and the second retry succeeds.
    await advance(api, after!.nextRenewal - ((await advance(api, 0)) as unknown as { now: number }).now);
    [after] = await mine(api);
    expect(after).toMatchObject({ status: 'past_due' });
    await setCard(api, membershipId, CARDS.success);
    await advance(api, after!.nextRenewal - ((await advance(api, 0)) as unknown as { now: number }).now);
    [after] = await mine(api);
    expect(after).toMatchObject({ status: 'active', creditsLeft: 2, currentPeriodStart: m!.currentPeriodEnd });
    expect(after!.payments.map((p: { status: string }) => p.status)).toEqual(['paid', 'failed', 'failed', 'paid']);
  });

  it('three declined attempts end the membership', async () => {
    const { api, membershipId } = await join(server, PLANS.monthly);
    await setCard(api, membershipId, CARDS.declined);
    for (let i = 0; i < 3; i++) {
      const [m] = await mine(api);
      const { now } = (await advance(api, 0)) as unknown as { now: number };
      await advance(api, Math.max(0, m!.nextRenewal - now));
    }
    const [ended] = await mine(api);
    expect(ended).toMatchObject({ status: 'ended', endReason: 'payment_failed', nextRenewal: null, creditsLeft: 0 });
  });

  it('cancelling keeps the benefits to the period end, charges nothing more, and ends the membership then', async () => {
    const { api, email, membershipId } = await join(server, PLANS.monthly);
    const res = await api.post(`/memberships/${membershipId}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cancelAtPeriodEnd: true, status: 'active' });
    const [m] = await mine(api);
    expect(m).toMatchObject({ status: 'active', nextRenewal: null, creditsLeft: 2 });
    await expect.poll(() => mails(email)).toContain('Your Studio Monthly membership is cancelled');
    const { now } = (await advance(api, 0)) as unknown as { now: number };
    await advance(api, m!.currentPeriodEnd - now);
    const [ended] = await mine(api);
    expect(ended).toMatchObject({ status: 'ended', endReason: 'cancelled' });
    expect(ended!.payments).toHaveLength(1);
    // Someone else cannot cancel it; cancelling twice changes nothing.
    const { cookie } = await signUpAndLogin(server);
    expect((await client(server, cookie).post(`/memberships/${membershipId}/cancel`)).status).toBe(404);
    expect((await client(server).post(`/memberships/${membershipId}/cancel`)).status).toBe(401);
  });

  it('a pass is paid once and ends after its months', async () => {
    const { api } = await join(server, PLANS.pass);
    const [m] = await mine(api);
    expect(m).toMatchObject({ status: 'active', creditsLeft: 3, nextRenewal: null });
    expect(m!.currentPeriodEnd - m!.currentPeriodStart).toBeGreaterThanOrEqual(59 * DAY);
    const { now } = (await advance(api, 0)) as unknown as { now: number };
    await advance(api, m!.currentPeriodEnd - now);
    expect((await mine(api))[0]).toMatchObject({ status: 'ended', endReason: 'pass_expired' });
  });
});

describe('the test-mode routes are the learner\u2019s own', () => {
  it('moving the clock and changing the card need the member\u2019s session, and touch only their memberships', async () => {
    const member = await join(server, PLANS.monthly);
    const [before] = await mine(member.api);
    const other = await join(server, PLANS.monthly);
    // Without a session: refused.
    const anonymous = client(server);
    expect((await anonymous.post('/test-payments/clock', { advanceSeconds: 40 * DAY })).status).toBe(401);
    expect((await anonymous.post(`/test-payments/memberships/${member.membershipId}/card`, { card_number: CARDS.declined })).status).toBe(401);
    // Another learner cannot change the member's card…
    expect((await other.api.post(`/test-payments/memberships/${member.membershipId}/card`, { card_number: CARDS.declined })).status).toBe(404);
    // …and moving their own clock past the period end renews their membership, not the member's.
    const moved = await advance(other.api, before!.currentPeriodEnd - (await advance(other.api, 0)).now + 60);
    expect(moved.renewed).toBeGreaterThanOrEqual(1);
    expect((await mine(other.api))[0]!.payments).toHaveLength(2);
    const [after] = await mine(member.api);
    expect(after).toMatchObject({ status: 'active', currentPeriodEnd: before!.currentPeriodEnd });
    expect(after!.payments).toHaveLength(1);
    expect((await advance(member.api, 0)).now).toBeLessThan(before!.currentPeriodEnd);
    // The member's own clock still renews it, with the card they have.
    await advance(member.api, before!.currentPeriodEnd - (await advance(member.api, 0)).now);
    expect((await mine(member.api))[0]).toMatchObject({ status: 'active', currentPeriodStart: before!.currentPeriodEnd });
  });
});
