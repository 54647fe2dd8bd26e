/**
 * /requests: what waits for the educator (docs/admin.md "Approvals and requests") — bookings awaiting approval
 * (approve, or decline with a full refund), booking applications (accept: booked, paid in person; or decline), and
 * booking requests (answer with a date and a price: the learner is e-mailed a link that books it through the
 * checkout; or decline) — and the answers given lately. Every decision e-mails the learner; the result is announced.
 */
import { useCallback, useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { adminFetch } from '../api.ts';
import { londonDateTime, penceFromPounds } from '../../../domain/admin/bookings.ts';
import { adminHref, at, money, newRequestKey, originText, paidText, when } from './format.ts';
import { DoneStatus, ProblemLine, ReasonField, reasonBody, useAdminAction } from './actions.tsx';
import './bookings.css';

interface Learner { name: string; email: string | null }
interface Awaiting { id: string; createdAt: number; start: number | null; end: number | null; spaces: number; totalCost: number; currency: string; paymentMethod: string | null; paymentState: string; origin: string; course: { id: string; name: string }; learner: Learner }
interface Application { id: string; createdAt: number; start: number | null; end: number | null; spaces: number; spacesLeft: number | null; totalCost: number; currency: string; origin: string; course: { id: string; name: string }; learner: Learner }
interface Request { id: string; flow: string; createdAt: number; origin: string; course: { id: string; name: string; type: string }; learner: Learner; message: string | null; preferredDates: string[]; spaces: number }
interface Answered { id: string; requestId: string; price: number; spaces: number; start: number; end: number; expiresAt: number; createdAt: number; courseName: string; learner: Learner; bookingId: string | null; state: string }
interface Lists { awaitingApproval: Awaiting[]; applications: Application[]; requests: Request[]; answered: Answered[] }

const FLOW_NAMES: Record<string, string> = { request: 'Booking request', dateBookingRequest: 'Date request', groupBookingRequest: 'Group booking request' };
const STATES: Record<string, string> = { booked: 'Booked', waiting: 'Waiting for the learner', expired: 'Expired', withdrawn: 'Withdrawn' };

function learnerText(l: Learner): string {
  return [l.name, l.email].filter(Boolean).join(' · ') || 'A learner';
}

const spacesText = (n: number) => `${n} ${n === 1 ? 'space' : 'spaces'}`;

type OpenKind = 'decline-booking' | 'decline-application' | 'answer' | 'decline-request';
type Open = { kind: OpenKind; id: string } | null;

function emptyForm(spaces?: number) {
  return { reason: '', date: '', startTime: '10:00', endTime: '12:00', price: '', spaces: spaces ? String(spaces) : '', message: '', validDays: '7' };
}
type AnswerForm = ReturnType<typeof emptyForm>;

/** The lists, which form is open (at most one, under its item) with its fields, and the action it runs. */
function useRequests(base: string) {
  const [lists, setLists] = useState<Lists | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<Open>(null);
  const [key, setKey] = useState(newRequestKey());
  const [form, setForm] = useState(emptyForm());

  const load = useCallback(async () => {
    const res = await adminFetch<Lists>('GET', `${base}/requests`);
    if (res.ok) setLists(res.data);
    else setError(res.problem.detail);
  }, [base]);
  useEffect(() => {
    void load();
  }, [load]);

  const action = useAdminAction(async () => {
    setOpen(null);
    await load();
  });
  const act = (path: string, body: unknown, success: string) => action.act(`${base}${path}`, body, () => success);
  const toggle = (next: Open, spaces?: number) => {
    const same = open && next && open.kind === next.kind && open.id === next.id;
    setOpen(same ? null : next);
    setKey(newRequestKey());
    action.setProblem(null);
    setForm(emptyForm(spaces));
  };
  const isOpen = (kind: OpenKind, id: string) => open?.kind === kind && open.id === id;
  return { ...action, lists, error, open, isOpen, toggle, key, form, setForm, act };
}
type Panel = ReturnType<typeof useRequests>;
interface PanelProps { p: Panel; ids: string }

/** The body of an answer to a request, or the fields that are wrong. */
function answerBody(form: AnswerForm): { body: Record<string, unknown> } | { fields: Record<string, string> } {
  const start = londonDateTime(form.date, form.startTime);
  const end = londonDateTime(form.date, form.endTime);
  const price = penceFromPounds(form.price);
  const fields: Record<string, string> = {};
  if (start === null) fields.start = 'must be a date and a time';
  if (end === null) fields.end = 'must be a time';
  if (price === null) fields.price = 'must be an amount in pounds, e.g. 180 or 180.00';
  if (Object.keys(fields).length) return { fields };
  return {
    body: {
      start, end, price, ...(form.spaces ? { spaces: Number(form.spaces) } : {}), ...(form.message.trim() ? { message: form.message.trim() } : {}),
      validDays: Number(form.validDays) || 7,
    },
  };
}

function Reason({ p, ids }: PanelProps) {
  return <ReasonField id={`${ids}-reason`} label="Message to the learner (optional)" value={p.form.reason} onChange={(reason) => p.setForm({ ...p.form, reason })} />;
}

/** A decline form: what it says, the message to the learner, the problem and its button. */
function DeclineForm({ p, ids, label, button, onSubmit, children }: PanelProps & { label: string; button: string; onSubmit: () => void; children?: ReactNode }) {
  return (
    <form className="booking-panel" aria-label={label} onSubmit={(e) => {
      e.preventDefault();
      onSubmit();
    }}>
      {children}
      <Reason p={p} ids={ids} />
      <ProblemLine problem={p.problem} />
      <button type="submit" className="btn btn--danger" disabled={p.busy}>{button}</button>
    </form>
  );
}

function AwaitingItem({ p, ids, b, educatorId }: PanelProps & { b: Awaiting; educatorId: string }) {
  const refunded = b.paymentState === 'paid' && b.totalCost > 0;
  return (
    <li className="requests-item" data-booking={b.id}>
      <h3><a href={adminHref(`/bookings/${encodeURIComponent(b.id)}`, educatorId)}>{learnerText(b.learner)}</a></h3>
      <span>{b.course.name} · {when(b.start, b.end)} · {spacesText(b.spaces)}</span>
      <span className="bookings-sub">{paidText({ ...b, refundedTotal: 0 })} · from the {originText(b.origin).toLowerCase()} · booked {at(b.createdAt)}</span>
      <div className="booking-actions">
        <button type="button" className="btn" disabled={p.busy} onClick={() => void p.act(`/bookings/${encodeURIComponent(b.id)}/approve`, {}, `Approved: ${learnerText(b.learner)} has been e-mailed their confirmation.`)}>Approve</button>
        <button type="button" className="btn btn--secondary" aria-expanded={p.isOpen('decline-booking', b.id)} onClick={() => p.toggle({ kind: 'decline-booking', id: b.id })}>Decline…</button>
      </div>
      {p.isOpen('decline-booking', b.id) && (
        <DeclineForm p={p} ids={ids} label="Decline booking" button="Decline booking"
          onSubmit={() => void p.act(`/bookings/${encodeURIComponent(b.id)}/decline`, { requestKey: p.key, ...reasonBody(p.form.reason) }, `Declined: ${learnerText(b.learner)} has been e-mailed${refunded ? ' and refunded in full' : ''}.`)}>
          <p>{refunded ? `The learner is refunded ${money(b.totalCost, b.currency)} in full.` : 'Nothing was paid.'} The spaces go back to the date.</p>
        </DeclineForm>
      )}
    </li>
  );
}

function ApplicationItem({ p, ids, a }: PanelProps & { a: Application }) {
  return (
    <li className="requests-item" data-application={a.id}>
      <h3>{learnerText(a.learner)}</h3>
      <span>{a.course.name} · {when(a.start, a.end)} · {spacesText(a.spaces)}{a.spacesLeft !== null ? ` (${a.spacesLeft} left)` : ''}</span>
      <span className="bookings-sub">{a.totalCost > 0 ? `${money(a.totalCost, a.currency)}, paid in person once accepted` : 'Free'} · applied {at(a.createdAt)} · {a.id}</span>
      <div className="booking-actions">
        <button type="button" className="btn" disabled={p.busy} onClick={() => void p.act(`/applications/${encodeURIComponent(a.id)}/accept`, {}, `Accepted: ${learnerText(a.learner)} is booked and has been e-mailed.`)}>Accept</button>
        <button type="button" className="btn btn--secondary" aria-expanded={p.isOpen('decline-application', a.id)} onClick={() => p.toggle({ kind: 'decline-application', id: a.id })}>Decline…</button>
      </div>
      {p.isOpen('decline-application', a.id) && (
        <DeclineForm p={p} ids={ids} label="Decline application" button="Decline application"
          onSubmit={() => void p.act(`/applications/${encodeURIComponent(a.id)}/decline`, reasonBody(p.form.reason), `Declined: ${learnerText(a.learner)} has been e-mailed.`)} />
      )}
      {!p.open && p.problem && <ProblemLine problem={p.problem} />}
    </li>
  );
}

function AnswerField({ p, ids, name, label, type, problemKey, extra = {} }: PanelProps & {
  name: 'date' | 'startTime' | 'endTime' | 'price' | 'spaces' | 'validDays'; label: string; type: string; problemKey: string; extra?: Record<string, unknown>;
}) {
  const id = `${ids}-${name}`;
  const message = p.problem?.fields[problemKey];
  return (
    <div className="admin-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type={type} value={p.form[name]} onChange={(e) => p.setForm({ ...p.form, [name]: e.target.value })}
        aria-invalid={message ? true : undefined} aria-describedby={message ? `${id}-error` : undefined} {...extra} />
      {message && <p className="field-error" id={`${id}-error`}>{message}</p>}
    </div>
  );
}

function AnswerRequestForm({ p, ids, r }: PanelProps & { r: Request }) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = answerBody(p.form);
    if ('fields' in checked) {
      p.setProblem({ status: 400, title: 'Validation Error', detail: 'Check the date, times and price.', fields: checked.fields, raw: {} });
      return;
    }
    void p.act(`/requests/${encodeURIComponent(r.id)}/answer`, checked.body, `Answer sent: ${learnerText(r.learner)} has been e-mailed a link to book it.`);
  };
  return (
    <form className="booking-panel" aria-label="Answer the request" onSubmit={submit}>
      <div className="requests-grid">
        <AnswerField p={p} ids={ids} name="date" label="Date" type="date" problemKey="start" extra={{ required: true }} />
        <AnswerField p={p} ids={ids} name="startTime" label="Starts (UK time)" type="time" problemKey="start" extra={{ required: true }} />
        <AnswerField p={p} ids={ids} name="endTime" label="Ends (UK time)" type="time" problemKey="end" extra={{ required: true }} />
        <AnswerField p={p} ids={ids} name="price" label="Price for all the spaces (£)" type="text" problemKey="price" extra={{ inputMode: 'decimal', required: true }} />
        <AnswerField p={p} ids={ids} name="spaces" label="Spaces" type="number" problemKey="spaces" extra={{ min: 1, max: 500 }} />
        <AnswerField p={p} ids={ids} name="validDays" label="Days to book it" type="number" problemKey="validDays" extra={{ min: 1, max: 60 }} />
      </div>
      <div className="admin-field">
        <label htmlFor={`${ids}-message`}>Message to the learner (optional)</label>
        <textarea id={`${ids}-message`} rows={3} maxLength={2000} value={p.form.message} onChange={(e) => p.setForm({ ...p.form, message: e.target.value })} />
      </div>
      <p className="hint">The learner gets a link to book it through the checkout; the platform fee and your VAT are added as for any booking.</p>
      <ProblemLine problem={p.problem} />
      <button type="submit" className="btn" disabled={p.busy}>{p.busy ? 'Sending…' : 'Send the answer'}</button>
    </form>
  );
}

