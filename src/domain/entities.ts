/**
 * Minimal structural shapes of the spec 3 entities, as read by the domain
 * rules. Every field is optional unless a rule cannot work without it, so that
 * API rows, page props and test fixtures all fit.
 */

/** Spec 3 "Course.type". Other values are treated as scheduled (like class). */
export type CourseType = 'on-demand' | 'blended' | 'on-request' | 'class' | (string & {});

/** Spec 3 "Offer". `price` is integer pence; 0 or missing means Free. */
export interface Offer {
  _id: string;
  type?: string;
  name?: string;
  description?: string;
  price?: number | null;
  /** Spaces consumed per unit, default 1. */
  spaces?: number | null;
  /** Sale window, epoch seconds. */
  start_at?: number | null;
  end_at?: number | null;
}

/** Spec 3 "Add-on". */
export interface AddOn {
  _id: string;
  name?: string;
  description?: string;
  price?: number | null;
}

/** Spec 3 "Occurrence". */
export interface Occurrence {
  _id: string;
  visibility?: string | null;
  start_datetime?: number | null;
  end_datetime?: number | null;
  delivery?: string | null;
  address?: Record<string, unknown> | null;
  offers?: Offer[] | null;
  add_ons?: AddOn[] | null;
  available_spaces?: number | null;
  spaces?: number | null;
  parent_ref?: string | null;
  individually_bookable?: boolean | null;
}

/** Spec 3 "duration_pricing" entry; `duration` in minutes, `extra_cost` in pence. */
export interface DurationOption {
  _id: string;
  duration?: number | null;
  label?: string | null;
  description?: string | null;
  extra_cost?: number | null;
}

/** Spec 3 "pricing_option". */
export interface PricingOption {
  type?: 'price-offers' | 'free' | 'price-on-enquiry' | 'price-range' | (string & {}) | null;
  offers?: Offer[] | null;
  add_ons?: AddOn[] | null;
  minimumPrice?: number | null;
  maximumPrice?: number | null;
}

/** Spec 3 "Course" (the parts the rules read). */
export interface CourseLike {
  _id?: string;
  slug?: string;
  name?: string;
  type?: CourseType | null;
  keyword?: string | null;
  level?: string | null;
  delivery?: string[] | string | null;
  currency?: string | null;
  spaces?: number | null;
  offers?: Offer[] | null;
  add_ons?: AddOn[] | null;
  pricing_option?: PricingOption | null;
  address?: Record<string, unknown> | null;
  course_duration?: { duration?: number | null } | null;
  duration_pricing?: DurationOption[] | null;
  date_requests?: string | null;
  available_for_online_delivery?: boolean | null;
  available_for_in_person_delivery?: boolean | null;
  educator_travel_settings?: { enabled?: boolean | null; type?: 'Internationally' | 'UK Wide' | (string & {}) | null } | null;
  student_travel_settings?: { enabled?: boolean | null; locations?: string[] | null } | null;
  capture_guests?: boolean | null;
  approval_required?: boolean | null;
  published?: boolean | null;
}
