/**
 * A gift card's documents and e-mails: the printable gift card (code, amount, expiry, message, in the educator's
 * design colour), the buyer's receipt, and the two e-mails — the buyer's at once (both PDFs), the recipient's on
 * the send date (the gift card). Drawn with pdfkit like the invoices (api/documents/invoice.ts).
 */
import PDFDocument from 'pdfkit';
import type { Config } from '../config.ts';
import type { GiftCardRow } from '../../db/schema/gifts.ts';
import type { MailMessage } from '../mail/index.ts';
import { formatPence } from '../../src/domain/money.ts';
import { formatGiftCode } from '../../src/domain/gifts.ts';
import { mainOrigin } from '../../src/domain/links.ts';
import { pdfText } from '../documents/invoice.ts';
import { longDate } from '../documents/describe.ts';
import { renderEmail } from '../documents/emails.ts';
import { paymentMethodText } from '../documents/describe.ts';
import { documentToken } from '../shared/document-tokens.ts';

export interface GiftSeller {
  name: string;
  slug: string;
  email: string | null;
}

type LinkConfig = Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PROTOCOL' | 'API_ORIGIN' | 'APP_SECRET'>;

const DEFAULT_COLOUR = '#1f4fd1';

/**
 * What each gift card document's token signs: one token opens one document. The card's link goes to its recipient
 * (and wherever they forward it); the receipt, with what the buyer paid and how, is the buyer's alone.
 */
export const GIFT_DOCUMENT_KINDS = { card: 'giftCard', receipt: 'giftReceipt' } as const;

/** The signed links to a gift card's PDFs (they work from a mail client, without a session). */
export function giftDocumentLinks(secret: string, id: string): { card: string; receipt: string } {
  const card = documentToken(secret, GIFT_DOCUMENT_KINDS.card, id);
  const receipt = documentToken(secret, GIFT_DOCUMENT_KINDS.receipt, id);
  return { card: `/api/gift-cards/${id}/gift-card.pdf?token=${card}`, receipt: `/api/gift-cards/${id}/receipt.pdf?token=${receipt}` };
}

function apiBase(config: LinkConfig): string {
  return (config.API_ORIGIN || mainOrigin(config.PUBLIC_HOST, config.PUBLIC_PROTOCOL)).replace(/\/+$/, '');
}

/** The educator's minisite, where the gift card is spent. */
export function minisiteUrl(config: LinkConfig, slug: string): string {
  return `${mainOrigin(`${slug}.${config.PUBLIC_HOST}`, config.PUBLIC_PROTOCOL)}/`;
}

function render(draw: (pdf: PDFKit.PDFDocument) => void, title: string, author: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({ size: 'A4', margin: 50, info: { Title: pdfText(title), Author: pdfText(author) } });
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    draw(pdf);
    pdf.end();
  });
}

/** The printable gift card. */
export function renderGiftCardPdf(card: GiftCardRow, seller: GiftSeller, config: LinkConfig): Promise<Buffer> {
  const colour = card.design_colour ?? DEFAULT_COLOUR;
  const t = pdfText;
  return render((pdf) => {
    pdf.roundedRect(50, 60, 495, 300, 16).fill(colour);
    pdf.fillColor('#ffffff').font('Helvetica-Bold').fontSize(14).text(t(seller.name), 80, 90, { width: 435 });
    pdf.font('Helvetica-Bold').fontSize(34).text('Gift Card', 80, 120, { width: 435 });
    pdf.font('Helvetica-Bold').fontSize(40).text(t(formatPence(Number(card.amount), card.currency)), 80, 175, { width: 435 });
    pdf.font('Helvetica').fontSize(12).text(t(`For ${card.recipient_name}, from ${card.buyer_name}`), 80, 240, { width: 435 });
    pdf.font('Courier-Bold').fontSize(20).text(formatGiftCode(card.code), 80, 280, { width: 435 });
    pdf.font('Helvetica').fontSize(10).text(t(`Valid until ${longDate(Number(card.expires_at))}`), 80, 318, { width: 435 });
    pdf.fillColor('#1c2333').font('Helvetica').fontSize(11);
    let y = 390;
    if (card.message) {
      pdf.font('Helvetica-Oblique').fontSize(12).text(t(`“${card.message}”`), 50, y, { width: 495 });
      y = pdf.y + 16;
    }
    pdf.font('Helvetica').fontSize(10).text(
      t(`Spend it on any course of ${seller.name}: enter the code under “Apply promo code or gift card” at checkout, at ${minisiteUrl(config, seller.slug)}. `
        + 'It pays up to its balance; what is left stays on the card for next time until it expires. It cannot be exchanged for cash.'),
      50, y, { width: 495 },
    );
    pdf.text(t(`Gift card reference: ${card.id}`), 50, pdf.y + 10, { width: 495 });
  }, `Gift Card ${card.id}`, seller.name);
}

