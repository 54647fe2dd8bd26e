/**
 * Spending a gift card under "Apply promo code or gift card" (docs/gifts-and-memberships.md "## Gift vouchers"):
 * it pays up to its balance and the rest is paid by card; what is left stays for later; the cost summary shows it as a
 * negative line; cancelling inside the policy window gives it back; concurrent checkouts never spend more than the
 * balance (the guarded update, on SQLite and PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { makeEducatorAdmin, signUpAndLogin } from '../helpers/auth.ts';
import {
  CARDS, IDS, OFFERS, booker, client, contactPayload, payWithCard, problemType, seedCheckoutCatalogue, type Client,
} from './checkout-fixtures.ts';
import { formatGiftCode, londonDate } from '../../src/domain/gifts.ts';
import { listProfileItems } from '../../db/queries/accounts.ts';
import { loadBookingView } from '../../db/queries/bookings.ts';
import { invoiceModel } from '../../api/documents/invoice.ts';
import { grossCost, paidByText, paidParts } from '../../src/domain/checkout/paidBy.ts';
import { addCalendarDays, localDate, zonedWallClock } from '../../src/domain/zone.ts';

let server: TestServer;
let now: number;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_LOGIN_PER_IP: '100000', LOG_LEVEL: 'silent' });
  now = Math.floor(Date.now() / 1000);
  await seedCheckoutCatalogue(server.db, now);
  await server.db.updateTable('educators').set({ cancellation_allowed: 1 }).where('id', '=', IDS.educator).execute();
  const admin = await signUpAndLogin(server);
  await makeEducatorAdmin(server.db, admin.user.id, IDS.educator);
  const res = await client(server, admin.cookie).put(`/educators/${IDS.educator}/gift-vouchers`, {
    enabled: true, fixedAmounts: [2500, 5000], customMin: 1000, customMax: 20000, expiryMonths: 12, designColour: null,
  });
  expect(res.status).toBe(200);
});
afterAll(async () => server?.close());

async function learner(): Promise<{ api: Client; email: string; studentId: string }> {
  const { cookie, user } = await signUpAndLogin(server);
  return { api: client(server, cookie), email: user.email, studentId: user.studentId };
}

/** Buys a gift card of `amount` and answers its code (as the recipient reads it) and id. */
async function giftCard(amount: number): Promise<{ code: string; id: string }> {
  const { api } = await learner();
  let res = await api.initialise('gift-voucher', { educatorId: IDS.educator });
  const id = res.body._id;
  await api.submit(id, 'gift amount picked', { amount });
  await api.submit(id, 'gift details filled', {
    buyerName: 'Ada', buyerEmail: 'ada@example.com', recipientName: 'Grace', recipientEmail: 'grace@example.com', message: '', sendDate: londonDate(now),
  });
  res = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
  await payWithCard(server, res.body, CARDS.success);
  res = await api.submit(id, 'payment was successful', {});
  expect(res.status).toBe(200);
  const card = await server.db.selectFrom('gift_cards').select(['id', 'code']).where('id', '=', res.body.outcomeId).executeTakeFirstOrThrow();
  return { code: formatGiftCode(card.code), id: card.id };
}

async function balance(id: string): Promise<number> {
  return Number((await server.db.selectFrom('gift_cards').select('balance').where('id', '=', id).executeTakeFirstOrThrow()).balance);
}

/** A booking of `quantity` standard places (£30 each) up to the step after Contact Info, the code applied. */
async function bookWithCode(api: Client, _email: string, code: string, quantity: number, course: string = IDS.classCourse, occ: string = IDS.classOcc, offer: string = OFFERS.standard) {
  let res = await api.initialise('booking', { courseId: course });
  const id = res.body._id;
  await api.submit(id, 'occurrence picked', { occurrence_id: occ });
  res = await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: offer, quantity }], selectedAddons: [], appliedPromoCode: code });
  return { id, priced: res };
}

const phone = (email: string) => contactPayload(email, { bookerFormResponse: booker(email, { phone: '07700 900123' }) });

