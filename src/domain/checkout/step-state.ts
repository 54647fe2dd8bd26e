/**
 * What each step records in the checkout's `stepState` (spec 3 "Checkout state"), and the defaults the screen starts
 * from (spec 4 "Defaults when no selection has been stored"): one contract, which the server's steps write
 * (api/checkout/steps/) and the checkout island reads (src/islands/checkout/steps/). Types only: nothing of it is
 * shipped to the browser.
 *
 * An entry is keyed by its step's id, except that the Spaces and Offers steps both record `price` (spec 3); the
 * Log in and Confirmation steps record nothing (STEP_STATE_KEY). `stepStateOf` is the one place a stored entry is
 * given its type: the server writes entries only through its typed `setEntry` (api/checkout/context.ts).
 */
import type { SelectedOffer } from '../pricing.ts';
import type { PlanInterval } from '../memberships.ts';
import type { GiftDetails } from '../gift-limits.ts';
import type { RequestDelivery, RequestPricing } from './defaults.ts';
import type { FormResponse } from './validation.ts';
import type { StepId } from './steps.ts';

export type { SelectedOffer };

/** An add-on line (spec 3 `addOns[{addonId, quantity}]`). */
export type AddOnSelection = { addonId: string; quantity: number };

/** stepState.date: the occurrence picked. */
export type DateState = {
  selectedDate: { _id: string; start_datetime: number; end_datetime: number };
};

/** stepState.price (spec 3): the offers, add-ons, spaces and voucher of booking, bookingApplication and order. */
export type PriceState = {
  offers: SelectedOffer[];
  addOns: AddOnSelection[];
  spacesRequested: number;
  voucherId: string | null;
  /** The learner asked to pay one space with a membership credit (docs/gifts-and-memberships.md). */
  useCredit?: boolean;
  /** A gift card entered under "Apply promo code or gift card" (it pays up to its balance). */
  giftCardId?: string | null;
};

/** stepState.contactDetails (spec 3). */
export type ContactState = {
  booker: { formResponse: FormResponse; isAttending: boolean };
  attendees: { formResponse: FormResponse }[];
  marketingConsent: boolean;
  /** Whether the learner was shown the terms (hidden terms are waived, not accepted: spec 5). */
  termsShown: boolean;
  termsAccepted: boolean;
  bookerFormId: string | null;
};

/** stepState.payment (spec 3). `paypalOrderId` is the spec's name for the order a wallet buyer approves. */
export type PaymentStepState = {
  paymentMethod: string | null;
  clientSecret: string | null;
  connectedAccountId: string | null;
  paypalOrderId: string | null;
  invoiceDetails: Record<string, unknown> | null;
  paymentId: string | null;
  paymentStatus: string | null;
};

/** stepState.delivery (spec 3) of the request flow. */
export type DeliveryState = {
  selectedDurationId: string | null;
  delivery: RequestDelivery;
  pricing: RequestPricing;
  requestedSpaces: number;
  payableCost: number;
  /** "Apply promo code or gift card" of an instant booking (api/checkout/steps/request.ts). */
  voucherId?: string | null;
  giftCardId?: string | null;
};

/** stepState.dates (spec 3) of the request, group and date request flows. */
export type DatesState = {
  type: 'preferred dates' | 'available date';
  preferredDates: string[];
  availableDate: string | null;
  skipAvailableDates: boolean;
  /** Group and date requests: the offers and add-ons chosen with the dates. */
  offers?: SelectedOffer[];
  addOns?: AddOnSelection[];
  spacesRequested?: number;
};

/** stepState.message (spec 3). */
export type MessageState = { message: string };

/** stepState.plan: the membership plan as it was when chosen. */
export type PlanState = {
  planId: string;
  name: string;
  interval: PlanInterval;
  passMonths: number | null;
  price: number;
  currency: string;
};

/** stepState.giftAmount: the gift voucher's amount. */
export type GiftAmountState = { amount: number; currency: string };

/** stepState.giftDetails: who the gift voucher is from and for. */
export type GiftDetailsState = GiftDetails;

/** Every stepState entry, by its key. */
export interface StepStates {
  date: DateState;
  price: PriceState;
  contactDetails: ContactState;
  payment: PaymentStepState;
  delivery: DeliveryState;
  dates: DatesState;
  message: MessageState;
  plan: PlanState;
  giftAmount: GiftAmountState;
  giftDetails: GiftDetailsState;
}

export type StepStateKey = keyof StepStates;

/** The entry each step records (null: none). The compiler asks for a new step's. */
export const STEP_STATE_KEY = {
  date: 'date',
  spaces: 'price',
  offers: 'price',
  delivery: 'delivery',
  dates: 'dates',
  message: 'message',
  login: null,
  contactDetails: 'contactDetails',
  payment: 'payment',
  confirmation: null,
  plan: 'plan',
  giftAmount: 'giftAmount',
  giftDetails: 'giftDetails',
} as const satisfies Record<StepId, StepStateKey | null>;

/** One entry of a checkout's stepState, typed by its key (null: not recorded). */
export function stepStateOf<K extends StepStateKey>(
  stepState: Readonly<Record<string, { state: Record<string, unknown> } | undefined>> | null | undefined, key: K,
): StepStates[K] | null {
  const entry = stepState?.[key];
  return entry ? (entry.state as unknown as StepStates[K]) : null;
}

/** Spec 4 "Defaults when no selection has been stored", as the flow's definition gives them (state.defaults). */
export interface StepDefaults {
  /** Spaces, Offers and the group Dates step: the first offer on sale. */
  price?: Pick<PriceState, 'offers' | 'addOns'>;
  /** The request's Delivery step (`delivery` null: no delivery option can be defaulted). */
  delivery?: { selectedDurationId: string | null; delivery: RequestDelivery | null; pricing: RequestPricing };
  /** The membership's Plan step: the plan chosen so far. */
  plan?: PlanState | null;
  /** The gift voucher's details: the account's name and e-mail, sent today. */
  giftDetails?: GiftDetailsState;
}
