/**
 * What the educator can do on a booking's page: approve it, and the forms that open under the buttons — refund
 * without cancelling, cancel it, decline it, cancel its whole date. Opening a form gives it a fresh request key, so a
 * button pressed twice (or a request repeated after a lost answer) is one refund; the server refuses a refund made
 * on an out-of-date view (expectedRefunds, 409).
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import type { AdminProblem } from '../api.ts';
import { penceFromPounds } from '../../../domain/admin/bookings.ts';
import { methodText, money, newRequestKey, when, giftCardPaid } from './format.ts';
import { ProblemLine, ReasonField, reasonBody, useAdminAction } from './actions.tsx';
import type { Detail } from './booking-detail-types.ts';

type Panel = null | 'refund' | 'cancel' | 'decline' | 'cancel-date';

/** Which form is open, its fields and the action it runs. */
export function useBookingPanel(reload: () => Promise<void>) {
  const [panel, setPanel] = useState<Panel>(null);
  const [key, setKey] = useState(newRequestKey());
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [choice, setChoice] = useState<'full' | 'amount' | 'none'>('full');
  const action = useAdminAction(async () => {
    setPanel(null);
    await reload();
  });
  const open = (which: Panel) => {
    setPanel(which);
    setKey(newRequestKey());
    action.setProblem(null);
    action.setDone(null);
    setAmount('');
    setReason('');
    setChoice('full');
  };
  return { ...action, panel, open, key, amount, setAmount, reason, setReason, choice, setChoice };
}
type BookingPanel = ReturnType<typeof useBookingPanel>;
interface PanelProps { detail: Detail; base: string; ids: string; p: BookingPanel }

/** What the learner is told a refund came to, from the refund in an action's answer. */
function refundWords(r: { amount?: number; gift_card_amount?: number; status?: string } | undefined, cur: string): string {
  if (!r) return 'Done.';
  const total = Number(r.amount ?? 0) + Number(r.gift_card_amount ?? 0);
  if (total === 0) return 'Nothing was refunded.';
  return r.status === 'pending' ? `A refund of ${money(total, cur)} is being made.` : r.status === 'failed' ? `The refund of ${money(total, cur)} failed: arrange it yourself.` : `${money(total, cur)} refunded.`;
}

/** The problem shown when the amount typed is not one (checked here, before asking the server). */
function amountProblem(): AdminProblem {
  return { status: 400, title: 'Validation Error', detail: 'Enter the amount to refund in pounds, e.g. 12.50.', fields: { amount: 'must be an amount in pounds, e.g. 12.50' }, raw: {} };
}

function AmountField({ p, ids, label, hint }: { p: BookingPanel; ids: string; label: string; hint: string }) {
  const amountId = `${ids}-amount`;
  const amountError = p.problem?.fields.amount;
  return (
    <div className="admin-field">
      <label htmlFor={amountId}>{label}</label>
      <input id={amountId} inputMode="decimal" value={p.amount} onChange={(e) => p.setAmount(e.target.value)} aria-invalid={amountError ? true : undefined}
        aria-describedby={`${amountId}-hint${amountError ? ` ${amountId}-error` : ''}`} />
      <p className="hint" id={`${amountId}-hint`}>{hint}</p>
      {amountError ? <p className="field-error" id={`${amountId}-error`}>{amountError}</p> : null}
    </div>
  );
}

/**
 * One action's form: its heading, what is particular to it (`children`), the message to the learner(s), a note after
 * it, the problem, and the submit button (which says what it is doing while the action runs).
 */
function PanelForm({ p, ids, label, heading, reasonLabel = 'Message to the learner (optional)', after, submit, busyText, danger = true, onSubmit, children }: {
  p: BookingPanel; ids: string; label: string; heading: string; reasonLabel?: string; after?: ReactNode; submit: string; busyText: string; danger?: boolean;
  onSubmit: (event: FormEvent) => void; children: ReactNode;
}) {
  return (
    <form className="booking-panel" onSubmit={onSubmit} aria-label={label}>
      <h3>{heading}</h3>
      {children}
      <ReasonField id={`${ids}-reason`} label={reasonLabel} value={p.reason} onChange={p.setReason} hint="Sent to the learner in the e-mail." />
      {after}
      <ProblemLine problem={p.problem} />
      <button type="submit" className={danger ? 'btn btn--danger' : 'btn'} disabled={p.busy}>{p.busy ? busyText : submit}</button>
    </form>
  );
}

