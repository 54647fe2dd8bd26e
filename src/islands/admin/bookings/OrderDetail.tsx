/**
 * /bookings/orders/{id}: one order of an on-demand course (docs/admin.md "Bookings") — its learner and their answers,
 * what was bought and how it was paid, documents, the e-mails sent about it and its history. Orders have no date,
 * so nothing here is cancelled or refunded.
 */
import { useId } from 'react';
import { adminHref, at, giftCardPaid, money, originText, paidText, platformFeeText } from './format.ts';
import { BoughtList, DetailSection, EmailsSection, Facts, InvoiceItem, LearnerAnswers, SentMessages, contactFacts, useDetailRecord, type Answer, type FactItem, type SentEmail, type SentMessage } from './detail-parts.tsx';
import './bookings.css';

interface OrderDetailData {
  order: {
    id: string; origin: string; createdAt: number; currency: string; totalCost: number; paymentMethod: string | null; paymentState: string;
    dueDate: number | null; manualNote: string | null; course: { name: string };
    lines: { offers?: { name: string; quantity: number; price: number | null }[]; addOns?: { name: string; quantity: number; price: number | null }[] };
    costSummary: { gift_card_amount?: number | null } | null;
    learner: { name: string; email: string | null };
  };
  booker: { answers: Answer[] };
  attendees: { number: number; answers: Answer[] }[];
  voucher: { code: string } | null;
  giftCard: { last4: string; paid: number } | null;
  platformFee: { amount: number; absorbed: boolean };
  payments: { id: string; provider: string; providerPaymentId: string; amount: number; currency: string; status: string; createdAt: number }[];
  emails: SentEmail[];
  documents: { invoiceNumber: string | null; invoice: string | null; orderPage: string };
  history: { at: number; by: { name: string | null }; action: string }[];
  messages?: SentMessage[];
}

function summaryFacts(data: OrderDetailData): FactItem[] {
  const o = data.order;
  return [
    ['Course', o.course.name], ['Came from', originText(o.origin)], ['Ordered', at(o.createdAt)], ['Reference', o.id],
    ['Total', paidText({ ...o, giftCardAmount: giftCardPaid(o.costSummary), refundedTotal: 0 })],
    ['Promo code', data.voucher?.code ?? 'None'],
    ['Gift card', data.giftCard ? `••••${data.giftCard.last4}: ${money(data.giftCard.paid, o.currency)} paid` : 'None'],
    ['Platform fee', platformFeeText(data.platformFee, o.currency)],
    ...(o.manualNote ? [['Payment note', o.manualNote] as FactItem] : []),
  ];
}

export default function OrderDetail({ educatorId, orderId }: { educatorId: string; orderId: string }) {
  const { data, error } = useDetailRecord<OrderDetailData>(`/educators/${encodeURIComponent(educatorId)}/orders/${encodeURIComponent(orderId)}`, 'There is no such order for this educator.');
  const ids = useId();
  if (error) return <p className="admin-status" data-kind="error" role="alert">{error}</p>;
  if (!data) return <p role="status">Loading the order…</p>;
  const o = data.order;
  return (
    <div data-testid="order-detail">
      <p><a href={adminHref('/bookings', educatorId, { show: 'orders' })}>← All orders</a></p>
      <DetailSection ids={ids} name="summary" heading="Summary">
        <Facts items={summaryFacts(data)} />
        <BoughtList lines={o.lines} currency={o.currency} />
      </DetailSection>
      <DetailSection ids={ids} name="learner" heading="Learner">
        <Facts items={contactFacts(o.learner)} />
        <LearnerAnswers booker={data.booker.answers} attendees={data.attendees} />
      </DetailSection>
      <DetailSection ids={ids} name="money" heading="Payments">
        {data.payments.length ? (
          <ul className="requests-list">{data.payments.map((p) => (
            <li key={p.id} className="requests-item"><span>{p.provider} · {money(p.amount, p.currency)} · {p.status}</span><span className="bookings-sub">{p.providerPaymentId} · {at(p.createdAt)}</span></li>
          ))}</ul>
        ) : <p>No payment through a provider.</p>}
      </DetailSection>
      <DetailSection ids={ids} name="docs" heading="Documents">
        <ul>
          <InvoiceItem documents={data.documents} paymentState={o.paymentState} />
          <li><a href={data.documents.orderPage}>The learner's order page</a></li>
        </ul>
      </DetailSection>
      <EmailsSection ids={ids} emails={data.emails} />
      <DetailSection ids={ids} name="history" heading="History">
        <SentMessages messages={data.messages} />
        {data.history.length ? (
          <ul className="requests-list">{data.history.map((h, i) => <li key={i} className="requests-item"><span>{h.action} by {h.by.name ?? 'the system'}</span><span className="bookings-sub">{at(h.at)}</span></li>)}</ul>
        ) : <p>No changes since it was ordered.</p>}
      </DetailSection>
    </div>
  );
}
