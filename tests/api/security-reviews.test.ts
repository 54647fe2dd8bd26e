/**
 * "Verified" reviews come only from attended or paid bookings (or paid orders): a booking to be paid in
 * person and cancelled at once buys no badge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { signUpAndLogin, type SignedInUser } from '../helpers/auth.ts';
import { NOW, DAY, TEST_ENV, insertPublicFixtures } from './public-fixtures.ts';
import { bookingVerifiesReview, orderVerifiesReview } from '../../src/domain/review-verification.ts';
import type { BookingStatus, PaymentState } from '../../db/schema/checkout.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(TEST_ENV);
  server.setNow(NOW);
  await insertPublicFixtures(server.db);
});
afterAll(async () => server.close());

async function book(me: SignedInUser, status: BookingStatus, paymentState: PaymentState, startsAt: number | null) {
  await server.db.insertInto('bookings').values({
    id: `bkg_${me.user.id}`, checkout_id: `chk_${me.user.id}`, flow: 'booking', course_id: 'crs_wheel', educator_id: 'edu_clay',
    user_id: me.user.id, student_id: me.user.studentId, origin: 'marketplace', lines: {}, contact_details: {}, details: {},
    total_cost: 4500, created_at: NOW - DAY, status, occurrence_id: null, spaces: 1,
    start_datetime: startsAt, end_datetime: startsAt === null ? null : startsAt + 3 * 3600,
    payment_method: paymentState === 'unpaid' ? 'manual' : 'card', payment_state: paymentState, payment_id: null, invoice_details: null, due_date: null, manual_note: null,
  }).execute();
}

async function reviewVerified(me: SignedInUser): Promise<boolean> {
  const res = await fetch(`${server.url}/api/reviews`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: me.cookie },
    body: JSON.stringify({ educatorSlug: 'clay-studio', courseSlug: 'pottery-wheel-basics', rating: 5, message: 'Wonderful, would book again.' }),
  });
  expect(res.status).toBe(201);
  return (await res.json()).verified;
}

describe('verified reviews through the API', () => {
  it.each([
    { name: 'paid in person later, cancelled at once', status: 'cancelled', pay: 'unpaid', at: NOW + 7 * DAY, verified: false },
    { name: 'paid in person later, not yet attended', status: 'confirmed', pay: 'unpaid', at: NOW + 7 * DAY, verified: false },
    { name: 'awaiting approval', status: 'awaiting-approval', pay: 'unpaid', at: NOW + 7 * DAY, verified: false },
    { name: 'paid by card, then cancelled', status: 'cancelled', pay: 'paid', at: NOW + 7 * DAY, verified: false },
    { name: 'paid in person and attended (its date has passed)', status: 'confirmed', pay: 'unpaid', at: NOW - 7 * DAY, verified: true },
    { name: 'paid by card, date still to come', status: 'confirmed', pay: 'paid', at: NOW + 7 * DAY, verified: true },
    { name: 'free', status: 'confirmed', pay: 'free', at: NOW + 7 * DAY, verified: true },
  ] as const)('$name → verified $verified', async ({ status, pay, at, verified }) => {
    const me = await signUpAndLogin(server);
    await book(me, status, pay, at);
    expect(await reviewVerified(me)).toBe(verified);
  });
});

describe('the rule', () => {
  it('counts a booking as attended from the moment its date ends (or starts, without an end)', () => {
    const base = { status: 'confirmed', paymentState: 'unpaid' } as const;
    expect(bookingVerifiesReview({ ...base, startsAt: NOW - 100, endsAt: NOW }, NOW)).toBe(true);
    expect(bookingVerifiesReview({ ...base, startsAt: NOW - 100, endsAt: NOW + 1 }, NOW)).toBe(false);
    expect(bookingVerifiesReview({ ...base, startsAt: NOW, endsAt: null }, NOW)).toBe(true);
    expect(bookingVerifiesReview({ ...base, startsAt: null, endsAt: null }, NOW)).toBe(false);
  });

  it('verifies orders that are paid or free, never unpaid ones', () => {
    expect(orderVerifiesReview({ paymentState: 'paid' })).toBe(true);
    expect(orderVerifiesReview({ paymentState: 'free' })).toBe(true);
    expect(orderVerifiesReview({ paymentState: 'unpaid' })).toBe(false);
  });
});