function RequestItem({ p, ids, r }: PanelProps & { r: Request }) {
  return (
    <li className="requests-item" data-request={r.id}>
      <h3>{FLOW_NAMES[r.flow] ?? r.flow}: {learnerText(r.learner)}</h3>
      <span>{r.course.name} · {spacesText(r.spaces)}{r.preferredDates.length ? ` · asked for ${r.preferredDates.join(', ')}` : ''}</span>
      {r.message && <span>“{r.message}”</span>}
      <span className="bookings-sub">Sent {at(r.createdAt)} from the {originText(r.origin).toLowerCase()} · {r.id}</span>
      <div className="booking-actions">
        <button type="button" className="btn" aria-expanded={p.isOpen('answer', r.id)} onClick={() => p.toggle({ kind: 'answer', id: r.id }, r.spaces)}>Answer with a date and price…</button>
        <button type="button" className="btn btn--secondary" aria-expanded={p.isOpen('decline-request', r.id)} onClick={() => p.toggle({ kind: 'decline-request', id: r.id })}>Decline…</button>
      </div>
      {p.isOpen('answer', r.id) && <AnswerRequestForm p={p} ids={ids} r={r} />}
      {p.isOpen('decline-request', r.id) && (
        <DeclineForm p={p} ids={ids} label="Decline the request" button="Decline request"
          onSubmit={() => void p.act(`/requests/${encodeURIComponent(r.id)}/decline`, reasonBody(p.form.reason), `Declined: ${learnerText(r.learner)} has been e-mailed.`)} />
      )}
    </li>
  );
}

