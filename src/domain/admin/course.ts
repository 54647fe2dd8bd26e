/**
 * The educator admin's course rules (api/admin/courses.ts, src/islands/admin/courses/): what a course may hold,
 * checked the same way by the editor in the browser and by the server at the boundary. Pure: no I/O.
 *
 * The shape is the catalogue's (db/schema.ts CoursesTable, spec 3 "Course", "Offer", "Add-on"), and the rules are
 * the ones the checkout and the course page read: an on-request course needs a delivery option the checkout can
 * default to (spec 4, else "No delivery options available"), a free course charges nothing for any offer or add-on
 * (the checkout drops Payment when no offer costs anything), a price range names both ends, an offer's sale window
 * ends after it starts, money is whole pence. Messages follow spec 8: a field's label, then 'is required',
 * 'must be at least 1'…
 */
import { z } from '../zod.ts';
import type { ProblemProperty } from '../problems.ts';
import { RESERVED_EDUCATOR_PAGES, RESERVED_MINISITE_PAGES } from '../routes.ts';
import { isSafeUrl } from '../urls.ts';
import { validateEmail } from '../email.ts';
import { availableDeliveryTypes } from '../checkout/defaults.ts';
import { CALENDAR_MAX_DURATION_MINUTES } from '../checkout/request.ts';
import { isoDate, zonedParts, zonedWallClock } from '../zone.ts';
import { DEFAULT_TIME_ZONE } from '../time.ts';
import { slugFromName } from '../text.ts';

export const COURSE_TYPES = ['class', 'blended', 'on-demand', 'on-request'] as const;
export const COURSE_TYPE_LABELS: Record<(typeof COURSE_TYPES)[number], string> = {
  class: 'Class (scheduled dates)',
  blended: 'Blended (dates and online content)',
  'on-demand': 'On-demand (learn any time)',
  'on-request': 'On request (learners ask for a date)',
};
/** Spec 3 "Course.delivery": the values seen on cards. */
export const DELIVERY_MODES = ['in-person', 'online', 'hybrid', 'on-demand', 'on-request'] as const;
export const DELIVERY_MODE_LABELS: Record<(typeof DELIVERY_MODES)[number], string> = {
  'in-person': 'In person', online: 'Online (live)', hybrid: 'Hybrid', 'on-demand': 'On-demand', 'on-request': 'On request',
};
/** Spec 3 "pricing_option.type". */
export const PRICING_TYPES = ['price-offers', 'free', 'price-on-enquiry', 'price-range'] as const;
export const PRICING_TYPE_LABELS: Record<(typeof PRICING_TYPES)[number], string> = {
  'price-offers': 'Priced by offers',
  free: 'Free',
  'price-on-enquiry': 'Price on enquiry',
  'price-range': 'Price range',
};
/** Spec 3 "Level display": 'All' shows as 'All levels', others as '{level} level'. */
export const COURSE_LEVELS = ['All', 'Beginner', 'Intermediate', 'Advanced'] as const;
export const EDUCATOR_TRAVEL_TYPES = ['UK Wide', 'Internationally'] as const;
export const DATE_REQUESTS_CALENDAR = 'calendar_based';
/** The form every course falls back to (spec 3 "form_ref: default system_default"). */
export const SYSTEM_FORM_REF = 'system_default';

export const COURSE_LIMITS = {
  name: 150,
  slug: 100,
  description: 20_000,
  metaDescription: 300,
  keyword: 40,
  level: 40,
  spaces: 100_000,
  /** £100,000 in pence. */
  price: 10_000_000,
  offers: 50,
  offerName: 120,
  offerDescription: 1000,
  offerSpaces: 1000,
  addOns: 50,
  durations: 20,
  /** A year, in minutes. */
  duration: 525_600,
  durationLabel: 80,
  durationDescription: 300,
  images: 10,
  faqs: 50,
  question: 300,
  answer: 5000,
  sections: 50,
  sectionName: 120,
  lessons: 200,
  lessonName: 200,
  restrictedEmails: 2000,
  locations: 50,
  addressPart: 200,
} as const;

