/**
 * Payment outcomes and confirmation screens (spec 2.15, 4 "Outcomes").
 */
import { FLOW_RULES, type Flow, type FlowRules } from './flows.ts';
import type { OutcomeKind } from './state.ts';
import type { Offer } from '../entities.ts';
import { anyOfferPaid } from '../pricing.ts';
import { courseKeywordTitle } from '../text.ts';
import { problems, type Problem } from '../problems.ts';

/** Spec 4: a card payment succeeds when the payment status is succeeded or requires_capture, or the setup status is succeeded. */
export function cardPaymentSucceeded(input: { paymentStatus?: string | null; setupStatus?: string | null }): boolean {
  return input.paymentStatus === 'succeeded' || input.paymentStatus === 'requires_capture' || input.setupStatus === 'succeeded';
}

/**
 * Spec 4: after a redirect, success when the returned client secret matches and
 * redirect_status is 'succeeded'; any other result is the failed-redirect problem (500).
 */
export function cardRedirectOutcome(input: {
  expectedClientSecret: string | null | undefined;
  returnedClientSecret: string | null | undefined;
  redirectStatus: string | null | undefined;
}): { ok: true } | { ok: false; problem: Problem } {
  const matches = !!input.expectedClientSecret && input.returnedClientSecret === input.expectedClientSecret;
  return matches && input.redirectStatus === 'succeeded' ? { ok: true } : { ok: false, problem: problems.cardRedirectFailed() };
}

/** Spec 4: a wallet-provider payment succeeds when the capture status is COMPLETED. */
export function walletCaptureSucceeded(status: string | null | undefined): boolean {
  return status === 'COMPLETED';
}

/** Spec 4 "Outcomes": with approval_required the booking awaits approval, otherwise it is confirmed. */
export function bookingOutcome(approvalRequired: boolean | null | undefined): 'awaiting-approval' | 'confirmed' {
  return approvalRequired ? 'awaiting-approval' : 'confirmed';
}

export interface ConfirmationTitleInput {
  approvalRequired?: boolean | null;
  /** A request that books a calendar slot at once (spec 4 "Request flow rules"). */
  instantBooking?: boolean | null;
}

/** Spec 2.15: the confirmation heading per flow. */
export function confirmationTitle(flow: Flow, input: ConfirmationTitleInput = {}): string {
  return confirmationTitleOf(FLOW_RULES[flow], input);
}

/**
 * The same, of a flow's rules: its own heading, or a booking's ("Booking Confirmed", or "Your Booking is Awaiting
 * Approval" with `approval_required`) when it records one — always, or when it was an instant booking (request).
 */
export function confirmationTitleOf(rules: Pick<FlowRules, 'confirmation'>, input: ConfirmationTitleInput = {}): string {
  const { title, books } = rules.confirmation;
  if (books === 'always' || (books === 'when instant' && input.instantBooking)) {
    return input.approvalRequired ? 'Your Booking is Awaiting Approval' : 'Booking Confirmed';
  }
  return title;
}

/** Spec 2.15: the reference line, e.g. "Booking reference: {id}". */
export function referenceText(kind: OutcomeKind, id: string): string {
  const label = { booking: 'Booking', order: 'Order', request: 'Request', application: 'Application', giftVoucher: 'Gift voucher', membership: 'Membership' }[kind];
  return `${label} reference: ${id}`;
}

/** Spec 2.15: "View & Manage Booking", or "Access {keyword|Course}" for blended courses and orders. */
export function manageButtonLabel(flow: Flow, course: { type?: string | null; keyword?: string | null }): string {
  return manageLabel(flow === 'order' ? 'order' : 'booking', course);
}

/** The same, of what was recorded: an order, or a booking. */
export function manageLabel(kind: 'booking' | 'order', course: { type?: string | null; keyword?: string | null }): string {
  if (kind === 'order' || course.type === 'blended') return `Access ${courseKeywordTitle(course)}`;
  return 'View & Manage Booking';
}

/** How far a booking or order is paid: in full, nothing due, or money still to pay (by invoice or in person). */
export type PaymentState = 'paid' | 'free' | 'unpaid';

/**
 * The document behind "Download …": an invoice while money is still due (an invoice payment, or an in-person
 * payment on the day, whose PDF asks for the amount due), a receipt once paid or when nothing was due.
 */
export function documentKind(paymentState: PaymentState | string | null | undefined): 'Invoice' | 'Receipt' {
  return paymentState === 'unpaid' ? 'Invoice' : 'Receipt';
}

/**
 * Spec 2.15: "Download Invoice" or "Download Receipt" as the document is (see documentKind),
 * hidden (null) when every selected offer and add-on is free.
 */
export function documentButtonLabel(selected: ReadonlyArray<Pick<Offer, 'price'>>, paymentState: PaymentState | string | null | undefined): string | null {
  if (!anyOfferPaid(selected)) return null;
  return `Download ${documentKind(paymentState)}`;
}

/** Spec 2.15: "Pay Invoice" shows only for invoice payments. */
export function showPayInvoice(paymentMethod: string | null | undefined): boolean {
  return paymentMethod === 'invoice';
}

/** Spec 2.15 / 2.17: the share prompt shows unless hide_social_prompts is set. */
export function showSharePrompt(featureFlags: { hide_social_prompts?: boolean | null } | null | undefined): boolean {
  return !featureFlags?.hide_social_prompts;
}

/** Spec 2.15: request confirmation texts. */
export function requestSentText(educatorName: string): string {
  return `Your request has been sent to ${educatorName}`;
}

export function educatorWillBeInTouchText(educatorName: string): string {
  return `${educatorName} will be in touch soon`;
}
