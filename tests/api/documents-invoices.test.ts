/**
 * Invoices and receipts through the real server: bookings and orders completed with the
 * checkout engine, then GET /api/booking/{id}/invoice and /api/order/{id}/invoice. The PDF's text is read
 * back by inflating its content streams and decoding the TJ strings (standard fonts, WinAnsi).
 */
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import {
  ADDONS, CARDS, IDS, OFFERS, booker, client, contactPayload, payWithCard, problemType, seedCheckoutCatalogue, type Client,
} from './checkout-fixtures.ts';
import { formatInvoiceNumber, issueInvoiceNumber, issueNewInvoiceNumber, issueNewInvoiceNumberUnread } from '../../api/documents/numbering.ts';
import { renderInvoicePdf } from '../../api/documents/invoice.ts';

let server: TestServer;
let now: number;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_LOGIN_PER_IP: '100000', LOG_LEVEL: 'silent', OUTBOX_DIR: '' });
  now = Math.floor(Date.now() / 1000);
  await seedCheckoutCatalogue(server.db, now);
  // The VAT educator: a phone number and a VAT registration number on its documents.
  await server.db.updateTable('educators')
    .set({ phone_number: '0117 496 0000', vat_settings: { enabled: true, is_vat_absorbed: false, tax_label: 'VAT', rate_bp: 2000, vat_number: 'GB999999973' } as never })
    .where('id', '=', IDS.educatorVat).execute();
});
afterAll(async () => server?.close());

// ---------------------------------------------------------------------------------------------
// Reading a PDF's text

const WIN_ANSI_80: Record<number, string> = {
  0x80: '€', 0x82: '‚', 0x83: 'ƒ', 0x84: '„', 0x85: '…', 0x86: '†', 0x87: '‡', 0x88: 'ˆ', 0x89: '‰', 0x8a: 'Š', 0x8b: '‹', 0x8c: 'Œ',
  0x8e: 'Ž', 0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x95: '•', 0x96: '–', 0x97: '—', 0x98: '˜', 0x99: '™', 0x9a: 'š', 0x9b: '›',
  0x9c: 'œ', 0x9e: 'ž', 0x9f: 'Ÿ',
};

function decodeHex(hex: string): string {
  let out = '';
  for (let i = 0; i + 1 < hex.length; i += 2) {
    const byte = Number.parseInt(hex.slice(i, i + 2), 16);
    out += WIN_ANSI_80[byte] ?? String.fromCharCode(byte);
  }
  return out;
}

