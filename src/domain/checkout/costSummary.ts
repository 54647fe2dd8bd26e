/**
 * The cost summary (spec 3 "Cost summary", 7 "POST /custom/get-checkout-summary", 9 "Pricing display").
 * Everything is integer pence. Order of the calculation:
 *   subtotal  = offers + add-ons + duration extras
 *   discounts = a member's credit and percentage (negative lines), never more than the subtotal
 *   voucher   = percent of the subtotal after discounts (rounded half up) or a fixed amount, never more than it
 *   taxable   = subtotal − discounts − voucher
 *   VAT       = absorbed: the part of `taxable` that is VAT, rate/(1+rate) (nothing added);
 *               added: taxable × rate (rounded half up), shown as a line and added to the total
 *   fee       = platform fee on a paid order: FEE_BP of (taxable + added VAT), rounded, + FEE_FIXED;
 *               0 when nothing is payable. Absorbed by the educator (not added) or added as "Fees".
 *   total     = taxable + added VAT + (fee unless absorbed)
 * Summary lines hold signed values (voucher and discount lines are negative), so without an absorbed
 * VAT line the lines plus a not-absorbed fee add up to the total.
 */
import { DEFAULT_TAX_LABEL } from '../vat';

/** Chosen platform-fee rule: 2.5% + 30p per paid order (spec 1 "the platform charges transaction fees on paid orders"). */
export const PLATFORM_FEE_BP = 250;
export const PLATFORM_FEE_FIXED = 30;
/** VAT rate when the educator's settings give none: 20% (UK standard rate). */
export const DEFAULT_VAT_RATE_BP = 2000;

export interface SummaryLine {
  text: string;
  value: number;
}

export interface CostSummaryItems {
  offerSummary: SummaryLine[];
  addOnSummary: SummaryLine[];
  discountSummary: SummaryLine[];
  voucherSummary: SummaryLine[];
  vatSummary: SummaryLine[];
  extraSummary: SummaryLine[];
  /** A gift card paying part (or all) of the total: one negative line. */
  giftCardSummary?: SummaryLine[];
}

export interface CostSummary {
  summary_items: CostSummaryItems;
  /** The platform fee in pence (the spec names this field after the product; here it is `platform_fee`). */
  platform_fee: number;
  fees_absorbed: boolean;
  vat_amount: number;
  subtotal: number;
  total_cost: number;
  currency: string;
  /** What a gift card pays of the total (already taken off total_cost). */
  gift_card_amount?: number;
  gift_card_id?: string | null;
}

export interface PricedLine {
  name: string;
  /** Unit price in pence (missing or below 0 counts as 0). */
  price: number | null | undefined;
  quantity: number;
}

export interface VoucherInput {
  code: string;
  kind: 'percent' | 'fixed';
  /** percent: whole percent; fixed: pence. */
  amount: number;
}

export interface CostInput {
  offers: ReadonlyArray<PricedLine>;
  addOns: ReadonlyArray<PricedLine>;
  /** Duration extras: label, cost per space (pence), quantity (spec 7). */
  extras?: ReadonlyArray<{ label: string; cost: number; quantity: number }>;
  voucher?: VoucherInput | null;
  /**
   * Discounts taken off before the voucher, as negative summary lines (a member's credit and percentage,
   * src/domain/memberships.ts); together never more than the subtotal.
   */
  discounts?: ReadonlyArray<SummaryLine>;
  vat?: { enabled?: boolean | null; is_vat_absorbed?: boolean | null; tax_label?: string | null; rate_bp?: number | null } | null;
  feesAbsorbed: boolean;
  fee?: { bp: number; fixed: number };
  currency?: string;
}

function unit(price: number | null | undefined): number {
  return typeof price === 'number' && price > 0 ? Math.round(price) : 0;
}

/** Half-up rounding of a non-negative amount × numerator / denominator, in integers. */
export function mulDivRound(amount: number, numerator: number, denominator: number): number {
  return Math.floor((amount * numerator * 2 + denominator) / (denominator * 2));
}

