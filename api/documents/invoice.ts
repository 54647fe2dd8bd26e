/**
 * A simple invoice or receipt as PDF (spec 2.15 "Download Invoice" / "Download Receipt"; spec 7
 * GET /booking/{bookingId}/invoice, /order/{orderId}/invoice), drawn with pdfkit.
 */
import PDFDocument from 'pdfkit';
import { formatPence } from '../../src/domain/money.ts';

export interface InvoiceLine {
  text: string;
  amount: number;
}

export interface InvoiceDocument {
  kind: 'Invoice' | 'Receipt';
  reference: string;
  issuedAt: number;
  dueDate?: number | null;
  educatorName: string;
  courseName: string;
  billTo: string[];
  lines: InvoiceLine[];
  total: number;
  currency: string;
  vatAmount?: number | null;
  note?: string | null;
}

function day(epoch: number): string {
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'Europe/London' }).format(new Date(epoch * 1000));
}

export function renderInvoicePdf(doc: InvoiceDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `${doc.kind} ${doc.reference}` } });
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    pdf.fontSize(20).text(doc.kind);
    pdf.moveDown(0.5).fontSize(10).text(`Reference: ${doc.reference}`);
    pdf.text(`Issued: ${day(doc.issuedAt)}`);
    if (doc.dueDate) pdf.text(`Due by: ${day(doc.dueDate)}`);
    pdf.moveDown().fontSize(12).text(doc.educatorName);
    pdf.fontSize(10).text(doc.courseName);
    if (doc.billTo.length) {
      pdf.moveDown().fontSize(11).text('Bill to');
      pdf.fontSize(10);
      for (const line of doc.billTo) pdf.text(line);
    }
    pdf.moveDown();
    for (const line of doc.lines) {
      const y = pdf.y;
      pdf.text(line.text, 50, y, { width: 380 });
      pdf.text(formatPence(line.amount, doc.currency), 430, y, { width: 115, align: 'right' });
    }
    pdf.moveDown();
    const y = pdf.y;
    pdf.fontSize(12).text('Total', 50, y, { width: 380 });
    pdf.text(formatPence(doc.total, doc.currency), 430, y, { width: 115, align: 'right' });
    if (doc.vatAmount) pdf.fontSize(9).text(`Includes VAT of ${formatPence(doc.vatAmount, doc.currency)}`, 50);
    if (doc.note) pdf.moveDown().fontSize(10).text(doc.note, 50);
    pdf.end();
  });
}
