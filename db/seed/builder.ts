/**
 * Row types for the demo catalogue and a small builder that creates one educator's rows with
 * stable, prefixed ids (edu_0001, crs_0001_03, occ_0001_03_02, …) and complete columns.
 *
 * Every row carries every column of its table (no reliance on database defaults), so a chunk of
 * rows always has the same column list and the loader can size its inserts by column count.
 */
import type { InsertType } from 'kysely';
import type {
  AddressParts, CoursesTable, Database, EducatorsTable, FieldDataType, OccurrencesTable, ReviewBreakdown,
} from '../schema.ts';
import type { City, Vertical } from './content.ts';
import { POSTCODE_LETTERS } from './content.ts';
import { DEFAULT_TIME_ZONE } from '../../src/domain/time.ts';
import { addCalendarDays, zonedWallClock } from '../../src/domain/zone.ts';
import type { Random } from './random.ts';
import type { z } from 'zod';
import { planInputSchema } from '../../src/domain/memberships.ts';

/** Catalogue tables in foreign-key order (parents first): the order rows are inserted in. */
export const CATALOGUE_TABLES = [
  'categories', 'educators', 'locations', 'faqs', 'lessons', 'forms', 'form_fields', 'form_validations',
  'courses', 'collections', 'collection_courses', 'occurrences', 'offers', 'add_ons', 'reviews',
  'payment_options', 'payment_option_methods', 'vouchers', 'membership_plans', 'gift_voucher_settings',
] as const;
export type CatalogueTable = (typeof CATALOGUE_TABLES)[number];

/** A complete insertable row: every column present, defaults spelled out. */
/** A seed row: every column given, except the admin's revision, which starts at its default (1). */
export type Row<T> = { [K in Exclude<keyof T, 'revision'>]-?: Exclude<InsertType<T[K]>, undefined> } & { revision?: number };
export type CatalogueRows = { [T in CatalogueTable]: Row<Database[T]>[] };

export function emptyRows(): CatalogueRows {
  return Object.fromEntries(CATALOGUE_TABLES.map((t) => [t, []])) as unknown as CatalogueRows;
}

export function appendRows(into: CatalogueRows, from: CatalogueRows): void {
  for (const t of CATALOGUE_TABLES) {
    const target = into[t] as unknown[];
    for (const row of from[t] as unknown[]) target.push(row);
  }
}

export function countRows(rows: CatalogueRows): number {
  let n = 0;
  for (const t of CATALOGUE_TABLES) n += rows[t].length;
  return n;
}

// ---------------------------------------------------------------------------------------------
// Time (epoch seconds). All catalogue dates are relative to the `now` anchor.

export const MINUTE = 60;
export const HOUR = 3600;
export const DAY = 86400;
export const WEEK = 7 * DAY;

export function utcDayStart(epochSeconds: number): number {
  return Math.floor(epochSeconds / DAY) * DAY;
}

/**
 * The instant of a wall-clock time in London, `dayOffset` days after the anchor's UTC day: a 10:00 class
 * stays at 10:00 on both sides of a clock change.
 */
export function londonTime(now: number, dayOffset: number, hour: number, minute = 0): number {
  const anchor = new Date(utcDayStart(now) * 1000);
  const day = addCalendarDays({ year: anchor.getUTCFullYear(), month: anchor.getUTCMonth() + 1, day: anchor.getUTCDate() }, dayOffset);
  return zonedWallClock(day, hour * HOUR + minute * MINUTE, DEFAULT_TIME_ZONE);
}

// ---------------------------------------------------------------------------------------------
// Text helpers

