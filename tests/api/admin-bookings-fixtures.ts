/**
 * The admin bookings tests' world: the checkout test catalogue (educator edu_clay), the admin fixture's admin made
 * an admin of it too, and bookings made through the real checkout (card, test wallet, invoice, gift card, membership
 * credit), so every refund goes through the test providers as it would in use.
 */
import { expect } from 'vitest';
import type { TestServer } from '../helpers/server.ts';
import { startTestServer } from '../helpers/server.ts';
import { signUpAndLogin, makeEducatorAdmin } from '../helpers/auth.ts';
import { ADMIN_ENV, adminCall, adminFixture, type AdminFixture } from '../helpers/admin.ts';
import { CARDS, DAY, IDS, client, contactPayload, payWithCard, seedCheckoutCatalogue } from './checkout-fixtures.ts';

export { IDS, DAY };

export interface World {
  server: TestServer;
  fx: AdminFixture;
  now: number;
  /** The educator whose bookings are tested (the checkout catalogue's). */
  educatorId: string;
  api: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
  /** Same, as the other educator's admin through THEIR educator's URL. */
  otherApi: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
  /** As the admin, through another of their educators' URL (the fixture's own educator). */
  ownApi: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
}

export async function startWorld(env: Record<string, string> = {}): Promise<World> {
  const server = await startTestServer({ ...ADMIN_ENV, LOG_LEVEL: 'silent', RATE_LIMIT_LOGIN_PER_IP: '100000', ...env });
  const now = Math.floor(Date.now() / 1000);
  await seedCheckoutCatalogue(server.db, now);
  const fx = await adminFixture(server, 'bkg');
  await makeEducatorAdmin(server.db, fx.admin.user.id, IDS.educator);
  const base = `/api/admin/educators/${IDS.educator}`;
  const call = (cookie: string, prefix: string) => async (method: string, path: string, body?: unknown) => {
    const res = await adminCall(server, cookie, method, `${prefix}${path}`, body);
    let parsed: unknown;
    try {
      parsed = res.json();
    } catch {
      parsed = res.text;
    }
    return { status: res.status, body: parsed as any };
  };
  return {
    server, fx, now, educatorId: IDS.educator,
    api: call(fx.admin.cookie, base),
    otherApi: call(fx.otherAdmin.cookie, `/api/admin/educators/${fx.otherEducatorId}`),
    ownApi: call(fx.admin.cookie, `/api/admin/educators/${fx.educatorId}`),
  };
}

let occurrenceCount = 0;

/** A fresh dated occurrence of the class course with its own £30 offer (one space) and £50 pair offer. */
export async function freshDate(w: World, spaces = 10, extra: { course?: string; price?: number } = {}): Promise<{ occurrenceId: string; offerId: string; pairId: string }> {
  const n = ++occurrenceCount;
  const occurrenceId = `occ_adm_${n}_${Date.now().toString(36)}`;
  const start = w.now + 30 * DAY + n * 3600;
  const course = extra.course ?? IDS.classCourse;
  await w.server.db.insertInto('occurrences').values({
    id: occurrenceId, course_id: course, visibility: 'public', start_datetime: start, end_datetime: start + 3 * 3600, timezone: 'Europe/London',
    delivery: 'in-person', address: { line1: 'The Old Dairy', city: 'Bristol', postcode: 'BS1 4DJ' }, spaces, available_spaces: spaces,
    parent_ref: null, individually_bookable: true,
  }).execute();
  const offerId = `off_adm_${n}`;
  const pairId = `off_adm_pair_${n}`;
  await w.server.db.insertInto('offers').values([
    { id: offerId, course_id: course, occurrence_id: occurrenceId, position: 0, name: 'Standard', description: null, price: extra.price ?? 3000, spaces: 1, start_at: null, end_at: null },
    { id: pairId, course_id: course, occurrence_id: occurrenceId, position: 1, name: 'Pair', description: null, price: 5000, spaces: 2, start_at: null, end_at: null },
  ]).execute();
  return { occurrenceId, offerId, pairId };
}

export interface Booked {
  bookingId: string;
  checkoutId: string;
  cookie: string;
  email: string;
  paymentId: string | null;
  total: number;
}

/**
 * Books through the checkout as a new learner (or `cookie`'s): `method` card (test card), paypal (test wallet),
 * invoice, or none (a free or gift-card-paid booking).
 */