export type CourseTypeValue = (typeof COURSE_TYPES)[number];
export type PricingTypeValue = (typeof PRICING_TYPES)[number];

// ---------------------------------------------------------------------------------------------------------------
// Money and dates as the editor shows them
// ---------------------------------------------------------------------------------------------------------------

/** '12', '12.5', '£1,234.50' → pence; null when it is not an amount of money (negative, three decimals, text). */
export function parsePounds(text: string): number | null {
  const cleaned = text.trim().replace(/^£/, '').replace(/,/g, '').trim();
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  const [whole, fraction = ''] = cleaned.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Pence → '12.50' (the £ sign is the input's own label). */
export function formatPounds(pence: number): string {
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(pence));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A `datetime-local` value ('2026-05-01T10:00') read as Europe/London wall-clock time → epoch seconds (null: not a date). */
export function localInputToEpoch(value: string, timeZone: string = DEFAULT_TIME_ZONE): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const date = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  if (date.month < 1 || date.month > 12 || date.day < 1 || date.day > 31 || hour > 23 || minute > 59) return null;
  const epoch = zonedWallClock(date, hour * 3600 + minute * 60, timeZone);
  // '2026-02-30' would come back as 2 March.
  return isoDate(zonedParts(epoch, timeZone)) === `${m[1]}-${m[2]}-${m[3]}` ? epoch : null;
}

/** Epoch seconds → the `datetime-local` value of its Europe/London wall-clock time. */
export function epochToLocalInput(epoch: number, timeZone: string = DEFAULT_TIME_ZONE): string {
  const p = zonedParts(epoch, timeZone);
  return `${isoDate(p)}T${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Slugs
// ---------------------------------------------------------------------------------------------------------------

/** Lower-case letters and digits in words joined by single hyphens: one safe path segment (src/domain/slugs.ts). */
export const COURSE_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const COURSE_SLUG_FORMAT_MESSAGE = 'must be lower-case letters, digits and single hyphens, starting and ending with a letter or digit';
export const COURSE_SLUG_RESERVED_MESSAGE = 'is the address of another page of your site; choose another';
export const COURSE_SLUG_TAKEN_MESSAGE = 'is already used by another of your courses';

/** Course slugs that would be a page of the educator's site instead (spec 2.1, 2.2; src/domain/routes.ts). */
export function isReservedCourseSlug(slug: string): boolean {
  return RESERVED_EDUCATOR_PAGES.has(slug) || RESERVED_MINISITE_PAGES.has(slug);
}

/** The message for a course slug that cannot be used (format or reserved), or null. Uniqueness is the server's. */
export function courseSlugMessage(slug: string): string | null {
  if (slug.length === 0) return 'is required';
  if (slug.length > COURSE_LIMITS.slug) return `must be at most ${COURSE_LIMITS.slug} characters`;
  if (!COURSE_SLUG_PATTERN.test(slug)) return COURSE_SLUG_FORMAT_MESSAGE;
  if (isReservedCourseSlug(slug)) return COURSE_SLUG_RESERVED_MESSAGE;
  return null;
}

/** A slug for a name: 'Raku & Pit Firing!' → 'raku-pit-firing' (never reserved, never empty). */
export function suggestCourseSlug(name: string): string {
  const slug = slugFromName(name, 80) || 'course';
  return isReservedCourseSlug(slug) ? `${slug}-course` : slug;
}

/** The first of `{slug}`, `{slug}-2`, `{slug}-3`… not in `taken` (a duplicate's slug starts from `{slug}-copy`). */
export function firstFreeSlug(wanted: string, taken: ReadonlySet<string>): string {
  const base = wanted.slice(0, COURSE_LIMITS.slug - 4).replace(/-+$/g, '');
  if (!taken.has(base) && !isReservedCourseSlug(base)) return base;
  for (let i = 2; ; i++) {
    const next = `${base}-${i}`;
    if (!taken.has(next)) return next;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The input schema (zod at the boundary; the editor runs the same)
// ---------------------------------------------------------------------------------------------------------------

const REQUIRED = 'is required';
const requiredOr = (message: string) => (issue: { input: unknown }) => (issue.input === undefined || issue.input === null ? REQUIRED : message);

function text(max: number) {
  return z.string({ error: requiredOr('must be text') }).trim().max(max, { error: `must be at most ${max} characters` });
}
function requiredText(max: number) {
  return text(max).min(1, { error: REQUIRED });
}
/** Optional text: empty and null are both "none" (stored as null). */
function optionalText(max: number) {
  return z.union([text(max), z.null()]).optional().transform((v) => (v ? v : null));
}
function whole(min: number, max: number, unit = '') {
  return z.number({ error: requiredOr('must be a number') })
    .int({ error: `must be a whole number${unit}` })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` });
}
/** Money: whole pence, 0 to £100,000. */
const pence = z.number({ error: requiredOr('must be an amount of money') })
  .int({ error: 'must be a whole number of pence' })
  .min(0, { error: 'must be at least £0.00' })
  .max(COURSE_LIMITS.price, { error: 'must be at most £100,000.00' });
