/**
 * What a booking's page and an order's page show alike (BookingDetail, OrderDetail): the loading of the record, the
 * label–value lists, the learner's answers, what was bought, the invoice link and the e-mails sent about it.
 */
import { Fragment, useCallback, useEffect, useState, type ReactNode } from 'react';
import { adminFetch } from '../api.ts';
import { at, money } from './format.ts';

export interface Answer { field: string; label: string; value: string }
export interface BoughtLines {
  offers?: { name: string; quantity: number; price: number | null }[];
  addOns?: { name: string; quantity: number; price: number | null }[];
  extras?: { label: string; cost: number; quantity: number }[];
}
/** A message the educator sent to every learner of a date or course (api/admin/messages.ts). */
export interface SentMessage { id: string; subject: string; message: string; createdAt: number; by: string | null }

/** The messages a booking's or an order's learner was sent, in its History, newest first. */
export function SentMessages({ messages }: { messages: SentMessage[] | undefined }) {
  if (!messages?.length) return null;
  return (
    <ul className="requests-list" aria-label="Messages sent to the learner">{messages.map((m) => (
      <li key={m.id} className="requests-item"><span>Message “{m.subject}” sent by {m.by ?? 'an admin'}</span><span className="bookings-sub">{at(m.createdAt)}</span><span style={{ whiteSpace: 'pre-wrap' }}>{m.message}</span></li>
    ))}</ul>
  );
}

export interface SentEmail { id: string; to: string; subject: string; status: string; createdAt: number; sentAt: number | null }
export type FactItem = [string, ReactNode];

/**
 * Loads one booking or order from `path`; `notFound` is what a 404 says. `reload` fetches it again (after an action).
 */
export function useDetailRecord<T>(path: string, notFound: string) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    const res = await adminFetch<T>('GET', path);
    if (res.ok) {
      setData(res.data);
      setError(null);
    } else setError(res.problem.status === 404 ? notFound : res.problem.detail);
  }, [path, notFound]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, reload };
}

export function Facts({ items }: { items: FactItem[] }) {
  return (
    <dl className="booking-facts">
      {items.map(([label, value]) => (
        <Fragment key={label}><dt>{label}</dt><dd>{value}</dd></Fragment>
      ))}
    </dl>
  );
}

/** The learner's name and e-mail (a mailto link), '—' for what is missing. */
export function contactFacts(learner: { name: string; email: string | null }): FactItem[] {
  return [['Name', learner.name || '—'], ['E-mail', learner.email ? <a href={`mailto:${learner.email}`}>{learner.email}</a> : '—']];
}

function Answers({ answers }: { answers: Answer[] }) {
  return answers.length ? <Facts items={answers.map((a): FactItem => [a.label, a.value])} /> : <p>No answers.</p>;
}

/** The booker's answers, then each attendee's. */
export function LearnerAnswers({ booker, attendees }: { booker: Answer[]; attendees: { number: number; answers: Answer[] }[] }) {
  return (
    <>
      <h3>Answers</h3>
      <Answers answers={booker} />
      {attendees.map((a) => (
        <div key={a.number}>
          <h3>Attendee {a.number}</h3>
          <Answers answers={a.answers} />
        </div>
      ))}
    </>
  );
}

/** The offers, add-ons and extras bought (those of a quantity above 0), each with its cost. */
export function BoughtList({ lines, currency }: { lines: BoughtLines; currency: string }) {
  return (
    <ul>
      {(lines.offers ?? []).filter((l) => l.quantity > 0).map((l, i) => <li key={`o${i}`}>{l.name} × {l.quantity} — {money((l.price ?? 0) * l.quantity, currency)}</li>)}
      {(lines.addOns ?? []).filter((l) => l.quantity > 0).map((l, i) => <li key={`a${i}`}>Add-on: {l.name} × {l.quantity} — {money((l.price ?? 0) * l.quantity, currency)}</li>)}
      {(lines.extras ?? []).filter((l) => l.quantity > 0).map((l, i) => <li key={`e${i}`}>{l.label} × {l.quantity} — {money(l.cost * l.quantity, currency)}</li>)}
    </ul>
  );
}

/** The invoice (unpaid) or receipt link, when there is one. */
export function InvoiceItem({ documents, paymentState }: { documents: { invoiceNumber: string | null; invoice: string | null }; paymentState: string }) {
  return documents.invoice ? <li><a href={documents.invoice}>{paymentState === 'unpaid' ? 'Invoice' : 'Receipt'} {documents.invoiceNumber}</a></li> : null;
}

/** One section of the page, named by its heading (`${ids}-${name}`). */
export function DetailSection({ ids, name, heading, children }: { ids: string; name: string; heading: string; children: ReactNode }) {
  return (
    <section className="booking-section" aria-labelledby={`${ids}-${name}`}>
      <h2 id={`${ids}-${name}`}>{heading}</h2>
      {children}
    </section>
  );
}

export function EmailsSection({ ids, emails }: { ids: string; emails: SentEmail[] }) {
  return (
    <DetailSection ids={ids} name="emails" heading="E-mails sent">
      {emails.length ? (
        <ul className="requests-list">{emails.map((m) => (
          <li key={m.id} className="requests-item"><span>{m.subject}</span><span className="bookings-sub">To {m.to} · {m.status === 'sent' && m.sentAt ? `sent ${at(m.sentAt)}` : `${m.status}, queued ${at(m.createdAt)}`}</span></li>
        ))}</ul>
      ) : <p>None yet.</p>}
    </DetailSection>
  );
}
