/**
 * The checkout state contract (spec 3 "Checkout state", plus the further fields spec 3 allows): what the API's
 * checkout calls answer (api/checkout/engine/state.ts builds it) and the checkout island reads. One copy, so the two
 * cannot drift.
 */
import type { CheckoutOrigin, FlowName } from './flows.ts';
import type { StepId } from './steps.ts';
import type { StepDefaults } from './step-state.ts';

export interface StepEntry {
  status: string;
  state: Record<string, unknown>;
}

export interface SummaryLineView {
  text: string;
  value: number;
}

/** Spec 3 "Cost summary". */
export interface CostSummaryView {
  summary_items?: Partial<Record<'offerSummary' | 'addOnSummary' | 'discountSummary' | 'voucherSummary' | 'vatSummary' | 'extraSummary' | 'giftCardSummary', SummaryLineView[] | null>> | null;
  platform_fee?: number | null;
  fees_absorbed?: boolean | null;
  total_cost?: number | null;
  vat_amount?: number | null;
  currency?: string | null;
  /** What a gift card pays of the total (already taken off total_cost). */
  gift_card_amount?: number | null;
}

/**
 * The kinds of outcome a checkout records (spec 4 "Outcomes", and the flows that sell from an educator). The first
 * four also have a column of their own on the checkout (spec 3 bookingId, orderId, requestId, applicationId).
 */
export const OUTCOME_KINDS = ['booking', 'order', 'request', 'application', 'giftVoucher', 'membership'] as const;
export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

export function isOutcomeKind(value: unknown): value is OutcomeKind {
  return typeof value === 'string' && (OUTCOME_KINDS as readonly string[]).includes(value);
}

/** What a completed checkout recorded, for the confirmation screen (spec 2.15). */
export interface CheckoutOutcome {
  kind: OutcomeKind;
  id: string;
  reference: string;
  title: string;
  status: string;
  paymentMethod?: string | null;
  paymentState?: string | null;
  dueDate?: number | null;
  manualNote?: string | null;
  totalCost?: number | null;
  currency?: string | null;
  links?: { ical?: string | null; invoice?: string | null; payInvoice?: string | null; manage?: string | null };
  /** The confirmation's text and buttons, for kinds the screen does not lay out itself (gift voucher, membership). */
  message?: string | null;
  actions?: { label: string; href: string }[];
}

export interface CheckoutRules {
  paymentRequired: boolean;
  calendarBased: boolean;
  instantBooking: boolean;
  pricingHidden: boolean;
  termsPreAccepted: boolean;
}

/**
 * `F`: what the flow's name is known to be. The server answers with any registered flow's (`FlowName`); the screen
 * opens only the product's flows and reads `CheckoutState<Flow>`, so it can ask `FLOW_RULES` exhaustively.
 */
export interface CheckoutState<F extends FlowName = FlowName> {
  _id: string;
  flow: F;
  origin: CheckoutOrigin;
  currentStep: StepId;
  /** null: a flow that sells from the educator (gift voucher, membership). */
  courseId: string | null;
  educatorId: string;
  occurrenceId: string | null;
  bookingId: string | null;
  orderId: string | null;
  requestId: string | null;
  applicationId: string | null;
  /** Every outcome's kind and id (also those with a spec 3 field above). */
  outcomeKind: OutcomeKind | null;
  outcomeId: string | null;
  stepState: Record<string, StepEntry>;
  // Further server fields (spec 3 allows them).
  status: 'open' | 'completed' | 'abandoned';
  /** The steps of this checkout now, in order (spec 2.14 "Step rules" applied). */
  steps: StepId[];
  /** Spec 4 "Defaults when no selection has been stored". */
  defaults: StepDefaults;
  rules: CheckoutRules;
  costSummary: CostSummaryView | null;
  totalCost: number | null;
  currency: string;
  hold: { spaces: number; expiresAt: number; status: string } | null;
  outcome: CheckoutOutcome | null;
  bookedOnURL: string | null;
  utms: Record<string, unknown> | null;
  createdAt: number;
  updatedAt: number;
  /** One more with every change the server saves: tells which of two answers about a checkout is the later. */
  version: number;
  /** The checkout is a learner's who is not logged in here: log in to see and continue it (spec 2.14). */
  loginRequired: boolean;
}

/**
 * Whether an answer may replace the state a page shows. Answers can arrive out of order (the GET a page sends on
 * logging in, and the learner's Continue): an older state of the same checkout must not take a page back a step.
 */
export function supersedes(incoming: Pick<CheckoutState, '_id' | 'version'>, shown: Pick<CheckoutState, '_id' | 'version'> | null): boolean {
  return !shown || shown._id !== incoming._id || incoming.version >= shown.version;
}