const epoch = z.number({ error: 'must be a date' }).int({ error: 'must be a whole number of seconds' }).min(0, { error: 'must be a date' });
const nullableEpoch = z.union([epoch, z.null()]).optional().transform((v) => v ?? null);
/** Ids of our own rows, as the browser sends them back. */
const id = z.string({ error: requiredOr('must be an id') }).min(1, { error: REQUIRED }).max(64, { error: 'is not an id' }).regex(/^[A-Za-z0-9_-]+$/, { error: 'is not an id' });
const optionalId = z.union([id, z.null()]).optional().transform((v) => v ?? null);
const bool = (fallback: boolean) => z.boolean({ error: 'must be true or false' }).default(fallback);

export const offerInputSchema = z.object({
  /** An existing offer of this course; absent for a new one. */
  id: optionalId,
  name: requiredText(COURSE_LIMITS.offerName),
  description: optionalText(COURSE_LIMITS.offerDescription),
  price: pence,
  /** Spaces one unit takes (spec 3 "Offer.spaces", default 1). */
  spaces: whole(1, COURSE_LIMITS.offerSpaces).default(1),
  start_at: nullableEpoch,
  end_at: nullableEpoch,
}).superRefine((offer, ctx) => {
  if (offer.start_at !== null && offer.end_at !== null && offer.end_at <= offer.start_at) {
    ctx.addIssue({ code: 'custom', path: ['end_at'], message: 'must be after the sale start' });
  }
});

export const addOnInputSchema = z.object({
  id: optionalId,
  name: requiredText(COURSE_LIMITS.offerName),
  description: optionalText(COURSE_LIMITS.offerDescription),
  price: pence,
});

export const durationInputSchema = z.object({
  _id: optionalId,
  /** Minutes. */
  duration: whole(1, COURSE_LIMITS.duration, ' of minutes'),
  label: optionalText(COURSE_LIMITS.durationLabel),
  description: optionalText(COURSE_LIMITS.durationDescription),
  extra_cost: z.union([pence, z.null()]).optional().transform((v) => v ?? null),
});

export const faqInputSchema = z.object({
  id: optionalId,
  question: requiredText(COURSE_LIMITS.question),
  answer: requiredText(COURSE_LIMITS.answer),
});

export const sectionInputSchema = z.object({
  name: requiredText(COURSE_LIMITS.sectionName),
  lessons: z.array(z.object({ id: optionalId, name: requiredText(COURSE_LIMITS.lessonName) }), { error: 'must be a list' })
    .max(COURSE_LIMITS.lessons, { error: `must have at most ${COURSE_LIMITS.lessons} lessons` }).default([]),
});