/** The text runs of every content stream, one string per TJ operator (kerning gaps joined). */
function pdfTextRuns(pdf: Buffer): string[] {
  const raw = pdf.toString('latin1');
  const runs: string[] = [];
  const header = /<<([^]*?)>>\s*stream\r?\n/g;
  let match: RegExpExecArray | null;
  while ((match = header.exec(raw))) {
    const length = Number(/\/Length (\d+)/.exec(match[1])?.[1] ?? -1);
    if (length < 0) continue;
    const start = match.index + match[0].length;
    let bytes = pdf.subarray(start, start + length);
    if (/\/FlateDecode/.test(match[1])) {
      try {
        bytes = inflateSync(bytes);
      } catch {
        continue;
      }
    }
    const content = bytes.toString('latin1');
    for (const tj of content.matchAll(/\[((?:<[0-9a-fA-F]*>|[-\d.\s])*)\]\s*TJ/g)) {
      runs.push([...tj[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => decodeHex(h[1])).join(''));
    }
  }
  return runs;
}

async function download(path: string, cookie = ''): Promise<{ status: number; type: string | null; pdf: Buffer; text: string; runs: string[]; json: any }> {
  const res = await fetch(`${server.url}${path}`, { headers: cookie ? { cookie } : {} });
  const pdf = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type');
  const isPdf = type === 'application/pdf';
  const runs = isPdf ? pdfTextRuns(pdf) : [];
  return { status: res.status, type, pdf, runs, text: runs.join('\n'), json: isPdf ? null : JSON.parse(pdf.toString('utf8') || 'null') };
}

function invoiceNumberIn(text: string): string {
  const m = /number: (INV-\d{6,})/.exec(text);
  if (!m) throw new Error(`no invoice number in:\n${text}`);
  return m[1];
}

// ---------------------------------------------------------------------------------------------
// Completing bookings and orders with the engine

interface Learner {
  api: Client;
  cookie: string;
  email: string;
}

async function learner(): Promise<Learner> {
  const { cookie, user } = await signUpAndLogin(server, { firstName: 'Ada', lastName: 'Lovelace' });
  return { api: client(server, cookie), cookie, email: user.email };
}

type Pay = { method: 'card' } | { method: 'invoice'; details: Record<string, string> } | { method: 'manual' } | { method: 'free' };

async function book(who: Learner, input: {
  courseId: string; occurrenceId: string; offers: { offerId: string; quantity: number }[]; addOns?: { addonId: string; quantity: number }[];
  promo?: string; pay: Pay;
}): Promise<any> {
  const { api, email } = who;
  let res = await api.initialise('booking', { courseId: input.courseId, occurrenceId: input.occurrenceId });
  expect(res.status).toBe(201);
  const id = res.body._id;
  res = await api.submit(id, 'pricing options picked', { selectedOffers: input.offers, selectedAddons: input.addOns ?? [], appliedPromoCode: input.promo });
  expect(res.status).toBe(200);
  res = await api.submit(id, 'contact details filled', contactPayload(email, { bookerFormResponse: booker(email, { phone: '07700900123' }) }));
  expect(res.status).toBe(200);
  if (input.pay.method === 'free') return res.body;
  if (input.pay.method === 'invoice') res = await api.submit(id, 'invoice details added', input.pay.details);
  else if (input.pay.method === 'manual') res = await api.submit(id, 'manual payment confirmed', {});
  else {
    res = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    expect(res.status).toBe(200);
    const paid = await payWithCard(server, res.body, CARDS.success);
    expect(paid.status).toBe(200);
    res = await api.submit(id, 'payment was successful', {});
  }
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('completed');
  return res.body;
}

// ---------------------------------------------------------------------------------------------

describe('receipt of a paid booking', () => {
  it('is a PDF with the number, the educator, the buyer, the lines and the total; the same number on every download', async () => {
    const ada = await learner();
    const state = await book(ada, {
      courseId: IDS.classCourse, occurrenceId: IDS.classOcc, offers: [{ offerId: OFFERS.standard, quantity: 2 }],
      addOns: [{ addonId: ADDONS.apron, quantity: 1 }], promo: 'FIVER', pay: { method: 'card' },
    });
    const bookingId = state.bookingId as string;
    const doc = await download(`/api/booking/${bookingId}/invoice`, ada.cookie);
    expect(doc.status).toBe(200);
    expect(doc.type).toBe('application/pdf');
    expect(doc.pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const number = invoiceNumberIn(doc.text);
    expect(number).toMatch(/^INV-\d{6}$/);
    const runs = doc.runs;
    expect(runs).toContain('Receipt');
    expect(runs).toContain(`Booking reference: ${bookingId}`);
    // The educator.
    expect(runs).toContain('Clay Studio');
    expect(runs).toContain('1 High Street');
    expect(runs).toContain('BS1 1AA');
    expect(runs).toContain('Email: clay-studio@example.com');
    // The buyer.
    expect(runs).toContain('Ada Lovelace');
    expect(runs).toContain(ada.email);
    // The course and its date in Europe/London.
    expect(runs).toContain('Course crs_class');
    expect(runs).toContain('2 spaces');
    // Lines: offer × quantity, add-on, the voucher as a negative amount.
    expect(doc.text).toMatch(/Standard\n× 2\n£30\.00\n£60\.00/);
    expect(doc.text).toMatch(/Apron\n× 1\n£5\.00\n£5\.00/);
    expect(doc.text).toMatch(/Subtotal\n£65\.00/);
    expect(doc.text).toMatch(/Voucher FIVER\n-£5\.00/);
    expect(doc.text).toMatch(/Total\n£60\.00/);
    expect(doc.text).toMatch(/Paid: £60\.00 by Card on /);
    expect(doc.text).not.toContain('Fees');
    expect(doc.text).toContain('Issue date: ');

    // The confirmation's signed link opens it without a session, with the same number.
    const signed = await download(state.outcome.links.invoice);
    expect(signed.status).toBe(200);
    expect(invoiceNumberIn(signed.text)).toBe(number);
    const again = await download(`/api/booking/${bookingId}/invoice`, ada.cookie);
    expect(invoiceNumberIn(again.text)).toBe(number);
    const stored = await server.db.selectFrom('invoice_documents').selectAll().where('outcome_id', '=', bookingId).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ outcome_kind: 'booking', educator_id: IDS.educator, invoice_number: number });
  });

  it('numbers follow each other across bookings of the same educator, from the booking itself', async () => {
    const ada = await learner();
    const first = await book(ada, { courseId: IDS.classCourse, occurrenceId: IDS.classOcc, offers: [{ offerId: OFFERS.standard, quantity: 1 }], pay: { method: 'card' } });
    const second = await book(ada, { courseId: IDS.classCourse, occurrenceId: IDS.classOcc, offers: [{ offerId: OFFERS.standard, quantity: 1 }], pay: { method: 'manual' } });
    // The number is issued with the booking, before anyone downloads anything.
    const rows = await server.db.selectFrom('invoice_documents').selectAll().where('outcome_id', 'in', [first.bookingId, second.bookingId]).execute();
    const seq = (id: string) => Number(rows.find((r) => r.outcome_id === id)!.seq);
    expect(seq(second.bookingId)).toBe(seq(first.bookingId) + 1);
    // Downloading in the other order changes nothing.
    const b = await download(`/api/booking/${second.bookingId}/invoice`, ada.cookie);
    const a = await download(`/api/booking/${first.bookingId}/invoice`, ada.cookie);
    expect(Number(invoiceNumberIn(b.text).slice(4))).toBe(Number(invoiceNumberIn(a.text).slice(4)) + 1);
    // In-person payment: an "Invoice" with what is due and how.
    expect(b.runs).toContain('Invoice');
    expect(b.text).toContain('Amount due: £30.00');
    expect(b.text).toContain('Bring cash on the day.');
  });

  it('a document recorded without a number gets one on its first download, once, even when downloads race', async () => {
    const ada = await learner();
    const state = await book(ada, { courseId: IDS.classCourse, occurrenceId: IDS.classOcc, offers: [{ offerId: OFFERS.standard, quantity: 1 }], pay: { method: 'card' } });
    await server.db.deleteFrom('invoice_documents').where('outcome_id', '=', state.bookingId).execute();
    const before = await server.db.selectFrom('document_counters').select('value').where('scope', '=', `invoice:${IDS.educator}`).executeTakeFirstOrThrow();
    const docs = await Promise.all(Array.from({ length: 8 }, () => download(`/api/booking/${state.bookingId}/invoice`, ada.cookie)));
    expect(docs.map((d) => d.status)).toEqual(Array(8).fill(200));
    const numbers = new Set(docs.map((d) => invoiceNumberIn(d.text)));
    expect(numbers.size).toBe(1);
    const after = await server.db.selectFrom('document_counters').select('value').where('scope', '=', `invoice:${IDS.educator}`).executeTakeFirstOrThrow();
    expect(Number(after.value)).toBe(Number(before.value) + 1);
    expect([...numbers][0]).toBe(`INV-${String(after.value).padStart(6, '0')}`);
  });

  it('concurrent issues give distinct, consecutive numbers (no gaps, no duplicates)', async () => {
    const educatorId = IDS.educatorVat;
    const scope = `invoice:${educatorId}`;
    const start = Number((await server.db.selectFrom('document_counters').select('value').where('scope', '=', scope).executeTakeFirst())?.value ?? 0);
    const ids = Array.from({ length: 12 }, (_, i) => `BKG-RACE${i}`);
    // Each id twice, all at once: every id gets one number.
    const issued = await Promise.all([...ids, ...ids].map((id) => server.db.transaction().execute((tx) =>
      issueInvoiceNumber(tx, server.testDb.dialect, { kind: 'booking', outcomeId: id, educatorId, issuedAt: now, now }))));
    const byId = new Map<string, number>();
    for (const doc of issued) {
      const seen = byId.get(doc.outcome_id);
      if (seen !== undefined) expect(Number(doc.seq)).toBe(seen);
      byId.set(doc.outcome_id, Number(doc.seq));
    }
    expect([...byId.values()].sort((a, b) => a - b)).toEqual(ids.map((_, i) => start + i + 1));
    await server.db.deleteFrom('invoice_documents').where('outcome_id', 'in', ids).execute();
  });

  it('numbers issued for new outcomes (one upsert) and on first downloads, all at once, stay consecutive; a rollback leaves no gap', async () => {
    const educatorId = IDS.educatorVat;
    const scope = `invoice:${educatorId}`;
    const start = Number((await server.db.selectFrom('document_counters').select('value').where('scope', '=', scope).executeTakeFirst())?.value ?? 0);
    const fresh = Array.from({ length: 10 }, (_, i) => `BKG-NEW${i}`);
    const lazy = Array.from({ length: 6 }, (_, i) => `BKG-LAZY${i}`);
    const failed = server.db.transaction().execute(async (tx) => {
      await issueNewInvoiceNumber(tx, { kind: 'booking', outcomeId: 'BKG-ROLLED-BACK', educatorId, issuedAt: now, now });
      throw new Error('the outcome could not be recorded');
    });
    const issued = await Promise.all([
      ...fresh.map((id) => server.db.transaction().execute((tx) => issueNewInvoiceNumber(tx, { kind: 'booking', outcomeId: id, educatorId, issuedAt: now, now }))),
      ...lazy.map((id) => server.db.transaction().execute((tx) => issueInvoiceNumber(tx, server.testDb.dialect, { kind: 'booking', outcomeId: id, educatorId, issuedAt: now, now }))),
      failed.then(() => null, () => null),
    ]);
    const seqs = issued.flatMap((doc) => (doc ? [Number(doc.seq)] : [])).sort((a, b) => a - b);
    expect(seqs).toEqual([...fresh, ...lazy].map((_, i) => start + i + 1));
    const counter = await server.db.selectFrom('document_counters').select('value').where('scope', '=', scope).executeTakeFirstOrThrow();
    expect(Number(counter.value)).toBe(start + fresh.length + lazy.length);
    expect(await server.db.selectFrom('invoice_documents').select('seq').where('outcome_id', '=', 'BKG-ROLLED-BACK').executeTakeFirst()).toBeUndefined();
    await server.db.deleteFrom('invoice_documents').where('outcome_id', 'in', [...fresh, ...lazy]).execute();
  });

  it('numbers a new educator’s first document 1 (the counter is created by the same upsert)', async () => {
    const educatorId = 'edu_first_invoice';
    const model = await server.db.selectFrom('educators').selectAll().where('id', '=', IDS.educator).executeTakeFirstOrThrow();
    await server.db.insertInto('educators').values({ ...model, id: educatorId, slug: 'first-invoice' }).execute();
    const doc = await server.db.transaction().execute((tx) => issueNewInvoiceNumber(tx, { kind: 'order', outcomeId: 'ORD-FIRST', educatorId, issuedAt: now, now }));
    expect(doc.invoice_number).toBe('INV-000001');
    await server.db.deleteFrom('invoice_documents').where('outcome_id', '=', 'ORD-FIRST').execute();
  });
});

