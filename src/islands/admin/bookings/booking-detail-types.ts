/** What the API answers for one booking (GET /educators/{id}/bookings/{id}), as its page reads it. */
import type { Answer, SentEmail, SentMessage } from './detail-parts.tsx';

export interface Refund {
  id: string; seq: number; kind: string; amount: number; giftCardAmount: number; creditsReturned: number; platformFeeRefunded: number;
  currency: string; provider: string | null; status: string; attempts: number; lastError: string | null; reason: string | null; createdAt: number; completedAt: number | null;
}
export interface Detail {
  booking: {
    id: string; status: string; flow: string; origin: string; createdAt: number; start: number | null; end: number | null; spaces: number; currency: string;
    totalCost: number; paymentMethod: string | null; paymentState: string; paymentProvider: string | null; dueDate: number | null; manualNote: string | null;
    refundedTotal: number; lines: { offers?: { name: string; quantity: number; price: number | null; spaces?: number }[]; addOns?: { name: string; quantity: number; price: number | null }[]; extras?: { label: string; cost: number; quantity: number }[] };
    course: { id: string; name: string; type: string };
    occurrence: { id: string; delivery: string; spaces: number | null; availableSpaces: number | null } | null;
    learner: { name: string; email: string | null; userId: string };
    cancellation: { cancelledAt: number; byLearner: boolean; spacesReleased: number; refundStatus: string } | null;
    requestMessage: string | null;
    costSummary: { gift_card_amount?: number | null } | null;
  };
  booker: { answers: Answer[]; isAttending: boolean };
  attendees: { number: number; answers: Answer[] }[];
  consent: { marketing: boolean; termsAccepted: boolean; termsShown: boolean };
  voucher: { code: string; kind: string; amount: number } | null;
  giftCard: { last4: string; paid: number; stillSpent: number; balance: number } | null;
  membershipCredits: { planName: string; value: number; usedAt: number }[];
  platformFee: { amount: number; absorbed: boolean };
  payments: { id: string; provider: string; providerPaymentId: string; amount: number; currency: string; status: string; createdAt: number }[];
  refunds: Refund[];
  emails: (SentEmail & { tag: string | null })[];
  money: { left: { provider: number; giftCard: number; total: number }; expectedRefunds: number; cancellationMinimum: number };
  documents: { invoiceNumber: string | null; invoice: string | null; calendar: string | null; bookingPage: string };
  history: { at: number; by: { name: string | null }; action: string; fields: string[]; changes: Record<string, [unknown, unknown]> }[];
  /** Messages sent to the learners of its date or course (absent from an older server). */
  messages?: SentMessage[];
}