function AnsweredItem({ q, educatorId }: { q: Answered; educatorId: string }) {
  return (
    <li className="requests-item">
      <h3>{learnerText(q.learner)}: {STATES[q.state] ?? q.state}</h3>
      <span>{q.courseName} · {when(q.start, q.end)} · {spacesText(q.spaces)} · {q.price > 0 ? money(q.price) : 'Free'}</span>
      <span className="bookings-sub">{q.bookingId ? <a href={adminHref(`/bookings/${encodeURIComponent(q.bookingId)}`, educatorId)}>See the booking</a> : `Book by ${at(q.expiresAt)}`} · {q.requestId}</span>
    </li>
  );
}

/** One of the page's lists: its heading, and its items or what is said when there are none. */
function ListSection({ id, heading, empty, children }: { id: string; heading: string; empty: string | null; children: ReactNode }) {
  return (
    <section className="booking-section" aria-labelledby={id}>
      <h2 id={id}>{heading}</h2>
      {empty !== null ? <p>{empty}</p> : <ul className="requests-list">{children}</ul>}
    </section>
  );
}

export default function Requests({ educatorId }: { educatorId: string }) {
  const p = useRequests(`/educators/${encodeURIComponent(educatorId)}`);
  const ids = useId();
  const { lists } = p;
  if (p.error) return <p className="admin-status" data-kind="error" role="alert">{p.error}</p>;
  if (!lists) return <p role="status">Loading…</p>;
  const noneThen = (list: unknown[], text: string) => (list.length === 0 ? text : null);
  return (
    <div data-testid="requests">
      <DoneStatus done={p.done} />
      <ListSection id={`${ids}-awaiting`} heading={`Bookings awaiting approval (${lists.awaitingApproval.length})`} empty={noneThen(lists.awaitingApproval, 'Nothing waits for your approval.')}>
        {lists.awaitingApproval.map((b) => <AwaitingItem key={b.id} p={p} ids={ids} b={b} educatorId={educatorId} />)}
      </ListSection>
      <ListSection id={`${ids}-applications`} heading={`Applications (${lists.applications.length})`} empty={noneThen(lists.applications, 'No applications to decide.')}>
        {lists.applications.map((a) => <ApplicationItem key={a.id} p={p} ids={ids} a={a} />)}
      </ListSection>
      <ListSection id={`${ids}-requests`} heading={`Booking requests (${lists.requests.length})`} empty={noneThen(lists.requests, 'No requests to answer.')}>
        {lists.requests.map((r) => <RequestItem key={r.id} p={p} ids={ids} r={r} />)}
      </ListSection>
      <ListSection id={`${ids}-answered`} heading="Answered lately" empty={noneThen(lists.answered, 'No answers yet.')}>
        {lists.answered.map((q) => <AnsweredItem key={q.id} q={q} educatorId={educatorId} />)}
      </ListSection>
    </div>
  );
}
