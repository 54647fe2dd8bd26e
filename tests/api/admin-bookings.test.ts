/**
 * The admin's bookings list and a booking's page (docs/admin.md "Bookings") through the real server: every filter
 * returns exactly its bookings, the search finds learners by e-mail, name or last name, every sort pages through
 * all bookings once in order with keyset cursors, nothing of another educator shows, and a booking's page shows its
 * learner's answers, money, documents, e-mails and history. SQLite and PostgreSQL (TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectGuarded } from '../helpers/admin.ts';
import { seedBookings, type SeededBooking } from '../helpers/admin-bookings-seed.ts';
import { ADDONS, CARDS, OFFERS, client, contactPayload, payWithCard } from './checkout-fixtures.ts';
import { DAY, IDS, book, freshDate, requestKey, startWorld, type World } from './admin-bookings-fixtures.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { BOOKING_SORTS, sortKey, type BookingSort } from '../../src/domain/admin/bookings.ts';

let w: World;
let seeded: SeededBooking[];
let educatorId: string;

/** A second educator of the admin's with its own bookings (the seeded list), so the real checkout's bookings stay apart. */
beforeAll(async () => {
  w = await startWorld();
  educatorId = w.fx.educatorId;
  const courses = ['a', 'b', 'c'].map((k) => `crs_list_${k}`);
  await w.server.db.insertInto('courses').values(courses.map((id) => ({
    id, educator_id: educatorId, slug: id.replace(/_/g, '-'), name: `List course ${id.slice(-1).toUpperCase()}`, created_at: w.now, level: 'All',
    description: '', meta_description: null, keyword: null, category_id: null, type: 'class' as const, delivery_modes: ['in-person'], currency: 'GBP',
    spaces: null, pricing_type: 'price-offers' as const, minimum_price: null, maximum_price: null, form_ref: 'system_default', guest_form_ref: null,
    capture_guests: false, approval_required: false, restricted: false, img_urls: [], autoimg: null, address: null, lat: null, lng: null, faq_ids: [],
    sections: [], course_duration: 120, duration_pricing: [], date_requests: null, available_for_online_delivery: false,
    available_for_in_person_delivery: true, educator_travel_settings: { enabled: false, type: null }, student_travel_settings: { enabled: false, locations: [] },
    published: true,
  }))).execute();
  const target = { educatorId, courses: courses.map((id, c) => ({ id, occurrences: [0, 1, 2].map((n) => ({ id: `occ_list_${c}_${n}`, start: w.now + (c * 3 + n + 1) * DAY })) })) };
  await w.server.db.insertInto('occurrences').values(target.courses.flatMap((c) => c.occurrences.map((o) => ({
    id: o.id, course_id: c.id, visibility: 'public', start_datetime: o.start, end_datetime: o.start + 7200, timezone: 'Europe/London',
    delivery: 'in-person' as const, address: null, spaces: 1000, available_spaces: 1000, parent_ref: null, individually_bookable: true,
  })))).execute();
  seeded = await seedBookings(w.server.db, target, 120, { seed: 7, prefix: 'BKG-L', now: w.now });
  // The other educator's bookings (same course ids cannot be theirs: a course of their own).
  await w.server.db.insertInto('courses').values({
    id: 'crs_list_other', educator_id: w.fx.otherEducatorId, slug: 'crs-list-other', name: 'Not yours', created_at: w.now, level: 'All',
    description: '', meta_description: null, keyword: null, category_id: null, type: 'class', delivery_modes: ['in-person'], currency: 'GBP',
    spaces: null, pricing_type: 'price-offers', minimum_price: null, maximum_price: null, form_ref: 'system_default', guest_form_ref: null,
    capture_guests: false, approval_required: false, restricted: false, img_urls: [], autoimg: null, address: null, lat: null, lng: null, faq_ids: [],
    sections: [], course_duration: 120, duration_pricing: [], date_requests: null, available_for_online_delivery: false,
    available_for_in_person_delivery: true, educator_travel_settings: { enabled: false, type: null }, student_travel_settings: { enabled: false, locations: [] },
    published: true,
  }).execute();
  await seedBookings(w.server.db, { educatorId: w.fx.otherEducatorId, courses: [{ id: 'crs_list_other', occurrences: [] }] }, 20, { seed: 9, prefix: 'BKG-O', now: w.now });
});
afterAll(async () => {
  await w?.server.close();
});

