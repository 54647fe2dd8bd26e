/** Tables of the public area: enquiries, analytics events, captcha solutions, search index (migration 0002). */
import type { WithDefault } from './columns.ts';

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
  /** Inbox state (migration 0280): when an admin first opened it, when it was marked done. */
  read_at: WithDefault<number | null>;
  done_at: WithDefault<number | null>;
  /** Waitlist: when the learner was told dates or spaces became available (once per entry). */
  notified_at: WithDefault<number | null>;
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
 * The course search read model (migration 0040), one row per course, kept in step by triggers: what search
 * filters and sorts on. SQLite adds `key` (its order key) and FTS5 level tables; PostgreSQL the per-level
 * tsvectors doc_l4…doc_l1. Those engine-specific columns are not typed here.
 */
export interface CourseSearchTable {
  course_id: string;
  published: boolean;
  educator_id: string;
  category_id: string | null;
  /** Bits of SEARCH_DELIVERY_BITS (db/queries/search.ts). */
  delivery_mask: number;
  /** The card's price range in pence; null when unknown (price on enquiry). */
  from_price: number | null;
  to_price: number | null;
  /** Rating × review count. */
  popularity: number;
  created_at: number;
  /** lower(trim(name)). */
  name_key: string;
}

export interface PublicTables {
  enquiries: EnquiriesTable;
  analytics_events: AnalyticsEventsTable;
  captcha_solutions: CaptchaSolutionsTable;
  course_search: CourseSearchTable;
}
