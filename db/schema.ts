/**
 * Database types (kysely). JSON columns hold the parsed value (db/codec.ts encodes and decodes them).
 * Times are epoch seconds, money is integer pence.
 */
import type { Generated, Insertable, Selectable } from 'kysely';
import type { PublicTables } from './schema/public.ts';
import type { AccountTables } from './schema/accounts.ts';
import type { CheckoutTables } from './schema/checkout.ts';
import type { GiftTables } from './schema/gifts.ts';
import type { PaymentTables } from './schema/payments.ts';
import type { DocumentTables } from './schema/documents.ts';
import type { MembershipTables } from './schema/memberships.ts';
import type { PublishTables } from './schema/publish.ts';
import type { AdminTables } from './schema/admin.ts';
import type { CourseAdminTables } from './schema/course-admin.ts';
import type { WithDefault } from './schema/columns.ts';
import type { AdminBookingTables } from './schema/admin-bookings.ts';

export interface FeatureFlags {
  hide_marketing_consent: boolean;
  hide_terms: boolean;
  hide_pricing: boolean;
  hide_social_prompts: boolean;
}
export interface ThirdPartyCodes { ga4_id?: string | null; facebook_pixel_id?: string | null }
export interface VatSettings { enabled: boolean; is_vat_absorbed: boolean; tax_label?: string | null; rate_bp?: number }
export interface EducatorLinks {
  web?: string | null; facebook?: string | null; instagram?: string | null; twitter?: string | null;
  pinterest?: string | null; linkedin?: string | null; youtube?: string | null;
}
export type Weekday = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';
export interface TimeRange { from: number; until: number }
/** null or absent: Closed; []: Open 24 hours; ranges in seconds from midnight. */
export type WorkingHours = Partial<Record<Weekday, TimeRange[] | null>>;
export type AddressParts = Record<string, string>;
export interface CourseSection { name: string; contents: { type: 'lesson'; ref: string }[] }
export interface DurationPricing { _id: string; duration: number; label?: string | null; description?: string | null; extra_cost?: number | null }
export interface EducatorTravelSettings { enabled: boolean; type?: 'Internationally' | 'UK Wide' | null }
export interface StudentTravelSettings { enabled: boolean; locations: string[] }
export interface ReviewBreakdown {
  material?: number | null; facilitator?: number | null; organiser?: number | null;
  resources?: number | null; delivery?: number | null; communication?: number | null;
}

export interface EducatorsTable {
  id: string;
  slug: string;
  name: string;
  bio: WithDefault<string>;
  cover_url: string | null;
  logo_url: string | null;
  address: AddressParts | null;
  phone_number: string | null;
  email: string | null;
  tos: string | null;
  cancellation_allowed: number | null;
  can_be_contacted: WithDefault<boolean>;
  claimed: WithDefault<boolean>;
  feature_flags: FeatureFlags;
  third_party_codes: ThirdPartyCodes;
  vat_settings: VatSettings;
  color_brand: string | null;
  on_color_brand: string | null;
  whitelabelling_enabled: WithDefault<boolean>;
  links: EducatorLinks;
  working_hours: WorkingHours;
  enquiry_types: { label: string }[];
  form_ref: string | null;
  created_at: number;
  /** Raised by every admin save (optimistic concurrency, migration 0230). */
  revision: WithDefault<number>;
}

export interface CategoriesTable { id: string; slug: string; name: string }

export interface LocationsTable {
  id: string; educator_id: string; name: string | null; city: string; formatted: string;
  address: AddressParts | null; lat: number | null; lng: number | null;
  revision: WithDefault<number>;
}
export interface FaqsTable { id: string; educator_id: string; question: string; answer: string }
export interface LessonsTable { id: string; educator_id: string; name: string }
export interface FormsTable { id: string; educator_id: string | null; name: string; revision: WithDefault<number> }
export type FieldDataType =
  | 'url' | 'address' | 'boolean' | 'checkbox' | 'date' | 'dropdown' | 'email' | 'first_name'
  | 'last_name' | 'number' | 'radio' | 'tel' | 'text' | 'textarea' | 'statement';
export interface FormFieldsTable {
  form_id: string; id: string; position: number; label: string; description: string | null;
  data_type: FieldDataType; items: string[] | null; educator_ref: string | null;
  created_at: number; updated_at: number;
}
export interface FormValidationsTable { form_id: string; field_ref: string; condition: string; value_json: unknown }

export type CourseType = 'on-demand' | 'blended' | 'on-request' | 'class';
export type PricingType = 'price-offers' | 'free' | 'price-on-enquiry' | 'price-range';
export interface CoursesTable {
  id: string;
  educator_id: string;
  slug: string;
  name: string;
  created_at: number;
  level: string | null;
  description: WithDefault<string>;
  meta_description: string | null;
  keyword: string | null;
  category_id: string | null;
  type: CourseType;
  delivery_modes: string[];
  currency: WithDefault<string>;
  spaces: number | null;
  pricing_type: PricingType;
  minimum_price: number | null;
  maximum_price: number | null;
  form_ref: WithDefault<string>;
  guest_form_ref: string | null;
  capture_guests: WithDefault<boolean>;
  approval_required: WithDefault<boolean>;
  restricted: WithDefault<boolean>;
  img_urls: string[];
  autoimg: { url: string; author: string } | null;
  address: AddressParts | null;
  lat: number | null;
  lng: number | null;
  faq_ids: string[];
  sections: CourseSection[];
  course_duration: number | null;
  duration_pricing: DurationPricing[];
  date_requests: string | null;
  available_for_online_delivery: WithDefault<boolean>;
  available_for_in_person_delivery: WithDefault<boolean>;
  educator_travel_settings: EducatorTravelSettings;
  student_travel_settings: StudentTravelSettings;
  published: WithDefault<boolean>;
  revision: WithDefault<number>;
}

