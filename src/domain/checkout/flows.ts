/**
 * Checkout flows (spec 1 "Checkout flows", 4 "Flow and course type", 7 "Initialise checkout").
 */
import { ProblemError, problems } from '../problems.ts';
import type { CourseType } from '../entities.ts';

import type { StepId } from './steps.ts';
import type { PaymentMethod } from './paymentMethods.ts';

/** The course types that share rules: class and anything unknown are 'scheduled' (spec 3). */
export type CourseTypeGroup = 'on-demand' | 'blended' | 'on-request' | 'class';

/**
 * The pure rules of one checkout flow — what the screen and the server both read. The server's side of a flow
 * (step objects, selection, holds, outcome) is its definition in api/checkout/flows/ (docs/checkout-design.md).
 */
export interface FlowRules {
  /** Spec 7: the path slug of /checkout/initialise/{slug}. */
  readonly pathSlug: string;
  /**
   * Spec 4 "Flow and course type": the course types the flow accepts. `null`: the flow sells from an educator,
   * not a course (a gift voucher, a membership) — it is initialised with `educatorId` and has no `courseId`.
   */
  readonly courseTypes: readonly CourseTypeGroup[] | null;
  /** Spec 2.14 "Steps per flow (before login / after login)". */
  readonly steps: { readonly beforeLogin: readonly StepId[]; readonly afterLogin: readonly StepId[] };
  /** Spec 4 "Which payment methods each flow shows". */
  readonly paymentMethods: readonly PaymentMethod[];
  /** Spec 7: initialising also sends `occurrenceId` (a dated flow: its offers are the occurrence's). */
  readonly dated: boolean;
  /** What the summary sidebar names when the flow sells no course (in place of the course name). */
  readonly title?: string;
  /** The flow's payment is charged again later without the buyer (a membership's renewals): the method is saved. */
  readonly recurring?: boolean;
}

/**
 * Every flow of spec 1 "Checkout flows". In-person payment has no flow restriction in the spec, so every flow
 * lists it (only flows with a Payment step ever show it). Adding a flow starts here; the compiler then asks for its server definition.
 */
export const FLOW_RULES = {
  booking: {
    pathSlug: 'booking', courseTypes: ['class', 'blended'], dated: true,
    steps: { beforeLogin: ['date', 'spaces'], afterLogin: ['contactDetails', 'payment', 'confirmation'] },
    paymentMethods: ['card', 'paypal', 'klarna', 'invoice', 'manual'],
  },
  order: {
    pathSlug: 'order', courseTypes: ['on-demand'], dated: false,
    steps: { beforeLogin: ['offers'], afterLogin: ['contactDetails', 'payment', 'confirmation'] },
    paymentMethods: ['card', 'paypal', 'klarna', 'invoice', 'manual'],
  },
  request: {
    pathSlug: 'request', courseTypes: ['on-request'], dated: false,
    steps: { beforeLogin: ['delivery', 'dates', 'message'], afterLogin: ['contactDetails', 'payment', 'confirmation'] },
    paymentMethods: ['card', 'paypal', 'invoice', 'manual'],
  },
  dateBookingRequest: {
    pathSlug: 'date-booking-request', courseTypes: ['class', 'blended'], dated: false,
    steps: { beforeLogin: ['dates', 'message'], afterLogin: ['contactDetails', 'confirmation'] },
    paymentMethods: ['manual'],
  },
  groupBookingRequest: {
    pathSlug: 'group-booking-request', courseTypes: ['class', 'blended'], dated: false,
    steps: { beforeLogin: ['dates', 'message'], afterLogin: ['contactDetails', 'confirmation'] },
    paymentMethods: ['manual'],
  },
  bookingApplication: {
    pathSlug: 'booking-application', courseTypes: ['class', 'blended'], dated: true,
    steps: { beforeLogin: ['date', 'spaces'], afterLogin: ['contactDetails', 'confirmation'] },
    paymentMethods: ['manual'],
  },
  // Joining a membership plan: sold by the educator, paid by card (the card is charged again at each renewal).
  membership: {
    pathSlug: 'membership', courseTypes: null, dated: false, recurring: true,
    steps: { beforeLogin: ['plan'], afterLogin: ['payment', 'confirmation'] },
    paymentMethods: ['card'],
  },
  // A gift voucher of an educator (docs/gifts-and-memberships.md): paid at once by card or wallet — never on
  // invoice or in person, as the code is issued when it is paid.
  giftVoucher: {
    pathSlug: 'gift-voucher', courseTypes: null, dated: false, title: 'Gift Voucher',
    steps: { beforeLogin: ['giftAmount'], afterLogin: ['giftDetails', 'payment', 'confirmation'] },
    paymentMethods: ['card', 'paypal'],
  },
} as const satisfies Record<string, FlowRules>;

