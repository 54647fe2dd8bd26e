/**
 * Spec 2.14 "Payment": a radio list of the methods enabled for the flow (spec 4 "Which payment methods each
 * flow shows"); choosing one submits "payment method selected" (ignored while a response is loading) and
 * expands its form:
 * - Card: the Stripe Payment Element when a publishable key is configured, else the built-in test
 *   provider's card form; Pay confirms with the provider, then "payment was successful".
 * - Wallet provider (PayPal): the provider's buttons; cancelling re-enables the form.
 * - Pay-later provider: Continue.
 * - Invoice: the invoice form, "This invoice will be due by {date}." and "Pay by Invoice".
 * - In-person: the educator's label and message (or "Pay the organizer on the day.") and "Confirm Payment".
 */
import { useEffect, useId, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, $costSummary, $paymentOptions, $submitting, loadPaymentOptions, submitAction } from '../../../stores/checkout.ts';
import { STEP_TITLES } from '../../../domain/checkout/steps.ts';
import { manualPaymentMessage, noPaymentMethodMessage, paymentMethodLabel, resolvePaymentOptions, visiblePaymentMethods, type PaymentMethod } from '../../../domain/checkout/paymentMethods.ts';
import { $identity } from '../identity.ts';
import { CardForm, PayLaterForm } from './CardForms.tsx';
import { WalletButtons } from './WalletButtons.tsx';
import { InvoiceForm } from './InvoiceForm.tsx';
import { Spinner, StepHeading, money, useContinue, useCurrency, usePricesVisible } from '../shared.tsx';
import { CONFIRM_PAYMENT } from '../../../domain/checkout/constants.ts';

interface PaymentState {
  paymentMethod?: string | null;
  clientSecret?: string | null;
  paymentId?: string | null;
  paypalOrderId?: string | null;
}

export default function PaymentStep() {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout)!;
  const options = useStore($paymentOptions);
  const submitting = useStore($submitting);
  const summary = useStore($costSummary);
  const identity = useStore($identity);
  const pricesVisible = usePricesVisible();
  const currency = useCurrency();
  const [loaded, setLoaded] = useState(false);
  const [busy, setBusy] = useState(false);
  /** The method just chosen, shown at once while the server records it. */
  const [pending, setPending] = useState<PaymentMethod | null>(null);
  const groupName = useId();
  useContinue(null);

  useEffect(() => {
    void loadPaymentOptions().finally(() => setLoaded(true));
  }, []);

  const resolved = resolvePaymentOptions(options);
  const methods = visiblePaymentMethods(state.flow, resolved);
  const payment = (state.stepState.payment?.state ?? {}) as PaymentState;
  const stored = (payment.paymentMethod ?? null) as PaymentMethod | null;
  const selected = pending ?? stored;
  const total = state.totalCost ?? summary?.total_cost ?? 0;
  const totalText = pricesVisible ? money(total, currency) : null;
  const contact = state.stepState.contactDetails?.state as { booker?: { formResponse?: Record<string, unknown> } } | undefined;
  const booker = contact?.booker?.formResponse ?? {};
  const billingName = [booker.system_first_name, booker.system_last_name].filter((v) => typeof v === 'string' && v).join(' ') || [identity.firstName, identity.lastName].filter(Boolean).join(' ');
  const billingEmail = (typeof booker.system_email === 'string' && booker.system_email) || identity.email || '';

  function choose(method: PaymentMethod) {
    // Spec 4: ignored while loading.
    if (submitting || busy || method === selected) return;
    setPending(method);
    void submitAction('payment method selected', { paymentMethod: method }).finally(() => setPending(null));
  }

  useEffect(() => {
    // One method only: it is chosen at once.
    if (loaded && methods.length === 1 && !selected && !submitting) choose(methods[0]);
  }, [loaded, methods.length, selected]); // eslint-disable-line react-hooks/exhaustive-deps -- decide again only when the offer or the choice changes: choose() and the methods array are new on every render

  if (!loaded) {
    return (
      <section className="checkout-step stack" aria-labelledby="checkout-step-heading">
        <StepHeading>{STEP_TITLES.payment}</StepHeading>
        <Spinner label="Loading payment methods" />
      </section>
    );
  }

  const ready = (m: PaymentMethod) => stored === m && !pending && !submitting;

  return (
    <section className="checkout-step stack" aria-labelledby="checkout-step-heading">
      <StepHeading>{STEP_TITLES.payment}</StepHeading>
      {totalText && <p className="payment-total">Total to pay: <strong>{totalText}</strong></p>}
      <fieldset className="radio-group payment-methods" disabled={busy}>
        <legend className="visually-hidden">Payment method</legend>
        {methods.map((method) => {
          const label = paymentMethodLabel(method, resolved);
          const panelId = `payment-${method}`;
          return (
            <div key={method} className={`payment-method${selected === method ? ' is-selected' : ''}`}>
              <label className="radio-option">
                <input
                  type="radio"
                  name={groupName}
                  value={method}
                  checked={selected === method}
                  aria-controls={panelId}
                  onChange={() => choose(method)}
                />
                <span>{label}</span>
              </label>
              {selected === method && (
                <div id={panelId} className="payment-method__panel">
                  {method === 'card' && (
                    ready('card') && payment.clientSecret && payment.paymentId ? (
                      <CardForm
                        config={bootstrap.payment.card}
                        clientSecret={payment.clientSecret}
                        paymentId={payment.paymentId}
                        payLabel={totalText ? `Pay ${totalText}` : 'Pay'}
                        billing={{ name: billingName, email: billingEmail }}
                        busy={busy}
                        setBusy={setBusy}
                      />
                    ) : (
                      <Spinner label="Preparing the card payment" />
                    )
                  )}
                  {method === 'klarna' && (
                    ready('klarna') && payment.clientSecret && payment.paymentId ? (
                      <PayLaterForm
                        config={bootstrap.payment.klarna}
                        clientSecret={payment.clientSecret}
                        paymentId={payment.paymentId}
                        billing={{ name: billingName, email: billingEmail }}
                        busy={busy}
                        setBusy={setBusy}
                      />
                    ) : (
                      <Spinner label="Preparing the payment" />
                    )
                  )}
                  {method === 'paypal' && (
                    ready('paypal') && (payment.paypalOrderId || payment.paymentId) ? (
                      <WalletButtons
                        config={bootstrap.payment.paypal}
                        orderId={(payment.paypalOrderId || payment.paymentId)!}
                        totalText={totalText}
                        busy={busy}
                        setBusy={setBusy}
                      />
                    ) : (
                      <Spinner label="Preparing the payment" />
                    )
                  )}
                  {method === 'invoice' && (
                    <InvoiceForm
                      dueDays={(options?.invoice as { due_days?: number } | undefined)?.due_days ?? options?.invoice_due_days ?? 14}
                      initial={{ billing_name: billingName, billing_email: billingEmail }}
                      disabled={submitting || !!pending}
                    />
                  )}
                  {method === 'manual' && (
                    <div className="stack">
                      <p>{manualPaymentMessage(resolved)}</p>
                      <button type="button" className="btn" disabled={submitting || !!pending} onClick={() => void submitAction('manual payment confirmed', {})}>
                        {CONFIRM_PAYMENT}
                      </button>
                    </div>
                  )}
                </div>
              )}
            </div>
          );
        })}
      </fieldset>
      {methods.length === 0 && (
        <p className="alert alert--danger" role="alert">
          {noPaymentMethodMessage(bootstrap.educator?.name, !!bootstrap.course)}
        </p>
      )}
    </section>
  );
}

