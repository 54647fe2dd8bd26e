/**
 * What the checkout island works with: the bootstrap the page hands it (catalogue facts the API's
 * checkout state does not carry), and the API's answers (spec 3 "Checkout state", "Cost summary",
 * "Payment options", "Form"). Serialisable; no server imports.
 */
import type { Flow, CheckoutOrigin } from '../../domain/checkout/flows.ts';
import type { Problem } from '../../domain/problems.ts';
import type { FormDefinition } from '../../domain/checkout/validation.ts';
import type { CheckoutState as DomainCheckoutState } from '../../domain/checkout/state.ts';
import type { PaymentOptions } from '../../domain/checkout/paymentMethods.ts';

import type { AppContext } from '../../domain/app-context.ts';

export type { AppContext };

export interface OfferView {
  _id: string;
  name: string;
  description?: string | null;
  price: number | null;
  spaces?: number | null;
  start_at?: number | null;
  end_at?: number | null;
}

export interface AddOnView {
  _id: string;
  name: string;
  description?: string | null;
  price: number | null;
}

export interface DurationView {
  _id: string;
  duration: number;
  label?: string | null;
  description?: string | null;
  extra_cost?: number | null;
}

export interface CheckoutCourse {
  id: string;
  slug: string;
  name: string;
  type: string;
  keyword: string | null;
  currency: string;
  spaces: number | null;
  pricingType: string;
  captureGuests: boolean;
  approvalRequired: boolean;
  address: Record<string, string> | null;
  courseDuration: number | null;
  durationPricing: DurationView[];
  dateRequests: string | null;
  availableForOnlineDelivery: boolean;
  availableForInPersonDelivery: boolean;
  educatorTravelSettings: { enabled: boolean; type?: string | null };
  studentTravelSettings: { enabled: boolean; locations: string[] };
  /** Course-wide offers and add-ons (an occurrence may have its own). */
  offers: OfferView[];
  addOns: AddOnView[];
  /** The booker form and the attendee form (spec 3 "Form": form_ref, guest_form_ref). */
  bookerFormId: string;
  attendeeFormId: string;
}

export interface CheckoutEducator {
  id: string;
  slug: string;
  name: string;
  logoUrl: string | null;
  /** Sanitised HTML. */
  tos: string;
  cancellationAllowed: number | null;
  featureFlags: { hide_marketing_consent?: boolean; hide_terms?: boolean; hide_pricing?: boolean; hide_social_prompts?: boolean };
  thirdPartyCodes: { ga4_id?: string | null; facebook_pixel_id?: string | null };
  whitelabelled: boolean;
}

export interface CheckoutLocation {
  _id: string;
  name: string | null;
  formatted: string;
}

import type { PublicPaymentConfig, PublicProviderConfig } from '../../domain/checkout/paymentMethods.ts';
export type { PublicPaymentConfig, PublicProviderConfig };

export interface CheckoutBootstrap {
  context: AppContext;
  origin: CheckoutOrigin;
  flow: Flow | null;
  courseId: string | null;
  occurrenceId: string | null;
  parentWindowUrl: string | null;
  /** The marketplace host and protocol (links to the main site, login). */
  host: string;
  protocol: 'http' | 'https';
  productName: string;
  course: CheckoutCourse | null;
  educator: CheckoutEducator | null;
  locations: CheckoutLocation[];
  payment: PublicPaymentConfig;
  /** A problem found while rendering (no course, unknown flow). */
  problem: Problem | null;
}

export type { CheckoutOutcome, CostSummaryView, StepEntry, SummaryLineView } from '../../domain/checkout/state.ts';

/**
 * The state as the screen reads it: of one of the product's flows (the checkout page opens no other:
 * `checkoutApi` reads its answers so), so the screen asks the flow's rules without a fallback.
 */
export type CheckoutState = DomainCheckoutState<Flow>;

export interface PaymentOptionsView extends PaymentOptions {
  invoice_due_days?: number | null;
}

export type FormView = FormDefinition & { _id?: string; name?: string };

export interface OccurrenceView {
  _id: string;
  start_datetime: number;
  end_datetime: number;
  timezone?: string;
  delivery: string;
  address: Record<string, string> | null;
  spaces: number | null;
  available_spaces: number | null;
  parent_ref?: string | null;
  individually_bookable?: boolean;
  offers: OfferView[];
  add_ons?: AddOnView[];
}