export const addressInputSchema = z.object({
  line1: optionalText(COURSE_LIMITS.addressPart),
  line2: optionalText(COURSE_LIMITS.addressPart),
  city: optionalText(COURSE_LIMITS.addressPart),
  postcode: optionalText(20),
});

/** Everything the editor saves (create and update); every field but name, slug and type has a default. */
export const courseInputSchema = z.object({
  name: requiredText(COURSE_LIMITS.name),
  slug: z.string({ error: requiredOr('must be text') }).trim().superRefine((slug, ctx) => {
    const message = courseSlugMessage(slug);
    if (message) ctx.addIssue({ code: 'custom', message });
  }),
  type: z.enum(COURSE_TYPES, { error: requiredOr('must be class, blended, on-demand or on-request') }),
  delivery_modes: z.array(z.enum(DELIVERY_MODES, { error: 'is not a delivery mode' }), { error: 'must be a list' })
    .min(1, { error: 'must include at least one way the course is delivered' })
    .max(DELIVERY_MODES.length, { error: 'must list each mode once' })
    .refine((modes) => new Set(modes).size === modes.length, { error: 'must list each mode once' }),
  level: optionalText(COURSE_LIMITS.level),
  category_id: optionalId,
  /** Rich text; sanitised by the server before it is stored. */
  description: z.string({ error: 'must be text' }).max(COURSE_LIMITS.description, { error: `must be at most ${COURSE_LIMITS.description} characters` }).default(''),
  meta_description: optionalText(COURSE_LIMITS.metaDescription),
  keyword: optionalText(COURSE_LIMITS.keyword),
  spaces: z.union([whole(0, COURSE_LIMITS.spaces), z.null()]).optional().transform((v) => v ?? null),
  pricing_type: z.enum(PRICING_TYPES, { error: requiredOr('must be price-offers, free, price-on-enquiry or price-range') }).default('price-offers'),
  minimum_price: z.union([pence, z.null()]).optional().transform((v) => v ?? null),
  maximum_price: z.union([pence, z.null()]).optional().transform((v) => v ?? null),
  offers: z.array(offerInputSchema, { error: 'must be a list' }).max(COURSE_LIMITS.offers, { error: `must have at most ${COURSE_LIMITS.offers} offers` }).default([]),
  add_ons: z.array(addOnInputSchema, { error: 'must be a list' }).max(COURSE_LIMITS.addOns, { error: `must have at most ${COURSE_LIMITS.addOns} add-ons` }).default([]),
  /** Minutes (spec 3 "course_duration.duration"). */
  course_duration: z.union([whole(1, COURSE_LIMITS.duration, ' of minutes'), z.null()]).optional().transform((v) => v ?? null),
  duration_pricing: z.array(durationInputSchema, { error: 'must be a list' }).max(COURSE_LIMITS.durations, { error: `must have at most ${COURSE_LIMITS.durations} durations` }).default([]),
  date_requests: z.union([z.literal(DATE_REQUESTS_CALENDAR), z.null()], { error: 'must be calendar_based or none' }).optional().transform((v) => v ?? null),
  address: z.union([addressInputSchema, z.null()]).optional().transform((v) => v ?? null),
  lat: z.union([z.number({ error: 'must be a number' }).min(-90, { error: 'must be at least -90' }).max(90, { error: 'must be at most 90' }), z.null()]).optional().transform((v) => v ?? null),
  lng: z.union([z.number({ error: 'must be a number' }).min(-180, { error: 'must be at least -180' }).max(180, { error: 'must be at most 180' }), z.null()]).optional().transform((v) => v ?? null),
  available_for_online_delivery: bool(false),
  available_for_in_person_delivery: bool(false),
  educator_travel_settings: z.object({
    enabled: bool(false),
    type: z.union([z.enum(EDUCATOR_TRAVEL_TYPES, { error: 'must be UK Wide or Internationally' }), z.null()]).optional().transform((v) => v ?? null),
  }).default({ enabled: false, type: null }),
  student_travel_settings: z.object({
    enabled: bool(false),
    locations: z.array(id, { error: 'must be a list' }).max(COURSE_LIMITS.locations, { error: `must have at most ${COURSE_LIMITS.locations} locations` }).default([]),
  }).default({ enabled: false, locations: [] }),
  form_ref: id.default(SYSTEM_FORM_REF),
  guest_form_ref: optionalId,
  capture_guests: bool(false),
  approval_required: bool(false),
  restricted: bool(false),
  /** Who may book a restricted course (restricted_course_access). */
  restricted_emails: z.array(z.string({ error: 'must be text' }).trim().toLowerCase(), { error: 'must be a list' })
    .max(COURSE_LIMITS.restrictedEmails, { error: `must have at most ${COURSE_LIMITS.restrictedEmails} addresses` }).default([]),
  img_urls: z.array(z.string({ error: 'must be text' }).refine((u) => isSafeUrl(u), { error: 'must be an http(s) URL or a path on this site' }), { error: 'must be a list' })
    .max(COURSE_LIMITS.images, { error: `must have at most ${COURSE_LIMITS.images} images` }).default([]),
  faqs: z.array(faqInputSchema, { error: 'must be a list' }).max(COURSE_LIMITS.faqs, { error: `must have at most ${COURSE_LIMITS.faqs} questions` }).default([]),
  sections: z.array(sectionInputSchema, { error: 'must be a list' }).max(COURSE_LIMITS.sections, { error: `must have at most ${COURSE_LIMITS.sections} sections` }).default([]),
});

