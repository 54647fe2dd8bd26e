/** Tables of the public area: enquiries, analytics events, captcha solutions, search index (migration 0002). */
import type { WithDefault } from '../schema.ts';

/** Spec 3 "Enquiry payload", one row per enquiry or waitlist sign-up (every field of the payload is kept). */
export interface EnquiriesTable {
  id: string;
  type: 'message' | 'waitlist';
  educator_id: string;
  /** The course named by details.course_slug, when it is one of the educator's. */
  course_id: string | null;
  first_name: string;
  last_name: string;
  email: string;
  /** Normalised by src/domain/phone.ts (e.g. '+447700900123'). */
  phone: string;
  message: string | null;
  enquiry_type: string | null;
  occurrence_ref: string | null;
  /** Attached only when both course_slug and course_name were sent (spec 2.9). */
  course_slug: string | null;
  course_name: string | null;
  embedded: WithDefault<boolean>;
  /** The app context the enquiry was sent from: marketplace, minisite or embed. */
  context: string;
  /** Host name of the page that sent it (the request's Origin, else its Host). */
  site: string | null;
  /** The signed-in user, if any. */
  user_id: string | null;
  /** Salted SHA-256 of the sender's IP address (never the address itself). */
  ip_hash: string | null;
  created_at: number;
}

/** Analytics events (spec 1 "Analytics"); `properties` is JSON. */
export interface AnalyticsEventsTable {
  id: string;
  name: string;
  educator_id: string;
  course_id: string | null;
  properties: Record<string, unknown>;
  context: string;
  created_at: number;
}

/** Signatures of ALTCHA challenges already redeemed, kept until the challenge expires (refuses replays). */
export interface CaptchaSolutionsTable {
  signature: string;
  expires_at: number;
  created_at: number;
}

/**
 * The course search index, one row per course, kept in step with courses, educators and categories
 * by triggers (migration 0002). SQLite: an FTS5 virtual table; PostgreSQL: a table with a generated
 * weighted tsvector column `document` (GIN index), not typed here.
 */
export interface CourseSearchTable {
  course_id: string;
  name: string;
  educator_name: string;
  category: string;
  description: string;
  keyword: string;
  city: string;
}

export interface PublicTables {
  enquiries: EnquiriesTable;
  analytics_events: AnalyticsEventsTable;
  captcha_solutions: CaptchaSolutionsTable;
  course_search: CourseSearchTable;
}