export async function book(
  w: World,
  input: { course?: string; occurrenceId: string; offerId: string; quantity?: number; method?: 'card' | 'paypal' | 'invoice' | 'none'; code?: string; useCredit?: boolean; cookie?: string; email?: string; firstName?: string; lastName?: string },
): Promise<Booked> {
  let cookie = input.cookie;
  let email = input.email;
  if (!cookie) {
    const who = await signUpAndLogin(w.server, { firstName: input.firstName ?? 'Ada', lastName: input.lastName ?? 'Lovelace' });
    cookie = who.cookie;
    email = who.user.email;
  }
  const api = client(w.server, cookie);
  let res = await api.initialise('booking', { courseId: input.course ?? IDS.classCourse, occurrenceId: input.occurrenceId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body._id as string;
  res = await api.submit(id, 'pricing options picked', {
    selectedOffers: [{ offerId: input.offerId, quantity: input.quantity ?? 1 }], selectedAddons: [],
    ...(input.code ? { appliedPromoCode: input.code } : {}), ...(input.useCredit ? { useMembershipCredit: true } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const phone = (input.course ?? IDS.classCourse) === IDS.classCourse ? { phone: '07700900123' } : {};
  res = await api.submit(id, 'contact details filled', contactPayload(email!, {
    bookerFormResponse: { system_first_name: input.firstName ?? 'Ada', system_last_name: input.lastName ?? 'Lovelace', system_email: email, ...phone },
  }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const method = input.method ?? 'card';
  if (method !== 'none') {
    expect(res.body.currentStep).toBe('payment');
    res = await api.submit(id, 'payment method selected', { paymentMethod: method });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (method === 'card') expect((await payWithCard(w.server, res.body, CARDS.success)).status).toBe(200);
    if (method === 'invoice') {
      res = await api.submit(id, 'invoice details added', { billing_name: 'Ada Lovelace', billing_email: email, billing_address: '1 Street' });
    } else {
      res = await api.submit(id, 'payment was successful', {});
    }
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  expect(res.body.status, JSON.stringify(res.body)).toBe('completed');
  const bookingId = res.body.bookingId as string;
  const row = await w.server.db.selectFrom('bookings').select(['payment_id', 'total_cost']).where('id', '=', bookingId).executeTakeFirstOrThrow();
  return { bookingId, checkoutId: id, cookie, email: email!, paymentId: row.payment_id, total: Number(row.total_cost) };
}

export async function spacesOf(w: World, occurrenceId: string): Promise<number> {
  const row = await w.server.db.selectFrom('occurrences').select('available_spaces').where('id', '=', occurrenceId).executeTakeFirstOrThrow();
  return Number(row.available_spaces);
}

/** The test provider's refunds of a payment (what the "provider" did). */
export async function providerRefunds(w: World, paymentId: string) {
  return w.server.db.selectFrom('test_refunds').selectAll().where('payment_id', '=', paymentId).execute();
}

/** Outbox messages to an address whose subject names the reference. */
export async function mailsAbout(w: World, address: string, reference: string) {
  const rows = await w.server.db.selectFrom('outbox_messages').select(['subject', 'tag', 'text_body', 'status', 'next_attempt_at'])
    .where('to_address', '=', address).orderBy('created_at').orderBy('id').execute();
  return rows.filter((r) => r.subject.includes(`(${reference})`));
}

/** A gift card of the educator, straight into the table. */
export async function giftCard(w: World, amount: number): Promise<{ id: string; code: string }> {
  const n = ++occurrenceCount;
  const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
  const code = Array.from({ length: 16 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
  const id = `GFT-ADM${n}`;
  await w.server.db.insertInto('gift_cards').values({
    id, educator_id: IDS.educator, code, amount, balance: amount, currency: 'GBP', checkout_id: null, buyer_user_id: null, buyer_name: 'Gifter',
    buyer_email: 'gifter@example.com', recipient_name: 'Ada', recipient_email: 'ada@example.com', message: '', send_at: w.now, recipient_sent_at: w.now,
    expires_at: w.now + 365 * DAY, design_colour: null, payment_method: 'card', payment_id: null, total_paid: amount, created_at: w.now,
  }).execute();
  return { id, code };
}

let keys = 0;
export function requestKey(label = 'k'): string {
  return `${label}-${Date.now().toString(36)}-${++keys}-${Math.random().toString(36).slice(2, 8)}`;
}
