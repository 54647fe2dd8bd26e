/**
 * A flow added by following docs/checkout-design.md "Adding a flow", to show that a flow is its definition and its
 * outcome and nothing else: "callback request" (ask the educator to call you back about a course) — Message →
 * (Log in) → Contact Info → Confirmation, recording a request the educator answers. It exists only in this test:
 * its rules sit beside its definition instead of in FLOW_RULES (so no screen or page knows it), and it is registered
 * with registerFlow before the server takes checkouts. No module of the engine, the steps or the island changes for
 * it. Then one checkout goes through it end to end over HTTP, as any flow's would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { IDS, booker, client, contactPayload, seedCheckoutCatalogue } from './checkout-fixtures.ts';
import type { FlowRules } from '../../src/domain/checkout/flows.ts';
import { defineFlow, type CompletionPayment, type OutcomeBase, type OutcomeRef } from '../../api/checkout/definition.ts';
import { entry, type Ctx } from '../../api/checkout/context.ts';
import { courseBase } from '../../api/checkout/outcomes.ts';
import { newReference } from '../../api/checkout/ids.ts';
import { confirmationStep, messageStep } from '../../api/checkout/steps/common.ts';
import { contactStep } from '../../api/checkout/steps/contact.ts';
import { registerFlow } from '../../api/checkout/flows/index.ts';

// 1. Its rules: the steps it lists (existing step ids), where it may be started, what it shows.
const callbackRules = {
  pathSlug: 'test-callback-request',
  courseTypes: ['class', 'blended', 'on-demand', 'on-request'],
  dated: false,
  spaces: 'unlimited',
  steps: { beforeLogin: ['message'], afterLogin: ['contactDetails', 'confirmation'] },
  paymentMethods: [],
  confirmation: { title: 'Callback Requested', requestLine: 'in touch' },
} as const satisfies FlowRules;

// 3. Its outcome: a request for the educator, with the learner's message, in the completing transaction.
async function callbackOutcome(ctx: Ctx, _pay: CompletionPayment, base: OutcomeBase): Promise<OutcomeRef> {
  const id = newReference('request');
  await ctx.q.insertInto('booking_requests').values({
    ...courseBase(base), id, status: 'sent', details: { callback: true, message: entry(ctx, 'message')?.message ?? null },
  }).execute();
  return { kind: 'request', id, documents: false };
}

// 2. Its definition: one step object per step its rules list (the shared ones, told its rules), what it sells
// (nothing), and its outcome. The compiler refuses a step left out or one its rules do not list.
const callbackFlow = defineFlow({
  flow: 'testCallbackRequest',
  rules: callbackRules,
  steps: { message: messageStep(callbackRules), contactDetails: contactStep(callbackRules), confirmation: confirmationStep },
  catalogue: () => ({ offers: [], addOns: [] }),
  selection: () => null,
  holds: () => ({ occurrenceId: null, spaces: 0, voucherId: null }),
  defaults: () => ({}),
  outcome: callbackOutcome,
});

// 4. Registered: /api/checkout/initialise/test-callback-request exists from here on.
registerFlow(callbackFlow);

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_LOGIN_PER_IP: '100000', LOG_LEVEL: 'silent' });
  await seedCheckoutCatalogue(server.db, Math.floor(Date.now() / 1000));
});
afterAll(async () => server?.close());

describe('a flow defined and registered by a test', () => {
  it('goes Message → login → Contact Info → Confirmation through the engine and records its outcome', async () => {
    const anonymous = client(server);
    let res = await anonymous.initialise('test-callback-request', { courseId: IDS.classCourse });
    expect(res.status).toBe(201);
    const id = res.body._id;
    expect(res.body).toMatchObject({ flow: 'testCallbackRequest', currentStep: 'message', courseId: IDS.classCourse, costSummary: null });
    expect(res.body.steps).toEqual(['message', 'login', 'contactDetails', 'confirmation']);

    // The shared Message step takes the action name its rules give ("message filled" by default), and no other.
    res = await anonymous.submit(id, 'request message filled', { message: 'Call me' });
    expect(res.status).toBe(400);
    res = await anonymous.submit(id, 'message filled', { message: '  Please call me after 5pm  ' });
    expect(res.status).toBe(200);
    expect(res.body.currentStep).toBe('login');
    expect(res.body.stepState.message).toEqual({ status: 'complete', state: { message: 'Please call me after 5pm' } });

    const { cookie, user } = await signUpAndLogin(server);
    const api = client(server, cookie);
    res = await api.get(`/checkout/${id}`);
    expect(res.body.currentStep).toBe('contactDetails');
    expect(res.body.steps).toEqual(['message', 'contactDetails', 'confirmation']);
    // "go back" and forward again, as in any flow.
    res = await api.submit(id, 'go back');
    expect(res.body.currentStep).toBe('message');
    res = await api.submit(id, 'message filled', { message: 'Please call me after 6pm' });
    expect(res.body.currentStep).toBe('contactDetails');

    res = await api.submit(id, 'contact details filled', contactPayload(user.email, { bookerFormResponse: booker(user.email, { phone: '07700 900123' }) }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', currentStep: 'confirmation', outcomeKind: 'request' });
    expect(res.body.requestId).toMatch(/^REQ-/);
    expect(res.body.outcome).toMatchObject({ kind: 'request', id: res.body.requestId, title: 'Callback Requested', status: 'sent' });

    const request = await server.db.selectFrom('booking_requests').selectAll().where('id', '=', res.body.requestId).executeTakeFirstOrThrow();
    expect(request).toMatchObject({ flow: 'testCallbackRequest', course_id: IDS.classCourse, educator_id: IDS.educator, user_id: user.id, status: 'sent' });
    const details = typeof request.details === 'string' ? JSON.parse(request.details) : request.details;
    expect(details).toEqual({ callback: true, message: 'Please call me after 6pm' });
  });

  it('is refused on a course type its rules do not take, like any flow', async () => {
    registerFlow(defineFlow({ ...callbackFlow, flow: 'testOnDemandOnly', rules: { ...callbackRules, pathSlug: 'test-on-demand-only', courseTypes: ['on-demand'] } }));
    const res = await client(server).initialise('test-on-demand-only', { courseId: IDS.classCourse });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('Invalid course type "class" for testOnDemandOnly flow');
  });

  it('keeps names and path slugs unique', () => {
    expect(() => registerFlow(callbackFlow)).toThrow(/registered already/);
    expect(() => registerFlow({ ...callbackFlow, flow: 'testOtherName' })).toThrow(/registered already/);
  });
});
