/**
 * Small pieces every step uses: the step heading (focus target on step change), the spinner, the +/-
 * quantity control, the Continue registration, the cost summary preview and price texts that respect hidden pricing.
 */
import { useEffect, type DependencyList, type ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, $continue, STEP_FORM_ID, refreshCostSummary } from '../../stores/checkout.ts';
import { costSummaryRequest, type CostSummaryRequestInput } from '../../domain/checkout/ui.ts';
import { ADD_ONE_TO_BASKET, REMOVE_ONE_FROM_BASKET } from '../../domain/checkout/constants.ts';
import { checkoutPricesVisible, offerPriceText } from '../../domain/pricing.ts';
import { formatPence } from '../../domain/money.ts';

export const STEP_HEADING_ID = 'checkout-step-heading';

export function StepHeading({ children }: { children: ReactNode }) {
  return (
    <h2 id={STEP_HEADING_ID} tabIndex={-1} className="checkout-step__title">
      {children}
    </h2>
  );
}

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="checkout-spinner" role="status">
      <span className="checkout-spinner__wheel" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}

/** Registers the step's Continue (null: the step has none) and clears it when the step goes away. */
export function useContinue(value: { enabled: boolean; label?: string } | null): void {
  const enabled = value?.enabled;
  const label = value?.label;
  const present = value !== null;
  useEffect(() => {
    $continue.set(present ? { enabled: !!enabled, label } : null);
  }, [present, enabled, label]);
  useEffect(() => () => $continue.set(null), []);
}

/**
 * Asks for the cost summary a quarter second after the selection last changed, so quick +/- presses make one
 * request. `input` null: nothing to price yet. `deps` are what the input is built from: the wait restarts when
 * one of them changes.
 */
export function useCostSummaryPreview(input: CostSummaryRequestInput | null, deps: DependencyList): void {
  useEffect(() => {
    if (!input) return;
    const timer = window.setTimeout(() => {
      void refreshCostSummary(costSummaryRequest(input));
    }, 250);
    return () => window.clearTimeout(timer);
  }, deps); // eslint-disable-line react-hooks/exhaustive-deps -- the caller lists what the input is built from; the input itself is a new object on every render
}

/** The step's form: Enter submits, and so do the Continue buttons (form attribute). */
export function StepForm({ onSubmit, children, labelledBy = STEP_HEADING_ID }: { onSubmit: () => void; children: ReactNode; labelledBy?: string }) {
  return (
    <form
      id={STEP_FORM_ID}
      className="checkout-step stack"
      aria-labelledby={labelledBy}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** Spec 6 "Hidden pricing": prices are hidden with hide_pricing, except on the marketplace origin. */
export function usePricesVisible(): boolean {
  const bootstrap = useStore($bootstrap);
  const state = useStore($checkout);
  const origin = state?.origin ?? bootstrap?.origin ?? 'marketplace';
  // Hidden pricing is about course prices; what a flow without a course sells (a membership) is always priced.
  if (bootstrap && !bootstrap.course && bootstrap.educator) return true;
  return checkoutPricesVisible(bootstrap?.educator?.featureFlags.hide_pricing, origin);
}

export function useCurrency(): string {
  const bootstrap = useStore($bootstrap);
  const state = useStore($checkout);
  return state?.currency || bootstrap?.course?.currency || 'GBP';
}

export function priceText(price: number | null | undefined, currency: string): string {
  return offerPriceText({ price: price ?? 0 }, currency);
}

export function money(amount: number, currency: string): string {
  return amount < 0 ? `-${formatPence(-amount, currency)}` : formatPence(amount, currency);
}

export interface QuantityProps {
  id: string;
  name: string;
  description?: string | null;
  price?: string | null;
  note?: string | null;
  quantity: number;
  canAdd: boolean;
  canRemove: boolean;
  onChange: (quantity: number) => void;
}

/** Spec 2.14 / 5: an offer or add-on with +/- controls labelled "Add one to basket" / "Remove one from basket". */
export function QuantityRow({ id, name, description, price, note, quantity, canAdd, canRemove, onChange }: QuantityProps) {
  const nameId = `${id}-name`;
  const noteId = `${id}-note`;
  return (
    <li className="qty-row">
      <div className="qty-row__text">
        <span id={nameId} className="qty-row__name">{name}</span>
        {price && <span className="qty-row__price">{price}</span>}
        {description && <span className="qty-row__description small muted">{description}</span>}
        {note && <span id={noteId} className="qty-row__note small">{note}</span>}
      </div>
      <div className="qty-row__control" role="group" aria-labelledby={nameId}>
        <button
          type="button"
          className="qty-btn"
          aria-label={REMOVE_ONE_FROM_BASKET}
          aria-describedby={nameId}
          disabled={!canRemove}
          onClick={() => onChange(quantity - 1)}
        >
          −
        </button>
        <output className="qty-row__value" aria-live="polite" aria-labelledby={nameId} id={`${id}-quantity`}>{quantity}</output>
        <button
          type="button"
          className="qty-btn"
          aria-label={ADD_ONE_TO_BASKET}
          aria-describedby={note ? `${nameId} ${noteId}` : nameId}
          disabled={!canAdd}
          onClick={() => onChange(quantity + 1)}
        >
          +
        </button>
      </div>
    </li>
  );
}