describe('redeeming a gift card', () => {
  it('pays part of one booking and the rest of another; the cost summary shows a negative line; cancelling gives it back', async () => {
    const card = await giftCard(5000);
    const { api, email } = await learner();

    // The validation route accepts the code, spaces and case aside.
    const v = await api.post('/vouchers/validate', { code: card.code.toLowerCase().replace(/-/g, ' '), course_ref: IDS.classCourse, educator_ref: IDS.educator });
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({ kind: 'giftCard', amount: 5000 });

    // One £30 place: the card pays all of it; no Payment step; paid by gift card.
    const first = await bookWithCode(api, email, card.code, 1);
    expect(first.priced.status).toBe(200);
    expect(first.priced.body.costSummary).toMatchObject({ total_cost: 0, gift_card_amount: 3000 });
    expect(first.priced.body.costSummary.summary_items.giftCardSummary).toEqual([{ text: `Gift card ••••${card.code.slice(-4)}`, value: -3000 }]);
    let res = await api.submit(first.id, 'contact details filled', phone(email));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', outcome: { kind: 'booking', paymentMethod: 'gift card', paymentState: 'paid', totalCost: 0 } });
    expect(await balance(card.id)).toBe(2000);

    // Two places (£60): the card pays its last £20, the card payment £40.
    const second = await bookWithCode(api, email, card.code, 2);
    expect(second.priced.body.costSummary).toMatchObject({ total_cost: 4000, gift_card_amount: 2000 });
    res = await api.submit(second.id, 'contact details filled', phone(email));
    expect(res.body).toMatchObject({ currentStep: 'payment', totalCost: 4000 });
    expect(await balance(card.id)).toBe(0);
    // Going back gives the hold back; coming again takes it again.
    await api.submit(second.id, 'go back', {});
    expect(await balance(card.id)).toBe(2000);
    await api.submit(second.id, 'contact details filled', phone(email));
    expect(await balance(card.id)).toBe(0);
    res = await api.submit(second.id, 'payment method selected', { paymentMethod: 'card' });
    expect((await payWithCard(server, res.body, CARDS.success)).status).toBe(200);
    res = await api.submit(second.id, 'payment was successful', {});
    expect(res.body).toMatchObject({ status: 'completed', outcome: { kind: 'booking', paymentState: 'paid', totalCost: 4000 } });
    const secondBooking = res.body.bookingId as string;

    // Spent: the code is used up for a third booking.
    const third = await bookWithCode(api, email, card.code, 1);
    expect(third.priced.status).toBe(400);
    expect(problemType(third.priced.body)).toBe('generic/validation-error');

    // Cancelling inside the policy window gives the £20 back to the card (the £40 goes back to the card payment).
    res = await api.post(`/bookings/${secondBooking}/cancel`, {});
    expect(res.status).toBe(200);
    expect(await balance(card.id)).toBe(2000);
    const redemptions = await server.db.selectFrom('gift_card_redemptions').select(['amount', 'status']).where('gift_card_id', '=', card.id).orderBy('amount').execute();
    expect(redemptions).toEqual([{ amount: 2000, status: 'returned' }, { amount: 3000, status: 'committed' }]);
  });

  it('refuses an unknown, another educator’s, or an expired card', async () => {
    const { api } = await learner();
    const card = await giftCard(2500);
    let res = await api.post('/vouchers/validate', { code: 'ABCD-EFGH-JKMN-PQRS', course_ref: IDS.classCourse, educator_ref: IDS.educator });
    expect(res.status).toBe(400);
    res = await api.post('/vouchers/validate', { code: card.code, course_ref: IDS.vatCourse, educator_ref: IDS.educatorVat });
    expect(res.status).toBe(400);
    await server.db.updateTable('gift_cards').set({ expires_at: now - 1 }).where('id', '=', card.id).execute();
    res = await api.post('/vouchers/validate', { code: card.code, course_ref: IDS.classCourse, educator_ref: IDS.educator });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/expired/i);
  });
});

