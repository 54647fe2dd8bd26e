/**
 * Card and pay-later payment (spec 2.14 "Payment", 4 "Outcomes", 8 "Card provider").
 * - With a Stripe publishable key: the Payment Element (loadStripe from @stripe/stripe-js, loaded on demand);
 *   confirmPayment / confirmSetup with billing_details {name, email} and return_url, redirecting only when
 *   the method needs it.
 * - Otherwise the built-in test provider: card number, expiry and CVC, confirmed with
 *   POST /api/test-payments/{id}/confirm. 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined,
 *   4000 0025 0000 3155 needs a 3-D Secure style redirect (the return is handled by the store).
 * A confirmed payment is reported with "payment was successful"; the server checks it with the provider.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import type { Stripe, StripeElements } from '@stripe/stripe-js';
import { $checkout, followPaymentRedirect, showProblem, submitAction } from '../../../stores/checkout.ts';
import { cardPaymentSucceeded } from '../../../domain/checkout/outcomes.ts';
import { cardProviderProblem, problems } from '../../../domain/problems.ts';

const cardRedirectFailedProblem = () => problems.cardRedirectFailed();
import { checkoutApi, toProblem } from '../api.ts';
import type { PublicProviderConfig } from '../types.ts';
import { stepStateOf } from '../../../domain/checkout/step-state.ts';

/** The widget of the provider that takes the method (undefined: not offered, never rendered). */
type CardConfig = PublicProviderConfig | undefined;

interface PaymentProps {
  config: CardConfig;
  clientSecret: string;
  paymentId: string;
  billing: { name: string; email: string };
  busy: boolean;
  setBusy: (busy: boolean) => void;
}

/** Card test numbers of the built-in provider (api/payments/test-provider.ts). */
const TEST_REDIRECT_CARD = '4000002500003155';

function returnUrl(): string {
  return window.location.href;
}

async function reportSuccess(): Promise<void> {
  await submitAction('payment was successful', {});
}

/** Confirms a test payment; follows a redirect, reports success, or shows the card problem. */
async function confirmTest(paymentId: string, clientSecret: string, cardNumber: string): Promise<'redirect' | 'done' | 'failed'> {
  try {
    const result = await checkoutApi.confirmTestPayment(paymentId, { card_number: cardNumber, client_secret: clientSecret, return_url: returnUrl() });
    const redirect = result.next_action?.redirect_to_url?.url;
    if (redirect) {
      const outcome = await followPaymentRedirect(redirect);
      if (outcome === 'navigating') return 'redirect';
      if (outcome === 'failed') showProblem(cardRedirectFailedProblem());
      return outcome === 'completed' ? 'done' : 'failed';
    }
    if (cardPaymentSucceeded({ paymentStatus: result.status })) {
      await reportSuccess();
      return 'done';
    }
    showProblem(cardProviderProblem(result.last_payment_error ?? null));
    return 'failed';
  } catch (error) {
    showProblem(toProblem(error));
    return 'failed';
  }
}

function digits(value: string): string {
  return value.replace(/\D/g, '');
}

function formatCardNumber(value: string): string {
  return digits(value).slice(0, 19).replace(/(\d{4})(?=\d)/g, '$1 ');
}

function formatExpiry(value: string): string {
  const d = digits(value).slice(0, 4);
  return d.length > 2 ? `${d.slice(0, 2)} / ${d.slice(2)}` : d;
}

/** Checks the entries before asking the provider (its messages, spec 8 card validation_error). */
function cardEntryError(number: string, expiry: string, cvc: string): string | null {
  const n = digits(number);
  if (n.length < 12 || n.length > 19) return 'Your card number is incomplete.';
  const e = digits(expiry);
  if (e.length !== 4) return "Your card's expiration date is incomplete.";
  const month = Number(e.slice(0, 2));
  const year = 2000 + Number(e.slice(2));
  if (month < 1 || month > 12) return "Your card's expiration date is invalid.";
  const now = new Date();
  if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) return "Your card's expiration date is in the past.";
  const c = digits(cvc);
  if (c.length < 3 || c.length > 4) return "Your card's security code is incomplete.";
  return null;
}

function TestCardForm({ clientSecret, paymentId, busy, setBusy, payLabel }: PaymentProps & { payLabel: string }) {
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [entryError, setEntryError] = useState<string | null>(null);
  const id = useId();

  async function pay() {
    if (busy) return;
    const error = cardEntryError(number, expiry, cvc);
    setEntryError(error);
    if (error) {
      showProblem(cardProviderProblem({ type: 'validation_error', message: error }));
      return;
    }
    setBusy(true);
    showProblem(null);
    const outcome = await confirmTest(paymentId, clientSecret, digits(number));
    if (outcome !== 'redirect') setBusy(false);
  }

  return (
    <form
      className="card-form stack"
      aria-label="Card details"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void pay();
      }}
    >
      <div className="field">
        <label htmlFor={`${id}-number`}>Card number</label>
        <input
          id={`${id}-number`}
          name="cardnumber"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          value={number}
          aria-invalid={entryError?.includes('number') ? true : undefined}
          onChange={(e) => setNumber(formatCardNumber(e.target.value))}
        />
      </div>
      <div className="card-form__row">
        <div className="field">
          <label htmlFor={`${id}-expiry`}>Expiry date</label>
          <input
            id={`${id}-expiry`}
            name="exp-date"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM / YY"
            value={expiry}
            aria-describedby={`${id}-expiry-help`}
            aria-invalid={entryError?.includes('expiration') ? true : undefined}
            onChange={(e) => setExpiry(formatExpiry(e.target.value))}
          />
          <span id={`${id}-expiry-help`} className="visually-hidden">Month and year, for example 04 / 30</span>
        </div>
        <div className="field">
          <label htmlFor={`${id}-cvc`}>Security code (CVC)</label>
          <input
            id={`${id}-cvc`}
            name="cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="CVC"
            maxLength={4}
            value={cvc}
            aria-invalid={entryError?.includes('security') ? true : undefined}
            onChange={(e) => setCvc(digits(e.target.value).slice(0, 4))}
          />
        </div>
      </div>
      <p className="small muted">Test payments: use 4242 4242 4242 4242 with any future date and any CVC.</p>
      <button type="submit" className="btn btn--block" disabled={busy}>{busy ? 'Processing…' : payLabel}</button>
    </form>
  );
}

