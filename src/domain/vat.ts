/**
 * VAT label next to prices (spec 5 "VAT label display", 3 "Educator.vat_settings").
 */

/** Spec 3: `tax_label` defaults to "Tax". */
export const DEFAULT_TAX_LABEL = 'Tax';

export interface VatSettings {
  enabled?: boolean | null;
  is_vat_absorbed?: boolean | null;
  tax_label?: string | null;
}

export interface VatLabelInput {
  vatSettings: VatSettings | null | undefined;
  /** The displayed price text; "free" (any case) hides the label. */
  priceLabel: string | null | undefined;
  courseType: string | null | undefined;
  pricingType: string | null | undefined;
}

/**
 * Spec 5: null (hidden) when VAT is off, the price reads "free", or an
 * on-request course is priced free or price-on-enquiry. Otherwise
 * '(incl. {tax_label})' when VAT is absorbed, '+ {tax_label}' when it is not.
 */
export function vatLabel({ vatSettings, priceLabel, courseType, pricingType }: VatLabelInput): string | null {
  if (!vatSettings?.enabled) return null;
  if ((priceLabel ?? '').trim().toLowerCase() === 'free') return null;
  if (courseType === 'on-request' && (pricingType === 'free' || pricingType === 'price-on-enquiry')) return null;
  const label = vatSettings.tax_label?.trim() || DEFAULT_TAX_LABEL;
  return vatSettings.is_vat_absorbed ? `(incl. ${label})` : `+ ${label}`;
}
