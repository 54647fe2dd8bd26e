/**
 * Offers and add-ons with +/- controls (spec 2.14 "Spaces", "Order Offers", request and group/date
 * request offers; spec 5 "Offer quantity"): minus disabled at 0; plus disabled at the maximum
 * (current quantity + available spaces), before start_at ("Sales start on {date}") and after end_at
 * ("Sales ended on {date}"); add-ons unlimited. Also the "Apply promo code or gift card" box, shown only
 * when some offer costs money.
 */
import { useId, useState } from 'react';
import type { Flow } from '../../../domain/checkout/flows.ts';
import {
  ADD_ON_MAX_QUANTITY, anyOfferPaid, canDecrement, canIncrement, flowAvailableSpaces, maxQuantity, offerSaleText, type SelectedOffer,
} from '../../../domain/pricing.ts';
import { APPLY_PROMO_TEXT, VOUCHER_APPLYING_TEXT, VOUCHER_SUCCESS_TEXT } from '../../../domain/checkout/constants.ts';
import { voucherErrorText } from '../../../domain/checkout/messages.ts';
import { fieldDomId } from '../../../domain/checkout/ui.ts';
import { checkoutApi, toProblem } from '../api.ts';
import type { AddOnView, OccurrenceView, OfferView } from '../types.ts';
import { QuantityRow, priceText } from '../shared.tsx';

export interface AddOnLine {
  addonId: string;
  quantity: number;
}

export function quantityOf(lines: ReadonlyArray<SelectedOffer>, id: string): number {
  return lines.find((l) => l.offerId === id)?.quantity ?? 0;
}

export function setQuantity(lines: ReadonlyArray<SelectedOffer>, id: string, quantity: number): SelectedOffer[] {
  const rest = lines.filter((l) => l.offerId !== id);
  return quantity > 0 ? [...rest, { offerId: id, quantity }] : rest;
}

export function addOnQuantityOf(lines: ReadonlyArray<AddOnLine>, id: string): number {
  return lines.find((l) => l.addonId === id)?.quantity ?? 0;
}

export function setAddOnQuantity(lines: ReadonlyArray<AddOnLine>, id: string, quantity: number): AddOnLine[] {
  const rest = lines.filter((l) => l.addonId !== id);
  return quantity > 0 ? [...rest, { addonId: id, quantity }] : rest;
}

/** Keeps the catalogue's order. */
export function ordered<T extends { offerId?: string; addonId?: string }>(lines: T[], ids: string[]): T[] {
  return [...lines].sort((a, b) => ids.indexOf((a.offerId ?? a.addonId)!) - ids.indexOf((b.offerId ?? b.addonId)!));
}

export function OffersList(props: {
  flow: Flow;
  offers: OfferView[];
  selected: SelectedOffer[];
  onChange: (lines: SelectedOffer[]) => void;
  occurrence?: OccurrenceView | null;
  courseSpaces?: number | null;
  currency: string;
  pricesVisible: boolean;
  headingLevel?: 3;
  heading?: string;
}) {
  const { flow, offers, selected, onChange, occurrence, courseSpaces, currency, pricesVisible } = props;
  const now = Math.floor(Date.now() / 1000);
  const available = flowAvailableSpaces(flow, { occurrence: occurrence ?? null, course: { spaces: courseSpaces ?? null }, selected, offers });
  const ids = offers.map((o) => o._id);
  const headingId = useId();
  return (
    <div className="stack" id={fieldDomId('payload.selectedOffers')} tabIndex={-1}>
      {props.heading && <h3 id={headingId}>{props.heading}</h3>}
      <ul className="qty-list" aria-labelledby={props.heading ? headingId : undefined}>
        {offers.map((offer) => {
          const quantity = quantityOf(selected, offer._id);
          const max = maxQuantity(quantity, available);
          return (
            <QuantityRow
              key={offer._id}
              id={`offer-${offer._id}`}
              name={offer.name}
              description={offer.description}
              price={pricesVisible ? priceText(offer.price, currency) : null}
              note={offerSaleText(offer, now)}
              quantity={quantity}
              canRemove={canDecrement(quantity)}
              canAdd={canIncrement({ quantity, max, offer, now })}
              onChange={(q) => onChange(ordered(setQuantity(selected, offer._id, q), ids))}
            />
          );
        })}
      </ul>
    </div>
  );
}