describe('a gift card is a means of payment, said as one everywhere', () => {
  /** The receipt's payment lines and the booking's confirmation e-mail text. */
  async function documents(bookingId: string, email: string) {
    const view = (await loadBookingView(server.db, bookingId))!;
    const payment = invoiceModel(view, { invoice_number: 'INV-TEST', issued_at: now }).payment;
    const mail = await server.db.selectFrom('outbox_messages').select('text_body').where('to_address', '=', email)
      .where('subject', 'like', `%${bookingId}%`).executeTakeFirstOrThrow();
    return { payment, mail: mail.text_body };
  }

  it('paid in full, and in part, by gift card: profile, receipt and e-mail show what the card paid; cancelling refunds it; an emptied card is a gift card’s problem', async () => {
    const card = await giftCard(5000);
    const { api, email, studentId } = await learner();

    // One £30 place paid in full by the card.
    const full = await bookWithCode(api, email, card.code, 1);
    let res = await api.submit(full.id, 'contact details filled', phone(email));
    expect(res.body).toMatchObject({ status: 'completed', outcome: { paymentMethod: 'gift card', paymentState: 'paid' } });
    const fullBooking = res.body.bookingId as string;
    let docs = await documents(fullBooking, email);
    expect(docs.payment[0]).toMatch(/^Paid: £30\.00 by gift card on /);
    expect(docs.mail).toContain('Total: £30.00 paid by gift card');
    expect(docs.mail).not.toContain('Total: Free');

    // What is left on the card is what validation answers.
    let v = await api.post('/vouchers/validate', { code: card.code, course_ref: IDS.classCourse, educator_ref: IDS.educator });
    expect(v.body).toMatchObject({ kind: 'giftCard', amount: 2000 });

    // Two places (£60): £20 by the card (its last), £40 by card payment.
    const part = await bookWithCode(api, email, card.code, 2);
    await api.submit(part.id, 'contact details filled', phone(email));
    res = await api.submit(part.id, 'payment method selected', { paymentMethod: 'card' });
    expect((await payWithCard(server, res.body, CARDS.success)).status).toBe(200);
    res = await api.submit(part.id, 'payment was successful', {});
    expect(res.body.status).toBe('completed');
    const partBooking = res.body.bookingId as string;
    docs = await documents(partBooking, email);
    expect(docs.payment[0]).toMatch(/^Paid: £40\.00 by Card and £20\.00 by gift card on /);
    expect(docs.mail).toContain('Total: £60.00 paid (£40.00 by Card and £20.00 by gift card)');

    // The profile lists what each cost in all, and how it was paid — not "Free".
    const items = await listProfileItems(server.db, studentId);
    const fullItem = items.find((i) => i.id === fullBooking)!;
    const partItem = items.find((i) => i.id === partBooking)!;
    expect(fullItem).toMatchObject({ paymentState: 'paid', paymentMethod: 'gift card', giftCardAmount: 3000 });
    expect(grossCost(fullItem)).toBe(3000);
    expect(paidByText(paidParts(fullItem), fullItem.currency)).toBe('£30.00 by gift card');
    expect(grossCost(partItem)).toBe(6000);
    expect(paidByText(paidParts(partItem), partItem.currency)).toBe('£40.00 by Card and £20.00 by gift card');

    // Emptied: refused in a gift card's words (not a promo code's "maximum number of times"), here and at checkout.
    v = await api.post('/vouchers/validate', { code: card.code, course_ref: IDS.classCourse, educator_ref: IDS.educator });
    expect(v.status).toBe(400);
    expect(v.body.detail).toBe('This gift card has no balance left.');
    const third = await bookWithCode(api, email, card.code, 1);
    expect(third.priced.status).toBe(400);
    expect(JSON.stringify(third.priced.body)).toContain('This gift card has no balance left.');
    expect(JSON.stringify(third.priced.body)).not.toContain('maximum number of times');

    // Cancelling the booking the card paid in full: its £30 is refunded to the card, and the answer says so.
    res = await api.post(`/bookings/${fullBooking}/cancel`, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ refund: 'refunded', giftCardRefund: 3000 });
    expect(await balance(card.id)).toBe(3000);
    await documents(fullBooking, email);
    const cancelled = invoiceModel((await loadBookingView(server.db, fullBooking))!, { invoice_number: 'INV-TEST', issued_at: now });
    expect(cancelled.notes).toContain('Returned to the gift card: £30.00.');
    const cancelMail = await server.db.selectFrom('outbox_messages').select('text_body').where('to_address', '=', email)
      .where('subject', '=', `Booking Cancelled: Course crs_class (${fullBooking})`).executeTakeFirstOrThrow();
    expect(cancelMail.text_body).toContain('£30.00 has been returned to your gift card.');
  });

  it('an expired card is refused in a gift card’s words', async () => {
    const card = await giftCard(2500);
    const { api } = await learner();
    await server.db.updateTable('gift_cards').set({ expires_at: now - 1 }).where('id', '=', card.id).execute();
    const v = await api.post('/vouchers/validate', { code: card.code, course_ref: IDS.classCourse, educator_ref: IDS.educator });
    expect(v.status).toBe(400);
    expect(v.body.detail).toBe('This gift card has expired.');
  });
});