describe('numbers issued where the transaction does not read them (a checkout\u2019s outcome)', () => {
  it('follow on from the counter in the same format, past six digits, and a rollback leaves no gap', async () => {
    const educatorId = 'edu_unread_numbers';
    const model = await server.db.selectFrom('educators').selectAll().where('id', '=', IDS.educator).executeTakeFirstOrThrow();
    await server.db.insertInto('educators').values({ ...model, id: educatorId, slug: 'unread-numbers' }).execute();
    const issue = (outcomeId: string, fail = false) => server.db.transaction().execute(async (tx) => {
      await issueNewInvoiceNumberUnread(tx, server.testDb.dialect, { kind: 'booking', outcomeId, educatorId, issuedAt: now, now });
      if (fail) throw new Error('the outcome could not be recorded');
    });
    await issue('BKG-UNREAD-1');
    await server.db.updateTable('document_counters').set({ value: 999_998 }).where('scope', '=', `invoice:${educatorId}`).execute();
    await issue('BKG-UNREAD-2');
    await expect(issue('BKG-UNREAD-ROLLED-BACK', true)).rejects.toThrow('could not be recorded');
    await issue('BKG-UNREAD-3');
    const docs = await server.db.selectFrom('invoice_documents').select(['outcome_id', 'seq', 'invoice_number'])
      .where('educator_id', '=', educatorId).orderBy('seq').execute();
    expect(docs.map((d) => [d.outcome_id, Number(d.seq), d.invoice_number])).toEqual([
      ['BKG-UNREAD-1', 1, formatInvoiceNumber(1)],
      ['BKG-UNREAD-2', 999_999, 'INV-999999'],
      ['BKG-UNREAD-3', 1_000_000, formatInvoiceNumber(1_000_000)],
    ]);
    expect(formatInvoiceNumber(1)).toBe('INV-000001');
    expect(formatInvoiceNumber(1_000_000)).toBe('INV-1000000');
  });
});

