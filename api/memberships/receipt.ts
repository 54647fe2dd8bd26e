/**
 * A membership payment's PDF receipt: the first period and every renewal paid get one, numbered from the
 * educator's invoice sequence when the payment was recorded, laid out like the booking and order documents.
 */
import type { Db } from '../../db/client.ts';
import { renderInvoicePdf, type InvoiceModel } from '../documents/invoice.ts';
import { formatPence } from '../../src/domain/money.ts';
import { formatDay } from '../../src/lib/format.ts';

export async function membershipReceiptPdf(db: Db, paymentId: string): Promise<{ pdf: Buffer; filename: string }> {
  const p = await db.selectFrom('membership_payments as p').innerJoin('memberships as m', 'm.id', 'p.membership_id')
    .innerJoin('membership_plans as pl', 'pl.id', 'm.plan_id').innerJoin('educators as e', 'e.id', 'm.educator_id')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['p.id', 'p.kind', 'p.amount', 'p.currency', 'p.period_start', 'p.period_end', 'p.receipt_number', 'p.created_at', 'p.provider_payment_id',
      'm.id as membership_id', 'pl.name as plan', 'e.name as educator', 'e.email as educator_email', 'e.phone_number', 'u.email', 'u.first_name', 'u.last_name'])
    .where('p.id', '=', paymentId).executeTakeFirstOrThrow();
  const amount = Number(p.amount);
  const period = `${formatDay(Number(p.period_start))} – ${formatDay(Number(p.period_end))}`;
  const model: InvoiceModel = {
    title: 'Receipt',
    invoiceNumber: p.receipt_number ?? p.id,
    reference: `Membership ${p.membership_id}`,
    issuedAt: Number(p.created_at),
    dueDate: null,
    currency: p.currency,
    seller: { name: p.educator, lines: [p.educator_email, p.phone_number].filter((l): l is string => !!l) },
    buyer: { heading: 'Member', lines: [[p.first_name, p.last_name].filter(Boolean).join(' '), p.email].filter((l) => !!l) },
    bookedBy: null,
    subject: { course: `${p.plan} membership`, lines: [period] },
    items: [{ description: `${p.plan} (${p.kind === 'join' ? 'first period' : 'renewal'}): ${period}`, quantity: 1, unitPrice: amount, amount }],
    adjustments: [],
    subtotal: amount,
    total: amount,
    vatNote: null,
    payment: [`Paid by card: ${formatPence(amount, p.currency)}`],
    notes: [],
  };
  const pdf = await renderInvoicePdf(model);
  return { pdf, filename: `Receipt-${p.receipt_number ?? p.id}.pdf` };
}