function Choice({ name, checked, onChange, children }: { name: string; checked: boolean; onChange: () => void; children: ReactNode }) {
  return <label className="booking-choice"><input type="radio" name={name} checked={checked} onChange={onChange} /> {children}</label>;
}

function RefundPanel({ detail, base, ids, p }: PanelProps) {
  const b = detail.booking;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const pence = penceFromPounds(p.amount);
    if (pence === null) {
      p.setProblem(amountProblem());
      return;
    }
    void p.act(`${base}/bookings/${encodeURIComponent(b.id)}/refunds`, {
      amount: pence, requestKey: p.key, expectedRefunds: detail.money.expectedRefunds, ...reasonBody(p.reason),
    }, (d) => refundWords(d.refund as never, b.currency));
  };
  return (
    <PanelForm p={p} ids={ids} label="Refund" heading="Refund without cancelling" submit="Refund" busyText="Refunding…" danger={false} onSubmit={submit}>
      <AmountField p={p} ids={ids} label="Amount to refund (£)" hint={`Up to ${money(detail.money.left.total, b.currency)}. It goes back to the ${methodText(b.paymentMethod)} first${detail.money.left.giftCard ? ', then to the gift card' : ''}.`} />
    </PanelForm>
  );
}

function CancelPanel({ detail, base, ids, p }: PanelProps) {
  const b = detail.booking;
  const cur = b.currency;
  const left = detail.money.left.total;
  const minimum = detail.money.cancellationMinimum;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const pence = penceFromPounds(p.amount);
    if (p.choice === 'amount' && pence === null) {
      p.setProblem(amountProblem());
      return;
    }
    void p.act(`${base}/bookings/${encodeURIComponent(b.id)}/cancel`, {
      refund: p.choice, ...(p.choice === 'amount' ? { amount: pence } : {}), requestKey: p.key, expectedRefunds: detail.money.expectedRefunds,
      ...reasonBody(p.reason),
    }, (d) => `Booking cancelled. ${refundWords(d.refund as never, cur)}`);
  };
  return (
    <PanelForm p={p} ids={ids} label="Cancel booking" heading="Cancel this booking" submit="Cancel booking" busyText="Cancelling…" onSubmit={submit}
      after={<p className="hint">The learner is e-mailed; the spaces go back to the date.</p>}>
      <fieldset>
        <legend>Refund</legend>
        {left > 0 && <Choice name={`${ids}-choice`} checked={p.choice === 'full'} onChange={() => p.setChoice('full')}>In full ({money(left, cur)})</Choice>}
        {left > 0 && <Choice name={`${ids}-choice`} checked={p.choice === 'amount'} onChange={() => p.setChoice('amount')}>Part of it</Choice>}
        <Choice name={`${ids}-choice`} checked={p.choice === 'none' || left === 0} onChange={() => p.setChoice('none')}>{minimum > 0 ? `Only the platform fee (${money(minimum, cur)})` : 'Nothing'}</Choice>
      </fieldset>
      {p.choice === 'amount' && <AmountField p={p} ids={ids} label="Amount to refund (£)" hint={`Between ${money(Math.max(minimum, 1), cur)} and ${money(left, cur)}. The platform fee the learner paid is always refunded on a cancellation.`} />}
    </PanelForm>
  );
}