describe('invoice paid by invoice', () => {
  it('is an "Invoice" billed to the billing details, with the due date', async () => {
    const ada = await learner();
    const state = await book(ada, {
      courseId: IDS.classCourse, occurrenceId: IDS.classOcc, offers: [{ offerId: OFFERS.pair, quantity: 1 }],
      pay: {
        method: 'invoice',
        details: {
          billing_name: 'Acme Ltd', billing_address: '1 Road\nBristol BS2 2BB', billing_email: 'accounts@acme.example', vat_number: 'GB123456789',
          recipient_instructions: 'PO 4471', invoice_ref: 'ACME-77',
        },
      },
    });
    const doc = await download(`/api/booking/${state.bookingId}/invoice`, ada.cookie);
    expect(doc.status).toBe(200);
    expect(doc.runs[0]).toBe('Invoice');
    expect(doc.runs).toContain('Bill to');
    for (const line of ['Acme Ltd', '1 Road', 'Bristol BS2 2BB', 'accounts@acme.example', 'VAT number: GB123456789', 'Your reference: ACME-77', 'Instructions / PO: PO 4471']) {
      expect(doc.runs).toContain(line);
    }
    // The booker too.
    expect(doc.runs).toContain('Booked by');
    expect(doc.runs).toContain('Ada Lovelace');
    const due = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'Europe/London' }).format(new Date(state.outcome.dueDate * 1000));
    expect(doc.runs).toContain(`Due date: ${due}`);
    expect(doc.text).toMatch(/Pair\n× 1\n£50\.00\n£50\.00/);
    expect(doc.text).toMatch(/Total\n£50\.00/);
    expect(doc.text).toContain('Amount due: £50.00');
  });
});