describe('concurrent redemptions', () => {
  it('never spend more than the balance: a £25 card, ten learners each paying £10 with it at once', async () => {
    const card = await giftCard(2500);
    const learners = await Promise.all(Array.from({ length: 10 }, () => learner()));
    const checkouts = await Promise.all(learners.map(async (l) => ({ ...l, ...(await bookWithCode(l.api, l.email, card.code, 1, IDS.raceCourse, IDS.raceOcc, OFFERS.race)) })));
    for (const c of checkouts) expect(c.priced.body.costSummary).toMatchObject({ gift_card_amount: 1000, total_cost: 0 });
    // Each Contact Info either completes the booking there and then (the card pays it all), or reaches Payment with
    // whatever the card can still pay held for it (the rest to pay by card) — never more than the card holds.
    const results = await Promise.all(checkouts.map((c) => c.api.submit(c.id, 'contact details filled', phone(c.email))));
    for (const r of results) expect(r.status).toBe(200);
    expect(results.filter((r) => r.body.status === 'completed')).toHaveLength(2);
    const atPayment = results.filter((r) => r.body.currentStep === 'payment');
    expect(atPayment).toHaveLength(8);
    expect(atPayment.map((r) => r.body.totalCost).sort()).toEqual([1000, 1000, 1000, 1000, 1000, 1000, 1000, 500]);
    expect(await balance(card.id)).toBe(0);
    const spent = await server.db.selectFrom('gift_card_redemptions').select(['amount', 'status']).where('gift_card_id', '=', card.id).execute();
    const total = (status: string) => spent.filter((x) => x.status === status).reduce((t, x) => t + Number(x.amount), 0);
    expect([total('committed'), total('held')]).toEqual([2000, 500]);
  });
});

/** A slot of the calendar-based request course: 11:00 London, `daysAhead` days from now (the educator opens 09:00–17:00). */
function slot(daysAhead: number): string {
  return new Date(zonedWallClock(addCalendarDays(localDate(now), daysAhead), 11 * 3600) * 1000).toISOString();
}

describe('the cost summary preview (before Continue)', () => {
  it('takes a gift card code: what the card can pay now, as a negative line', async () => {
    const card = await giftCard(2500);
    const { api } = await learner();
    const res = await api.post('/custom/get-checkout-summary', {
      course_ref: IDS.classCourse, occurrence_ref: IDS.classOcc, voucher_ref: card.code, offers: [{ _id: OFFERS.standard, quantity: 2 }], add_ons: [],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total_cost: 3500, gift_card_amount: 2500 });
    expect(res.body.summary_items.giftCardSummary).toEqual([{ text: `Gift card ••••${card.code.slice(-4)}`, value: -2500 }]);
    // A card of another educator's is refused as an unknown code.
    const other = await api.post('/custom/get-checkout-summary', { course_ref: IDS.vatCourse, occurrence_ref: IDS.vatOcc, voucher_ref: card.code, offers: [{ _id: OFFERS.vat, quantity: 1 }] });
    expect(other.status).toBe(400);
  });
});

