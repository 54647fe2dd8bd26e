/** Membership plans for the checkout test catalogue, and joining one through the checkout by test card. */
import { expect } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { CARDS, IDS, client, payWithCard, seedCheckoutCatalogue, type Client } from './checkout-fixtures.ts';

/** A test server with the checkout catalogue and its membership plans. */
export async function startMembershipServer(env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startTestServer({ LOG_LEVEL: 'silent', ...env });
  await seedCheckoutCatalogue(server.db, Math.floor(Date.now() / 1000));
  await seedPlans(server);
  return server;
}

export const PLANS = { monthly: 'plan_monthly', pass: 'plan_pass', hidden: 'plan_hidden' } as const;

export async function seedPlans(s: TestServer): Promise<void> {
  const base = { educator_id: IDS.educator, description: '', currency: 'GBP', listed: true, created_at: 0, pass_months: null, course_ids: null };
  await s.db.insertInto('membership_plans').values([
    { ...base, id: PLANS.monthly, name: 'Studio Monthly', interval: 'month', price: 2500, discount_percent: 10, credits_per_period: 2, position: 1 },
    { ...base, id: PLANS.pass, name: 'Three-Class Pass', interval: 'pass', pass_months: 2, price: 6000, discount_percent: 0, credits_per_period: 3, position: 2, course_ids: [IDS.classCourse] },
    { ...base, id: PLANS.hidden, name: 'Old Plan', interval: 'month', price: 1000, discount_percent: 5, credits_per_period: 0, position: 3, listed: false },
  ]).execute();
}

/** Joins a plan by card as a new learner; returns the learner's client, the checkout and the membership. */
export async function join(s: TestServer, planId: string, card: string = CARDS.success): Promise<{ api: Client; email: string; checkoutId: string; membershipId: string }> {
  const { cookie, user } = await signUpAndLogin(s);
  const api = client(s, cookie);
  const init = await api.initialise('membership', { educatorId: IDS.educator });
  expect(init.status).toBe(201);
  const id = (init.body as { _id: string })._id;
  const picked = await api.submit(id, 'membership plan picked', { planId });
  expect(picked.status, JSON.stringify(picked.body)).toBe(200);
  expect((picked.body as { currentStep: string }).currentStep).toBe('payment');
  const method = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
  expect(method.status, JSON.stringify(method.body)).toBe(200);
  const paid = await payWithCard(s, method.body as never, card);
  expect(paid.status).toBe(200);
  const done = await api.submit(id, 'payment was successful', {});
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  const state = done.body as { status: string; outcome: { kind: string; id: string } };
  expect(state.status).toBe('completed');
  expect(state.outcome.kind).toBe('membership');
  return { api, email: user.email, checkoutId: id, membershipId: state.outcome.id };
}