const list = async (query: string) => {
  return w.ownApi('GET', `/bookings${query ? `?${query}` : ''}`);
};

/** All pages of a listing, following the cursors. */
async function walk(query: string, limit = 7): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const q = new URLSearchParams(query);
    q.set('limit', String(limit));
    if (cursor) q.set('cursor', cursor);
    const res = await list(q.toString());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(...res.body.bookings.map((b: { id: string }) => b.id));
    cursor = res.body.nextCursor;
    pages++;
    expect(pages).toBeLessThan(200);
  } while (cursor);
  return { ids, pages };
}

function nameOf(b: SeededBooking): string {
  return `${b.first} ${b.last}`.toLowerCase();
}

/** The order a sort promises (rows without a value first ascending, last descending; ties by id). */
function expectedOrder(rows: SeededBooking[], sort: BookingSort): string[] {
  const { column, direction } = sortKey(sort);
  const value = (b: SeededBooking): string | number | null =>
    column === 'created_at' ? b.created_at : column === 'start_datetime' ? b.start_datetime : column === 'total_cost' ? b.total_cost : nameOf(b);
  const cmp = (a: SeededBooking, b: SeededBooking) => {
    const va = value(a);
    const vb = value(b);
    if (va === null && vb !== null) return -1;
    if (vb === null && va !== null) return 1;
    if (va !== null && vb !== null && va !== vb) return va < vb ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
  const sorted = [...rows].sort(cmp);
  return (direction === 'asc' ? sorted : sorted.reverse()).map((b) => b.id);
}

describe('who may see bookings', () => {
  it('refuses nobody, a learner and another educator\'s admin', async () => {
    const b = seeded[0]!;
    await expectGuarded(w.server, w.fx, 'GET', `/api/admin/educators/${educatorId}/bookings`);
    await expectGuarded(w.server, w.fx, 'GET', `/api/admin/educators/${educatorId}/bookings/filters`);
    await expectGuarded(w.server, w.fx, 'GET', `/api/admin/educators/${educatorId}/bookings/${b.id}`);
  });

  it('never shows another educator\'s bookings, and their ids answer 404 through this educator\'s URL', async () => {
    const { ids } = await walk('', 50);
    expect(ids).toHaveLength(120);
    expect(ids.some((id) => id.startsWith('BKG-O'))).toBe(false);
    expect((await w.ownApi('GET', '/bookings/BKG-O0000001')).status).toBe(404);
    expect((await w.otherApi('GET', `/bookings/${seeded[0]!.id}`)).status).toBe(404);
  });

  it('answers bad queries with a validation problem, and a stranger\'s cursor with the first page', async () => {
    for (const q of ['sort=price', 'limit=0', 'status=lost', 'from=yesterday', 'courseId=a%20b']) {
      const res = await list(q);
      expect(res.status, q).toBe(400);
      expect(res.body.type).toContain('validation-error');
    }
    const first = await list('limit=5');
    const junk = await list('limit=5&cursor=not-a-cursor');
    expect(junk.body.bookings.map((b: { id: string }) => b.id)).toEqual(first.body.bookings.map((b: { id: string }) => b.id));
  });
});

describe('sorting and paging', () => {
  for (const sort of BOOKING_SORTS) {
    it(`${sort}: every booking once, in order, page after page`, async () => {
      const { ids, pages } = await walk(`sort=${sort}`);
      expect(pages).toBe(Math.ceil(120 / 7));
      expect(ids).toEqual(expectedOrder(seeded, sort));
    });
  }

  it('pages a filtered, sorted list the same way', async () => {
    const { ids } = await walk('sort=start-asc&status=confirmed', 5);
    expect(ids).toEqual(expectedOrder(seeded.filter((b) => b.status === 'confirmed'), 'start-asc'));
  });
});

describe('filters', () => {
  const cases: [string, (b: SeededBooking) => boolean][] = [
    ['status=cancelled', (b) => b.status === 'cancelled'],
    ['status=awaiting-approval', (b) => b.status === 'awaiting-approval'],
    ['paymentMethod=paypal', (b) => b.payment_method === 'paypal'],
    ['paymentMethod=gift%20card', (b) => b.payment_method === 'gift card'],
    ['paymentStatus=unpaid', (b) => b.payment_state === 'unpaid'],
    ['paymentStatus=free', (b) => b.payment_state === 'free'],
    ['paymentStatus=refunded', (b) => b.refunded_total > 0],
    ['origin=embed', (b) => b.origin === 'embed'],
    ['origin=landing_page', (b) => b.origin === 'landing_page'],
    ['courseId=crs_list_b', (b) => b.course_id === 'crs_list_b'],
    ['occurrenceId=occ_list_1_2', (b) => b.occurrence_id === 'occ_list_1_2'],
    ['courseId=crs_list_a&status=confirmed&origin=marketplace', (b) => b.course_id === 'crs_list_a' && b.status === 'confirmed' && b.origin === 'marketplace'],
  ];
  for (const [query, keep] of cases) {
    it(query, async () => {
      const expected = seeded.filter(keep);
      expect(expected.length, 'the seed has some').toBeGreaterThan(0);
      const { ids } = await walk(query, 50);
      expect(ids.sort()).toEqual(expected.map((b) => b.id).sort());
    });
  }

  it('a date range keeps the bookings whose date starts inside it', async () => {
    const from = w.now + 2 * DAY;
    const to = w.now + 5 * DAY;
    const { ids } = await walk(`from=${from}&to=${to}`, 50);
    expect(ids.sort()).toEqual(seeded.filter((b) => b.start_datetime !== null && b.start_datetime >= from && b.start_datetime < to).map((b) => b.id).sort());
  });

  it('offers the educator\'s courses and the dates of one', async () => {
    const res = await w.ownApi('GET', '/bookings/filters?courseId=crs_list_b');
    expect(res.body.courses.map((c: { id: string }) => c.id)).toEqual(['crs_list_a', 'crs_list_b', 'crs_list_c']);
    expect(res.body.occurrences.map((o: { id: string }) => o.id)).toEqual(['occ_list_1_2', 'occ_list_1_1', 'occ_list_1_0']);
    const theirs = await w.ownApi('GET', '/bookings/filters?courseId=crs_list_other');
    expect(theirs.body.occurrences).toEqual([]);
  });
});

describe('search', () => {
  const cases: [string, (b: SeededBooking) => boolean][] = [
    ['grace', (b) => nameOf(b).startsWith('grace')],
    ['GRACE H', (b) => nameOf(b).startsWith('grace h')],
    ['hopper', (b) => b.last.toLowerCase().startsWith('hopper')],
    ['berners-l', (b) => b.last.toLowerCase().startsWith('berners-l')],
    ['  Ada   Lovelace ', (b) => nameOf(b) === 'ada lovelace'],
    ['alan.turing', (b) => b.email.startsWith('alan.turing')],
  ];
  for (const [q, keep] of cases) {
    it(`finds "${q}"`, async () => {
      const expected = seeded.filter(keep);
      const { ids } = await walk(`q=${encodeURIComponent(q)}`, 50);
      expect(ids.sort()).toEqual(expected.map((b) => b.id).sort());
    });
  }

  it('finds one learner by their whole e-mail address, and nobody by a stranger\'s', async () => {
    const one = seeded[17]!;
    expect((await walk(`q=${encodeURIComponent(one.email.toUpperCase())}`)).ids).toEqual([one.id]);
    expect((await walk('q=nobody%40nowhere.example')).ids).toEqual([]);
  });
});

describe('a booking\'s page', () => {
  it('shows the learner\'s answers, what was bought, the money, documents, e-mails and history', async () => {
    const date = await freshDate(w);
    const { cookie, user } = await signUpAndLogin(w.server, { firstName: 'Page', lastName: 'Turner' });
    const api = client(w.server, cookie);
    let res = await api.initialise('booking', { courseId: IDS.classCourse, occurrenceId: date.occurrenceId });
    const id = res.body._id;
    await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: date.offerId, quantity: 1 }], selectedAddons: [{ addonId: ADDONS.apron, quantity: 1 }], appliedPromoCode: 'TENOFF' });
    await api.submit(id, 'contact details filled', contactPayload(user.email, {
      bookerFormResponse: { system_first_name: 'Page', system_last_name: 'Turner', system_email: user.email, phone: '07700900123', notes: 'Left-handed' },
      marketingConsent: true,
    }));
    res = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    await payWithCard(w.server, res.body, CARDS.success);
    res = await api.submit(id, 'payment was successful', {});
    const bookingId = res.body.bookingId as string;
    await w.api('POST', `/bookings/${bookingId}/refunds`, { amount: 500, requestKey: requestKey(), expectedRefunds: 0, reason: 'Apron out of stock' });
    const page = await w.api('GET', `/bookings/${bookingId}`);
    expect(page.status).toBe(200);
    const d = page.body;
    expect(d.booking).toMatchObject({ id: bookingId, status: 'confirmed', origin: 'marketplace', spaces: 1, paymentMethod: 'card', paymentState: 'paid', paymentProvider: 'test', refundedTotal: 500 });
    expect(d.booking.learner).toMatchObject({ name: 'Page Turner', email: user.email });
    expect(d.booker.answers).toEqual(expect.arrayContaining([
      { field: 'phone', label: 'Phone', value: '07700900123' },
      { field: 'notes', label: 'Anything we should know?', value: 'Left-handed' },
    ]));
    expect(d.consent).toMatchObject({ marketing: true, termsAccepted: true });
    expect(d.booking.lines.offers[0]).toMatchObject({ name: 'Standard', quantity: 1, price: 3000 });
    expect(d.booking.lines.addOns[0]).toMatchObject({ name: 'Apron', quantity: 1, price: 500 });
    expect(d.voucher).toMatchObject({ code: 'TENOFF', kind: 'percent', amount: 10 });
    expect(d.payments).toEqual([expect.objectContaining({ provider: 'test', amount: 3150 })]);
    expect(d.refunds).toEqual([expect.objectContaining({ amount: 500, status: 'succeeded', reason: 'Apron out of stock' })]);
    expect(d.money).toMatchObject({ expectedRefunds: 1, left: { provider: 2650, giftCard: 0, total: 2650 } });
    expect(d.documents.invoiceNumber).toMatch(/^INV-/);
    const pdf = await fetch(d.documents.invoice.replace(/^http:\/\/localhost:4321/, w.server.url));
    expect(pdf.status).toBe(200);
    expect(d.emails.map((m: { tag: string }) => m.tag)).toEqual(expect.arrayContaining(['booking-confirmation', 'booking-educator-notification', 'booking-refund']));
    expect(d.history).toEqual([expect.objectContaining({ action: 'refund', by: expect.objectContaining({ name: 'Ada Admin' }) })]);
  });

  it('finds names beyond ASCII the same on both databases (A–Z fold, other letters keep their case)', async () => {
    const b = await book(w, { ...(await freshDate(w)), firstName: 'Émile', lastName: 'Øster' });
    for (const q of ['Émile', 'ÉMILE Ø', 'Øster', 'øster']) {
      const res = await w.api('GET', `/bookings?q=${encodeURIComponent(q)}`);
      const found = res.body.bookings.map((x: { id: string }) => x.id);
      if (q === 'øster') expect(found, q).toEqual([]);
      else expect(found, q).toEqual([b.bookingId]);
    }
    const row = await w.server.db.selectFrom('bookings').select(['learner_name', 'learner_last']).where('id', '=', b.bookingId).executeTakeFirstOrThrow();
    expect(row).toEqual({ learner_name: 'Émile Øster', learner_last: 'Øster' });
  });

  it('shows a booking that was made in the checkout at once in the list (its learner columns come from the triggers)', async () => {
    const b = await book(w, { ...(await freshDate(w)), firstName: 'Zebedee', lastName: 'Quill' });
    const res = await w.api('GET', '/bookings?q=zebedee');
    expect(res.body.bookings.map((x: { id: string }) => x.id)).toEqual([b.bookingId]);
    expect(res.body.bookings[0]).toMatchObject({ learner: { name: 'Zebedee Quill', email: b.email }, course: { id: IDS.classCourse }, totalCost: 3000 });
  });
});