export type CourseInput = z.infer<typeof courseInputSchema>;
export type OfferInput = z.infer<typeof offerInputSchema>;
export type AddOnInput = z.infer<typeof addOnInputSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Labels: a problem property names the field as the editor labels it (spec 8: '{name} {message}')
// ---------------------------------------------------------------------------------------------------------------

const FIELD_LABELS: Record<string, string> = {
  name: 'Name', slug: 'Web address', type: 'Type', delivery_modes: 'Delivery', level: 'Level', category_id: 'Category',
  description: 'Description', meta_description: 'Meta description', keyword: 'Keyword', spaces: 'Spaces', pricing_type: 'Pricing',
  minimum_price: 'Minimum price', maximum_price: 'Maximum price', offers: 'Offers', add_ons: 'Add-ons', course_duration: 'Duration',
  duration_pricing: 'Durations', date_requests: 'Date requests', address: 'Address', lat: 'Latitude', lng: 'Longitude',
  available_for_online_delivery: 'Online delivery', available_for_in_person_delivery: 'In-person delivery',
  educator_travel_settings: 'You travel to learners', student_travel_settings: 'Learners travel to you', form_ref: 'Booking form',
  guest_form_ref: 'Attendee form', capture_guests: 'Capture attendees', approval_required: 'Approval required', restricted: 'Restricted access',
  restricted_emails: 'Allowed e-mail addresses', img_urls: 'Images', faqs: 'FAQs', sections: 'Sections', revision: 'Revision',
};
const NESTED_LABELS: Record<string, [string, Record<string, string>]> = {
  offers: ['Offer', { name: 'name', description: 'description', price: 'price', spaces: 'spaces per booking', start_at: 'sale start', end_at: 'sale end' }],
  add_ons: ['Add-on', { name: 'name', description: 'description', price: 'price' }],
  duration_pricing: ['Duration', { duration: 'minutes', label: 'label', description: 'description', extra_cost: 'extra cost' }],
  faqs: ['Question', { question: 'question', answer: 'answer' }],
  sections: ['Section', { name: 'name', lessons: 'lessons' }],
  restricted_emails: ['Address', {}],
  img_urls: ['Image', {}],
};
const ADDRESS_LABELS: Record<string, string> = { line1: 'Address line 1', line2: 'Address line 2', city: 'Town or city', postcode: 'Postcode' };

