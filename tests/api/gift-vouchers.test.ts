/**
 * Gift vouchers through HTTP (docs/gifts-and-memberships.md "## Gift vouchers"): the educator's settings, the
 * gift checkout (a flow without a course) with the test card, the gift card issued on payment (code, balance,
 * expiry), its PDFs and the buyer's and recipient's e-mails (the recipient's scheduled for the send date).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { makeEducatorAdmin, signUpAndLogin } from '../helpers/auth.ts';
import { CARDS, DAY, IDS, client, payWithCard, problemType, seedCheckoutCatalogue, type Client } from './checkout-fixtures.ts';
import { londonDate } from '../../src/domain/gifts.ts';

let server: TestServer;
let now: number;

const SETTINGS = { enabled: true, fixedAmounts: [2500, 5000], customMin: 1000, customMax: 20000, expiryMonths: 12, designColour: '#7a3e9d' };

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_LOGIN_PER_IP: '100000', LOG_LEVEL: 'silent' });
  now = Math.floor(Date.now() / 1000);
  await seedCheckoutCatalogue(server.db, now);
  const admin = await signUpAndLogin(server);
  await makeEducatorAdmin(server.db, admin.user.id, IDS.educator);
  const res = await client(server, admin.cookie).put(`/educators/${IDS.educator}/gift-vouchers`, SETTINGS);
  expect(res.status).toBe(200);
});
afterAll(async () => server?.close());

async function learner(): Promise<{ api: Client; email: string; userId: string }> {
  const { cookie, user } = await signUpAndLogin(server);
  return { api: client(server, cookie), email: user.email, userId: user.id };
}

const details = (overrides: Record<string, unknown> = {}) => ({
  buyerName: 'Ada Buyer', buyerEmail: 'ada@example.com', recipientName: 'Grace Friend', recipientEmail: 'Grace@Example.com',
  message: 'Happy birthday!', sendDate: londonDate(now), ...overrides,
});

/** Buys a gift voucher of `amount` with the test card; returns the checkout state after payment. */
export async function buyGift(api: Client, amount: number, extra: Record<string, unknown> = {}) {
  let res = await api.initialise('gift-voucher', { educatorId: IDS.educator });
  expect(res.status).toBe(201);
  const id = res.body._id;
  res = await api.submit(id, 'gift amount picked', { amount });
  expect(res.status).toBe(200);
  res = await api.submit(id, 'gift details filled', details(extra));
  expect(res.status).toBe(200);
  res = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
  expect(res.status).toBe(200);
  expect((await payWithCard(server, res.body, CARDS.success)).status).toBe(200);
  res = await api.submit(id, 'payment was successful', {});
  expect(res.status).toBe(200);
  return res.body;
}

