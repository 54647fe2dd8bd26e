/**
 * A price changed by the educator's admin while a learner is at Payment (docs/admin.md "Prices may change at any
 * time"): the learner is charged the total fixed on entering Payment, and the booking records that same price —
 * its lines (what the invoice lists item by item), its invoice and the amount charged agree, whether the price went
 * down or up meanwhile. Through the real server and the admin API, on SQLite and on PostgreSQL (TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ADMIN_ENV, adminCall, adminFixture, type AdminFixture } from '../helpers/admin.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { client, contactPayload, payWithCard, CARDS } from './checkout-fixtures.ts';
import { loadBookingView } from '../../db/queries/bookings.ts';
import { invoiceModel } from '../../api/documents/invoice.ts';

let server: TestServer;
let fx: AdminFixture;

beforeAll(async () => {
  server = await startTestServer({ ...ADMIN_ENV, RATE_LIMIT_LOGIN_PER_IP: '100000' });
  fx = await adminFixture(server, 'held');
}, 60_000);
afterAll(() => server?.close());

const call = (method: string, path: string, body?: unknown) =>
  adminCall(server, fx.admin.cookie, method, `/api/admin/educators/${fx.educatorId}${path}`, body);

/** A published course sold by one offer and one add-on, with one date a fortnight away. */
async function publishedCourse(): Promise<{ id: string; offerId: string; addOnId: string; occurrenceId: string }> {
  const created = await call('POST', '/courses', {
    name: 'Glaze Chemistry', slug: `glaze-${Math.random().toString(36).slice(2, 8)}`, type: 'class', delivery_modes: ['online'], spaces: 8,
    pricing_type: 'price-offers', description: '<p>Mix your own glazes.</p>',
    offers: [{ name: 'Standard', price: 4000, spaces: 1 }], add_ons: [{ name: 'Glaze kit', price: 1200 }],
  });
  expect(created.status, created.text).toBe(201);
  const course = created.json().course as { id: string; offers: { id: string }[]; add_ons: { id: string }[] };
  expect((await call('POST', `/courses/${course.id}/publish`, { revision: 1 })).status).toBe(200);
  const day = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  const dates = await call('POST', `/courses/${course.id}/dates`, { kind: 'single', date: day, startTime: '18:00', endTime: '20:00', delivery: 'online', spaces: 6 });
  expect(dates.status, dates.text).toBe(201);
  return { id: course.id, offerId: course.offers[0]!.id, addOnId: course.add_ons[0]!.id, occurrenceId: dates.json().dates[0].id };
}

describe('a price changed while a learner is at Payment', () => {
  for (const [change, offerPrice, addOnPrice] of [['lowered', 3000, 900], ['raised', 5500, 1500]] as const) {
    it(`${change}: the booking's lines, its invoice and the amount charged are all the price the learner was shown`, async () => {
      const course = await publishedCourse();
      const learner = await signUpAndLogin(server, { firstName: 'Pat', lastName: 'Payer' });
      const api = client(server, learner.cookie);
      const init = await api.initialise('booking', { courseId: course.id, occurrenceId: course.occurrenceId });
      expect(init.status, JSON.stringify(init.body)).toBe(201);
      const id = (init.body as { _id: string })._id;
      const picked = await api.submit(id, 'pricing options picked', {
        selectedOffers: [{ offerId: course.offerId, quantity: 2 }], selectedAddons: [{ addonId: course.addOnId, quantity: 1 }],
      });
      expect(picked.status, JSON.stringify(picked.body)).toBe(200);
      const atPayment = await api.submit(id, 'contact details filled', contactPayload(learner.user.email));
      // 2 × £40 + £12 (this educator absorbs the platform fee).
      expect(atPayment.body as { currentStep: string }).toMatchObject({ currentStep: 'payment', totalCost: 2 * 4000 + 1200 });
      const total = (atPayment.body as { totalCost: number }).totalCost;

      // The admin changes both prices through the admin API while the learner pays.
      const editable = (await call('GET', `/courses/${course.id}`)).json().course as Record<string, any>;
      const saved = await call('PUT', `/courses/${course.id}`, {
        ...editable,
        offers: [{ ...editable.offers[0], price: offerPrice }],
        add_ons: [{ ...editable.add_ons[0], price: addOnPrice }],
      });
      expect(saved.status, saved.text).toBe(200);

      const method = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
      expect(method.status, JSON.stringify(method.body)).toBe(200);
      expect((await payWithCard(server, method.body as never, CARDS.success)).status).toBe(200);
      const done = await api.submit(id, 'payment was successful', {});
      expect(done.status, JSON.stringify(done.body)).toBe(200);

      const charged = await server.db.selectFrom('checkout_payments').select('amount').where('checkout_id', '=', id).execute();
      expect(charged.map((p) => Number(p.amount))).toEqual([total]);
      const booking = await server.db.selectFrom('bookings').select(['id', 'total_cost', 'lines']).where('checkout_id', '=', id).executeTakeFirstOrThrow();
      expect(Number(booking.total_cost)).toBe(total);
      const lines = booking.lines as { offers: { offerId: string; price: number; quantity: number }[]; addOns: { addonId: string; price: number; quantity: number }[] };
      expect(lines.offers.map((l) => [l.offerId, l.price, l.quantity])).toEqual([[course.offerId, 4000, 2]]);
      expect(lines.addOns.map((l) => [l.addonId, l.price, l.quantity])).toEqual([[course.addOnId, 1200, 1]]);

      // The invoice lists the held prices, and its items and adjustments add up to what was charged.
      const view = await loadBookingView(server.db, booking.id);
      const invoice = invoiceModel(view!, { invoice_number: 'INV-TEST', issued_at: Math.floor(Date.now() / 1000) });
      expect(invoice.items.map((i) => [i.description, i.quantity, i.unitPrice, i.amount])).toEqual([
        ['Standard', 2, 4000, 8000], ['Glaze kit', 1, 1200, 1200],
      ]);
      const adjustments = invoice.adjustments.reduce((sum, i) => sum + i.amount, 0);
      expect(invoice.items.reduce((sum, i) => sum + i.amount, 0) + adjustments).toBe(total);
      expect(invoice.total).toBe(total);

      // A learner who starts now is shown the new prices.
      const next = await signUpAndLogin(server, { firstName: 'Nia', lastName: 'Next' });
      const api2 = client(server, next.cookie);
      const id2 = ((await api2.initialise('booking', { courseId: course.id, occurrenceId: course.occurrenceId })).body as { _id: string })._id;
      await api2.submit(id2, 'pricing options picked', { selectedOffers: [{ offerId: course.offerId, quantity: 2 }], selectedAddons: [{ addonId: course.addOnId, quantity: 1 }] });
      const later = (await api2.submit(id2, 'contact details filled', contactPayload(next.user.email))).body as { costSummary?: { subtotal: number } };
      expect(later.costSummary?.subtotal).toBe(2 * offerPrice + addOnPrice);
    });
  }
});