export interface CollectionsTable {
  id: string; educator_id: string; name: string; image_url: string | null;
  published: WithDefault<boolean>; position: WithDefault<number>; revision: WithDefault<number>;
}
export interface CollectionCoursesTable { collection_id: string; course_id: string; position: WithDefault<number> }

export interface OccurrencesTable {
  id: string;
  course_id: string;
  visibility: WithDefault<string>;
  start_datetime: number;
  end_datetime: number;
  timezone: WithDefault<string>;
  delivery: 'online' | 'in-person' | 'hybrid';
  address: AddressParts | null;
  spaces: number | null;
  available_spaces: number | null;
  parent_ref: string | null;
  individually_bookable: WithDefault<boolean>;
  revision: WithDefault<number>;
  /** The dates made together by one repeating rule share it (migration 0260); null: a single date. */
  series_id: string | null;
}

export interface OffersTable {
  id: string; course_id: string; occurrence_id: string | null; position: WithDefault<number>;
  name: string; description: string | null; price: number | null; spaces: WithDefault<number>;
  start_at: number | null; end_at: number | null;
}
export interface AddOnsTable {
  id: string; course_id: string; occurrence_id: string | null; position: WithDefault<number>;
  name: string; description: string | null; price: WithDefault<number>;
}

export interface ReviewsTable {
  id: string;
  educator_id: string;
  course_id: string | null;
  entity: 'course' | 'educator';
  rating: number;
  breakdown: ReviewBreakdown | null;
  verified: WithDefault<boolean>;
  source_key: string;
  source_label: string;
  external_url: string | null;
  reviewer_id: string | null;
  reviewer_name: string;
  public_message: WithDefault<string>;
  response_message: string | null;
  response_created_at: number | null;
  created_at: number;
  archived_at: number | null;
}

export interface ReviewAggregatesTable {
  subject_type: 'educator' | 'course';
  subject_id: string;
  count: number;
  rating: number;
  material: number | null;
  facilitator: number | null;
  organiser: number | null;
  resources: number | null;
  delivery: number | null;
  communication: number | null;
}

/** The payment options of an educator (course_id null) or of one course; the methods are rows of payment_option_methods. */
export interface PaymentOptionsTable {
  id: string;
  educator_id: string;
  course_id: string | null;
  invoice_due_days: WithDefault<number>;
  /** Raised by every admin save (optimistic concurrency, migration 0240). */
  revision: WithDefault<number>;
}

/** One payment method of a set of payment options: any method the provider registry knows (PAYMENT_METHODS). */
export interface PaymentOptionMethodsTable {
  payment_options_id: string;
  method: string;
  enabled: WithDefault<boolean>;
  /** The educator's own name and instructions for the method (the in-person method's "label" and "message"). */
  label: string | null;
  message: string | null;
}

export interface VouchersTable {
  id: string;
  educator_id: string;
  course_id: string | null;
  code: string;
  kind: 'percent' | 'fixed';
  amount: number;
  currency: WithDefault<string>;
  expires_at: number | null;
  max_uses: number | null;
  uses: WithDefault<number>;
  created_at: number;
  revision: WithDefault<number>;
}

export interface CatalogueMetaTable { key: string; value: string }

/**
 * Every table. Each area keeps its own tables in its own file (db/schema/*.ts) so that
 * areas can grow without editing each other's types.
 */
export interface Database extends CatalogueTables, PublicTables, AccountTables, CheckoutTables, PaymentTables, DocumentTables, MembershipTables, PublishTables, GiftTables, AdminTables, CourseAdminTables, AdminBookingTables {}

export interface CatalogueTables {
  educators: EducatorsTable;
  categories: CategoriesTable;
  locations: LocationsTable;
  faqs: FaqsTable;
  lessons: LessonsTable;
  forms: FormsTable;
  form_fields: FormFieldsTable;
  form_validations: FormValidationsTable;
  courses: CoursesTable;
  collections: CollectionsTable;
  collection_courses: CollectionCoursesTable;
  occurrences: OccurrencesTable;
  offers: OffersTable;
  add_ons: AddOnsTable;
  reviews: ReviewsTable;
  review_aggregates: ReviewAggregatesTable;
  payment_options: PaymentOptionsTable;
  payment_option_methods: PaymentOptionMethodsTable;
  vouchers: VouchersTable;
  catalogue_meta: CatalogueMetaTable;
}

export type Educator = Selectable<EducatorsTable>;
export type Course = Selectable<CoursesTable>;
export type Occurrence = Selectable<OccurrencesTable>;
export type Offer = Selectable<OffersTable>;
export type AddOn = Selectable<AddOnsTable>;
export type Review = Selectable<ReviewsTable>;
export type NewEducator = Insertable<EducatorsTable>;
export type NewCourse = Insertable<CoursesTable>;
export type { Generated };
