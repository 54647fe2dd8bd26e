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
import { $identity, type CheckoutIdentity } from '../identity.ts';
import { CardForm, PayLaterForm } from './CardForms.tsx';
import { WalletButtons } from './WalletButtons.tsx';
import { InvoiceForm } from './InvoiceForm.tsx';
import { Spinner, StepHeading, money, useContinue, useCurrency, usePricesVisible } from '../shared.tsx';
import { CONFIRM_PAYMENT } from '../../../domain/checkout/constants.ts';
import { stepStateOf, type PaymentStepState } from '../../../domain/checkout/step-state.ts';
import type { FormResponse } from '../../../domain/checkout/validation.ts';
import type { CheckoutBootstrap, CheckoutState, PaymentOptionsView } from '../types.ts';

type Billing = { name: string; email: string };

/** The payer's name and e-mail for the provider: the booker's answers, else the signed-in account's. */
function billingOf(booker: FormResponse, identity: CheckoutIdentity): Billing {
  const name = [booker.system_first_name, booker.system_last_name].filter((v) => typeof v === 'string' && v).join(' ') || [identity.firstName, identity.lastName].filter(Boolean).join(' ');
  const email = (typeof booker.system_email === 'string' && booker.system_email) || identity.email || '';
  return { name, email };
}

interface PanelProps {
  method: PaymentMethod;
  /** The server recorded this method and nothing is loading: its provider form may show. */
  ready: boolean;
  payment: PaymentStepState | null | undefined;
  config: CheckoutBootstrap['payment'];
  options: PaymentOptionsView | null | undefined;
  resolved: ReturnType<typeof resolvePaymentOptions>;
  totalText: string | null;
  billing: Billing;
  busy: boolean;
  setBusy: (busy: boolean) => void;
  /** A choice or an action is loading. */
  loading: boolean;
}

/** The chosen method's form: the provider's (once the server prepared the payment), the invoice form or the in-person confirmation. */
function MethodPanel({ method, ready, payment, config, options, resolved, totalText, billing, busy, setBusy, loading }: PanelProps) {
  return (
    <>
      {method === 'card' && (
        ready && payment?.clientSecret && payment.paymentId ? (
          <CardForm
            config={config.card}
            clientSecret={payment.clientSecret}
            paymentId={payment.paymentId}
            payLabel={totalText ? `Pay ${totalText}` : 'Pay'}
            billing={billing}
            busy={busy}
            setBusy={setBusy}
          />
        ) : (
          <Spinner label="Preparing the card payment" />
        )
      )}
      {method === 'klarna' && (
        ready && payment?.clientSecret && payment.paymentId ? (
          <PayLaterForm
            config={config.klarna}
            clientSecret={payment.clientSecret}
            paymentId={payment.paymentId}
            billing={billing}
            busy={busy}
            setBusy={setBusy}
          />
        ) : (
          <Spinner label="Preparing the payment" />
        )
      )}
      {method === 'paypal' && (
        ready && (payment?.paypalOrderId || payment?.paymentId) ? (
          <WalletButtons
            config={config.paypal}
            orderId={(payment?.paypalOrderId || payment?.paymentId)!}
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
          initial={{ billing_name: billing.name, billing_email: billing.email }}
          disabled={loading}
        />
      )}
      {method === 'manual' && (
        <div className="stack">
          <p>{manualPaymentMessage(resolved)}</p>
          <button type="button" className="btn" disabled={loading} onClick={() => void submitAction('manual payment confirmed', {})}>
            {CONFIRM_PAYMENT}
          </button>
        </div>
      )}
    </>
  );
}

/**
 * The methods on offer (loaded when the step opens) and the one chosen: choosing submits "payment method selected",
 * shown at once while the server records it; a single method is chosen by itself.
 */
function usePaymentChoice(flow: CheckoutState['flow'], stepState: CheckoutState['stepState'], busy: boolean) {
  const options = useStore($paymentOptions);
  const submitting = useStore($submitting);
  const [loaded, setLoaded] = useState(false);
  /** The method just chosen, shown at once while the server records it. */
  const [pending, setPending] = useState<PaymentMethod | null>(null);

  useEffect(() => {
    void loadPaymentOptions().finally(() => setLoaded(true));
  }, []);

  const resolved = resolvePaymentOptions(options);
  const methods = visiblePaymentMethods(flow, resolved);
  const payment = stepStateOf(stepState, 'payment');
  const stored = (payment?.paymentMethod ?? null) as PaymentMethod | null;
  const selected = pending ?? stored;

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

  return { options, resolved, methods, payment, stored, selected, pending, submitting, loaded, choose };
}

export default function PaymentStep() {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout)!;
  const summary = useStore($costSummary);
  const identity = useStore($identity);
  const pricesVisible = usePricesVisible();
  const currency = useCurrency();
  const [busy, setBusy] = useState(false);
  const { options, resolved, methods, payment, stored, selected, pending, submitting, loaded, choose } = usePaymentChoice(state.flow, state.stepState, busy);
  const groupName = useId();
  useContinue(null);

  const total = state.totalCost ?? summary?.total_cost ?? 0;
  const totalText = pricesVisible ? money(total, currency) : null;
  const billing = billingOf(stepStateOf(state.stepState, 'contactDetails')?.booker?.formResponse ?? {}, identity);

  if (!loaded) {
    return (
      <section className="checkout-step stack" aria-labelledby="checkout-step-heading">
        <StepHeading>{STEP_TITLES.payment}</StepHeading>
        <Spinner label="Loading payment methods" />
      </section>
    );
  }

  return (
    <section className="checkout-step stack" aria-labelledby="checkout-step-heading">
      <StepHeading>{STEP_TITLES.payment}</StepHeading>
      {totalText && <p className="payment-total">Total to pay: <strong>{totalText}</strong></p>}
      <fieldset className="radio-group payment-methods" disabled={busy}>
        <legend className="visually-hidden">Payment method</legend>
        {methods.map((method) => {
          const panelId = `payment-${method}`;
          return (
            <div key={method} className={`payment-method${selected === method ? ' is-selected' : ''}`}>
              <label className="radio-option">
                <input type="radio" name={groupName} value={method} checked={selected === method} aria-controls={panelId} onChange={() => choose(method)} />
                <span>{paymentMethodLabel(method, resolved)}</span>
              </label>
              {selected === method && (
                <div id={panelId} className="payment-method__panel">
                  <MethodPanel
                    method={method}
                    ready={stored === method && !pending && !submitting}
                    payment={payment}
                    config={bootstrap.payment}
                    options={options}
                    resolved={resolved}
                    totalText={totalText}
                    billing={billing}
                    busy={busy}
                    setBusy={setBusy}
                    loading={submitting || !!pending}
                  />
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