/** The voucher's discount on `subtotal` (never more than the subtotal, never below 0). */
export function voucherDiscount(voucher: VoucherInput | null | undefined, subtotal: number): number {
  if (!voucher || subtotal <= 0) return 0;
  const raw = voucher.kind === 'percent' ? mulDivRound(subtotal, Math.min(Math.max(voucher.amount, 0), 100), 100) : Math.max(voucher.amount, 0);
  return Math.min(raw, subtotal);
}

/** The platform fee on a payable amount: 0 when nothing is payable. */
export function platformFee(payable: number, fee: { bp: number; fixed: number } = { bp: PLATFORM_FEE_BP, fixed: PLATFORM_FEE_FIXED }): number {
  return payable > 0 ? mulDivRound(payable, fee.bp, 10000) + fee.fixed : 0;
}

function lineText(line: PricedLine): string {
  return line.quantity === 1 ? line.name : `${line.name} × ${line.quantity}`;
}

export function computeCostSummary(input: CostInput): CostSummary {
  const offerSummary = input.offers.filter((l) => l.quantity > 0).map((l) => ({ text: lineText(l), value: unit(l.price) * l.quantity }));
  const addOnSummary = input.addOns.filter((l) => l.quantity > 0).map((l) => ({ text: lineText(l), value: unit(l.price) * l.quantity }));
  const extraSummary = (input.extras ?? [])
    .filter((e) => e.quantity > 0 && e.cost > 0)
    .map((e) => ({ text: e.quantity === 1 ? e.label : `${e.label} × ${e.quantity}`, value: Math.round(e.cost) * e.quantity }));
  const sum = (lines: SummaryLine[]) => lines.reduce((total, line) => total + line.value, 0);
  const subtotal = sum(offerSummary) + sum(addOnSummary) + sum(extraSummary);
  const discountSummary = (input.discounts ?? []).filter((d) => d.value < 0).map((d) => ({ text: d.text, value: Math.round(d.value) }));
  const afterDiscounts = Math.max(0, subtotal + sum(discountSummary));
  const discount = voucherDiscount(input.voucher, afterDiscounts);
  const voucherSummary = discount > 0 && input.voucher ? [{ text: `Voucher ${input.voucher.code}`, value: -discount }] : [];
  const taxable = afterDiscounts - discount;
  let vatAmount = 0;
  let vatAdded = 0;
  const vatSummary: SummaryLine[] = [];
  if (input.vat?.enabled && taxable > 0) {
    const rate = typeof input.vat.rate_bp === 'number' && input.vat.rate_bp >= 0 ? input.vat.rate_bp : DEFAULT_VAT_RATE_BP;
    const label = input.vat.tax_label?.trim() || DEFAULT_TAX_LABEL;
    if (input.vat.is_vat_absorbed) {
      vatAmount = mulDivRound(taxable, rate, 10000 + rate);
    } else {
      vatAmount = mulDivRound(taxable, rate, 10000);
      vatAdded = vatAmount;
      vatSummary.push({ text: `${label} (${rate / 100}%)`, value: vatAmount });
    }
  }
  const payable = taxable + vatAdded;
  const fee = platformFee(payable, input.fee);
  return {
    summary_items: { offerSummary, addOnSummary, discountSummary, voucherSummary, vatSummary, extraSummary },
    platform_fee: fee,
    fees_absorbed: input.feesAbsorbed,
    vat_amount: vatAmount,
    subtotal,
    total_cost: payable + (input.feesAbsorbed ? 0 : fee),
    currency: input.currency ?? 'GBP',
  };
}


/**
 * A gift card is a means of payment, not a discount: the total (VAT and fees included) is worked out as without it,
 * then the card pays up to its balance and the rest is left for the chosen payment method. Shown as one negative line.
 */
export function applyGiftCard(summary: CostSummary, card: { id: string; code: string; balance: number } | null): CostSummary {
  if (!card) return summary;
  const paid = Math.max(0, Math.min(card.balance, summary.total_cost));
  if (paid === 0) return { ...summary, gift_card_amount: 0, gift_card_id: card.id };
  return {
    ...summary,
    summary_items: { ...summary.summary_items, giftCardSummary: [{ text: `Gift card ••••${card.code.slice(-4)}`, value: -paid }] },
    total_cost: summary.total_cost - paid,
    gift_card_amount: paid,
    gift_card_id: card.id,
  };
}