/** The buyer's receipt (a voucher sale: VAT, if any, is accounted for when the card is spent). */
export function renderGiftReceiptPdf(card: GiftCardRow, seller: GiftSeller): Promise<Buffer> {
  const t = pdfText;
  const money = (p: number) => formatPence(p, card.currency);
  return render((pdf) => {
    pdf.font('Helvetica-Bold').fontSize(22).text('Receipt', 50, 50);
    pdf.font('Helvetica').fontSize(10).text(t(`Gift voucher reference: ${card.id}`)).text(t(`Issue date: ${longDate(Number(card.created_at))}`));
    pdf.moveDown().font('Helvetica-Bold').fontSize(12).text(t(seller.name));
    if (seller.email) pdf.font('Helvetica').fontSize(10).text(t(`Email: ${seller.email}`));
    pdf.moveDown().font('Helvetica-Bold').fontSize(11).text('Billed to').font('Helvetica').fontSize(10).text(t(card.buyer_name)).text(t(card.buyer_email));
    pdf.moveDown();
    const line = (label: string, value: string, bold = false) => {
      const y = pdf.y;
      pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10).text(t(label), 50, y, { width: 380 });
      pdf.text(t(value), 430, y, { width: 115, align: 'right' });
      pdf.moveDown(0.3);
    };
    line(`Gift voucher for ${card.recipient_name}`, money(Number(card.amount)));
    const fees = Number(card.total_paid) - Number(card.amount);
    if (fees > 0) line('Fees', money(fees));
    line('Total', money(Number(card.total_paid)), true);
    pdf.moveDown();
    const method = paymentMethodText(card.payment_method);
    pdf.font('Helvetica').fontSize(10).text(t(`Paid: ${money(Number(card.total_paid))}${method ? ` by ${method}` : ''} on ${longDate(Number(card.created_at))}`), 50);
    pdf.text(t(`Valid until ${longDate(Number(card.expires_at))}. A voucher that can be spent on any course is a multi-purpose voucher: VAT is due when it is spent, not on this sale.`));
  }, `Receipt ${card.id}`, seller.name);
}

/** The buyer's e-mail, sent at once: receipt and gift card attached. */
export function buyerGiftEmail(card: GiftCardRow, seller: GiftSeller, config: LinkConfig, pdfs: { card: Buffer; receipt: Buffer }): MailMessage {
  const links = giftDocumentLinks(config.APP_SECRET, card.id);
  const base = apiBase(config);
  const sendsToday = Number(card.send_at) <= Number(card.created_at);
  const { text, html } = renderEmail({
    heading: 'Gift Voucher Purchased',
    intro: [
      `Thank you for buying a ${seller.name} gift voucher for ${card.recipient_name}.`,
      sendsToday
        ? `We have e-mailed it to ${card.recipient_email}.`
        : `We will e-mail it to ${card.recipient_email} on ${longDate(Number(card.send_at))}.`,
    ],
    facts: [
      ['Amount', formatPence(Number(card.amount), card.currency)],
      ['Valid until', longDate(Number(card.expires_at))],
      ['Reference', card.id],
    ],
    actions: [
      { label: 'Download Gift Card', href: `${base}${links.card}` },
      { label: 'Download Receipt', href: `${base}${links.receipt}` },
    ],
    outro: ['Your gift card and receipt are attached.'],
  });
  return {
    to: card.buyer_email, subject: `Your ${seller.name} gift voucher`, text, html, tag: 'gift-voucher-buyer',
    attachments: [
      { filename: `gift-card-${card.id}.pdf`, content: pdfs.card, contentType: 'application/pdf' },
      { filename: `receipt-${card.id}.pdf`, content: pdfs.receipt, contentType: 'application/pdf' },
    ],
  };
}

/** The recipient's e-mail, queued for the send date: the code and how to spend it. */
export function recipientGiftEmail(card: GiftCardRow, seller: GiftSeller, config: LinkConfig, pdf: Buffer): MailMessage {
  const links = giftDocumentLinks(config.APP_SECRET, card.id);
  const { text, html } = renderEmail({
    heading: `${card.buyer_name} sent you a gift card`,
    intro: [
      `${card.buyer_name} has given you a ${formatPence(Number(card.amount), card.currency)} gift card for ${seller.name}.`,
      ...(card.message ? [`“${card.message}”`] : []),
      'Enter the code under “Apply promo code or gift card” when you book.',
    ],
    facts: [
      ['Gift card code', formatGiftCode(card.code)],
      ['Amount', formatPence(Number(card.amount), card.currency)],
      ['Valid until', longDate(Number(card.expires_at))],
    ],
    actions: [
      { label: `Browse ${seller.name}`, href: minisiteUrl(config, seller.slug) },
      { label: 'Download Gift Card', href: `${apiBase(config)}${links.card}` },
    ],
  });
  return {
    to: card.recipient_email, subject: `${card.buyer_name} sent you a ${seller.name} gift card`, text, html, tag: 'gift-voucher-recipient',
    attachments: [{ filename: `gift-card-${card.id}.pdf`, content: pdf, contentType: 'application/pdf' }],
  };
}