describe('a request’s instant booking (calendar-based, priced)', () => {
  it('takes a gift card in Delivery options: the card pays part, the rest is paid by card', async () => {
    const card = await giftCard(2500);
    const { api, email } = await learner();
    let res = await api.initialise('request', { courseId: IDS.requestCal });
    const id = res.body._id;
    res = await api.submit(id, 'request delivery configured', {
      selectedDurationId: 'dur_60', delivery: { type: 'Online' }, pricing: { type: 'offers', offers: { [OFFERS.requestCal]: 1 }, addOns: {} }, appliedPromoCode: card.code,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // payableCost is spec 3's, before any code; the summary takes the card off.
    expect(res.body.stepState.delivery.state).toMatchObject({ payableCost: 4000, giftCardId: card.id });
    expect(res.body.costSummary).toMatchObject({ total_cost: 1500, gift_card_amount: 2500 });
    expect(res.body.costSummary.summary_items.giftCardSummary).toEqual([{ text: `Gift card ••••${card.code.slice(-4)}`, value: -2500 }]);
    expect(res.body.rules).toMatchObject({ instantBooking: true, paymentRequired: true });
    res = await api.submit(id, 'request available date selected', { availableDate: slot(2) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await api.submit(id, 'request message filled', { message: 'See you then' });
    res = await api.submit(id, 'contact details filled', contactPayload(email));
    expect(res.body).toMatchObject({ currentStep: 'payment', totalCost: 1500 });
    expect(await balance(card.id)).toBe(0);
    res = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    expect((await payWithCard(server, res.body, CARDS.success)).status).toBe(200);
    res = await api.submit(id, 'payment was successful', {});
    expect(res.body).toMatchObject({ status: 'completed', outcome: { kind: 'booking', paymentState: 'paid', totalCost: 1500 } });
    const spent = await server.db.selectFrom('gift_card_redemptions').select(['amount', 'status', 'outcome_id']).where('gift_card_id', '=', card.id).execute();
    expect(spent).toEqual([{ amount: 2500, status: 'committed', outcome_id: res.body.bookingId }]);
  });

  it('a card that pays all of it: no Payment step, the booking paid by gift card', async () => {
    const card = await giftCard(5000);
    const { api, email } = await learner();
    let res = await api.initialise('request', { courseId: IDS.requestCal });
    const id = res.body._id;
    res = await api.submit(id, 'request delivery configured', {
      selectedDurationId: 'dur_60', delivery: { type: 'Online' }, pricing: { type: 'offers', offers: { [OFFERS.requestCal]: 1 }, addOns: {} }, appliedPromoCode: card.code,
    });
    expect(res.body.costSummary).toMatchObject({ total_cost: 0, gift_card_amount: 4000 });
    expect(res.body.steps).not.toContain('payment');
    await api.submit(id, 'request available date selected', { availableDate: slot(3) });
    await api.submit(id, 'request message filled', { message: 'See you then' });
    res = await api.submit(id, 'contact details filled', contactPayload(email));
    expect(res.body).toMatchObject({ status: 'completed', outcome: { kind: 'booking', paymentMethod: 'gift card', paymentState: 'paid', totalCost: 0 } });
    expect(await balance(card.id)).toBe(1000);
  });

  it('refuses a code that is neither a promo code nor a gift card of the educator', async () => {
    const { api } = await learner();
    const res0 = await api.initialise('request', { courseId: IDS.requestCal });
    const res = await api.submit(res0.body._id, 'request delivery configured', { delivery: { type: 'Online' }, appliedPromoCode: 'ABCD-EFGH-JKMN-PQRS' });
    expect(res.status).toBe(400);
    expect(problemType(res.body)).toBe('generic/validation-error');
    expect(res.body.properties[0]).toMatchObject({ key: 'payload.appliedPromoCode' });
  });
});