describe('orders (on-demand courses)', () => {
  async function order(firstName: string, lastName: string): Promise<{ id: string; email: string }> {
    const { cookie, user } = await signUpAndLogin(w.server, { firstName, lastName });
    const api = client(w.server, cookie);
    let res = await api.initialise('order', { courseId: IDS.onDemand });
    const id = res.body._id;
    await api.submit(id, 'order pricing options picked', { selectedOffers: [{ offerId: OFFERS.onDemand, quantity: 1 }] });
    res = await api.submit(id, 'order contact details filled', contactPayload(user.email, {
      bookerFormResponse: { system_first_name: firstName, system_last_name: lastName, system_email: user.email },
    }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    res = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    await payWithCard(w.server, res.body, CARDS.success);
    res = await api.submit(id, 'payment was successful', {});
    expect(res.body.orderId, JSON.stringify(res.body)).toMatch(/^ORD-/);
    return { id: res.body.orderId, email: user.email };
  }

  it('lists the educator\'s orders with their filters, search and sorts, and shows one', async () => {
    const one = await order('Olive', 'Ordersome');
    // Times are whole seconds: the second order is made in a later one, so "oldest first" has one answer.
    await new Promise((ok) => setTimeout(ok, 1100));
    const two = await order('Oscar', 'Ordersome');
    await expectGuarded(w.server, w.fx, 'GET', `/api/admin/educators/${IDS.educator}/orders`);
    await expectGuarded(w.server, w.fx, 'GET', `/api/admin/educators/${IDS.educator}/orders/${one.id}`);
    const all = await w.api('GET', '/orders?sort=created-asc');
    expect(all.status).toBe(200);
    const ids = all.body.bookings.map((o: { id: string }) => o.id);
    expect(ids.indexOf(one.id)).toBeLessThan(ids.indexOf(two.id));
    expect((await w.api('GET', '/orders?q=oscar')).body.bookings.map((o: { id: string }) => o.id)).toEqual([two.id]);
    expect((await w.api('GET', '/orders?q=ordersome&sort=name-desc')).body.bookings.map((o: { id: string }) => o.id)).toEqual([two.id, one.id]);
    expect((await w.api('GET', '/orders?paymentStatus=unpaid&q=ordersome')).body.bookings).toEqual([]);
    // Bookings' filters are not orders'.
    expect((await w.api('GET', '/orders?status=cancelled')).body.bookings.length).toBeGreaterThan(0);
    expect((await w.api('GET', '/orders?sort=start-asc')).status).toBe(400);
    expect((await w.api('GET', '/orders?paymentStatus=refunded')).status).toBe(400);
    const page = await w.api('GET', `/orders/${one.id}`);
    expect(page.status).toBe(200);
    expect(page.body.order).toMatchObject({ id: one.id, paymentMethod: 'card', paymentState: 'paid', learner: { name: 'Olive Ordersome', email: one.email } });
    expect(page.body.payments).toEqual([expect.objectContaining({ provider: 'test', amount: 2000 })]);
    expect(page.body.documents.invoiceNumber).toMatch(/^INV-/);
    expect(page.body.emails.map((m: { tag: string }) => m.tag)).toContain('order-confirmation');
    // Not the other educator's, and not a booking.
    expect((await w.otherApi('GET', `/orders/${one.id}`)).status).toBe(404);
    expect((await w.api('GET', `/bookings/${one.id}`)).status).toBe(404);
    expect((await w.otherApi('GET', '/orders')).body.bookings).toEqual([]);
  });
});