describe('VAT and fees', () => {
  it('added VAT is a line, a fee that is not absorbed is a line, and the educator shows its VAT number', async () => {
    const ada = await learner();
    const state = await book(ada, { courseId: IDS.vatCourse, occurrenceId: IDS.vatOcc, offers: [{ offerId: OFFERS.vat, quantity: 1 }], pay: { method: 'card' } });
    // £100 + VAT 20% £20 + fee (2.5% of £120 + 30p = £3.30) = £123.30
    expect(state.outcome.totalCost).toBe(12330);
    const doc = await download(`/api/booking/${state.bookingId}/invoice`, ada.cookie);
    expect(doc.runs).toContain('VAT Academy');
    expect(doc.runs).toContain('Phone: 0117 496 0000');
    expect(doc.runs).toContain('VAT number: GB999999973');
    expect(doc.text).toMatch(/Workshop\n× 1\n£100\.00\n£100\.00/);
    expect(doc.text).toMatch(/VAT \(20%\)\n£20\.00/);
    expect(doc.text).toMatch(/Fees\n£3\.30/);
    expect(doc.text).toMatch(/Total\n£123\.30/);
    expect(doc.text).not.toContain('Includes VAT');
  });

  it('absorbed VAT: "Includes VAT of £x" under the total, no VAT line', async () => {
    await server.db.updateTable('educators')
      .set({ vat_settings: { enabled: true, is_vat_absorbed: true, tax_label: 'VAT', rate_bp: 2000, vat_number: 'GB999999973' } as never })
      .where('id', '=', IDS.educatorVat).execute();
    try {
      const ada = await learner();
      const state = await book(ada, { courseId: IDS.vatCourse, occurrenceId: IDS.vatOcc, offers: [{ offerId: OFFERS.vat, quantity: 1 }], pay: { method: 'card' } });
      // £100 including VAT of £16.67; fee 2.5% of £100 + 30p = £2.80 → £102.80
      expect(state.outcome.totalCost).toBe(10280);
      const doc = await download(`/api/booking/${state.bookingId}/invoice`, ada.cookie);
      expect(doc.runs).toContain('Includes VAT of £16.67');
      expect(doc.text).not.toMatch(/VAT \(20%\)/);
      expect(doc.text).toMatch(/Total\n£102\.80/);
    } finally {
      await server.db.updateTable('educators')
        .set({ vat_settings: { enabled: true, is_vat_absorbed: false, tax_label: 'VAT', rate_bp: 2000, vat_number: 'GB999999973' } as never })
        .where('id', '=', IDS.educatorVat).execute();
    }
  });
});

