/**
 * Gift vouchers through HTTP (docs/gifts-and-memberships.md "## Gift vouchers"): the educator's settings, the
 * gift checkout (a flow without a course) with the test card, the gift card issued on payment (code, balance,
 * expiry), its PDFs and the buyer's and recipient's e-mails (the recipient's scheduled for the send date).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { makeEducatorAdmin, signUpAndLogin } from '../helpers/auth.ts';
import { CARDS, DAY, IDS, client, payWithCard, problemType, seedCheckoutCatalogue, type Client } from './checkout-fixtures.ts';
import { giftVoucherCostSummary, londonDate } from '../../src/domain/gifts.ts';

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
    // One document per token: the card's link (the recipient's, and wherever they forward it) does not open the
    // buyer's receipt, nor the receipt's the card.
    const [cardLink, receiptLink] = (res.body.outcome.actions as { href: string }[]).map((a) => new URL(a.href, server.url));
    expect(cardLink!.pathname).toMatch(/gift-card\.pdf$/);
    expect((await fetch(`${server.url}/api/gift-cards/${cardId}/receipt.pdf?token=${cardLink!.searchParams.get('token')}`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/gift-cards/${cardId}/gift-card.pdf?token=${receiptLink!.searchParams.get('token')}`)).status).toBe(404);
  });

  it('is not on sale where it cannot be paid for: switched on but taking invoice only, there is no tab, no page and no checkout', async () => {
    const admin = await signUpAndLogin(server);
    await makeEducatorAdmin(server.db, admin.user.id, IDS.educatorVat);
    const api = client(server, admin.cookie);
    await server.db.insertInto('payment_options').values({ id: 'pay_vat_gifts', educator_id: IDS.educatorVat, course_id: null, invoice_due_days: 14 }).execute();
    await server.db.insertInto('payment_option_methods').values([
      { payment_options_id: 'pay_vat_gifts', method: 'invoice', enabled: true, label: null, message: null },
      { payment_options_id: 'pay_vat_gifts', method: 'card', enabled: false, label: null, message: null },
    ]).execute();
    try {
      const put = await api.put(`/educators/${IDS.educatorVat}/gift-vouchers`, SETTINGS);
      expect(put.status).toBe(200);
      // The switch is on, but nothing the gift flow takes (card, wallet) is: not on sale, and the answer says why.
      expect(put.body).toMatchObject({ vouchers_app_installed: false, enabled: true, payable: false, fixedAmounts: [] });
      expect((await client(server).get(`/educators/${IDS.educatorVat}/gift-vouchers`)).body).toMatchObject({ vouchers_app_installed: false });
      const start = await client(server).initialise('gift-voucher', { educatorId: IDS.educatorVat });
      expect(start.status).toBe(404);
      expect(problemType(start.body)).toBe('generic/not-found');
      // The gift page is not found (it answers 404), and the published pages (the Gift Vouchers tab) read the same rule.
      const { loadCheckoutPage } = await import('../../api/pages/checkout-bootstrap.ts');
      const giftPage = () => loadCheckoutPage(server.deps, new URL(`http://localhost/gift-checkout?flow=giftVoucher&educator=${IDS.educatorVat}`), 'minisite');
      expect((await giftPage()).bootstrap.problem?.status).toBe(404);
      const { loadEducatorCatalogue } = await import('../../db/queries/pages.ts');
      let catalogue = await loadEducatorCatalogue(server.db, [IDS.educatorVat, IDS.educator], now);
      expect(catalogue.educators.find((m) => m.educator.id === IDS.educatorVat)?.vouchersAppInstalled).toBe(false);
      expect(catalogue.educators.find((m) => m.educator.id === IDS.educator)?.vouchersAppInstalled).toBe(true);

      // Card switched on: on sale everywhere, and the publisher hears of it (the tab changes).
      const before = await server.db.selectFrom('page_changes').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
      await server.db.updateTable('payment_option_methods').set({ enabled: true }).where('payment_options_id', '=', 'pay_vat_gifts').where('method', '=', 'card').execute();
      const feed = await server.db.selectFrom('page_changes').select('educator_id').where('id', '>', Number(before?.id ?? 0)).execute();
      expect(feed.map((r) => r.educator_id)).toContain(IDS.educatorVat);
      expect((await client(server).get(`/educators/${IDS.educatorVat}/gift-vouchers`)).body).toMatchObject({ vouchers_app_installed: true, payable: true });
      catalogue = await loadEducatorCatalogue(server.db, [IDS.educatorVat], now);
      expect(catalogue.educators[0]?.vouchersAppInstalled).toBe(true);
      expect((await giftPage()).bootstrap.problem).toBeNull();
      const buyer = await learner();
      const started = await buyer.api.initialise('gift-voucher', { educatorId: IDS.educatorVat });
      expect(started.status).toBe(201);
      const id = started.body._id;
      expect((await buyer.api.submit(id, 'gift amount picked', { amount: 2500 })).status).toBe(200);
      expect((await buyer.api.submit(id, 'gift details filled', details())).status).toBe(200);
      // Card switched off again while the buyer is at Payment: the method is refused without naming a course.
      await server.db.updateTable('payment_option_methods').set({ enabled: false }).where('payment_options_id', '=', 'pay_vat_gifts').where('method', '=', 'card').execute();
      const refused = await buyer.api.submit(id, 'payment method selected', { paymentMethod: 'card' });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('is not available for this purchase');
      expect(JSON.stringify(refused.body)).not.toContain('course');
    } finally {
      await server.db.deleteFrom('payment_option_methods').where('payment_options_id', '=', 'pay_vat_gifts').execute();
      await server.db.deleteFrom('payment_options').where('id', '=', 'pay_vat_gifts').execute();
      await api.put(`/educators/${IDS.educatorVat}/gift-vouchers`, { ...SETTINGS, enabled: false });
    }
  });

  it('the Amount step can show the price before Continue: the settings say who pays the fee, and the summary it works out is the checkout’s', async () => {
    for (const absorbed of [false, true]) {
      await server.db.deleteFrom('educator_fee_settings').where('educator_id', '=', IDS.educator).execute();
      await server.db.insertInto('educator_fee_settings').values({ educator_id: IDS.educator, fees_absorbed: absorbed }).execute();
      const offer = await client(server).get(`/educators/${IDS.educator}/gift-vouchers`);
      expect(offer.body.fees_absorbed).toBe(absorbed);
      const { api } = await learner();
      const init = await api.initialise('gift-voucher', { educatorId: IDS.educator });
      const picked = await api.submit(init.body._id, 'gift amount picked', { amount: 2500 });
      expect(picked.status).toBe(200);
      const preview = giftVoucherCostSummary(2500, offer.body.fees_absorbed);
      expect(preview.summary_items.extraSummary).toEqual([{ text: 'Gift voucher', value: 2500 }]);
      expect(picked.body.costSummary).toMatchObject({ total_cost: preview.total_cost, platform_fee: preview.platform_fee, fees_absorbed: absorbed });
      expect(picked.body.costSummary.summary_items.extraSummary).toEqual(preview.summary_items.extraSummary);
    }
  });

  it('is not on sale from an educator that has not switched gift vouchers on, nor without an educator', async () => {
    const anonymous = client(server);
    let res = await anonymous.initialise('gift-voucher', { educatorId: IDS.educatorVat });
    expect(res.status).toBe(404);
    res = await anonymous.initialise('gift-voucher', { courseId: IDS.classCourse });
    expect(res.status).toBe(400);
  });
});
