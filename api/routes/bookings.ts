/**
 * The outcomes of the checkout as the learner sees them (spec 2.15, 7 "Links"):
 *   GET /api/bookings/mine → {bookings[], orders[], requests[], applications[]} (the signed-in learner's, newest first; for /profile)
 *   GET /api/bookings/{bookingId} → the booking (owner only)
 *   GET /api/bookings/{bookingId}/ical → text/calendar ("Add to Calendar")
 *   GET /api/booking/{bookingId}/invoice, GET /api/order/{orderId}/invoice → application/pdf (invoice, or receipt when paid)
 * Documents open for the owner, or with the signed `token` the confirmation state hands out (an embed has no cookies).
 */
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { verifyDocumentToken } from '../checkout/ids.ts';
import { bookingCalendar } from '../documents/ical.ts';
import { renderInvoicePdf, type InvoiceLine } from '../documents/invoice.ts';
import { listLearnerOutcomes } from '../../db/queries/checkout-outcomes.ts';
import { locationText } from '../../src/domain/locations.ts';

function allowed(c: Context<AppEnv>, kind: string, id: string, userId: string): boolean {
  const user = c.var.user;
  if (user && user.id === userId) return true;
  return verifyDocumentToken(c.var.deps.config.APP_SECRET, kind, id, c.req.query('token'));
}

function notFound(): never {
  throw new ProblemError(problems.notFound('No such booking'));
}

interface StoredLines {
  offers?: { name: string; quantity: number; price: number | null }[];
  addOns?: { name: string; quantity: number; price: number | null }[];
  extras?: { label: string; cost: number; quantity: number }[];
}

function invoiceLines(stored: StoredLines, summary: Record<string, unknown> | null): InvoiceLine[] {
  const lines: InvoiceLine[] = [];
  for (const o of stored.offers ?? []) lines.push({ text: `${o.name} × ${o.quantity}`, amount: (o.price ?? 0) * o.quantity });
  for (const a of stored.addOns ?? []) lines.push({ text: `${a.name} × ${a.quantity}`, amount: (a.price ?? 0) * a.quantity });
  for (const e of stored.extras ?? []) lines.push({ text: `${e.label} × ${e.quantity}`, amount: e.cost * e.quantity });
  const items = (summary?.summary_items ?? {}) as Record<string, { text: string; value: number }[]>;
  for (const key of ['discountSummary', 'voucherSummary', 'vatSummary']) for (const item of items[key] ?? []) lines.push({ text: item.text, amount: item.value });
  if (summary && !summary.fees_absorbed && Number(summary.platform_fee) > 0) lines.push({ text: 'Fees', amount: Number(summary.platform_fee) });
  return lines;
}