export function AddOnsList(props: {
  addOns: AddOnView[];
  selected: AddOnLine[];
  onChange: (lines: AddOnLine[]) => void;
  currency: string;
  pricesVisible: boolean;
}) {
  const { addOns, selected, onChange, currency, pricesVisible } = props;
  const headingId = useId();
  if (addOns.length === 0) return null;
  const ids = addOns.map((a) => a._id);
  return (
    <div className="stack">
      <h3 id={headingId}>Add-ons</h3>
      <ul className="qty-list" aria-labelledby={headingId}>
        {addOns.map((addOn) => {
          const quantity = addOnQuantityOf(selected, addOn._id);
          return (
            <QuantityRow
              key={addOn._id}
              id={`addon-${addOn._id}`}
              name={addOn.name}
              description={addOn.description}
              price={pricesVisible ? priceText(addOn.price, currency) : null}
              quantity={quantity}
              canRemove={canDecrement(quantity)}
              canAdd={quantity < ADD_ON_MAX_QUANTITY}
              onChange={(q) => onChange(ordered(setAddOnQuantity(selected, addOn._id, q), ids))}
            />
          );
        })}
      </ul>
    </div>
  );
}

export interface AppliedVoucher {
  id: string;
  code: string;
}

/** A promo code or gift card chosen before comes back by its id (the server knows it as this checkout's). */
export function storedVoucher(stored: { voucherId?: string | null; giftCardId?: string | null } | null | undefined): AppliedVoucher | null {
  const id = stored?.voucherId || stored?.giftCardId;
  return id ? { id, code: '' } : null;
}

/** Spec 2.14 / 5 / 8: the promo code box (only when some offer costs money). */
export function PromoBox(props: {
  offers: OfferView[];
  courseId: string;
  educatorId: string;
  origin: string;
  applied: AppliedVoucher | null;
  onApplied: (voucher: AppliedVoucher | null) => void;
}) {
  const { offers, courseId, educatorId, origin, applied, onApplied } = props;
  const [code, setCode] = useState(applied?.code ?? '');
  const [applying, setApplying] = useState(false);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(applied ? { kind: 'ok', text: VOUCHER_SUCCESS_TEXT } : null);
  if (!anyOfferPaid(offers)) return null;
  const inputId = fieldDomId('payload.appliedPromoCode');

  async function apply() {
    const value = code.trim();
    if (!value || applying) return;
    setApplying(true);
    setMessage(null);
    try {
      const result = await checkoutApi.validateVoucher({ code: value, course_ref: courseId, educator_ref: educatorId, origin });
      onApplied({ id: result.voucher_id, code: value });
      setMessage({ kind: 'ok', text: VOUCHER_SUCCESS_TEXT });
    } catch (error) {
      onApplied(null);
      setMessage({ kind: 'error', text: voucherErrorText(toProblem(error)) });
    } finally {
      setApplying(false);
    }
  }

  return (
    <div className="promo">
      <label htmlFor={inputId}>{APPLY_PROMO_TEXT}</label>
      <div className="promo__row">
        <input
          id={inputId}
          type="text"
          autoComplete="off"
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            if (applied) onApplied(null);
            setMessage(null);
          }}
          onKeyDown={(e) => {
            // Enter applies the code instead of submitting the step.
            if (e.key === 'Enter') {
              e.preventDefault();
              void apply();
            }
          }}
          aria-describedby={message ? `${inputId}-message` : undefined}
          aria-invalid={message?.kind === 'error' ? true : undefined}
        />
        <button type="button" className="btn btn--secondary" onClick={() => void apply()} disabled={applying || !code.trim()}>
          {applying ? VOUCHER_APPLYING_TEXT : 'Apply'}
        </button>
      </div>
      <p id={`${inputId}-message`} className={`small promo__message${message?.kind === 'error' ? ' is-error' : ' is-ok'}`} role="status" aria-live="polite">
        {message?.text ?? ''}
      </p>
    </div>
  );
}
