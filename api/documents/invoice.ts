/**
 * Invoices and receipts as PDF (spec 2.15 "Download Invoice" / "Download Receipt"; spec 7
 * GET /booking/{bookingId}/invoice, GET /order/{orderId}/invoice), drawn with pdfkit.
 *
 * `invoiceModel` decides what the document says (pure; amounts in pence, formatted with src/domain/money.ts):
 * - "Invoice" while money is due (invoice, in-person payment), "Receipt" once paid;
 * - its sequential number (api/documents/numbering.ts), the booking / order reference, issue date, due date;
 * - the educator (seller): name, address, phone, e-mail, VAT number with the tax label when VAT is enabled;
 * - the buyer: the booker's name and e-mail; with invoice payment the billing details as well;
 * - one line per offer × quantity, add-on and duration extra; discounts and the voucher as negative amounts;
 *   VAT as a line when added, "Includes VAT of £x" when absorbed; the platform fee when not absorbed; the total.
 * `renderInvoicePdf` lays it out on A4.
 */
import PDFDocument from 'pdfkit';
import type { BookingView, OrderView, StoredSummaryItem } from '../../db/queries/bookings.ts';
import type { InvoiceDocumentRow } from '../../db/schema/documents.ts';
import { formatPence } from '../../src/domain/money.ts';
import { referenceText } from '../../src/domain/checkout/outcomes.ts';
import {
  deliveryLines, documentTitle, giftCardPaid, isCancelled, longDate, paidText, paymentMethodText, taxLabel, whenText,
} from './describe.ts';

export interface InvoiceItemLine {
  description: string;
  /** null for adjustments (discounts, voucher, VAT, fees). */
  quantity: number | null;
  unitPrice: number | null;
  /** Signed pence: discounts and vouchers are negative. */
  amount: number;
}

export interface InvoiceModel {
  title: 'Invoice' | 'Receipt';
  invoiceNumber: string;
  reference: string;
  issuedAt: number;
  dueDate: number | null;
  currency: string;
  seller: { name: string; lines: string[] };
  buyer: { heading: string; lines: string[] };
  /** The booker, when the document is billed to someone else (invoice billing details). */
  bookedBy: string[] | null;
  subject: { course: string; lines: string[] };
  items: InvoiceItemLine[];
  /** Discounts, voucher, added VAT and fees, after the items. */
  adjustments: InvoiceItemLine[];
  subtotal: number;
  total: number;
  /** "Includes VAT of £x" when VAT is absorbed in the prices. */
  vatNote: string | null;
  /** Amount paid / due and how. */
  payment: string[];
  notes: string[];
}

function unit(price: number | null | undefined): number {
  return typeof price === 'number' && price > 0 ? Math.round(price) : 0;
}