export function bookingsRoutes() {
  const app = new Hono<AppEnv>();
  const db = (c: Context<AppEnv>) => c.var.deps.db;

  app.get('/bookings/mine', async (c) => {
    const user = c.var.user;
    if (!user) throw new ProblemError(problems.unknownUser());
    c.header('cache-control', 'no-store');
    return c.json(await listLearnerOutcomes(db(c), user.id));
  });

  app.get('/bookings/:bookingId/ical', async (c) => {
    const id = c.req.param('bookingId');
    const b = await db(c)
      .selectFrom('bookings')
      .innerJoin('courses', 'courses.id', 'bookings.course_id')
      .innerJoin('educators', 'educators.id', 'bookings.educator_id')
      .leftJoin('occurrences', 'occurrences.id', 'bookings.occurrence_id')
      .select(['bookings.id', 'bookings.user_id', 'bookings.start_datetime', 'bookings.end_datetime', 'bookings.created_at',
        'courses.name as course_name', 'educators.name as educator_name', 'occurrences.address', 'occurrences.delivery'])
      .where('bookings.id', '=', id)
      .executeTakeFirst();
    if (!b || !allowed(c, 'booking', b.id, b.user_id) || b.start_datetime === null || b.end_datetime === null) notFound();
    const body = bookingCalendar({
      id: b.id, courseName: b.course_name, educatorName: b.educator_name, start: Number(b.start_datetime), end: Number(b.end_datetime),
      location: b.delivery === 'online' ? 'Online' : locationText(b.address) || null, createdAt: Number(b.created_at),
    });
    return new Response(body, {
      headers: { 'content-type': 'text/calendar; charset=utf-8', 'content-disposition': `attachment; filename="${b.id}.ics"`, 'cache-control': 'no-store' },
    });
  });

  app.get('/bookings/:bookingId', async (c) => {
    const user = c.var.user;
    const b = await db(c).selectFrom('bookings').selectAll().where('id', '=', c.req.param('bookingId')).executeTakeFirst();
    if (!b || !user || b.user_id !== user.id) notFound();
    c.header('cache-control', 'no-store');
    return c.json({ ...b, reference: b.id });
  });

  const invoice = (kind: 'booking' | 'order') => async (c: Context<AppEnv>) => {
    const id = c.req.param(kind === 'booking' ? 'bookingId' : 'orderId') ?? '';
    const table = kind === 'booking' ? 'bookings' : 'orders';
    const row = await db(c)
      .selectFrom(table)
      .innerJoin('courses', 'courses.id', `${table}.course_id`)
      .innerJoin('educators', 'educators.id', `${table}.educator_id`)
      .select([`${table}.id as id`, `${table}.user_id as user_id`, `${table}.lines as lines`, `${table}.details as details`,
        `${table}.total_cost as total_cost`, `${table}.currency as currency`, `${table}.created_at as created_at`,
        `${table}.payment_state as payment_state`, `${table}.payment_method as payment_method`, `${table}.due_date as due_date`,
        `${table}.invoice_details as invoice_details`, `${table}.manual_note as manual_note`, `${table}.contact_details as contact_details`,
        'courses.name as course_name', 'educators.name as educator_name'])
      .where(`${table}.id`, '=', id)
      .executeTakeFirst();
    if (!row || !allowed(c, kind, row.id, row.user_id) || Number(row.total_cost) <= 0) notFound();
    const details = (row.details ?? {}) as { costSummary?: Record<string, unknown> | null };
    const invoiceDetails = (row.invoice_details ?? null) as Record<string, string | null> | null;
    const booker = ((row.contact_details as { booker?: { formResponse?: Record<string, unknown> } })?.booker?.formResponse ?? {}) as Record<string, unknown>;
    const billTo = invoiceDetails
      ? [invoiceDetails.billing_name, invoiceDetails.billing_address, invoiceDetails.billing_email, invoiceDetails.vat_number ? `VAT: ${invoiceDetails.vat_number}` : null, invoiceDetails.recipient_instructions].filter((v): v is string => !!v)
      : [[booker.system_first_name, booker.system_last_name].filter(Boolean).join(' '), String(booker.system_email ?? '')].filter(Boolean);
    const pdf = await renderInvoicePdf({
      kind: row.payment_state === 'paid' ? 'Receipt' : 'Invoice',
      reference: row.id,
      issuedAt: Number(row.created_at),
      dueDate: row.payment_method === 'invoice' ? Number(row.due_date) : null,
      educatorName: row.educator_name,
      courseName: row.course_name,
      billTo,
      lines: invoiceLines(row.lines as StoredLines, details.costSummary ?? null),
      total: Number(row.total_cost),
      currency: row.currency,
      vatAmount: details.costSummary ? Number(details.costSummary.vat_amount ?? 0) : null,
      note: row.payment_state === 'paid' ? 'Paid with thanks.' : row.manual_note,
    });
    return new Response(new Uint8Array(pdf), {
      headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${row.id}.pdf"`, 'cache-control': 'no-store' },
    });
  };
  app.get('/booking/:bookingId/invoice', invoice('booking'));
  app.get('/order/:orderId/invoice', invoice('order'));
  return app;
}