export function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Lower-case, ASCII, hyphen-separated; '&' reads 'and'. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[\u2019']/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/-{2,}/g, '-');
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function postcode(rng: Random, outward: string): string {
  const letters = POSTCODE_LETTERS;
  return `${outward} ${rng.int(1, 9)}${rng.pick(letters.split(''))}${rng.pick(letters.split(''))}`;
}

export const educatorIdOf = (n: number): string => `edu_${pad(n, 4)}`;

// ---------------------------------------------------------------------------------------------
// The builder

export type CourseRow = Row<CoursesTable>;
export type EducatorRow = Row<EducatorsTable>;
export type OccurrenceRow = Row<OccurrencesTable>;

export interface CourseRef {
  row: CourseRow;
  /** 2-digit course number within the educator, as in the id. */
  key: string;
  occurrences: number;
  offers: number;
  addOns: number;
  lessons: number;
}

export interface LocationRef {
  id: string;
  city: string;
  address: AddressParts;
  lat: number;
  lng: number;
}

export interface OccurrenceSpec {
  /** Days after the anchor day (negative: in the past). */
  day: number;
  hour: number;
  minute?: number;
  /** Length in minutes. */
  minutes: number;
  /** Explicit end (overrides minutes), e.g. for a series parent. */
  end?: number;
  delivery?: OccurrencesTable['delivery'];
  address?: AddressParts | null;
  spaces?: number | null;
  available?: number | null;
  visibility?: 'public' | 'private';
  parent?: string | null;
  bookable?: boolean;
}

export interface OfferSpec {
  name: string;
  price: number | null;
  description?: string | null;
  spaces?: number;
  start_at?: number | null;
  end_at?: number | null;
}

export interface ReviewSpec {
  /** Seconds before the anchor. */
  age: number;
  rating: number;
  course?: CourseRef | null;
  source?: 'marketplace' | 'facebook' | 'googlemaps' | 'trustpilot';
  breakdown?: ReviewBreakdown | null;
  verified?: boolean;
  name: string;
  message: string;
  response?: string | null;
  archived?: boolean;
}

export interface FieldSpec {
  id: string;
  label: string;
  data_type: FieldDataType;
  description?: string | null;
  items?: string[] | null;
  required?: boolean;
}

const SOURCES = {
  marketplace: { label: 'Marketplace', url: null as string | null },
  facebook: { label: 'Facebook', url: 'https://www.facebook.com/{handle}/reviews' },
  googlemaps: { label: 'Google', url: 'https://maps.google.com/?cid={cid}' },
  trustpilot: { label: 'Trustpilot', url: 'https://uk.trustpilot.com/review/{handle}.example' },
};

export class EducatorBuilder {
  readonly rows: CatalogueRows = emptyRows();
  readonly key: string;
  readonly id: string;
  educator!: EducatorRow;
  private counters = { course: 0, location: 0, faq: 0, review: 0, collection: 0, voucher: 0, payment: 0, plan: 0 };
  private courseSlugs = new Set<string>();

  constructor(
    readonly n: number,
    readonly rng: Random,
    readonly now: number,
    readonly vertical: Vertical,
    readonly city: City,
  ) {
    this.key = pad(n, 4);
    this.id = educatorIdOf(n);
  }

  /** Creates the educator row: defaults for everything not given. */
  setEducator(fields: Partial<EducatorRow> & { slug: string; name: string }): EducatorRow {
    this.educator = {
      id: this.id,
      bio: '',
      cover_url: null,
      logo_url: null,
      address: null,
      phone_number: null,
      email: null,
      tos: null,
      cancellation_allowed: null,
      can_be_contacted: true,
      claimed: true,
      feature_flags: { hide_marketing_consent: false, hide_terms: false, hide_pricing: false, hide_social_prompts: false },
      third_party_codes: {},
      vat_settings: { enabled: false, is_vat_absorbed: false, tax_label: null, rate_bp: 2000 },
      color_brand: null,
      on_color_brand: null,
      whitelabelling_enabled: false,
      links: {},
      working_hours: {},
      enquiry_types: [],
      form_ref: null,
      created_at: this.now - 400 * DAY,
      ...fields,
    };
    this.rows.educators.push(this.educator);
    return this.educator;
  }

  handle(): string {
    return this.educator.slug.replace(/-/g, '');
  }

  location(spec: { name?: string | null; city?: City; line1: string; postcode: string }): LocationRef {
    const city = spec.city ?? this.city;
    const id = `loc_${this.key}_${++this.counters.location}`;
    const address: AddressParts = { line1: spec.line1, city: city.name, postcode: spec.postcode };
    const lat = round6(city.lat + (this.rng.next() - 0.5) * 0.04);
    const lng = round6(city.lng + (this.rng.next() - 0.5) * 0.06);
    this.rows.locations.push({
      id, educator_id: this.id, name: spec.name ?? null, city: city.name,
      formatted: [spec.name, spec.line1, city.name, spec.postcode].filter(Boolean).join('\n'),
      address, lat, lng,
    });
    return { id, city: city.name, address, lat, lng };
  }

  faq(question: string, answer: string): string {
    const id = `faq_${this.key}_${++this.counters.faq}`;
    this.rows.faqs.push({ id, educator_id: this.id, question, answer });
    return id;
  }

  /** A course slug unique within this educator (suffixing -2, -3… on a clash). */
  uniqueCourseSlug(wanted: string): string {
    let slug = wanted;
    for (let i = 2; this.courseSlugs.has(slug); i++) slug = `${wanted}-${i}`;
    this.courseSlugs.add(slug);
    return slug;
  }

  hasCourseSlug(slug: string): boolean {
    return this.courseSlugs.has(slug);
  }

  course(fields: Partial<CourseRow> & { name: string }): CourseRef {
    const key = pad(++this.counters.course);
    const slug = this.uniqueCourseSlug(fields.slug ?? slugify(fields.name));
    const row: CourseRow = {
      id: `crs_${this.key}_${key}`,
      educator_id: this.id,
      created_at: this.now - (30 + this.counters.course * 7) * DAY,
      level: null,
      description: '',
      meta_description: null,
      keyword: null,
      category_id: this.vertical.categoryId,
      type: 'class',
      delivery_modes: ['in-person'],
      currency: 'GBP',
      spaces: 12,
      pricing_type: 'price-offers',
      minimum_price: null,
      maximum_price: null,
      form_ref: 'system_default',
      guest_form_ref: null,
      capture_guests: false,
      approval_required: false,
      restricted: false,
      img_urls: [],
      autoimg: null,
      address: null,
      lat: null,
      lng: null,
      faq_ids: [],
      sections: [],
      course_duration: null,
      duration_pricing: [],
      date_requests: null,
      available_for_online_delivery: false,
      available_for_in_person_delivery: false,
      educator_travel_settings: { enabled: false, type: null },
      student_travel_settings: { enabled: false, locations: [] },
      published: true,
      ...fields,
      slug,
    };
    this.rows.courses.push(row);
    return { row, key, occurrences: 0, offers: 0, addOns: 0, lessons: 0 };
  }

  occurrence(course: CourseRef, spec: OccurrenceSpec): string {
    const id = `occ_${this.key}_${course.key}_${pad(++course.occurrences)}`;
    const start = londonTime(this.now, spec.day, spec.hour, spec.minute ?? 0);
    const spaces = spec.spaces === undefined ? course.row.spaces : spec.spaces;
    const delivery = spec.delivery ?? 'in-person';
    const row: OccurrenceRow = {
      id,
      course_id: course.row.id,
      visibility: spec.visibility ?? 'public',
      start_datetime: start,
      end_datetime: spec.end ?? start + spec.minutes * MINUTE,
      timezone: 'Europe/London',
      delivery,
      address: spec.address !== undefined ? spec.address : delivery === 'online' ? null : course.row.address,
      spaces,
      available_spaces: spec.available === undefined ? spaces : spec.available,
      parent_ref: spec.parent ?? null,
      individually_bookable: spec.bookable ?? true,
      series_id: null,
    };
    this.rows.occurrences.push(row);
    return id;
  }

  occurrenceRow(id: string): OccurrenceRow {
    const row = this.rows.occurrences.find((o) => o.id === id);
    if (!row) throw new Error(`no occurrence ${id}`);
    return row;
  }

  offer(course: CourseRef, occurrenceId: string | null, spec: OfferSpec): string {
    const id = `off_${this.key}_${course.key}_${pad(++course.offers)}`;
    this.rows.offers.push({
      id, course_id: course.row.id, occurrence_id: occurrenceId, position: course.offers - 1,
      name: spec.name, description: spec.description ?? null, price: spec.price, spaces: spec.spaces ?? 1,
      start_at: spec.start_at ?? null, end_at: spec.end_at ?? null,
    });
    return id;
  }

  addOn(course: CourseRef, occurrenceId: string | null, spec: { name: string; price: number; description?: string | null }): string {
    const id = `add_${this.key}_${course.key}_${pad(++course.addOns)}`;
    this.rows.add_ons.push({
      id, course_id: course.row.id, occurrence_id: occurrenceId, position: course.addOns - 1,
      name: spec.name, description: spec.description ?? null, price: spec.price,
    });
    return id;
  }

  /** Creates the lessons and sets the course's sections to reference them. */
  sections(course: CourseRef, sections: { name: string; lessons: string[] }[]): void {
    course.row.sections = sections.map((section) => ({
      name: section.name,
      contents: section.lessons.map((name) => {
        const id = `les_${this.key}_${course.key}_${pad(++course.lessons)}`;
        this.rows.lessons.push({ id, educator_id: this.id, name });
        return { type: 'lesson' as const, ref: id };
      }),
    }));
  }

  review(spec: ReviewSpec): string {
    const id = `rev_${this.key}_${pad(++this.counters.review, 3)}`;
    const source = spec.source ?? 'marketplace';
    const meta = SOURCES[source];
    const created = this.now - spec.age;
    const responseAt = spec.response ? Math.min(this.now - 600, created + Math.max(3600, Math.floor(spec.age / 3))) : null;
    this.rows.reviews.push({
      id,
      educator_id: this.id,
      course_id: spec.course ? spec.course.row.id : null,
      entity: spec.course ? 'course' : 'educator',
      rating: spec.rating,
      breakdown: spec.breakdown ?? null,
      verified: spec.verified ?? (source === 'marketplace'),
      source_key: source,
      source_label: meta.label,
      external_url: meta.url
        ? meta.url.replace('{handle}', this.handle()).replace('{cid}', String(1000000 + this.n * 97))
        : null,
      reviewer_id: source === 'marketplace' ? `stu_demo_${pad((this.n * 7 + this.counters.review) % 50 + 1, 3)}` : null,
      reviewer_name: spec.name,
      public_message: spec.message,
      response_message: spec.response ?? null,
      response_created_at: responseAt,
      created_at: created,
      archived_at: spec.archived ? Math.min(this.now - 60, created + DAY) : null,
    });
    return id;
  }

  form(suffix: string, name: string, fields: FieldSpec[]): string {
    const id = `frm_${this.key}_${suffix}`;
    this.rows.forms.push({ id, educator_id: this.id, name });
    const created = this.educator.created_at + DAY;
    fields.forEach((f, position) => {
      this.rows.form_fields.push({
        form_id: id, id: f.id, position, label: f.label, description: f.description ?? null,
        data_type: f.data_type, items: f.items ?? null, educator_ref: this.id,
        created_at: created, updated_at: created + (position % 3) * DAY,
      });
      if (f.required) this.rows.form_validations.push({ form_id: id, field_ref: f.id, condition: 'required', value_json: true });
    });
    return id;
  }

  collection(spec: { name: string; image_url?: string | null; published?: boolean; courses: CourseRef[] }): string {
    const position = this.counters.collection;
    const id = `col_${this.key}_${++this.counters.collection}`;
    this.rows.collections.push({
      id, educator_id: this.id, name: spec.name, image_url: spec.image_url ?? null,
      published: spec.published ?? true, position,
    });
    spec.courses.forEach((c, i) => this.rows.collection_courses.push({ collection_id: id, course_id: c.row.id, position: i }));
    return id;
  }

  voucher(spec: {
    code: string; kind: 'percent' | 'fixed'; amount: number; course?: CourseRef | null;
    expires_at?: number | null; max_uses?: number | null; uses?: number;
  }): string {
    const id = `vou_${this.key}_${++this.counters.voucher}`;
    this.rows.vouchers.push({
      id, educator_id: this.id, course_id: spec.course ? spec.course.row.id : null, code: spec.code,
      kind: spec.kind, amount: spec.amount, currency: 'GBP', expires_at: spec.expires_at ?? null,
      max_uses: spec.max_uses ?? null, uses: spec.uses ?? 0, created_at: this.now - 60 * DAY,
    });
    return id;
  }

  /** A membership plan, checked by the same schema an editor would use (src/domain/memberships.ts). */
  membershipPlan(spec: z.input<typeof planInputSchema> & { courses?: CourseRef[] }): string {
    const id = `plan_${this.key}_${++this.counters.plan}`;
    const { courses, ...input } = spec;
    const plan = planInputSchema.parse({ ...input, courseIds: courses ? courses.map((c) => c.row.id) : input.courseIds ?? null });
    this.rows.membership_plans.push({
      id, educator_id: this.id, name: plan.name, description: plan.description, interval: plan.interval, pass_months: plan.passMonths,
      price: plan.price, currency: plan.currency, discount_percent: plan.discountPercent, credits_per_period: plan.creditsPerPeriod,
      course_ids: plan.courseIds, position: this.counters.plan, listed: true, created_at: this.now - 90 * DAY,
    });
    return id;
  }

  /** Gift vouchers on sale (the spec's `vouchers_app_installed`): fixed amounts and/or a custom range, in pence. */
  giftVouchers(spec: { fixedAmounts: number[]; customMin?: number | null; customMax?: number | null; expiryMonths?: number; designColour?: string | null }): void {
    this.rows.gift_voucher_settings.push({
      educator_id: this.id, enabled: 1, fixed_amounts: spec.fixedAmounts.join(','), custom_min: spec.customMin ?? null,
      custom_max: spec.customMax ?? null, expiry_months: spec.expiryMonths ?? 12, design_colour: spec.designColour ?? null,
      updated_at: this.now - 30 * DAY,
    });
  }

  paymentOptions(spec: {
    course?: CourseRef | null; card?: boolean; paypal?: boolean; klarna?: boolean; invoice?: boolean;
    manual?: boolean; manual_label?: string | null; manual_message?: string | null; invoice_due_days?: number;
  }): string {
    const id = spec.course ? `pay_${this.key}_${spec.course.key}` : `pay_${this.key}`;
    this.rows.payment_options.push({
      id, educator_id: this.id, course_id: spec.course ? spec.course.row.id : null, invoice_due_days: spec.invoice_due_days ?? 14,
    });
    const enabled = { card: spec.card ?? true, paypal: spec.paypal ?? false, klarna: spec.klarna ?? false, invoice: spec.invoice ?? false, manual: spec.manual ?? false };
    for (const [method, on] of Object.entries(enabled)) {
      this.rows.payment_option_methods.push({
        payment_options_id: id, method, enabled: on,
        label: method === 'manual' ? spec.manual_label ?? null : null, message: method === 'manual' ? spec.manual_message ?? null : null,
      });
    }
    return id;
  }
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** The system form every course falls back to (spec 3 "Form"). */
export const SYSTEM_FORM_ID = 'system_default';
