/** How the bookings screens write money, dates and the list's words (one place for the three islands). */
import { formatPence } from '../../../domain/money.ts';
import { formatShortDateTime } from '../../../domain/time.ts';
import { formatOccurrenceRange } from '../../../lib/format.ts';
import { ORIGIN_LABELS, PAYMENT_METHOD_LABELS, STATUS_LABELS } from '../../../domain/admin/bookings.ts';

export function money(pence: number, currency = 'GBP'): string {
  return formatPence(pence, currency || 'GBP');
}

/** 'Sat 6 Dec 2026, 10:00 – 13:00' (UK time), or 'No date'. */
export function when(start: number | null, end: number | null): string {
  if (start === null) return 'No date';
  return formatOccurrenceRange(start, end ?? start, 'Europe/London');
}

export function at(epoch: number): string {
  return formatShortDateTime(epoch);
}

export const statusText = (s: string) => STATUS_LABELS[s] ?? s;
export const originText = (o: string) => ORIGIN_LABELS[o] ?? o;
export const methodText = (m: string | null) => (m ? PAYMENT_METHOD_LABELS[m] ?? m : '—');

/** "£30.00 paid by Card", "£30.00 due (Invoice)", "Free", with what was given back. */
export function paidText(b: { totalCost: number; giftCardAmount?: number; paymentState: string; paymentMethod: string | null; refundedTotal: number; currency: string }): string {
  const gross = b.totalCost + (b.giftCardAmount ?? 0);
  let text: string;
  if (b.paymentState === 'free' || gross === 0) text = 'Free';
  else if (b.paymentState === 'unpaid') text = `${money(b.totalCost, b.currency)} due (${methodText(b.paymentMethod)})`;
  else text = `${money(gross, b.currency)} paid by ${methodText(b.paymentMethod)}`;
  return b.refundedTotal > 0 ? `${text}; ${money(b.refundedTotal, b.currency)} refunded` : text;
}

/** A fresh key for one press of a button (the server makes one refund per key). */
export function newRequestKey(): string {
  const random = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  return `ui-${random}`;
}

/** An admin link: `{path}?educator-context={id}`. */
export function adminHref(path: string, educatorId: string, query: Record<string, string> = {}): string {
  return `${path}?${new URLSearchParams({ 'educator-context': educatorId, ...query }).toString()}`;
}

/** "£1.50 (you absorb it)", "£1.50 (paid by the learner)", or 'None'. */
export function platformFeeText(fee: { amount: number; absorbed: boolean }, currency: string): string {
  return fee.amount ? `${money(fee.amount, currency)} (${fee.absorbed ? 'you absorb it' : 'paid by the learner'})` : 'None';
}

/** What a gift card paid of a booking or order (its cost summary's), never below 0. */
export function giftCardPaid(costSummary: { gift_card_amount?: number | null } | null): number {
  return Math.max(0, Number(costSummary?.gift_card_amount ?? 0));
}
