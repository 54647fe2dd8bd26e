/**
 * /bookings/{id}: one booking (docs/admin.md "A booking's page") — its learner and attendees with their answers,
 * what was bought and how it was paid, payments and refunds, documents, the e-mails sent about it and its history —
 * and what the educator can do with it: approve or decline it, refund all or part of it, cancel it, cancel its
 * whole date (booking-panels.tsx). Each action's form keeps one request key while it is open, so a button pressed
 * twice (or a request repeated after a lost answer) is one refund; the server refuses a refund made on an
 * out-of-date view (409).
 */
import { useId } from 'react';
import { adminHref } from './format.ts';
import { DoneStatus } from './actions.tsx';
import { DetailSection, EmailsSection, Facts, useDetailRecord } from './detail-parts.tsx';
import { BookingActions, useBookingPanel } from './booking-panels.tsx';
import { BoughtSection, DocumentsSection, HistorySection, LearnerSection, MoneySection, summaryFacts } from './booking-sections.tsx';
import type { Detail } from './booking-detail-types.ts';
import './bookings.css';

export default function BookingDetail({ educatorId, bookingId }: { educatorId: string; bookingId: string }) {
  const base = `/educators/${encodeURIComponent(educatorId)}`;
  const { data: detail, error: loadError, reload } = useDetailRecord<Detail>(`${base}/bookings/${encodeURIComponent(bookingId)}`, 'There is no such booking for this educator.');
  const p = useBookingPanel(reload);
  const ids = useId();

  if (loadError) return <p className="admin-status" data-kind="error" role="alert">{loadError}</p>;
  if (!detail) return <p role="status">Loading the booking…</p>;
  const b = detail.booking;
  return (
    <div data-testid="booking-detail" data-status={b.status}>
      <p><a href={adminHref('/bookings', educatorId)}>← All bookings</a></p>
      <DoneStatus done={p.done} />

      <DetailSection ids={ids} name="summary" heading="Summary">
        <Facts items={summaryFacts(b)} />
        <BookingActions detail={detail} base={base} ids={ids} p={p} />
      </DetailSection>

      <LearnerSection detail={detail} ids={ids} />
      <BoughtSection detail={detail} ids={ids} />
      <MoneySection detail={detail} ids={ids} />
      <DocumentsSection detail={detail} ids={ids} />
      <EmailsSection ids={ids} emails={detail.emails} />
      <HistorySection detail={detail} ids={ids} />
    </div>
  );
}