describe('educator settings', () => {
  it('answers what is on sale, and off for an educator without settings', async () => {
    const anyone = client(server);
    let res = await anyone.get('/educators/clay-studio/gift-vouchers');
    expect(res.body).toMatchObject({ vouchers_app_installed: true, fixedAmounts: [2500, 5000], customMin: 1000, customMax: 20000, expiryMonths: 12 });
    res = await anyone.get(`/educators/${IDS.educatorVat}/gift-vouchers`);
    expect(res.body).toMatchObject({ vouchers_app_installed: false, fixedAmounts: [] });
  });

  it('only the educator’s admins change them, within the rules (expiry ≥ 12 months, min ≤ max, £5–£1,000)', async () => {
    const stranger = await learner();
    expect((await stranger.api.put(`/educators/${IDS.educator}/gift-vouchers`, SETTINGS)).status).toBe(403);
    const admin = await signUpAndLogin(server);
    await makeEducatorAdmin(server.db, admin.user.id, IDS.educatorVat);
    const api = client(server, admin.cookie);
    const put = (body: Record<string, unknown>) => api.put(`/educators/${IDS.educatorVat}/gift-vouchers`, { ...SETTINGS, ...body });
    for (const bad of [{ expiryMonths: 11 }, { customMin: 5000, customMax: 4000 }, { fixedAmounts: [499] }, { fixedAmounts: [100001] },
      { customMin: 1000, customMax: null }, { fixedAmounts: [], customMin: null, customMax: null }, { designColour: 'purple' }]) {
      const res = await put(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(problemType(res.body)).toBe('generic/validation-error');
    }
    expect((await put({ expiryMonths: 12, fixedAmounts: [500, 100000], customMin: null, customMax: null })).status).toBe(200);
    expect((await put({ enabled: false })).body.vouchers_app_installed).toBe(false);
  });
});

describe('gift checkout page visits', () => {
  const checkoutCount = async () => Number((await server.db.selectFrom('checkouts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('shows the first step from a preview that writes no checkout; the first action writes it', async () => {
    const anonymous = client(server);
    const before = await checkoutCount();
    const preview = await anonymous.get(`/checkout/preview/gift-voucher?educatorId=${IDS.educator}&origin=landing_page`);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ _id: '', flow: 'giftVoucher', courseId: null, educatorId: IDS.educator, currentStep: 'giftAmount', origin: 'landing_page' });
    expect(preview.body.steps).toEqual(['giftAmount', 'login', 'giftDetails', 'payment', 'confirmation']);
    expect(await checkoutCount()).toBe(before);
    // The learner's first action: initialise, then the action, as the page does.
    const started = await anonymous.initialise('gift-voucher', { educatorId: IDS.educator, origin: 'landing_page' });
    expect(started.body.steps).toEqual(preview.body.steps);
    expect((await anonymous.submit(started.body._id, 'gift amount picked', { amount: 2500 })).body.currentStep).toBe('login');
    expect(await checkoutCount()).toBe(before + 1);
  });

  it('answers 404 for an educator who does not sell gift vouchers, and only previews flows without a course', async () => {
    const anonymous = client(server);
    let res = await anonymous.get(`/checkout/preview/gift-voucher?educatorId=${IDS.educatorVat}`);
    expect(res.status).toBe(404);
    res = await anonymous.get(`/checkout/preview/booking?educatorId=${IDS.educator}`);
    expect(res.status).toBe(404);
    res = await anonymous.get('/checkout/preview/gift-voucher');
    expect(res.status).toBe(400);
    expect(problemType(res.body)).toBe('generic/validation-error');
  });
});

