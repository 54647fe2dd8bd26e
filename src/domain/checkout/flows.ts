/**
 * Checkout flows (spec 1 "Checkout flows", 4 "Flow and course type", 7 "Initialise checkout").
 */
import { ProblemError, problems } from '../problems.ts';
import type { CourseType } from '../entities.ts';
import type { AppContext } from '../links.ts';

export type Flow = 'booking' | 'order' | 'request' | 'dateBookingRequest' | 'groupBookingRequest' | 'bookingApplication';

export const FLOWS: readonly Flow[] = [
  'booking',
  'order',
  'request',
  'dateBookingRequest',
  'groupBookingRequest',
  'bookingApplication',
];

/** Spec 7: the path slug of each flow (/checkout/initialise/{slug}). */
export const FLOW_PATH_SLUGS: Readonly<Record<Flow, string>> = {
  booking: 'booking',
  order: 'order',
  request: 'request',
  dateBookingRequest: 'date-booking-request',
  groupBookingRequest: 'group-booking-request',
  bookingApplication: 'booking-application',
};

/** Spec 1: the checkout's origin. The marketplace value is not given in the spec; 'marketplace' is used. */
export const CHECKOUT_ORIGINS = ['marketplace', 'embed', 'landing_page'] as const;
export type CheckoutOrigin = (typeof CHECKOUT_ORIGINS)[number];

/** The origin a checkout opened in a context records: an educator's minisite is its landing page (spec 1). */
export function originForContext(context: AppContext): CheckoutOrigin {
  if (context === 'embed') return 'embed';
  if (context === 'minisite') return 'landing_page';
  return 'marketplace';
}

/** The context a checkout's links lead back to: the embed's links open the educator's minisite (spec 2.4). */
export function contextForOrigin(origin: string): AppContext {
  if (origin === 'embed') return 'embed';
  if (origin === 'landing_page') return 'minisite';
  return 'marketplace';
}

export function isCheckoutOrigin(value: unknown): value is CheckoutOrigin {
  return typeof value === 'string' && (CHECKOUT_ORIGINS as readonly string[]).includes(value);
}

export function isFlow(value: unknown): value is Flow {
  return typeof value === 'string' && (FLOWS as readonly string[]).includes(value);
}

/** The flow for a path slug ('date-booking-request' → 'dateBookingRequest'), or null. */
export function flowFromSlug(slug: string): Flow | null {
  const entry = (Object.entries(FLOW_PATH_SLUGS) as [Flow, string][]).find(([, value]) => value === slug);
  return entry ? entry[0] : null;
}

/** Spec 7: '/checkout/initialise/{slug}'. */
export function initialisePath(flow: Flow): string {
  return `/checkout/initialise/${FLOW_PATH_SLUGS[flow]}`;
}

/** Spec 7: booking and bookingApplication also send `occurrenceId` when initialising. */
export function flowSendsOccurrence(flow: Flow): boolean {
  return flow === 'booking' || flow === 'bookingApplication';
}

/** The course types that share rules: class and anything unknown are 'scheduled' (spec 3). */
export type CourseTypeGroup = 'on-demand' | 'blended' | 'on-request' | 'class';

/** Spec 3: on-demand, blended and on-request are themselves; every other value (or none) is treated as class. */
export function courseTypeGroup(type: CourseType | null | undefined): CourseTypeGroup {
  if (type === 'on-demand' || type === 'blended' || type === 'on-request') return type as CourseTypeGroup;
  return 'class';
}

/** Spec 4: the course types each flow accepts. */
export const FLOW_COURSE_TYPES: Readonly<Record<Flow, readonly CourseTypeGroup[]>> = {
  booking: ['class', 'blended'],
  bookingApplication: ['class', 'blended'],
  order: ['on-demand'],
  request: ['on-request'],
  dateBookingRequest: ['class', 'blended'],
  groupBookingRequest: ['class', 'blended'],
};

export function flowAcceptsCourseType(flow: Flow, type: CourseType | null | undefined): boolean {
  return FLOW_COURSE_TYPES[flow].includes(courseTypeGroup(type));
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
