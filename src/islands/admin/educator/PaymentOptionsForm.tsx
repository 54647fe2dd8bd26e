/**
 * Payment options (/payments): each method on or off (spec 3: card, PayPal, Klarna, invoice, in person), the
 * in-person label and message, the invoice's due days, saved with one revision; and connecting a Stripe account
 * (Stripe's hosted onboarding, or the offline stand-in in test mode).
 */
import { useEffect, useMemo, useState, type SubmitEvent } from 'react';
import { adminFetch } from '../api.ts';
import { useUnsavedWarning } from '../useUnsavedWarning.ts';
import { AlertSlot, LoadingOrAlert, useAlert, type FormAlert } from './alerts.tsx';
import { Check, Field } from './fields.tsx';
import './educator.css';

type Method = 'card' | 'paypal' | 'klarna' | 'invoice' | 'manual';
const METHODS: Array<{ method: Method; label: string; hint: string }> = [
  { method: 'card', label: 'Card', hint: 'Credit and debit cards, with Apple Pay and Google Pay where the device offers them.' },
  { method: 'paypal', label: 'PayPal', hint: 'Learners pay with their PayPal account.' },
  { method: 'klarna', label: 'Klarna', hint: 'Pay later in instalments.' },
  { method: 'invoice', label: 'Invoice', hint: 'Learners get an invoice to pay by bank transfer before the due date. For booking and order flows.' },
  { method: 'manual', label: 'In person', hint: 'Learners pay you on the day.' },
];

interface View {
  revision: number;
  paymentsMode: 'test' | 'live';
  methods: Record<Method, { enabled: boolean; available: boolean; takenBy: string }>;
  manual: { label: string; message: string; defaultLabel: string; defaultMessage: string };
  invoiceDueDays: number;
  stripe: { mode: 'stripe' | 'test' | 'unavailable'; connected: boolean; accountId: string | null; chargesEnabled: boolean | null };
}

interface Draft { enabled: Record<Method, boolean>; label: string; message: string; dueDays: string }

const draftOf = (v: View): Draft => ({
  enabled: Object.fromEntries(METHODS.map(({ method }) => [method, v.methods[method].enabled])) as Record<Method, boolean>,
  label: v.manual.label,
  message: v.manual.message,
  dueDays: String(v.invoiceDueDays),
});

/** The status line on arriving back from Stripe's onboarding (?stripe=return or ?stripe=refresh). */
function returnedStatus(returned: string | null): string {
  return returned === 'return' ? 'Welcome back from Stripe. Your account status is below.' : returned === 'refresh' ? 'The Stripe link expired. Connect again to continue.' : '';
}

/** The draft as PUT /payment-options takes it, on the revision it was loaded at. */
const saveBody = (view: View, draft: Draft, dueDays: number) => ({
  revision: view.revision,
  card: { enabled: draft.enabled.card },
  paypal: { enabled: draft.enabled.paypal },
  klarna: { enabled: draft.enabled.klarna },
  invoice: { enabled: draft.enabled.invoice, dueDays },
  manual: { enabled: draft.enabled.manual, label: draft.label, message: draft.message },
});

/** The payment options as loaded, the draft, the field messages, the status; loading, saving, connecting Stripe. */
function usePaymentOptions(educatorId: string, returned: string | null) {
  const [view, setView] = useState<View | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [status, setStatus] = useState(returnedStatus(returned));
  const [busy, setBusy] = useState(false);
  const { alert, setAlert, alertRef, showAlert } = useAlert<FormAlert>();
  const base = `/educators/${encodeURIComponent(educatorId)}`;
  const showProblem = (text: string, stale = false) => showAlert({ text, stale });

  async function load() {
    const res = await adminFetch<View>('GET', `${base}/payment-options`);
    if (!res.ok) return setAlert({ text: res.problem.detail });
    setView(res.data);
    setDraft(draftOf(res.data));
    setFields({});
    setAlert(null);
  }
  useEffect(() => {
    void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [educatorId]);

  const dirty = useMemo(() => !!(view && draft && JSON.stringify(draftOf(view)) !== JSON.stringify(draft)), [view, draft]);
  useUnsavedWarning(dirty);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!draft || !view || busy) return;
    if (!/^\d{1,3}$/.test(draft.dueDays.trim())) {
      setFields({ 'invoice.dueDays': 'must be a whole number of days' });
      return showProblem('Please correct the field marked below.');
    }
    setBusy(true);
    setStatus('Saving…');
    const res = await adminFetch<View>('PUT', `${base}/payment-options`, saveBody(view, draft, Number(draft.dueDays)));
    setBusy(false);
    if (res.ok) {
      setView(res.data);
      setDraft(draftOf(res.data));
      setFields({});
      setAlert(null);
      setStatus('Your payment options are saved. New checkouts offer them from now on.');
      return;
    }
    setStatus('');
    setFields(res.problem.fields);
    if (res.problem.status === 409) return showProblem(res.problem.detail, true);
    showProblem(res.problem.fields.methods ? 'Turn on at least one payment method.' : Object.keys(res.problem.fields).length ? 'Please correct the fields marked below.' : res.problem.detail);
  }

  async function connect() {
    setBusy(true);
    setStatus(view?.stripe.mode === 'stripe' ? 'Opening Stripe…' : 'Connecting…');
    const res = await adminFetch<{ status: 'onboarding'; url: string } | { status: 'connected' }>('POST', `${base}/payments/stripe/connect`);
    setBusy(false);
    if (!res.ok) {
      setStatus('');
      return showProblem(res.problem.detail);
    }
    if (res.data.status === 'onboarding') {
      window.location.assign(res.data.url);
      return;
    }
    setStatus('A test account is connected. No real money is taken in test mode.');
    await load();
  }

  return { view, draft, setDraft, fields, alert, alertRef, status, busy, dirty, load, submit, connect };
}