describe('gift checkout', () => {
  it('Amount → login → Gift Details → Payment → Confirmation issues a gift card and queues both e-mails', async () => {
    const anonymous = client(server);
    let res = await anonymous.initialise('gift-voucher', { educatorId: IDS.educator });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ flow: 'giftVoucher', courseId: null, educatorId: IDS.educator, currentStep: 'giftAmount' });
    expect(res.body.steps).toEqual(['giftAmount', 'login', 'giftDetails', 'payment', 'confirmation']);
    const id = res.body._id;

    // Boundaries: below the custom minimum, above its maximum, between are fine; fixed amounts are fine.
    for (const amount of [999, 20001, 0]) {
      res = await anonymous.submit(id, 'gift amount picked', { amount });
      expect(res.status, String(amount)).toBe(400);
    }
    res = await anonymous.submit(id, 'gift amount picked', { amount: 1000 });
    expect(res.status).toBe(200);
    expect(res.body.currentStep).toBe('login');
    // No VAT on a voucher sale; the amount as an extra line.
    expect(res.body.costSummary).toMatchObject({ total_cost: 1000, vat_amount: 0, summary_items: { extraSummary: [{ text: 'Gift voucher', value: 1000 }] } });

    const { api, email } = await learner();
    res = await api.get(`/checkout/${id}`);
    expect(res.body.currentStep).toBe('giftDetails');
    expect(res.body.defaults.giftDetails).toMatchObject({ buyerEmail: email, sendDate: londonDate(now) });
    res = await api.submit(id, 'go back', {});
    expect(res.body.currentStep).toBe('giftAmount');
    res = await api.submit(id, 'gift amount picked', { amount: 2500 });
    expect(res.body.currentStep).toBe('giftDetails');

    res = await api.submit(id, 'gift details filled', details({ recipientEmail: 'nope', buyerName: ' ', sendDate: londonDate(now - DAY) }));
    expect(res.status).toBe(400);
    expect(res.body.properties.map((p: { key: string }) => p.key).sort()).toEqual(['payload.buyerName', 'payload.recipientEmail', 'payload.sendDate']);
    res = await api.submit(id, 'gift details filled', details({ sendDate: londonDate(now + 400 * DAY) }));
    expect(res.status).toBe(400);

    const sendDate = londonDate(now + 10 * DAY);
    res = await api.submit(id, 'gift details filled', details({ sendDate }));
    expect(res.status).toBe(200);
    expect(res.body.currentStep).toBe('payment');
    expect(res.body.totalCost).toBe(2500);
    // Invoice and in-person payment are not offered for a gift voucher.
    res = await api.submit(id, 'manual payment confirmed', {});
    expect(res.status).toBe(400);
    res = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    expect(res.status).toBe(200);
    expect((await payWithCard(server, res.body, CARDS.success)).status).toBe(200);
    res = await api.submit(id, 'payment was successful', {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', outcomeKind: 'giftVoucher', outcome: { kind: 'giftVoucher', title: 'Gift Voucher Purchased', paymentState: 'paid' } });
    const cardId = res.body.outcomeId as string;
    expect(cardId).toMatch(/^GFT-/);

    const card = await server.db.selectFrom('gift_cards').selectAll().where('id', '=', cardId).executeTakeFirstOrThrow();
    expect(card).toMatchObject({ amount: 2500, balance: 2500, recipient_email: 'grace@example.com', buyer_email: 'ada@example.com', checkout_id: id });
    expect(card.code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{16}$/);
    // Expires at the end of the London day twelve months on.
    expect(Number(card.expires_at)).toBeGreaterThan(now + 364 * DAY);
    expect(Number(card.expires_at)).toBeLessThan(now + 367 * DAY);

    const mail = await server.db.selectFrom('outbox_messages').select(['to_address', 'tag', 'send_after', 'attachments'])
      .where('tag', 'in', ['gift-voucher-buyer', 'gift-voucher-recipient']).where('to_address', 'in', ['ada@example.com', 'grace@example.com']).execute();
    const buyer = mail.find((m) => m.tag === 'gift-voucher-buyer')!;
    const recipient = mail.find((m) => m.tag === 'gift-voucher-recipient')!;
    expect(Number(buyer.send_after)).toBe(0);
    expect(JSON.parse(String(buyer.attachments)).map((a: { filename: string }) => a.filename)).toEqual([`gift-card-${cardId}.pdf`, `receipt-${cardId}.pdf`]);
    expect(Number(recipient.send_after)).toBe(Number(card.send_at));
    expect(Number(card.send_at)).toBeGreaterThan(now + 9 * DAY);

    // The confirmation's documents are PDFs, reachable only with their signed link.
    for (const action of res.body.outcome.actions as { href: string }[]) {
      const pdf = await fetch(`${server.url}${action.href}`);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect((await pdf.arrayBuffer()).byteLength).toBeGreaterThan(500);
    }
    expect((await fetch(`${server.url}/api/gift-cards/${cardId}/gift-card.pdf?token=forged`)).status).toBe(404);
  });

  it('is not on sale from an educator that has not switched gift vouchers on, nor without an educator', async () => {
    const anonymous = client(server);
    let res = await anonymous.initialise('gift-voucher', { educatorId: IDS.educatorVat });
    expect(res.status).toBe(404);
    res = await anonymous.initialise('gift-voucher', { courseId: IDS.classCourse });
    expect(res.status).toBe(400);
  });
});