/** The label of a field path ('offers.0.price' → 'Offer 1 price'). */
export function courseFieldLabel(key: string): string {
  const parts = key.split('.');
  const [head, index, field, lessonIndex, lessonField] = parts;
  if (head === 'address' && index) return ADDRESS_LABELS[index] ?? 'Address';
  if (head === 'educator_travel_settings' && index === 'type') return 'Travel area';
  if (head === 'student_travel_settings' && index === 'locations') return 'Your locations';
  const nested = head ? NESTED_LABELS[head] : undefined;
  if (nested && index !== undefined && /^\d+$/.test(index)) {
    const [noun, fields] = nested;
    if (head === 'sections' && field === 'lessons' && lessonIndex !== undefined && /^\d+$/.test(lessonIndex)) {
      return `Lesson ${Number(lessonIndex) + 1} of section ${Number(index) + 1}${lessonField ? ` ${lessonField}` : ''}`;
    }
    const what = field ? fields[field] ?? field : '';
    return `${noun} ${Number(index) + 1}${what ? ` ${what}` : ''}`;
  }
  return (head && FIELD_LABELS[head]) ?? key;
}

/** A validation property with the field's label (spec 8). */
export function courseProperty(key: string, message: string): ProblemProperty {
  return { key, name: courseFieldLabel(key), message };
}