export type Flow = keyof typeof FLOW_RULES;

/** The steps a flow lists (its server definition must give one object for each). */
export type FlowStepId<F extends Flow> =
  | (typeof FLOW_RULES)[F]['steps']['beforeLogin'][number]
  | (typeof FLOW_RULES)[F]['steps']['afterLogin'][number];

export const FLOWS = Object.keys(FLOW_RULES) as Flow[];

// Origins live in their own module (the course page needs them without the flow table); one copy, re-exported.
export { CHECKOUT_ORIGINS, contextForOrigin, originForContext, type CheckoutOrigin } from './origins.ts';

export function isFlow(value: unknown): value is Flow {
  return typeof value === 'string' && (FLOWS as readonly string[]).includes(value);
}

/** The flow for a path slug ('date-booking-request' → 'dateBookingRequest'), or null. */
export function flowFromSlug(slug: string): Flow | null {
  return FLOWS.find((flow) => FLOW_RULES[flow].pathSlug === slug) ?? null;
}

/** Spec 7: '/checkout/initialise/{slug}'. */
export function initialisePath(flow: Flow): string {
  return `/checkout/initialise/${FLOW_RULES[flow].pathSlug}`;
}

/** Spec 7: dated flows (booking, bookingApplication) send `occurrenceId`, and sell the occurrence's offers. */
export function isDatedFlow(flow: Flow): boolean {
  return FLOW_RULES[flow].dated;
}

/** Spec 3: on-demand, blended and on-request are themselves; every other value (or none) is treated as class. */
export function courseTypeGroup(type: CourseType | null | undefined): CourseTypeGroup {
  if (type === 'on-demand' || type === 'blended' || type === 'on-request') return type as CourseTypeGroup;
  return 'class';
}

/** Whether the flow sells a course (initialised with `courseId`) rather than something of the educator's (`educatorId`). */
export function flowSellsCourse(flow: Flow): boolean {
  return (FLOW_RULES[flow] as FlowRules).courseTypes !== null;
}

/** Whether the flow's payment method is saved for later off-session charges (memberships). */
export function flowIsRecurring(flow: Flow): boolean {
  return (FLOW_RULES[flow] as FlowRules).recurring === true;
}

/** The summary's heading for a flow without a course (its `title`). */
export function flowTitle(flow: Flow): string {
  return (FLOW_RULES[flow] as FlowRules).title ?? '';
}

export function flowAcceptsCourseType(flow: Flow, type: CourseType | null | undefined): boolean {
  const types = (FLOW_RULES[flow] as FlowRules).courseTypes;
  return types !== null && types.includes(courseTypeGroup(type));
}

/**
 * Spec 8: the mismatch message. The booking flow says "Invalid booking course
 * type {type}"; every other flow says 'Invalid course type "{type}" for {flow} flow'.
 */
export function flowMismatchMessage(flow: Flow, type: CourseType | null | undefined): string {
  const shown = String(type ?? '');
  return flow === 'booking' ? `Invalid booking course type ${shown}` : `Invalid course type "${shown}" for ${flow} flow`;
}

/** Spec 4: throws an invalid-course-type problem (400) when the flow and course type do not match. */
export function assertFlowMatchesCourseType(flow: Flow, type: CourseType | null | undefined): void {
  if (!flowAcceptsCourseType(flow, type)) {
    throw new ProblemError(problems.invalidCourseType(flowMismatchMessage(flow, type)));
  }
}

/** The flow a course of this type starts from its page (booking for scheduled, order, request). */
export function defaultFlowForCourseType(type: CourseType | null | undefined): Flow {
  const group = courseTypeGroup(type);
  if (group === 'on-demand') return 'order';
  if (group === 'on-request') return 'request';
  return 'booking';
}

/**
 * The flow a course page's main button starts. A scheduled course (class, blended) whose `approval_required`
 * is set takes applications (spec 1: "a booking that needs an application"): the learner asks for a place
 * and the educator decides before anything is booked or paid. Everything else starts its type's flow.
 */
export function courseFlow(course: { type?: CourseType | null; approval_required?: boolean | null }): Flow {
  const flow = defaultFlowForCourseType(course.type);
  return flow === 'booking' && course.approval_required ? 'bookingApplication' : flow;
}

/** The course page's main button for a flow (the spec names none; these follow the outcome each leads to). */
export function bookButtonLabel(flow: Flow): string {
  if (flow === 'order') return 'Order Now';
  if (flow === 'request') return 'Request to Book';
  if (flow === 'bookingApplication') return 'Apply Now';
  return 'Book Now';
}