function DeclinePanel({ detail, base, ids, p }: PanelProps) {
  const b = detail.booking;
  const paidGross = b.totalCost + giftCardPaid(b.costSummary);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void p.act(`${base}/bookings/${encodeURIComponent(b.id)}/decline`, { requestKey: p.key, ...reasonBody(p.reason) },
      (d) => `Booking declined. ${refundWords(d.refund as never, b.currency)}`);
  };
  return (
    <PanelForm p={p} ids={ids} label="Decline booking" heading="Decline this booking" submit="Decline booking" busyText="Declining…" onSubmit={submit}>
      <p>{paidGross > 0 ? `The learner is refunded in full (${money(detail.money.left.total, b.currency)}) and e-mailed; the spaces go back to the date.` : 'The learner is e-mailed; the spaces go back to the date.'}</p>
    </PanelForm>
  );
}

/** What the educator is told after cancelling a date, from the action's answer. */
function dateCancelledWords(d: Record<string, unknown>): string {
  const n = (d.cancelled as unknown[]).length;
  const failed = (d.failed as unknown[]).length;
  return `The date is cancelled: ${n} ${n === 1 ? 'booking' : 'bookings'} cancelled and their learners e-mailed${failed ? `; ${failed} could not be cancelled now — try again` : ''}.`;
}

function CancelDatePanel({ detail, base, ids, p }: PanelProps) {
  const b = detail.booking;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!b.occurrence) return;
    void p.act(`${base}/occurrences/${encodeURIComponent(b.occurrence.id)}/cancel`, {
      refund: p.choice === 'none' ? 'none' : 'full', requestKey: p.key, ...reasonBody(p.reason),
    }, dateCancelledWords);
  };
  return (
    <PanelForm p={p} ids={ids} label="Cancel the whole date" heading="Cancel the whole date" reasonLabel="Message to the learners (optional)" submit="Cancel the date" busyText="Cancelling…" onSubmit={submit}>
      <p>Every booking on {when(b.start, b.end)} is cancelled and its learner e-mailed. The date is no longer shown on your pages.</p>
      <fieldset>
        <legend>Refunds</legend>
        <Choice name={`${ids}-date-choice`} checked={p.choice !== 'none'} onChange={() => p.setChoice('full')}>Refund everyone in full</Choice>
        <Choice name={`${ids}-date-choice`} checked={p.choice === 'none'} onChange={() => p.setChoice('none')}>Refund only the platform fees</Choice>
      </fieldset>
    </PanelForm>
  );
}

function PanelToggle({ p, which, children }: { p: BookingPanel; which: Exclude<Panel, null>; children: ReactNode }) {
  return <button type="button" className="btn btn--secondary" aria-expanded={p.panel === which} onClick={() => p.open(p.panel === which ? null : which)}>{children}</button>;
}

/** The buttons (what the booking's state allows), the open form under them, and a problem when no form is open. */
export function BookingActions(props: PanelProps) {
  const { detail, base, p } = props;
  const b = detail.booking;
  const approve = () => void p.act(`${base}/bookings/${encodeURIComponent(b.id)}/approve`, {}, () => 'Booking approved: the learner has been e-mailed their confirmation.');
  return (
    <>
      <div className="booking-actions">
        {b.status === 'awaiting-approval' && <button type="button" className="btn" disabled={p.busy} onClick={approve}>Approve</button>}
        {b.status === 'awaiting-approval' && <PanelToggle p={p} which="decline">Decline…</PanelToggle>}
        {detail.money.left.total > 0 && <PanelToggle p={p} which="refund">Refund…</PanelToggle>}
        {b.status !== 'cancelled' && <PanelToggle p={p} which="cancel">Cancel booking…</PanelToggle>}
        {b.occurrence && <PanelToggle p={p} which="cancel-date">Cancel the whole date…</PanelToggle>}
      </div>
      {p.panel === 'refund' && <RefundPanel {...props} />}
      {p.panel === 'cancel' && <CancelPanel {...props} />}
      {p.panel === 'decline' && <DeclinePanel {...props} />}
      {p.panel === 'cancel-date' && b.occurrence && <CancelDatePanel {...props} />}
      {!p.panel && <ProblemLine problem={p.problem} />}
    </>
  );
}
