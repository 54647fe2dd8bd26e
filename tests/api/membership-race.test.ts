/**
 * One running membership per learner and plan, held by the database: several checkouts of one plan paid at the same
 * moment make one membership, and every other payment is given back, answered without a server error — on SQLite,
 * or PostgreSQL when TEST_DATABASE_URL is set (where each completing transaction locks only its own checkout, so
 * "not a member yet" is seen by all of them before any has written).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { CARDS, IDS, client, payWithCard } from './checkout-fixtures.ts';
import { PLANS, startMembershipServer } from './membership-fixtures.ts';
import type { MembershipStatus } from '../../db/schema/memberships.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startMembershipServer();
}, 60_000);
afterAll(async () => server?.close());

function membershipRow(id: string, userId: string, status: MembershipStatus) {
  return {
    id, plan_id: PLANS.monthly, educator_id: IDS.educator, user_id: userId, checkout_id: null, status, payment_method: 'card',
    provider: 'test', provider_customer_id: null, provider_subscription_id: null, price: 2500, currency: 'GBP', anchor_at: 0,
    period_index: 0, current_period_start: 0, current_period_end: 100, credits_left: 0, cancel_at_period_end: false,
    cancel_requested_at: null, ended_at: null, end_reason: null, renewal_attempts: 0, next_attempt_at: null, claimed_at: null,
    created_at: 0, updated_at: 0,
  };
}

describe('one running membership per learner and plan', () => {
  it('the database refuses a second running membership of the same plan, and allows one after an ended one', async () => {
    const { user } = await signUpAndLogin(server);
    await server.db.insertInto('memberships').values(membershipRow(`mem_a_${user.id}`, user.id, 'ended')).execute();
    await server.db.insertInto('memberships').values(membershipRow(`mem_b_${user.id}`, user.id, 'active')).execute();
    await expect(server.db.insertInto('memberships').values(membershipRow(`mem_c_${user.id}`, user.id, 'active')).execute()).rejects.toThrow();
    await expect(server.db.insertInto('memberships').values(membershipRow(`mem_d_${user.id}`, user.id, 'past_due')).execute()).rejects.toThrow();
  });

  it('checkouts of one plan paid at the same moment: one membership, one paid join, every other payment refunded, no 500', async () => {
    const LEARNERS = 4;
    const CHECKOUTS = 3;
    const learners = await Promise.all(Array.from({ length: LEARNERS }, async () => {
      const { cookie, user } = await signUpAndLogin(server);
      const api = client(server, cookie);
      // Every checkout reaches Payment before any is paid: none of them sees a membership yet.
      const states = [];
      for (let k = 0; k < CHECKOUTS; k++) {
        const init = await api.initialise('membership', { educatorId: IDS.educator });
        const id = (init.body as { _id: string })._id;
        const picked = await api.submit(id, 'membership plan picked', { planId: PLANS.monthly });
        expect(picked.status, JSON.stringify(picked.body)).toBe(200);
        const method = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
        expect(method.status, JSON.stringify(method.body)).toBe(200);
        states.push({ id, state: method.body as { stepState: Record<string, { state: Record<string, unknown> }> } });
      }
      return { api, user, states };
    }));

    // All the card confirmations at once (each one announces its payment, which records the outcome).
    const paid = await Promise.all(learners.flatMap((l) => l.states.map((s) => payWithCard(server, s.state, CARDS.success))));
    for (const p of paid) expect(p.status).toBeLessThan(500);
    // Then each browser says "payment was successful", again all at once.
    const answers = await Promise.all(learners.flatMap((l) => l.states.map((s) => l.api.submit(s.id, 'payment was successful', {}))));
    for (const a of answers) {
      // The checkout that made the membership is complete; each other one is told why its payment was given back.
      if (a.status !== 200) {
        expect(a.status, JSON.stringify(a.body)).toBe(400);
        expect(JSON.stringify(a.body)).toContain('is already one of your memberships');
      }
    }

    for (const l of learners) {
      const memberships = await server.db.selectFrom('memberships').select(['id', 'status']).where('user_id', '=', l.user.id).execute();
      expect(memberships).toHaveLength(1);
      const joins = await server.db.selectFrom('membership_payments').select('id').where('membership_id', '=', memberships[0]!.id).execute();
      expect(joins).toHaveLength(1);
      const paymentIds = l.states.map((s) => String(s.state.stepState.payment!.state.paymentId));
      const payments = await server.db.selectFrom('test_payments').select(['id', 'status']).where('id', 'in', paymentIds).execute();
      expect(payments.filter((p) => p.status === 'succeeded')).toHaveLength(1);
      expect(payments.filter((p) => p.status === 'refunded')).toHaveLength(CHECKOUTS - 1);
      const completed = await server.db.selectFrom('checkouts').select('id').where('id', 'in', l.states.map((s) => s.id)).where('status', '=', 'completed').execute();
      expect(completed).toHaveLength(1);
    }
  }, 60_000);
});
