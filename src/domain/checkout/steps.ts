/**
 * Checkout steps per flow (spec 2.14 "Steps per flow" and "Step rules").
 */
import { FLOW_RULES, type CheckoutOrigin, type Flow, type FlowRules } from './flows.ts';
import type { StepId } from './names.ts';

export type { StepId };

/** Spec 2.14: the step names used in the breadcrumb. */
export const STEP_LABELS: Readonly<Record<StepId, string>> = {
  date: 'Date',
  spaces: 'Spaces',
  offers: 'Offers',
  delivery: 'Delivery options',
  dates: 'Dates',
  message: 'Message',
  login: 'Log in or Sign Up',
  contactDetails: 'Contact Info',
  payment: 'Payment',
  confirmation: 'Confirmation',
  plan: 'Plan',
  giftAmount: 'Amount',
  giftDetails: 'Gift Details',
};

/** Spec 2.14 "Step contents": headings where the spec gives one. */
export const STEP_TITLES: Readonly<Partial<Record<StepId, string>>> = {
  date: 'Select Date',
  spaces: 'Select Spaces',
  message: 'Message',
  payment: 'Payment',
  plan: 'Membership Plan',
  giftAmount: 'Choose an Amount',
  giftDetails: 'Who is it for?',
};

/** Spec 2.14: the Dates step heading of the request flow. */
export function requestDatesTitle(calendarBased: boolean): string {
  return calendarBased ? 'Select a Date & Time' : 'Preferred Dates';
}

/** Spec 2.14 table "Steps per flow (before login / after login)", from each flow's rules. */
export function flowSteps(flow: Flow): { beforeLogin: readonly StepId[]; afterLogin: readonly StepId[] } {
  return FLOW_RULES[flow].steps;
}

/** Spec 2.14 "Step rules" input: whether the learner is logged in and whether Payment is required. */
export interface StepsInput {
  flow: Flow;
  loggedIn: boolean;
  paymentRequired: boolean;
}

/**
 * Spec 2.14 "Step rules": the flow's steps in order; Payment is dropped unless
 * payment is required; the "Log in or Sign Up" step sits between the two groups
 * when the user is not logged in.
 */
export function stepsFor({ flow, loggedIn, paymentRequired }: StepsInput): StepId[] {
  return stepsOfRules(FLOW_RULES[flow], { loggedIn, paymentRequired });
}

/** The same, of a flow's rules (the server asks the checkout's flow definition for them). */
export function stepsOfRules(rules: FlowRules, { loggedIn, paymentRequired }: Omit<StepsInput, 'flow'>): StepId[] {
  const { beforeLogin, afterLogin } = rules.steps;
  const after = afterLogin.filter((step) => step !== 'payment' || paymentRequired);
  return [...beforeLogin, ...(loggedIn ? [] : (['login'] as StepId[])), ...after];
}

/** Spec 2.14: the breadcrumb, "1. Date", "2. Spaces", … */
export function breadcrumbLabels(steps: ReadonlyArray<StepId>): string[] {
  return steps.map((step, index) => `${index + 1}. ${STEP_LABELS[step]}`);
}

export function isStepId(value: unknown): value is StepId {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(STEP_LABELS, value);
}

/** Spec 2.14: whether a step is in the flow's after-login group. */
export function isAfterLoginStep(flow: Flow, step: StepId): boolean {
  return afterLoginIn(FLOW_RULES[flow], step);
}

/** The same, of a flow's rules. */
export function afterLoginIn(rules: FlowRules, step: StepId): boolean {
  return rules.steps.afterLogin.includes(step);
}

/**
 * Spec 4 "Checkout actions": what the Spaces and Offers steps submit ("order pricing options picked" is the order
 * flow's, whose step is Offers).
 */
export const PRICING_ACTIONS = { spaces: 'pricing options picked', offers: 'order pricing options picked' } as const;
export type PricingAction = (typeof PRICING_ACTIONS)[keyof typeof PRICING_ACTIONS];

/**
 * Spec 2.14: what the step area shows. An after-login step reached while logged
 * out shows the login screen ('login'); an unknown step shows "Unknown step" ('unknown').
 */
export function stepView(flow: Flow, step: string, loggedIn: boolean): StepId | 'unknown' {
  if (!isStepId(step)) return 'unknown';
  if (!loggedIn && isAfterLoginStep(flow, step)) return 'login';
  return step;
}

/** The step after `current` in `steps`, or null at the end (or when not found). */
export function nextStep(steps: ReadonlyArray<StepId>, current: StepId): StepId | null {
  const index = steps.indexOf(current);
  return index >= 0 && index < steps.length - 1 ? steps[index + 1] : null;
}

/** The step before `current`, or null on the first step (Back then leaves the checkout, spec 2.14). */
export function previousStep(steps: ReadonlyArray<StepId>, current: StepId): StepId | null {
  const index = steps.indexOf(current);
  return index > 0 ? steps[index - 1] : null;
}

/**
 * Spec 2.14: what Back does. On the first step it leaves the checkout: back in
 * history, or to the course page when the origin is embed. Otherwise it goes
 * to the previous step (the "go back" action).
 */
export function backAction(steps: ReadonlyArray<StepId>, current: StepId, origin: CheckoutOrigin): 'history' | 'course-page' | 'previous-step' {
  if (previousStep(steps, current) !== null) return 'previous-step';
  return origin === 'embed' ? 'course-page' : 'history';
}

/**
 * Spec 2.14 "Step rules" for flows that sell offers (booking, order): Payment is dropped when nothing costs money —
 * before the offers are chosen, when no offer (or add-on) has a price above 0; after, when the selection's total
 * (vouchers included) is 0. The request flow's rule is request.requiresPayment (spec 4).
 */
export function offersNeedPayment(input: { selectionTotal: number | null; anyPaidItem: boolean }): boolean {
  return input.selectionTotal === null ? input.anyPaidItem : input.selectionTotal > 0;
}