describe('order receipt', () => {
  it('GET /api/order/{id}/invoice: the offers, add-ons and voucher of the order', async () => {
    const ada = await learner();
    let res = await ada.api.initialise('order', { courseId: IDS.onDemand });
    const id = res.body._id;
    await ada.api.submit(id, 'order pricing options picked', {
      selectedOffers: [{ offerId: OFFERS.onDemand, quantity: 1 }], selectedAddons: [{ addonId: ADDONS.notes, quantity: 1 }], appliedPromoCode: 'tenoff',
    });
    await ada.api.submit(id, 'order contact details filled', contactPayload(ada.email));
    await ada.api.submit(id, 'payment method selected', { paymentMethod: 'paypal' });
    res = await ada.api.submit(id, 'payment was successful', {});
    expect(res.status).toBe(200);
    const orderId = res.body.orderId as string;
    const doc = await download(`/api/order/${orderId}/invoice`, ada.cookie);
    expect(doc.status).toBe(200);
    expect(doc.runs).toContain('Receipt');
    expect(doc.runs).toContain(`Order reference: ${orderId}`);
    expect(doc.runs).toContain('On-demand online course');
    expect(doc.text).toMatch(/Lifetime access\n× 1\n£20\.00\n£20\.00/);
    expect(doc.text).toMatch(/Printed notes\n× 1\n£8\.00\n£8\.00/);
    expect(doc.text).toMatch(/Voucher TENOFF\n-£2\.80/);
    expect(doc.text).toMatch(/Total\n£25\.20/);
    expect(doc.text).toContain('Paid: £25.20 by PayPal');
    // Orders and bookings of an educator share its sequence.
    const row = await server.db.selectFrom('invoice_documents').selectAll().where('outcome_kind', '=', 'order').where('outcome_id', '=', orderId).executeTakeFirstOrThrow();
    expect(row.invoice_number).toBe(invoiceNumberIn(doc.text));
  });
});

describe('refusals', () => {
  it('a free booking has no document (spec 2.15 hides the button) and no number', async () => {
    const ada = await learner();
    const state = await book(ada, { courseId: IDS.freeCourse, occurrenceId: IDS.freeOcc, offers: [{ offerId: OFFERS.free, quantity: 1 }], pay: { method: 'free' } });
    expect(state.bookingId).toMatch(/^BKG-/);
    const doc = await download(`/api/booking/${state.bookingId}/invoice`, ada.cookie);
    expect(doc.status).toBe(404);
    expect(problemType(doc.json)).toBe('documents/no-document');
    expect(doc.json.title).toBe('No Invoice or Receipt');
    const rows = await server.db.selectFrom('invoice_documents').selectAll().where('outcome_id', '=', state.bookingId).execute();
    expect(rows).toHaveLength(0);
  });

  it('another learner, a forged token, or nobody: 404', async () => {
    const ada = await learner();
    const state = await book(ada, { courseId: IDS.classCourse, occurrenceId: IDS.classOcc, offers: [{ offerId: OFFERS.standard, quantity: 1 }], pay: { method: 'card' } });
    const eve = await learner();
    for (const [path, cookie] of [
      [`/api/booking/${state.bookingId}/invoice`, eve.cookie],
      [`/api/booking/${state.bookingId}/invoice?token=forged`, ''],
      [`/api/booking/${state.bookingId}/invoice`, ''],
      ['/api/booking/BKG-NOPE/invoice', ada.cookie],
      [`/api/order/${state.bookingId}/invoice`, ada.cookie],
    ] as const) {
      const doc = await download(path, cookie);
      expect(doc.status, path).toBe(404);
      expect(doc.type).toContain('application/problem+json');
    }
  });
});

describe('text the standard PDF fonts cannot draw', () => {
  it('falls back to the base letter (Ŵ → W) instead of writing broken glyph codes', async () => {
    const pdf = await renderInvoicePdf({
      title: 'Receipt', invoiceNumber: 'INV-000009', reference: 'Booking reference: BKG-1', issuedAt: now, dueDate: null, currency: 'GBP',
      seller: { name: 'Caf\u00e9 \u0174ales \u2014 \u201cTe\u0175\u201d', lines: [] }, buyer: { heading: 'Received from', lines: ['\u5c71\u7530 Ada'] }, bookedBy: null,
      subject: { course: 'Course', lines: [] }, items: [{ description: 'Seat', quantity: 1, unitPrice: 1000, amount: 1000 }], adjustments: [],
      subtotal: 1000, total: 1000, vatNote: null, payment: [], notes: [],
    });
    const runs = pdfTextRuns(pdf);
    expect(runs).toContain('Caf\u00e9 Wales \u2014 \u201cTew\u201d');
    expect(runs).toContain('?? Ada');
  });
});