export default function PaymentOptionsForm({ educatorId, returned }: { educatorId: string; returned: string | null }) {
  const options = usePaymentOptions(educatorId, returned);
  const { view, draft, setDraft, fields, busy } = options;

  if (!view || !draft) return <LoadingOrAlert alertRef={options.alertRef} alert={options.alert} loading="Loading your payment options…" />;

  return (
    <form className="edu-form" onSubmit={options.submit} noValidate data-testid="payments-form">
      <AlertSlot alertRef={options.alertRef} alert={options.alert} onReload={() => void options.load()} />
      {view.paymentsMode === 'test' && <p className="admin-status">This marketplace runs in test mode: checkouts take no real money.</p>}

      <section aria-labelledby="sec-methods">
        <h2 id="sec-methods">Payment methods</h2>
        <p className="hint">What learners can pay with in your checkout, unless a course has options of its own.</p>
        {fields.methods && <p className="field-error" id="methods-error">Turn on at least one payment method.</p>}
        <ul className="edu-methods">
          {METHODS.map((m) => <MethodItem key={m.method} {...m} view={view} draft={draft} setDraft={setDraft} fields={fields} />)}
        </ul>
        <div className="edu-savebar">
          <button className="btn" type="submit" disabled={busy}>{busy ? 'Saving…' : 'Save payment options'}</button>
          <p role="status" data-testid="payments-status">{options.status || (options.dirty ? 'You have unsaved changes.' : '')}</p>
        </div>
      </section>

      <StripeSection stripe={view.stripe} busy={busy} onConnect={() => void options.connect()} />
    </form>
  );
}

/** One payment method: on or off, who takes it, and its own settings (the invoice's due days, the in-person texts). */
function MethodItem({ method, label, hint, view, draft, setDraft, fields }: (typeof METHODS)[number] & {
  view: View; draft: Draft; setDraft(next: Draft): void; fields: Record<string, string>;
}) {
  const m = view.methods[method];
  return (
    <li>
      <Check
        id={`pay-${method}`}
        label={label}
        checked={draft.enabled[method]}
        onChange={(v) => setDraft({ ...draft, enabled: { ...draft.enabled, [method]: v } })}
        hint={<>{hint}{m.takenBy !== 'offline' ? (m.available ? ` Taken by ${m.takenBy}.` : ' Not set up on this marketplace yet: it is not offered until it is.') : ''}</>}
        error={fields[method] ?? (method === 'card' ? fields.methods : null)}
      />
      {method === 'invoice' && draft.enabled.invoice && (
        <Field id="pay-invoice-days" label="Invoice due (days after booking)" error={fields['invoice.dueDays']}>
          {(aria) => <input {...aria} type="number" min={0} max={365} step={1} inputMode="numeric" value={draft.dueDays} onChange={(e) => setDraft({ ...draft, dueDays: e.currentTarget.value })} />}
        </Field>
      )}
      {method === 'manual' && draft.enabled.manual && (
        <>
          <Field id="pay-manual-label" label="Name of the method" error={fields['manual.label']} hint={`Empty: "${view.manual.defaultLabel}".`}>
            {(aria) => <input {...aria} type="text" maxLength={60} value={draft.label} onChange={(e) => setDraft({ ...draft, label: e.currentTarget.value })} />}
          </Field>
          <Field id="pay-manual-message" label="Instructions for learners" error={fields['manual.message']} hint={`Empty: "${view.manual.defaultMessage}"`}>
            {(aria) => <textarea {...aria} rows={3} maxLength={500} value={draft.message} onChange={(e) => setDraft({ ...draft, message: e.currentTarget.value })} />}
          </Field>
        </>
      )}
    </li>
  );
}

/** The Stripe account: connected or not, and the button to connect it or finish its set-up. */
function StripeSection({ stripe, busy, onConnect }: { stripe: View['stripe']; busy: boolean; onConnect(): void }) {
  return (
    <section aria-labelledby="sec-stripe">
      <h2 id="sec-stripe">Stripe account</h2>
      <p>Card and Klarna payments are paid into your own Stripe account.</p>
      {stripe.connected ? (
        <p data-testid="stripe-status">
          Connected{stripe.accountId ? <> (<span className="edu-url">{stripe.accountId}</span>)</> : null}.{' '}
          {stripe.mode === 'test' ? 'This is a test stand-in: no real money moves.' : stripe.chargesEnabled ? 'Stripe accepts payments for you.' : 'Stripe still needs some details before it accepts payments.'}
        </p>
      ) : (
        <p data-testid="stripe-status">Not connected yet.</p>
      )}
      {stripe.mode === 'unavailable' ? (
        <p className="edu-note">Stripe is not set up on this marketplace yet.</p>
      ) : (!stripe.connected || (stripe.mode === 'stripe' && !stripe.chargesEnabled)) && (
        <button type="button" className="btn btn--secondary" disabled={busy} onClick={onConnect}>
          {stripe.connected ? 'Finish setting up Stripe' : 'Connect a Stripe account'}
        </button>
      )}
    </section>
  );
}
