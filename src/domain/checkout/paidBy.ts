/**
 * A gift card is a means of payment, not a discount (docs/gifts-and-memberships.md "Spending"): an outcome's
 * `total_cost` is what its payment method was left to pay after the card, so what the learner paid in all — and how —
 * is that plus the card's part. Profile, receipts, confirmation pages, e-mails and the cancellation answer say it the
 * same way: "£30.00 by gift card", "£40.00 by Card and £20.00 by gift card". Pure.
 */
import { formatPence } from '../money.ts';
import { PAYMENT_METHODS, paymentMethodLabel, type PaymentMethod } from './paymentMethods.ts';

/** A method's words by default: "Card", "PayPal"… (the method itself when it is not one of the checkout's). */
export function methodWords(method: string): string {
  return (PAYMENT_METHODS as readonly string[]).includes(method) ? paymentMethodLabel(method as PaymentMethod, null) : method;
}

/** The payment method recorded when a gift card paid everything (the Payment step was not needed). */
export const GIFT_CARD_METHOD = 'gift card';

export interface PaidRecord {
  /** What the payment method paid, or is due to pay (pence). */
  totalCost: number;
  /** What a gift card paid (pence); 0 without one. */
  giftCardAmount: number;
  paymentMethod: string | null;
}

export interface PaidPart {
  /** The method's words ("Card", "gift card"). */
  method: string;
  amount: number;
}

/** What the outcome cost in all: the payment method's part and the gift card's. */
export function grossCost(p: PaidRecord): number {
  return Math.max(0, p.totalCost) + Math.max(0, p.giftCardAmount);
}

/** How it was paid, the payment method first, then the gift card; `label` names a method ("card" → "Card"). */
export function paidParts(p: PaidRecord, label: (method: string) => string | null = methodWords): PaidPart[] {
  const parts: PaidPart[] = [];
  if (p.totalCost > 0 && p.paymentMethod && p.paymentMethod !== GIFT_CARD_METHOD) {
    parts.push({ method: label(p.paymentMethod) ?? p.paymentMethod, amount: p.totalCost });
  }
  if (p.giftCardAmount > 0) parts.push({ method: GIFT_CARD_METHOD, amount: p.giftCardAmount });
  return parts;
}

/** "£30.00 by gift card", "£40.00 by Card and £20.00 by gift card"; '' when nothing was paid by any method. */
export function paidByText(parts: readonly PaidPart[], currency: string): string {
  return parts.map((p) => `${formatPence(p.amount, (currency || 'GBP') as 'GBP')} by ${p.method}`).join(' and ');
}