function clean(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

function multiline(value: unknown): string[] {
  const text = clean(value);
  return text ? text.split(/\r?\n|,\s*(?=\S)/).map((l) => l.trim()).filter(Boolean) : [];
}

function itemsOf(view: BookingView | OrderView): InvoiceItemLine[] {
  const items: InvoiceItemLine[] = [];
  const summaryItems = view.costSummary?.summary_items ?? {};
  const offers = (view.lines.offers ?? []).filter((l) => l.quantity > 0);
  const addOns = (view.lines.addOns ?? []).filter((l) => l.quantity > 0);
  const extras = (view.lines.extras ?? []).filter((l) => l.quantity > 0 && unit(l.cost) > 0);
  const fromSummary = (list: StoredSummaryItem[] | undefined) => {
    for (const i of list ?? []) items.push({ description: i.text, quantity: null, unitPrice: null, amount: Number(i.value) });
  };
  if (offers.length) for (const o of offers) items.push({ description: o.name, quantity: o.quantity, unitPrice: unit(o.price), amount: unit(o.price) * o.quantity });
  else fromSummary(summaryItems.offerSummary);
  if (addOns.length) for (const a of addOns) items.push({ description: a.name, quantity: a.quantity, unitPrice: unit(a.price), amount: unit(a.price) * a.quantity });
  else fromSummary(summaryItems.addOnSummary);
  if (extras.length) for (const e of extras) items.push({ description: e.label, quantity: e.quantity, unitPrice: unit(e.cost), amount: unit(e.cost) * e.quantity });
  else fromSummary(summaryItems.extraSummary);
  return items;
}

function adjustmentsOf(view: BookingView | OrderView): InvoiceItemLine[] {
  const summary = view.costSummary;
  const items = summary?.summary_items ?? {};
  const out: InvoiceItemLine[] = [];
  const push = (list: StoredSummaryItem[] | undefined, negative: boolean) => {
    for (const i of list ?? []) out.push({ description: i.text, quantity: null, unitPrice: null, amount: negative ? -Math.abs(Number(i.value)) : Number(i.value) });
  };
  push(items.discountSummary, true);
  push(items.voucherSummary, true);
  push(items.vatSummary, false);
  const fee = Number(summary?.platform_fee ?? 0);
  if (summary && !summary.fees_absorbed && fee > 0) out.push({ description: 'Fees', quantity: null, unitPrice: null, amount: fee });
  // Paid by gift card: the rest is what the payment method paid.
  push(items.giftCardSummary, true);
  return out;
}

function sellerLines(view: BookingView | OrderView): string[] {
  const e = view.educator;
  const lines: string[] = [];
  for (const part of Object.values(e.address ?? {})) if (clean(part)) lines.push(String(part).trim());
  if (e.phone) lines.push(`Phone: ${e.phone}`);
  if (e.email) lines.push(`Email: ${e.email}`);
  const vat = e.vatSettings;
  if (vat?.enabled) {
    const label = taxLabel(view);
    const number = clean(vat.vat_number);
    lines.push(number ? `${label} number: ${number}` : `${label} registered`);
  }
  return lines;
}

export function invoiceModel(view: BookingView | OrderView, document: Pick<InvoiceDocumentRow, 'invoice_number' | 'issued_at'>): InvoiceModel {
  const title = documentTitle(view);
  const currency = view.currency || 'GBP';
  const money = (pence: number) => formatPence(pence, currency);
  const booker = [view.booker.name, view.booker.email].filter((v): v is string => !!v);
  const billing = view.paymentMethod === 'invoice' ? view.invoiceDetails : null;
  const buyerLines = billing
    ? [
      ...[clean(billing.billing_name)].filter((v): v is string => !!v),
      ...multiline(billing.billing_address),
      ...[clean(billing.billing_email)].filter((v): v is string => !!v),
      ...(clean(billing.vat_number) ? [`VAT number: ${clean(billing.vat_number)}`] : []),
      ...(clean(billing.invoice_ref) ? [`Your reference: ${clean(billing.invoice_ref)}`] : []),
      ...(clean(billing.recipient_instructions) ? [`Instructions / PO: ${clean(billing.recipient_instructions)}`] : []),
    ]
    : booker;

  const subjectLines: string[] = [];
  if (view.kind === 'booking') {
    const when = whenText(view);
    if (when) subjectLines.push(when);
    subjectLines.push(...deliveryLines(view));
    subjectLines.push(`${view.spaces} ${view.spaces === 1 ? 'space' : 'spaces'}`);
  } else {
    subjectLines.push(...deliveryLines(view));
  }

  const items = itemsOf(view);
  const adjustments = adjustmentsOf(view);
  const subtotal = items.reduce((t, i) => t + i.amount, 0);
  const vatAmount = Number(view.costSummary?.vat_amount ?? 0);
  const vatAbsorbed = !!view.educator.vatSettings?.enabled && !!view.educator.vatSettings?.is_vat_absorbed && vatAmount > 0;
  const method = paymentMethodText(view.paymentMethod);

  const payment: string[] = [];
  const dueDate = view.paymentMethod === 'invoice' && view.paymentState === 'unpaid' ? (view.dueDate ?? view.invoiceDetails?.due_date ?? null) : null;
  const giftPaid = giftCardPaid(view);
  if (view.paymentState === 'paid') {
    // A gift card is a means of payment: the receipt says what each paid ("£40.00 by Card and £20.00 by gift card").
    payment.push(`Paid: ${paidText(view) || `${money(view.totalCost)}${method ? ` by ${method}` : ''}`} on ${longDate(view.createdAt)}`);
  } else if (view.paymentState === 'free') {
    payment.push('Nothing to pay');
  } else {
    if (giftPaid > 0) payment.push(`Paid: ${money(giftPaid)} by gift card`);
    payment.push(`Amount due: ${money(view.totalCost)}`);
    if (dueDate) payment.push(`Due by: ${longDate(dueDate)}`);
    if (view.paymentMethod === 'manual') payment.push(view.manualNote || 'Pay the organizer on the day.');
    else payment.push(`Please pay ${view.educator.name}, quoting ${document.invoice_number}.`);
  }

  const notes: string[] = [];
  if (view.kind === 'booking' && isCancelled(view)) {
    const c = view.cancellation;
    notes.push(`This booking was cancelled${c ? ` on ${longDate(Number(c.cancelled_at))}` : ''}.`);
    if (c?.refund_status === 'refunded') notes.push(`Refunded: ${money(Number(c.refund_amount))}.`);
    else if (c?.refund_status === 'pending') notes.push(`A refund of ${money(Number(c.refund_amount))} is being made.`);
    if (c && giftPaid > 0) notes.push(`Returned to the gift card: ${money(giftPaid)}.`);
    if (view.paymentState === 'unpaid') notes.push('Nothing is due.');
  }

  return {
    title,
    invoiceNumber: document.invoice_number,
    reference: referenceText(view.kind, view.id),
    issuedAt: Number(document.issued_at),
    dueDate,
    currency,
    seller: { name: view.educator.name, lines: sellerLines(view) },
    buyer: { heading: billing ? 'Bill to' : title === 'Receipt' ? 'Received from' : 'Bill to', lines: buyerLines },
    bookedBy: billing && booker.length ? booker : null,
    subject: { course: view.course.name, lines: subjectLines },
    items,
    adjustments,
    subtotal,
    total: view.totalCost,
    vatNote: vatAbsorbed ? `Includes ${taxLabel(view)} of ${money(vatAmount)}` : null,
    payment,
    notes,
  };
}

// ---------------------------------------------------------------------------------------------
// PDF

/** The standard PDF fonts speak WinAnsi only: other characters fall back to their base letter, else '?'. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

function winAnsiChar(ch: string): boolean {
  const code = ch.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch);
}

export function pdfText(text: string): string {
  let out = '';
  for (const ch of text.replace(/\u2212/g, '-').replace(/[\u2009\u202f]/g, ' ')) {
    if (ch === '\n' || winAnsiChar(ch)) {
      out += ch;
      continue;
    }
    const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    out += base && [...base].every(winAnsiChar) ? base : '?';
  }
  return out;
}

const LEFT = 50;
const RIGHT = 545;
const WIDTH = RIGHT - LEFT;
const COLUMNS = { description: LEFT, quantity: 330, unit: 380, amount: 460 } as const;

type Pdf = InstanceType<typeof PDFDocument>;
const t = pdfText;

/** Heading: title and number on the left, seller on the right. */
function drawHeading(pdf: Pdf, model: InvoiceModel): void {
  const top = pdf.y;
  pdf.font('Helvetica-Bold').fontSize(22).text(t(model.title), LEFT, top, { width: 250 });
  pdf.font('Helvetica').fontSize(10).moveDown(0.3);
  pdf.text(t(`${model.title === 'Receipt' ? 'Receipt' : 'Invoice'} number: ${model.invoiceNumber}`), LEFT, undefined, { width: 250 });
  pdf.text(t(model.reference), { width: 250 });
  pdf.text(t(`Issue date: ${longDate(model.issuedAt)}`), { width: 250 });
  if (model.dueDate) pdf.text(t(`Due date: ${longDate(model.dueDate)}`), { width: 250 });
  const leftBottom = pdf.y;
  pdf.font('Helvetica-Bold').fontSize(12).text(t(model.seller.name), 320, top, { width: RIGHT - 320, align: 'right' });
  pdf.font('Helvetica').fontSize(9);
  for (const line of model.seller.lines) pdf.text(t(line), 320, undefined, { width: RIGHT - 320, align: 'right' });
  pdf.y = Math.max(leftBottom, pdf.y) + 20;
}

/** The buyer (and who booked, when someone else did), then what was bought. */
function drawBuyerAndSubject(pdf: Pdf, model: InvoiceModel): void {
  pdf.font('Helvetica-Bold').fontSize(11).text(t(model.buyer.heading), LEFT);
  pdf.font('Helvetica').fontSize(10);
  for (const line of model.buyer.lines) pdf.text(t(line), LEFT, undefined, { width: 300 });
  if (model.bookedBy) {
    pdf.moveDown(0.4).font('Helvetica-Bold').text('Booked by', LEFT).font('Helvetica');
    for (const line of model.bookedBy) pdf.text(t(line), LEFT, undefined, { width: 300 });
  }

  pdf.moveDown(1).font('Helvetica-Bold').fontSize(11).text(t(model.subject.course), LEFT, undefined, { width: WIDTH });
  pdf.font('Helvetica').fontSize(10);
  for (const line of model.subject.lines) pdf.text(t(line), LEFT, undefined, { width: WIDTH });
}

interface RowCells { description: string; quantity?: string; unit?: string; amount: string }

/** One row of the lines' table (a new page first when the page is full). */
function drawRow(pdf: Pdf, cells: RowCells, bold = false): void {
  if (pdf.y > 760) pdf.addPage();
  const y = pdf.y;
  pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
  pdf.text(t(cells.description), COLUMNS.description, y, { width: COLUMNS.quantity - COLUMNS.description - 10 });
  const after = pdf.y;
  if (cells.quantity) pdf.text(t(cells.quantity), COLUMNS.quantity, y, { width: COLUMNS.unit - COLUMNS.quantity - 5, align: 'right' });
  if (cells.unit) pdf.text(t(cells.unit), COLUMNS.unit, y, { width: COLUMNS.amount - COLUMNS.unit - 5, align: 'right' });
  pdf.text(t(cells.amount), COLUMNS.amount, y, { width: RIGHT - COLUMNS.amount, align: 'right' });
  pdf.y = Math.max(after, pdf.y) + 3;
}

function drawRule(pdf: Pdf): void {
  pdf.moveTo(LEFT, pdf.y).lineTo(RIGHT, pdf.y).lineWidth(0.5).strokeColor('#999999').stroke();
  pdf.y += 4;
}

/** The lines, the adjustments with their subtotal, the total and the VAT note. */
function drawLines(pdf: Pdf, model: InvoiceModel): void {
  const money = (pence: number) => formatPence(pence, model.currency);
  pdf.moveDown(1);
  drawRow(pdf, { description: 'Description', quantity: 'Qty', unit: 'Unit price', amount: 'Amount' }, true);
  drawRule(pdf);
  for (const item of model.items) {
    drawRow(pdf, {
      description: item.description,
      quantity: item.quantity === null ? undefined : `× ${item.quantity}`,
      unit: item.unitPrice === null ? undefined : money(item.unitPrice),
      amount: money(item.amount),
    });
  }
  drawRule(pdf);
  if (model.adjustments.length) {
    drawRow(pdf, { description: 'Subtotal', amount: money(model.subtotal) });
    for (const a of model.adjustments) drawRow(pdf, { description: a.description, amount: money(a.amount) });
    drawRule(pdf);
  }
  drawRow(pdf, { description: 'Total', amount: money(model.total) }, true);
  if (model.vatNote) {
    pdf.font('Helvetica').fontSize(9).text(t(model.vatNote), LEFT, undefined, { width: WIDTH, align: 'right' });
  }
}

/** Payment and notes, then the footer. */
function drawPaymentAndNotes(pdf: Pdf, model: InvoiceModel): void {
  pdf.moveDown(1).font('Helvetica').fontSize(10);
  for (const line of model.payment) pdf.text(t(line), LEFT, undefined, { width: WIDTH });
  if (model.notes.length) {
    pdf.moveDown(0.5).font('Helvetica-Bold');
    for (const line of model.notes) pdf.text(t(line), LEFT, undefined, { width: WIDTH });
    pdf.font('Helvetica');
  }
  pdf.moveDown(2).fontSize(8).fillColor('#666666')
    .text(t(`${model.title} issued by ${model.seller.name}. Amounts in ${model.currency}.`), LEFT, undefined, { width: WIDTH });
}

export function renderInvoicePdf(model: InvoiceModel, options: { compress?: boolean } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({
      size: 'A4',
      margin: LEFT,
      compress: options.compress ?? true,
      info: { Title: pdfText(`${model.title} ${model.invoiceNumber}`), Author: pdfText(model.seller.name), Subject: pdfText(model.reference) },
    });
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    drawHeading(pdf, model);
    drawBuyerAndSubject(pdf, model);
    drawLines(pdf, model);
    drawPaymentAndNotes(pdf, model);
    pdf.end();
  });
}
