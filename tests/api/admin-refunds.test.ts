/**
 * Cancellations and refunds by the educator (docs/admin.md "Refunds"), through the real server and the test
 * providers: exactly one provider refund per refund however often the button is pressed, a lost provider answer
 * finished by the reconciler without a second refund, gift card and membership credit given back, spaces released,
 * a whole date cancelled with every learner told. SQLite and PostgreSQL (TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectGuarded } from '../helpers/admin.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { CARDS, IDS, client, payWithCard } from './checkout-fixtures.ts';
import { seedPlans, PLANS } from './membership-fixtures.ts';
import {
  book, freshDate, giftCard, mailsAbout, providerRefunds, requestKey, spacesOf, startWorld, type World,
} from './admin-bookings-fixtures.ts';
import { refundBooking } from '../../api/admin/bookings-actions.ts';
import { reconcileRefunds } from '../../api/admin/refunds.ts';

let w: World;

beforeAll(async () => {
  w = await startWorld();
});
afterAll(async () => {
  await w?.server.close();
});

async function detail(bookingId: string) {
  const res = await w.api('GET', `/bookings/${bookingId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('who may refund and cancel', () => {
  it('refuses nobody, a learner and another educator\'s admin on every route', async () => {
    const date = await freshDate(w);
    const b = await book(w, date);
    const base = `/api/admin/educators/${IDS.educator}`;
    await expectGuarded(w.server, w.fx, 'POST', `${base}/bookings/${b.bookingId}/refunds`, { amount: 100, requestKey: requestKey(), expectedRefunds: 0 });
    await expectGuarded(w.server, w.fx, 'POST', `${base}/bookings/${b.bookingId}/cancel`, { refund: 'full', requestKey: requestKey() });
    await expectGuarded(w.server, w.fx, 'POST', `${base}/occurrences/${date.occurrenceId}/cancel`, { refund: 'full', requestKey: requestKey() });
    expect(await providerRefunds(w, b.paymentId!)).toHaveLength(0);
    expect((await detail(b.bookingId)).booking.status).toBe('confirmed');
  });

  it('answers 404 for another educator\'s booking or date through the other admin\'s own educator', async () => {
    const date = await freshDate(w);
    const b = await book(w, date);
    expect((await w.otherApi('GET', `/bookings/${b.bookingId}`)).status).toBe(404);
    expect((await w.otherApi('POST', `/bookings/${b.bookingId}/refunds`, { amount: 100, requestKey: requestKey(), expectedRefunds: 0 })).status).toBe(404);
    expect((await w.otherApi('POST', `/bookings/${b.bookingId}/cancel`, { refund: 'full', requestKey: requestKey() })).status).toBe(404);
    expect((await w.otherApi('POST', `/occurrences/${date.occurrenceId}/cancel`, { refund: 'full', requestKey: requestKey() })).status).toBe(404);
    expect(await providerRefunds(w, b.paymentId!)).toHaveLength(0);
    expect((await detail(b.bookingId)).booking.status).toBe('confirmed');
  });

  it('answers bad bodies with field messages, never a 500', async () => {
    const b = await book(w, await freshDate(w));
    const none = await w.api('POST', `/bookings/${b.bookingId}/refunds`, { amount: 'ten' });
    expect(none.status).toBe(400);
    const tooMuch = await w.api('POST', `/bookings/${b.bookingId}/refunds`, { amount: 3001, requestKey: requestKey(), expectedRefunds: 0 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.properties).toEqual([expect.objectContaining({ key: 'amount', message: 'must be at most £30.00' })]);
    expect(await providerRefunds(w, b.paymentId!)).toHaveLength(0);
  });
});

describe('a partial refund', () => {
  it('makes one provider refund when the same request arrives twice at once', async () => {
    const b = await book(w, await freshDate(w));
    const key = requestKey('same');
    const body = { amount: 1000, requestKey: key, expectedRefunds: 0, reason: 'Started late' };
    const [one, two] = await Promise.all([w.api('POST', `/bookings/${b.bookingId}/refunds`, body), w.api('POST', `/bookings/${b.bookingId}/refunds`, body)]);
    expect([one.status, two.status].sort()).toEqual([200, 201]);
    expect(one.body.refund.id).toBe(two.body.refund.id);
    const made = await providerRefunds(w, b.paymentId!);
    expect(made).toHaveLength(1);
    expect(Number(made[0]!.amount)).toBe(1000);
    const page = await detail(b.bookingId);
    expect(page.refunds).toHaveLength(1);
    expect(page.refunds[0]).toMatchObject({ amount: 1000, status: 'succeeded', reason: 'Started late' });
    expect(page.booking).toMatchObject({ status: 'confirmed', refundedTotal: 1000 });
    expect(page.money.left.total).toBe(2000);
    // The learner is told, once.
    const mails = (await mailsAbout(w, b.email, b.bookingId)).filter((m) => m.tag === 'booking-refund');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text_body).toContain('£10.00 has been refunded to your Card.');
  });

  it('makes one provider refund when two presses with different keys race on the booking as it was', async () => {
    const b = await book(w, await freshDate(w));
    const [one, two] = await Promise.all([
      w.api('POST', `/bookings/${b.bookingId}/refunds`, { amount: 700, requestKey: requestKey('a'), expectedRefunds: 0 }),
      w.api('POST', `/bookings/${b.bookingId}/refunds`, { amount: 700, requestKey: requestKey('b'), expectedRefunds: 0 }),
    ]);
    expect([one.status, two.status].sort()).toEqual([201, 409]);
    const refused = one.status === 409 ? one : two;
    expect(refused.body.title).toBe('Changed Since You Opened It');
    expect(await providerRefunds(w, b.paymentId!)).toHaveLength(1);
    expect((await detail(b.bookingId)).booking.refundedTotal).toBe(700);
    // A second refund made knowingly (on the booking as it is now) is its own refund, up to what is left.
    const again = await w.api('POST', `/bookings/${b.bookingId}/refunds`, { amount: 2300, requestKey: requestKey('c'), expectedRefunds: 1 });
    expect(again.status).toBe(201);
    expect(await providerRefunds(w, b.paymentId!)).toHaveLength(2);
    const more = await w.api('POST', `/bookings/${b.bookingId}/refunds`, { amount: 1, requestKey: requestKey('d'), expectedRefunds: 2 });
    expect(more.status).toBe(400);
    expect(more.body.properties[0].message).toBe('cannot be refunded: nothing is left to refund');
    const payment = await w.server.db.selectFrom('checkout_payments').select('status').where('provider_payment_id', '=', b.paymentId!).executeTakeFirstOrThrow();
    expect(payment.status).toBe('refunded');
  });

  it('refunds a wallet (PayPal) payment through its provider too', async () => {
    const b = await book(w, { ...(await freshDate(w)), method: 'paypal' });
    const res = await w.api('POST', `/bookings/${b.bookingId}/refunds`, { amount: 1234, requestKey: requestKey(), expectedRefunds: 0 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.refund).toMatchObject({ status: 'succeeded', provider: 'test-wallet', amount: 1234 });
    expect(await providerRefunds(w, b.paymentId!)).toHaveLength(1);
  });

  it('gives back the platform fee in proportion (the educator absorbed it)', async () => {
    const b = await book(w, await freshDate(w));
    const res = await w.api('POST', `/bookings/${b.bookingId}/refunds`, { amount: 1500, requestKey: requestKey(), expectedRefunds: 0 });
    // £30 paid, fee 2.5% + 30p = 105p; half refunded → 53p of the fee (half-up).
    expect(res.body.refund.platform_fee_refunded).toBe(53);
    const rest = await w.api('POST', `/bookings/${b.bookingId}/refunds`, { amount: 1500, requestKey: requestKey(), expectedRefunds: 1 });
    expect(rest.body.refund.platform_fee_refunded).toBe(52);
  });
});

describe('a provider answer that was lost', () => {
  it('is finished by the reconciler without a second refund', async () => {
    const b = await book(w, await freshDate(w));
    const deps = w.server.deps;
    await expect(refundBooking(deps, {
      userId: w.fx.admin.user.id, educatorId: IDS.educator, bookingId: b.bookingId,
      body: { amount: 800, requestKey: requestKey('lost'), expectedRefunds: 0 },
    }, { afterProvider: () => { throw new Error('power cut after the provider answered'); } })).rejects.toThrow('power cut');
    // The provider refunded; we never recorded its answer.
    expect(await providerRefunds(w, b.paymentId!)).toHaveLength(1);
    let row = await w.server.db.selectFrom('refunds').selectAll().where('booking_id', '=', b.bookingId).executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
    // Too young for the reconciler's default grace: left alone.
    expect((await reconcileRefunds(deps)).checked).toBe(0);
    const pass = await reconcileRefunds(deps, { graceSeconds: 0 });
    expect(pass.checked).toBe(1);
    row = await w.server.db.selectFrom('refunds').selectAll().where('booking_id', '=', b.bookingId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'succeeded', amount: 800 });
    expect(row.provider_refund_id).toBe((await providerRefunds(w, b.paymentId!))[0]!.id);
    expect(await providerRefunds(w, b.paymentId!)).toHaveLength(1);
    // Nothing more to do.
    expect((await reconcileRefunds(deps, { graceSeconds: 0, recheckSeconds: 0 })).checked).toBe(0);
    expect((await detail(b.bookingId)).booking.refundedTotal).toBe(800);
  });

  it('is made by the reconciler when the process died before asking the provider', async () => {
    const b = await book(w, await freshDate(w));
    const deps = w.server.deps;
    // A provider that cannot be reached: the refund stays pending with the error, nothing refunded.
    const original = deps.config.PAYMENTS_MODE;
    (deps.config as { PAYMENTS_MODE: string }).PAYMENTS_MODE = 'live';
    try {
      const res = await refundBooking(deps, { userId: w.fx.admin.user.id, educatorId: IDS.educator, bookingId: b.bookingId, body: { amount: 500, requestKey: requestKey(), expectedRefunds: 0 } });
      expect(res.refund).toMatchObject({ status: 'pending', attempts: 1 });
      expect(res.refund.last_error).toContain('not available');
    } finally {
      (deps.config as { PAYMENTS_MODE: string }).PAYMENTS_MODE = original;
    }
    expect(await providerRefunds(w, b.paymentId!)).toHaveLength(0);
    await reconcileRefunds(deps, { graceSeconds: 0 });
    await reconcileRefunds(deps, { graceSeconds: 0, recheckSeconds: 0 });
    const made = await providerRefunds(w, b.paymentId!);
    expect(made).toHaveLength(1);
    expect(Number(made[0]!.amount)).toBe(500);
  });
});

describe('cancelling a booking', () => {
  it('with a partial refund: cancelled, spaces back, the learner told, one refund however often it is pressed', async () => {
    const date = await freshDate(w, 10);
    const b = await book(w, { ...date, offerId: date.pairId });
    expect(await spacesOf(w, date.occurrenceId)).toBe(8);
    const key = requestKey('cancel');
    const body = { refund: 'amount', amount: 2000, requestKey: key, expectedRefunds: 0, reason: 'The kiln broke' };
    const [one, two] = await Promise.all([
      w.api('POST', `/bookings/${b.bookingId}/cancel`, body), w.api('POST', `/bookings/${b.bookingId}/cancel`, body),
    ]);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(two.status, JSON.stringify(two.body)).toBe(200);
    expect([one.body.replayed, two.body.replayed].sort()).toEqual([false, true]);
    expect(await spacesOf(w, date.occurrenceId)).toBe(10);
    const made = await providerRefunds(w, b.paymentId!);
    expect(made).toHaveLength(1);
    expect(Number(made[0]!.amount)).toBe(2000);
    // Another press with a new key: already cancelled.
    const late = await w.api('POST', `/bookings/${b.bookingId}/cancel`, { refund: 'full', requestKey: requestKey() });
    expect(late.status).toBe(409);
    expect(await providerRefunds(w, b.paymentId!)).toHaveLength(1);
    const page = await detail(b.bookingId);
    expect(page.booking).toMatchObject({ status: 'cancelled', refundedTotal: 2000 });
    expect(page.booking.cancellation).toMatchObject({ byLearner: false, spacesReleased: 2, refundStatus: 'refunded' });
    expect(page.history.map((h: { action: string }) => h.action)).toContain('cancel');
    const mails = (await mailsAbout(w, b.email, b.bookingId)).filter((m) => m.tag === 'booking-cancelled-by-educator');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text_body).toContain('The kiln broke');
    expect(mails[0]!.text_body).toContain('£20.00 has been refunded to your Card.');
    // The learner's booking page says so too (their own API).
    const mine = await client(w.server, b.cookie).get(`/bookings/${b.bookingId}`);
    expect(mine.status).toBe(200);
  });

  it('queues the public pages of the date through the change feed (its spaces changed)', async () => {
    const date = await freshDate(w, 4);
    const b = await book(w, date);
    await w.server.db.deleteFrom('page_changes').execute();
    const res = await w.api('POST', `/bookings/${b.bookingId}/cancel`, { refund: 'full', requestKey: requestKey() });
    expect(res.status).toBe(200);
    const queued = await w.server.db.selectFrom('page_changes').select(['educator_id', 'course_id']).execute();
    expect(queued).toContainEqual({ educator_id: IDS.educator, course_id: IDS.classCourse });
  });

  it('gives back what a gift card paid to the card, and the rest to the card payment', async () => {
    const card = await giftCard(w, 2000);
    const date = await freshDate(w);
    const b = await book(w, { ...date, code: card.code });
    expect(b.total).toBe(1000);
    const balance = async () => Number((await w.server.db.selectFrom('gift_cards').select('balance').where('id', '=', card.id).executeTakeFirstOrThrow()).balance);
    expect(await balance()).toBe(0);
    // A partial refund of £15: £10 back to the card payment first, £5 back on the gift card.
    const part = await w.api('POST', `/bookings/${b.bookingId}/refunds`, { amount: 1500, requestKey: requestKey(), expectedRefunds: 0 });
    expect(part.status, JSON.stringify(part.body)).toBe(201);
    expect(part.body.refund).toMatchObject({ amount: 1000, gift_card_amount: 500 });
    expect(await balance()).toBe(500);
    // Cancelling with a full refund gives the card the rest, and nothing more to the card payment.
    const cancel = await w.api('POST', `/bookings/${b.bookingId}/cancel`, { refund: 'full', requestKey: requestKey(), expectedRefunds: 1 });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.refund).toMatchObject({ amount: 0, gift_card_amount: 1500 });
    expect(await balance()).toBe(2000);
    expect(await providerRefunds(w, b.paymentId!)).toHaveLength(1);
    const mails = (await mailsAbout(w, b.email, b.bookingId)).filter((m) => m.tag === 'booking-cancelled-by-educator');
    expect(mails[0]!.text_body).toContain('£15.00 has been returned to your gift card.');
  });

  it('gives a membership credit back to the membership', async () => {
    await seedPlans(w.server);
    const { cookie, user } = await signUpAndLogin(w.server, { firstName: 'Mem', lastName: 'Ber' });
    const api = client(w.server, cookie);
    const init = await api.initialise('membership', { educatorId: IDS.educator });
    const id = init.body._id;
    await api.submit(id, 'membership plan picked', { planId: PLANS.monthly });
    const method = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    expect((await payWithCard(w.server, method.body, CARDS.success)).status).toBe(200);
    const joined = await api.submit(id, 'payment was successful', {});
    const membershipId = joined.body.outcome.id as string;
    const credits = async () => Number((await w.server.db.selectFrom('memberships').select('credits_left').where('id', '=', membershipId).executeTakeFirstOrThrow()).credits_left);
    expect(await credits()).toBe(2);
    const date = await freshDate(w);
    const b = await book(w, { ...date, useCredit: true, method: 'none', cookie, email: user.email, firstName: 'Mem', lastName: 'Ber' });
    expect(await credits()).toBe(1);
    const page = await detail(b.bookingId);
    expect(page.membershipCredits).toEqual([expect.objectContaining({ planName: 'Studio Monthly' })]);
    const res = await w.api('POST', `/bookings/${b.bookingId}/cancel`, { refund: 'full', requestKey: requestKey() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.refund.credits_returned).toBe(1);
    expect(await credits()).toBe(2);
    const mail = (await mailsAbout(w, user.email, b.bookingId)).find((m) => m.tag === 'booking-cancelled-by-educator');
    expect(mail?.text_body).toContain('The membership credit you used has been returned to your membership.');
  });

  it('of an unpaid invoice booking: nothing to refund, nothing due any more', async () => {
    const date = await freshDate(w);
    const b = await book(w, { ...date, method: 'invoice' });
    const res = await w.api('POST', `/bookings/${b.bookingId}/cancel`, { refund: 'none', requestKey: requestKey() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.refund).toMatchObject({ amount: 0, gift_card_amount: 0, status: 'succeeded' });
    const mail = (await mailsAbout(w, b.email, b.bookingId)).find((m) => m.tag === 'booking-cancelled-by-educator');
    expect(mail?.text_body).toContain('Nothing is due for this booking any more.');
  });
});

describe('cancelling a whole date', () => {
  it('cancels every booking on it, refunds the paid ones once and e-mails every learner', async () => {
    const date = await freshDate(w, 10);
    const paid = await book(w, { ...date, firstName: 'Paid', lastName: 'Card' });
    const wallet = await book(w, { ...date, method: 'paypal', firstName: 'Paid', lastName: 'Wallet' });
    const invoice = await book(w, { ...date, method: 'invoice', firstName: 'Owes', lastName: 'Invoice' });
    expect(await spacesOf(w, date.occurrenceId)).toBe(7);
    const key = requestKey('date');
    const res = await w.api('POST', `/occurrences/${date.occurrenceId}/cancel`, { refund: 'full', requestKey: key, reason: 'Snowed in' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.cancelled).toHaveLength(3);
    expect(res.body.failed).toEqual([]);
    for (const b of [paid, wallet, invoice]) {
      const mails = (await mailsAbout(w, b.email, b.bookingId)).filter((m) => m.tag === 'booking-cancelled-by-educator');
      expect(mails, b.email).toHaveLength(1);
      expect(mails[0]!.text_body).toContain('has cancelled the date you booked');
      expect(mails[0]!.text_body).toContain('Snowed in');
    }
    expect(await providerRefunds(w, paid.paymentId!)).toHaveLength(1);
    expect(await providerRefunds(w, wallet.paymentId!)).toHaveLength(1);
    const occ = await w.server.db.selectFrom('occurrences').select(['visibility', 'available_spaces']).where('id', '=', date.occurrenceId).executeTakeFirstOrThrow();
    expect(occ.visibility).toBe('cancelled');
    // Pressed again: nothing new.
    const again = await w.api('POST', `/occurrences/${date.occurrenceId}/cancel`, { refund: 'full', requestKey: key });
    expect(again.body.cancelled).toHaveLength(0);
    expect(await providerRefunds(w, paid.paymentId!)).toHaveLength(1);
    const list = await w.api('GET', `/bookings?occurrenceId=${date.occurrenceId}&status=cancelled`);
    expect(list.body.bookings).toHaveLength(3);
  });
});

describe('a booking its learner cancelled before the refund service', () => {
  it('counts that refund: nothing is given back twice', async () => {
    const b = await book(w, await freshDate(w));
    // As the old cancellation left it: cancelled, refunded in full through the provider, no refunds row.
    await w.server.db.updateTable('bookings').set({ status: 'cancelled' }).where('id', '=', b.bookingId).execute();
    await w.server.db.insertInto('booking_cancellations').values({
      booking_id: b.bookingId, user_id: 'usr_learner', occurrence_id: null, spaces_released: 1, cancelled_at: w.now, refund_status: 'refunded',
      refund_provider: 'test', refund_payment_id: b.paymentId, refund_amount: b.total, refunded_at: w.now, refund_error: null,
    }).execute();
    const page = await detail(b.bookingId);
    expect(page.money.left.total).toBe(0);
    const res = await w.api('POST', `/bookings/${b.bookingId}/refunds`, { amount: 100, requestKey: requestKey(), expectedRefunds: 0 });
    expect(res.status).toBe(400);
    expect(res.body.properties[0].message).toBe('cannot be refunded: nothing is left to refund');
    expect(await providerRefunds(w, b.paymentId!)).toHaveLength(0);
  });
});