/** The Stripe Payment Element for a payment (or setup) intent. */
function StripeElementForm({ config, clientSecret, billing, busy, setBusy, submitLabel }: PaymentProps & { submitLabel: string }) {
  const state = useStore($checkout);
  const mountRef = useRef<HTMLDivElement>(null);
  const stripeRef = useRef<{ stripe: Stripe; elements: StripeElements } | null>(null);
  const [ready, setReady] = useState(false);
  const publishableKey = config?.provider === 'stripe' ? config.publishableKey : '';
  const connectedAccount = stepStateOf(state?.stepState, 'payment')?.connectedAccountId ?? undefined;

  useEffect(() => {
    let cancelled = false;
    let element: { destroy(): void } | null = null;
    (async () => {
      try {
        const { loadStripe } = await import('@stripe/stripe-js/pure');
        const stripe = await loadStripe(publishableKey, connectedAccount ? { stripeAccount: connectedAccount } : undefined);
        if (!stripe || cancelled || !mountRef.current) return;
        const brand = getComputedStyle(document.documentElement).getPropertyValue('--brand').trim() || undefined;
        const elements = stripe.elements({ clientSecret, appearance: { theme: 'stripe', variables: brand ? { colorPrimary: brand } : {} } });
        const payment = elements.create('payment', { defaultValues: { billingDetails: { name: billing.name, email: billing.email } } });
        payment.mount(mountRef.current);
        payment.on('ready', () => setReady(true));
        element = payment;
        stripeRef.current = { stripe, elements };
      } catch {
        if (!cancelled) showProblem(cardProviderProblem(null));
      }
    })();
    return () => {
      cancelled = true;
      element?.destroy();
    };
  }, [publishableKey, clientSecret, connectedAccount]); // eslint-disable-line react-hooks/exhaustive-deps -- the billing details only pre-fill the element; re-mounting it as they change would wipe the card being typed

  async function pay() {
    const s = stripeRef.current;
    if (!s || busy) return;
    setBusy(true);
    showProblem(null);
    try {
      const { error: submitError } = await s.elements.submit();
      if (submitError) {
        showProblem(cardProviderProblem(submitError));
        return;
      }
      const confirmParams = { return_url: returnUrl(), payment_method_data: { billing_details: { name: billing.name, email: billing.email } } };
      if (clientSecret.startsWith('seti_')) {
        const result = await s.stripe.confirmSetup({ elements: s.elements, confirmParams, redirect: 'if_required' });
        if (result.error) showProblem(cardProviderProblem(result.error));
        else if (cardPaymentSucceeded({ setupStatus: result.setupIntent?.status })) await reportSuccess();
        else showProblem(cardProviderProblem(null));
      } else {
        const result = await s.stripe.confirmPayment({ elements: s.elements, confirmParams, redirect: 'if_required' });
        if (result.error) showProblem(cardProviderProblem(result.error));
        else if (cardPaymentSucceeded({ paymentStatus: result.paymentIntent?.status })) await reportSuccess();
        else showProblem(cardProviderProblem(null));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="card-form stack"
      aria-label="Payment details"
      onSubmit={(e) => {
        e.preventDefault();
        void pay();
      }}
    >
      <div ref={mountRef} className="stripe-element" />
      {!ready && <p className="small muted" role="status">Loading the secure payment form…</p>}
      <button type="submit" className="btn btn--block" disabled={busy || !ready}>{busy ? 'Processing…' : submitLabel}</button>
    </form>
  );
}

/** Card, including device wallet pay (through the Payment Element when Stripe is configured). */
export function CardForm(props: PaymentProps & { payLabel: string }) {
  if (props.config?.provider === 'stripe') return <StripeElementForm {...props} submitLabel={props.payLabel} />;
  return <TestCardForm {...props} />;
}

/** The pay-later provider: Continue (the provider's own pages take it from there). */
export function PayLaterForm(props: PaymentProps) {
  if (props.config?.provider === 'stripe') return <StripeElementForm {...props} submitLabel="Continue" />;
  const { paymentId, clientSecret, busy, setBusy } = props;
  return (
    <div className="stack">
      <p className="small muted">You will be taken to the pay-later provider to confirm, then brought back here.</p>
      <button
        type="button"
        className="btn btn--block"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          showProblem(null);
          // The test provider stands in for the pay-later provider's redirect.
          const outcome = await confirmTest(paymentId, clientSecret, TEST_REDIRECT_CARD);
          if (outcome !== 'redirect') setBusy(false);
        }}
      >
        Continue
      </button>
    </div>
  );
}