/** zod issues as problem properties, one per field (the first message of each). */
export function issuesToProperties(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): ProblemProperty[] {
  const seen = new Set<string>();
  const out: ProblemProperty[] = [];
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || 'body';
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(courseProperty(key, issue.message));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The rules between fields (what the checkout and the course page need of a course)
// ---------------------------------------------------------------------------------------------------------------

export const FREE_PRICE_MESSAGE = 'must be £0.00 on a free course (the checkout takes no payment for it)';
export const NO_DELIVERY_MESSAGE = 'needs online delivery, you travelling to learners, or learners travelling to one of your locations: without one the checkout answers "No delivery options available"';

/**
 * What a course's fields must agree on, whatever the database holds (ids of other rows are the server's to check):
 * problem properties, empty when the course is consistent.
 */
export function courseRuleProblems(input: CourseInput): ProblemProperty[] {
  const out: ProblemProperty[] = [];
  if (input.pricing_type === 'price-range') {
    if (input.minimum_price === null) out.push(courseProperty('minimum_price', 'is required for a price range'));
    if (input.maximum_price === null) out.push(courseProperty('maximum_price', 'is required for a price range'));
    if (input.minimum_price !== null && input.maximum_price !== null && input.maximum_price < input.minimum_price) {
      out.push(courseProperty('maximum_price', 'must be at least the minimum price'));
    }
  }
  if (input.pricing_type === 'free') {
    input.offers.forEach((o, i) => { if (o.price > 0) out.push(courseProperty(`offers.${i}.price`, FREE_PRICE_MESSAGE)); });
    input.add_ons.forEach((a, i) => { if (a.price > 0) out.push(courseProperty(`add_ons.${i}.price`, FREE_PRICE_MESSAGE)); });
  }
  if (input.student_travel_settings.enabled && input.student_travel_settings.locations.length === 0) {
    out.push(courseProperty('student_travel_settings.locations', 'must include at least one of your locations'));
  }
  const delivery = {
    available_for_online_delivery: input.available_for_online_delivery,
    available_for_in_person_delivery: input.available_for_in_person_delivery,
    educator_travel_settings: input.educator_travel_settings,
    student_travel_settings: input.student_travel_settings,
  };
  if (input.type === 'on-request' && availableDeliveryTypes(delivery).length === 0) {
    const travels = input.educator_travel_settings.enabled || (input.student_travel_settings.enabled && input.student_travel_settings.locations.length > 0);
    out.push(travels && !input.available_for_in_person_delivery
      ? courseProperty('available_for_in_person_delivery', 'must be ticked for you or learners to travel: the checkout offers no travel option otherwise')
      : courseProperty('available_for_online_delivery', NO_DELIVERY_MESSAGE));
  }
  if (input.date_requests === DATE_REQUESTS_CALENDAR) {
    if (input.type !== 'on-request') out.push(courseProperty('date_requests', 'are only for on-request courses'));
    const durations = input.duration_pricing.length ? input.duration_pricing.map((d) => d.duration) : input.course_duration !== null ? [input.course_duration] : [];
    if (durations.length > 0 && durations.every((d) => d > CALENDAR_MAX_DURATION_MINUTES)) {
      out.push(courseProperty('date_requests', `need a duration of at most ${CALENDAR_MAX_DURATION_MINUTES} minutes (one day) for learners to pick a time`));
    }
  }
  const offerIds = new Set<string>();
  input.offers.forEach((o, i) => {
    if (o.id && offerIds.has(o.id)) out.push(courseProperty(`offers.${i}.id`, 'is listed twice'));
    if (o.id) offerIds.add(o.id);
  });
  const durationIds = new Set<string>();
  input.duration_pricing.forEach((d, i) => {
    if (d._id && durationIds.has(d._id)) out.push(courseProperty(`duration_pricing.${i}._id`, 'is listed twice'));
    if (d._id) durationIds.add(d._id);
  });
  input.restricted_emails.forEach((email, i) => {
    const message = validateEmail(email);
    if (message) out.push(courseProperty(`restricted_emails.${i}`, message.replace(/\.$/, '')));
  });
  if (input.guest_form_ref && !input.capture_guests) out.push(courseProperty('guest_form_ref', 'is used only when the course captures attendees'));
  return out;
}

/** What a course needs before learners can see it (publishing), beyond what any save needs. */
export function publishProblems(course: { type: string; pricing_type: string; name: string }, offers: ReadonlyArray<unknown>): ProblemProperty[] {
  const out: ProblemProperty[] = [];
  if (course.type === 'on-demand' && course.pricing_type === 'price-offers' && offers.length === 0) {
    out.push(courseProperty('offers', 'needs at least one offer before an on-demand course can be ordered'));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Safe edits: what learners already hold
// ---------------------------------------------------------------------------------------------------------------

/** Spaces a date of the course already has booked or held (inheriting the course's spaces). */
export interface TakenSpaces {
  occurrenceId: string;
  start: number;
  taken: number;
}

/** The message for lowering the course's spaces below what a date has booked or held, or null. */
export function spacesBelowTakenMessage(spaces: number | null, dates: ReadonlyArray<TakenSpaces>, formatDate: (epoch: number) => string): string | null {
  const worst = dates.reduce<TakenSpaces | null>((max, d) => (max === null || d.taken > max.taken ? d : max), null);
  if (!worst || worst.taken <= 0) return null;
  if (spaces !== null && spaces >= worst.taken) return null;
  return `must be at least ${worst.taken}: ${worst.taken === 1 ? '1 space is' : `${worst.taken} spaces are`} booked or held on ${formatDate(worst.start)}`;
}

/** The words for what stops an offer or add-on being removed, or a course deleted. */
export function heldByText(counts: { bookings: number; checkouts: number; orders?: number; applications?: number }): string {
  const parts: string[] = [];
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  if (counts.bookings) parts.push(n(counts.bookings, 'booking on a date still to come', 'bookings on dates still to come'));
  if (counts.applications) parts.push(n(counts.applications, 'application waiting for your answer', 'applications waiting for your answer'));
  if (counts.orders) parts.push(n(counts.orders, 'order whose learner keeps access', 'orders whose learners keep access'));
  if (counts.checkouts) parts.push(n(counts.checkouts, 'learner paying for it right now', 'learners paying for it right now'));
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
