/**
 * The read-only sections of a booking's page: its summary facts, the learner, what was booked, payments and refunds,
 * documents and history.
 */
import { at, money, originText, paidText, platformFeeText, statusText, when, giftCardPaid } from './format.ts';
import { BoughtList, DetailSection, Facts, InvoiceItem, LearnerAnswers, SentMessages, contactFacts, type FactItem } from './detail-parts.tsx';
import type { Detail } from './booking-detail-types.ts';

const REFUND_STATUS: Record<string, string> = { pending: 'Being made', succeeded: 'Refunded', failed: 'Failed — arrange it yourself' };
const KIND: Record<string, string> = { refund: 'Refund', cancellation: 'Cancellation', decline: 'Declined', 'date-cancellation': 'Date cancelled' };

export function summaryFacts(b: Detail['booking']): FactItem[] {
  return [
    ['Status', <span className="booking-badge" data-status={b.status}>{statusText(b.status)}</span>],
    ['Course', b.course.name],
    ['Date', when(b.start, b.end)],
    ['Spaces', String(b.spaces)],
    ['Came from', originText(b.origin)],
    ['Booked', at(b.createdAt)],
    ['Reference', b.id],
    ...(b.cancellation ? [['Cancelled', `${at(b.cancellation.cancelledAt)} by ${b.cancellation.byLearner ? 'the learner' : 'you'}; ${b.cancellation.spacesReleased} ${b.cancellation.spacesReleased === 1 ? 'space' : 'spaces'} released`] as FactItem] : []),
    ...(b.requestMessage ? [['Message', b.requestMessage] as FactItem] : []),
  ];
}

export function LearnerSection({ detail, ids }: { detail: Detail; ids: string }) {
  return (
    <DetailSection ids={ids} name="learner" heading="Learner">
      <Facts items={[
        ...contactFacts(detail.booking.learner),
        ['Attending', detail.booker.isAttending ? 'Yes' : 'No, booking for others'],
        ['Marketing', detail.consent.marketing ? 'Agreed to hear from you' : 'No'],
        ['Terms', detail.consent.termsShown ? (detail.consent.termsAccepted ? 'Accepted' : 'Not accepted') : 'Not shown'],
      ]} />
      <LearnerAnswers booker={detail.booker.answers} attendees={detail.attendees} />
    </DetailSection>
  );
}

function boughtFacts(detail: Detail): FactItem[] {
  const b = detail.booking;
  const cur = b.currency;
  return [
    ['Promo code', detail.voucher ? `${detail.voucher.code} (${detail.voucher.kind === 'percent' ? `${detail.voucher.amount}% off` : `${money(detail.voucher.amount, cur)} off`})` : 'None'],
    ['Gift card', detail.giftCard ? `••••${detail.giftCard.last4}: ${money(detail.giftCard.paid, cur)} paid${detail.giftCard.stillSpent < detail.giftCard.paid ? `, ${money(detail.giftCard.paid - detail.giftCard.stillSpent, cur)} given back` : ''}` : 'None'],
    ['Membership credit', detail.membershipCredits.length ? detail.membershipCredits.map((c) => `1 credit of ${c.planName} (${money(c.value, cur)})`).join('; ') : 'None'],
    ['Platform fee', platformFeeText(detail.platformFee, cur)],
    ['Total', paidText({ ...b, giftCardAmount: giftCardPaid(b.costSummary) })],
    ...(b.paymentState === 'unpaid' && b.dueDate ? [['Due', at(b.dueDate)] as FactItem] : []),
    ...(b.manualNote ? [['Payment note', b.manualNote] as FactItem] : []),
  ];
}

export function BoughtSection({ detail, ids }: { detail: Detail; ids: string }) {
  return (
    <DetailSection ids={ids} name="bought" heading="What was booked">
      <BoughtList lines={detail.booking.lines} currency={detail.booking.currency} />
      <Facts items={boughtFacts(detail)} />
    </DetailSection>
  );
}

function PaymentsTable({ payments }: { payments: Detail['payments'] }) {
  return (
    <table className="admin-table bookings-table">
      <caption className="visually-hidden">Payments</caption>
      <thead><tr><th scope="col">Payment</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">When</th></tr></thead>
      <tbody>{payments.map((p) => (
        <tr key={p.id}><td data-label="Payment">{p.provider} <span className="bookings-sub">{p.providerPaymentId}</span></td><td data-label="Amount">{money(p.amount, p.currency)}</td><td data-label="Status">{p.status}</td><td data-label="When">{at(p.createdAt)}</td></tr>
      ))}</tbody>
    </table>
  );
}

function RefundsTable({ refunds }: { refunds: Detail['refunds'] }) {
  return (
    <table className="admin-table bookings-table" data-testid="refunds">
      <caption className="visually-hidden">Refunds</caption>
      <thead><tr><th scope="col">What</th><th scope="col">To the payment method</th><th scope="col">To the gift card</th><th scope="col">Platform fee</th><th scope="col">Status</th><th scope="col">When</th></tr></thead>
      <tbody>{refunds.map((r) => (
        <tr key={r.id} data-refund-status={r.status}>
          <td data-label="What">{KIND[r.kind] ?? r.kind}{r.reason && <span className="bookings-sub">{r.reason}</span>}{r.creditsReturned > 0 && <span className="bookings-sub">Membership credit returned</span>}</td>
          <td data-label="To the payment method">{money(r.amount, r.currency)}</td>
          <td data-label="To the gift card">{money(r.giftCardAmount, r.currency)}</td>
          <td data-label="Platform fee">{money(r.platformFeeRefunded, r.currency)}</td>
          <td data-label="Status">{REFUND_STATUS[r.status] ?? r.status}{r.lastError && r.status !== 'succeeded' && <span className="bookings-sub">{r.lastError}</span>}</td>
          <td data-label="When">{at(r.createdAt)}</td>
        </tr>
      ))}</tbody>
    </table>
  );
}

export function MoneySection({ detail, ids }: { detail: Detail; ids: string }) {
  return (
    <DetailSection ids={ids} name="money" heading="Payments and refunds">
      {detail.payments.length ? <PaymentsTable payments={detail.payments} /> : <p>No payment through a provider.</p>}
      <h3>Refunds</h3>
      {detail.refunds.length ? <RefundsTable refunds={detail.refunds} /> : <p>No refunds.</p>}
      <p>Left to refund: <strong>{money(detail.money.left.total, detail.booking.currency)}</strong></p>
    </DetailSection>
  );
}

export function DocumentsSection({ detail, ids }: { detail: Detail; ids: string }) {
  return (
    <DetailSection ids={ids} name="docs" heading="Documents">
      <ul>
        <InvoiceItem documents={detail.documents} paymentState={detail.booking.paymentState} />
        {detail.documents.calendar && <li><a href={detail.documents.calendar}>Calendar file</a></li>}
        <li><a href={detail.documents.bookingPage}>The learner's booking page</a></li>
      </ul>
    </DetailSection>
  );
}

export function HistorySection({ detail, ids }: { detail: Detail; ids: string }) {
  return (
    <DetailSection ids={ids} name="history" heading="History">
      <SentMessages messages={detail.messages} />
      {detail.history.length ? (
        <ul className="requests-list">{detail.history.map((h, i) => (
          <li key={i} className="requests-item"><span>{h.action[0]!.toUpperCase() + h.action.slice(1)} by {h.by.name ?? 'the system'}</span><span className="bookings-sub">{at(h.at)}{h.fields.length ? ` · ${h.fields.join(', ')}` : ''}</span></li>
        ))}</ul>
      ) : <p>No changes since it was booked.</p>}
    </DetailSection>
  );
}
