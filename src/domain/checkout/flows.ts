/**
 * Checkout flows (spec 1 "Checkout flows", 4 "Flow and course type", 7 "Initialise checkout").
 */
import { ProblemError, problems } from '../problems.ts';
import type { CourseType } from '../entities.ts';

import type { PaymentMethod, StepId } from './names.ts';

/** The course types that share rules: class and anything unknown are 'scheduled' (spec 3). */
export type CourseTypeGroup = 'on-demand' | 'blended' | 'on-request' | 'class';

/**
 * Spec 9 "Available spaces": the pool a selection draws on — the occurrence's (spec 5), the course's spaces or 100
 * (order), 10000 (request), or unlimited (group and date requests; flows that sell no spaces).
 */
export type SpacesPool = 'occurrence' | 'course' | 'request' | 'unlimited';

/** Spec 4 "Checkout actions": the names Contact Info and Message submit under, which differ between flows. */
export type ContactAction = 'contact details filled' | 'order contact details filled';
export type MessageAction = 'request message filled' | 'message filled';

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
  /** Spec 9 "Available spaces". */
  readonly spaces: SpacesPool;
  /** The action names of its Contact Info and Message steps (absent: "contact details filled", "message filled"). */
  readonly actions?: { readonly contactDetails?: ContactAction; readonly message?: MessageAction };
  /**
   * Its Dates step: the request's (a calendar slot or preferred dates, spec 4 "Request flow rules") or preferred
   * dates with offers and add-ons (spec 2.14 "Group/date request Dates"). Only for flows that list `dates`.
   */
  readonly dates?: 'request' | 'preferred dates with offers';
  /** Spec 2.15: the confirmation screen. */
  readonly confirmation: {
    /** Its heading. */
    readonly title: string;
    /** It records a booking — always (booking) or when it was an instant booking (request) — and then has the booking's heading. */
    readonly books?: 'always' | 'when instant';
    /** A request's line: "Your request has been sent to {educator}" ('sent') or "{educator} will be in touch soon". */
    readonly requestLine?: 'sent' | 'in touch';
  };
}

/**
 * Every flow of spec 1 "Checkout flows". In-person payment has no flow restriction in the spec, so every flow
 * lists it (only flows with a Payment step ever show it). Adding a flow starts here; the compiler then asks for its server definition.
 */
export const FLOW_RULES = {
  booking: {
    pathSlug: 'booking', courseTypes: ['class', 'blended'], dated: true, spaces: 'occurrence',
    steps: { beforeLogin: ['date', 'spaces'], afterLogin: ['contactDetails', 'payment', 'confirmation'] },
    paymentMethods: ['card', 'paypal', 'klarna', 'invoice', 'manual'],
    confirmation: { title: 'Booking Confirmed', books: 'always' },
  },
  order: {
    pathSlug: 'order', courseTypes: ['on-demand'], dated: false, spaces: 'course',
    steps: { beforeLogin: ['offers'], afterLogin: ['contactDetails', 'payment', 'confirmation'] },
    paymentMethods: ['card', 'paypal', 'klarna', 'invoice', 'manual'],
    actions: { contactDetails: 'order contact details filled' },
    confirmation: { title: 'Order Confirmed' },
  },
  request: {
    pathSlug: 'request', courseTypes: ['on-request'], dated: false, spaces: 'request',
    steps: { beforeLogin: ['delivery', 'dates', 'message'], afterLogin: ['contactDetails', 'payment', 'confirmation'] },
    paymentMethods: ['card', 'paypal', 'invoice', 'manual'],
    actions: { message: 'request message filled' },
    dates: 'request',
    confirmation: { title: 'Request Sent', books: 'when instant', requestLine: 'sent' },
  },
  dateBookingRequest: {
    pathSlug: 'date-booking-request', courseTypes: ['class', 'blended'], dated: false, spaces: 'unlimited',
    steps: { beforeLogin: ['dates', 'message'], afterLogin: ['contactDetails', 'confirmation'] },
    paymentMethods: ['manual'],
    dates: 'preferred dates with offers',
    confirmation: { title: 'Request Sent', requestLine: 'in touch' },
  },
  groupBookingRequest: {
    pathSlug: 'group-booking-request', courseTypes: ['class', 'blended'], dated: false, spaces: 'unlimited',
    steps: { beforeLogin: ['dates', 'message'], afterLogin: ['contactDetails', 'confirmation'] },
    paymentMethods: ['manual'],
    dates: 'preferred dates with offers',
    confirmation: { title: 'Request Sent', requestLine: 'in touch' },
  },
  bookingApplication: {
    pathSlug: 'booking-application', courseTypes: ['class', 'blended'], dated: true, spaces: 'occurrence',
    steps: { beforeLogin: ['date', 'spaces'], afterLogin: ['contactDetails', 'confirmation'] },
    paymentMethods: ['manual'],
    confirmation: { title: 'Application Sent' },
  },
  // Joining a membership plan: sold by the educator, paid by card (the card is charged again at each renewal).
  membership: {
    pathSlug: 'membership', courseTypes: null, dated: false, recurring: true, spaces: 'unlimited',
    steps: { beforeLogin: ['plan'], afterLogin: ['payment', 'confirmation'] },
    paymentMethods: ['card'],
    confirmation: { title: 'Welcome, You Are a Member' },
  },
  // A gift voucher of an educator (docs/gifts-and-memberships.md): paid at once by card or wallet — never on
  // invoice or in person, as the code is issued when it is paid.
  giftVoucher: {
    pathSlug: 'gift-voucher', courseTypes: null, dated: false, title: 'Gift Voucher', spaces: 'unlimited',
    steps: { beforeLogin: ['giftAmount'], afterLogin: ['giftDetails', 'payment', 'confirmation'] },
    paymentMethods: ['card', 'paypal'],
    confirmation: { title: 'Gift Voucher Purchased' },
  },
} as const satisfies Record<string, FlowRules>;

export type Flow = keyof typeof FLOW_RULES;

/**
 * The name of a registered flow, as a checkout row stores it and the API's state carries it: one of `Flow` for the
 * product's flows, or another name for a flow a test registers (api/checkout/flows/index.ts `registerFlow`). The
 * server's registry checks it where a row is read (`flowDefinition(name)`); the screen, which only opens the
 * product's flows, reads the state of a `Flow` (src/islands/checkout/types.ts).
 */
export type FlowName = Flow | (string & {});

/** The steps a flow's rules list (its server definition must give one object for each). */
export type RuleStepId<R extends FlowRules> = R['steps']['beforeLogin'][number] | R['steps']['afterLogin'][number];

/** The steps a flow lists (its server definition must give one object for each). */
export type FlowStepId<F extends Flow> = RuleStepId<(typeof FLOW_RULES)[F]>;

/**
 * A flow's rules, for code that asks the flow (its steps, payment methods, spaces pool, screens) instead of testing
 * its name: the screen reads them by the state's flow, the server from the flow's definition (api/checkout/flows/).
 */
export function flowRules(flow: Flow): FlowRules {
  return FLOW_RULES[flow];
}

/** What the flow's Contact Info step submits (spec 4: "order contact details filled" in order). */
export function contactAction(rules: FlowRules): ContactAction {
  return rules.actions?.contactDetails ?? 'contact details filled';
}

/** What the flow's Message step submits (spec 4: "request message filled" in request). */
export function messageAction(rules: FlowRules): MessageAction {
  return rules.actions?.message ?? 'message filled';
}

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
  return sellsCourse(FLOW_RULES[flow]);
}

/** The same, of a flow's rules. */
export function sellsCourse(rules: FlowRules): boolean {
  return rules.courseTypes !== null;
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
  return acceptsCourseType(FLOW_RULES[flow], type);
}

function acceptsCourseType(rules: FlowRules, type: CourseType | null | undefined): boolean {
  return rules.courseTypes !== null && rules.courseTypes.includes(courseTypeGroup(type));
}

/**
 * Spec 8: the mismatch message. The booking flow says "Invalid booking course
 * type {type}"; every other flow says 'Invalid course type "{type}" for {flow} flow'.
 */
export function flowMismatchMessage(flow: Flow | (string & {}), type: CourseType | null | undefined): string {
  const shown = String(type ?? '');
  return flow === 'booking' ? `Invalid booking course type ${shown}` : `Invalid course type "${shown}" for ${flow} flow`;
}

/** Spec 4: throws an invalid-course-type problem (400) when the flow and course type do not match. */
export function assertFlowMatchesCourseType(flow: Flow, type: CourseType | null | undefined): void {
  assertCourseTypeAccepted(flow, FLOW_RULES[flow], type);
}

/** The same, of a flow (its name, for the message) and its rules. */
export function assertCourseTypeAccepted(flow: string, rules: FlowRules, type: CourseType | null | undefined): void {
  if (!acceptsCourseType(rules, type)) {
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
