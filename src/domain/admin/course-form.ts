/**
 * The course editor's form (src/islands/admin/courses/CourseEditor.tsx) as text fields, and its conversion to the
 * API's body: pounds typed as '45.00' become pence, sale windows typed as Europe/London date-times become epoch
 * seconds, a list of addresses typed one a line becomes a list. A field that cannot be converted is a problem of
 * that field, in the spec's words, before anything is sent; the body is then checked with the same schema and rules
 * the server applies (src/domain/admin/course.ts), so the editor shows what the server would answer.
 */
import type { ProblemProperty } from '../problems.ts';
import {
  COURSE_TYPES, PRICING_TYPES, SYSTEM_FORM_REF, courseInputSchema, courseProperty, courseRuleProblems, epochToLocalInput,
  formatPounds, issuesToProperties, localInputToEpoch, parsePounds, type CourseInput,
} from './course.ts';

export interface OfferDraft { key: string; id: string | null; name: string; description: string; price: string; spaces: string; start: string; end: string; heldBy: number }
export interface AddOnDraft { key: string; id: string | null; name: string; description: string; price: string; heldBy: number }
export interface DurationDraft { key: string; id: string | null; duration: string; label: string; description: string; extra: string }
export interface FaqDraft { key: string; id: string | null; question: string; answer: string }
export interface LessonDraft { key: string; id: string | null; name: string }
export interface SectionDraft { key: string; name: string; lessons: LessonDraft[] }

export interface CourseDraft {
  name: string;
  slug: string;
  /** The slug follows the name until the admin edits it. */
  slugEdited: boolean;
  type: string;
  delivery_modes: string[];
  level: string;
  category_id: string;
  description: string;
  meta_description: string;
  keyword: string;
  spaces: string;
  pricing_type: string;
  minimum_price: string;
  maximum_price: string;
  offers: OfferDraft[];
  add_ons: AddOnDraft[];
  course_duration: string;
  duration_pricing: DurationDraft[];
  calendar_requests: boolean;
  address: { line1: string; line2: string; city: string; postcode: string };
  lat: string;
  lng: string;
  available_for_online_delivery: boolean;
  available_for_in_person_delivery: boolean;
  educator_travel_enabled: boolean;
  educator_travel_type: string;
  student_travel_enabled: boolean;
  student_travel_locations: string[];
  form_ref: string;
  guest_form_ref: string;
  capture_guests: boolean;
  approval_required: boolean;
  restricted: boolean;
  /** One address a line. */
  restricted_emails: string;
  img_urls: string[];
  faqs: FaqDraft[];
  sections: SectionDraft[];
}

let keys = 0;
/** A key for a new row of a list (React's key; never sent). */
export function draftKey(): string {
  keys += 1;
  return `k${keys}`;
}

export function emptyOffer(): OfferDraft {
  return { key: draftKey(), id: null, name: '', description: '', price: '', spaces: '1', start: '', end: '', heldBy: 0 };
}
export function emptyAddOn(): AddOnDraft {
  return { key: draftKey(), id: null, name: '', description: '', price: '', heldBy: 0 };
}
export function emptyDuration(): DurationDraft {
  return { key: draftKey(), id: null, duration: '', label: '', description: '', extra: '' };
}
export function emptyFaq(): FaqDraft {
  return { key: draftKey(), id: null, question: '', answer: '' };
}
export function emptySection(): SectionDraft {
  return { key: draftKey(), name: '', lessons: [] };
}
export function emptyLesson(): LessonDraft {
  return { key: draftKey(), id: null, name: '' };
}

/** A new course's form. */
export function newCourseDraft(): CourseDraft {
  return {
    name: '', slug: '', slugEdited: false, type: 'class', delivery_modes: ['in-person'], level: '', category_id: '', description: '',
    meta_description: '', keyword: '', spaces: '', pricing_type: 'price-offers', minimum_price: '', maximum_price: '', offers: [emptyOffer()],
    add_ons: [], course_duration: '', duration_pricing: [], calendar_requests: false, address: { line1: '', line2: '', city: '', postcode: '' },
    lat: '', lng: '', available_for_online_delivery: false, available_for_in_person_delivery: true, educator_travel_enabled: false,
    educator_travel_type: '', student_travel_enabled: false, student_travel_locations: [], form_ref: SYSTEM_FORM_REF, guest_form_ref: '',
    capture_guests: false, approval_required: false, restricted: false, restricted_emails: '', img_urls: [], faqs: [], sections: [],
  };
}

/** What the API answers for a course (the editor's view; see api/admin/courses-store.ts CourseView). */
export interface CourseViewLike extends Omit<CourseInput, 'offers' | 'add_ons' | 'faqs' | 'sections'> {
  id: string;
  revision: number;
  published: boolean;
  offers: Array<CourseInput['offers'][number] & { id: string; heldBy: number }>;
  add_ons: Array<CourseInput['add_ons'][number] & { id: string; heldBy: number }>;
  faqs: { id: string; question: string; answer: string }[];
  sections: { name: string; lessons: { id: string; name: string }[] }[];
}

const str = (v: number | string | null | undefined) => (v === null || v === undefined ? '' : String(v));
const money = (pence: number | null | undefined) => (pence === null || pence === undefined ? '' : formatPounds(pence));

/** The form of a saved course. */
export function draftFromView(view: CourseViewLike): CourseDraft {
  return {
    name: view.name, slug: view.slug, slugEdited: true, type: view.type, delivery_modes: [...view.delivery_modes], level: str(view.level),
    category_id: str(view.category_id), description: view.description ?? '', meta_description: str(view.meta_description), keyword: str(view.keyword),
    spaces: str(view.spaces), pricing_type: view.pricing_type, minimum_price: money(view.minimum_price), maximum_price: money(view.maximum_price),
    offers: view.offers.map((o) => ({
      key: draftKey(), id: o.id, name: o.name, description: str(o.description), price: money(o.price), spaces: str(o.spaces),
      start: o.start_at === null ? '' : epochToLocalInput(o.start_at), end: o.end_at === null ? '' : epochToLocalInput(o.end_at), heldBy: o.heldBy,
    })),
    add_ons: view.add_ons.map((a) => ({ key: draftKey(), id: a.id, name: a.name, description: str(a.description), price: money(a.price), heldBy: a.heldBy })),
    course_duration: str(view.course_duration),
    duration_pricing: view.duration_pricing.map((d) => ({
      key: draftKey(), id: d._id ?? null, duration: str(d.duration), label: str(d.label), description: str(d.description), extra: money(d.extra_cost),
    })),
    calendar_requests: view.date_requests === 'calendar_based',
    address: { line1: str(view.address?.line1), line2: str(view.address?.line2), city: str(view.address?.city), postcode: str(view.address?.postcode) },
    lat: str(view.lat), lng: str(view.lng),
    available_for_online_delivery: view.available_for_online_delivery, available_for_in_person_delivery: view.available_for_in_person_delivery,
    educator_travel_enabled: view.educator_travel_settings.enabled, educator_travel_type: str(view.educator_travel_settings.type),
    student_travel_enabled: view.student_travel_settings.enabled, student_travel_locations: [...view.student_travel_settings.locations],
    form_ref: view.form_ref || SYSTEM_FORM_REF, guest_form_ref: str(view.guest_form_ref), capture_guests: view.capture_guests,
    approval_required: view.approval_required, restricted: view.restricted, restricted_emails: view.restricted_emails.join('\n'),
    img_urls: [...view.img_urls],
    faqs: view.faqs.map((f) => ({ key: draftKey(), id: f.id, question: f.question, answer: f.answer })),
    sections: view.sections.map((s) => ({ key: draftKey(), name: s.name, lessons: s.lessons.map((l) => ({ key: draftKey(), id: l.id, name: l.name })) })),
  };
}

const MONEY_MESSAGE = 'must be an amount of money, like 12.50';
const WHOLE_MESSAGE = 'must be a whole number';
const DATE_MESSAGE = 'must be a date and time';

/** Converters of typed text to the body's values; each adds the problem of a field it cannot convert to `problems`. */
function fieldConverters(problems: ProblemProperty[]) {
  const pounds = (text: string, key: string, required: boolean): number | null => {
    if (text.trim() === '') {
      if (required) problems.push(courseProperty(key, 'is required'));
      return null;
    }
    const pence = parsePounds(text);
    if (pence === null) problems.push(courseProperty(key, MONEY_MESSAGE));
    return pence;
  };
  const whole = (text: string, key: string): number | null => {
    if (text.trim() === '') return null;
    if (!/^-?\d+$/.test(text.trim())) {
      problems.push(courseProperty(key, WHOLE_MESSAGE));
      return null;
    }
    return Number(text.trim());
  };
  const decimal = (text: string, key: string): number | null => {
    if (text.trim() === '') return null;
    const n = Number(text.trim());
    if (!Number.isFinite(n)) {
      problems.push(courseProperty(key, 'must be a number'));
      return null;
    }
    return n;
  };
  const when = (text: string, key: string): number | null => {
    if (text.trim() === '') return null;
    const epoch = localInputToEpoch(text);
    if (epoch === null) problems.push(courseProperty(key, DATE_MESSAGE));
    return epoch;
  };
  return { pounds, whole, decimal, when };
}

type Converters = ReturnType<typeof fieldConverters>;

const opt = (text: string) => (text.trim() === '' ? null : text.trim());

/** What is sold and for how much: spaces, prices, offers, add-ons and durations. */
function sellingFields(draft: CourseDraft, { pounds, whole, when }: Converters): Record<string, unknown> {
  return {
    spaces: whole(draft.spaces, 'spaces'),
    pricing_type: draft.pricing_type,
    minimum_price: draft.pricing_type === 'price-range' ? pounds(draft.minimum_price, 'minimum_price', false) : null,
    maximum_price: draft.pricing_type === 'price-range' ? pounds(draft.maximum_price, 'maximum_price', false) : null,
    offers: draft.offers.map((o, i) => ({
      id: o.id, name: o.name, description: opt(o.description), price: pounds(o.price, `offers.${i}.price`, true) ?? 0,
      spaces: whole(o.spaces, `offers.${i}.spaces`) ?? 1, start_at: when(o.start, `offers.${i}.start_at`), end_at: when(o.end, `offers.${i}.end_at`),
    })),
    add_ons: draft.add_ons.map((a, i) => ({ id: a.id, name: a.name, description: opt(a.description), price: pounds(a.price, `add_ons.${i}.price`, true) ?? 0 })),
    course_duration: whole(draft.course_duration, 'course_duration'),
    duration_pricing: draft.duration_pricing.map((d, i) => ({
      _id: d.id, duration: whole(d.duration, `duration_pricing.${i}.duration`), label: opt(d.label), description: opt(d.description),
      extra_cost: pounds(d.extra, `duration_pricing.${i}.extra_cost`, false),
    })),
  };
}

/** Where and how it is delivered, who may book it and with which forms, and its pictures, FAQs and content. */
function placeAndAccessFields(draft: CourseDraft, { decimal }: Converters): Record<string, unknown> {
  return {
    date_requests: draft.calendar_requests ? 'calendar_based' : null,
    address: Object.values(draft.address).some((v) => v.trim()) ? {
      line1: opt(draft.address.line1), line2: opt(draft.address.line2), city: opt(draft.address.city), postcode: opt(draft.address.postcode),
    } : null,
    lat: decimal(draft.lat, 'lat'),
    lng: decimal(draft.lng, 'lng'),
    available_for_online_delivery: draft.available_for_online_delivery,
    available_for_in_person_delivery: draft.available_for_in_person_delivery,
    educator_travel_settings: { enabled: draft.educator_travel_enabled, type: opt(draft.educator_travel_type) },
    student_travel_settings: { enabled: draft.student_travel_enabled, locations: draft.student_travel_enabled ? draft.student_travel_locations : [] },
    form_ref: draft.form_ref || SYSTEM_FORM_REF,
    guest_form_ref: draft.capture_guests ? opt(draft.guest_form_ref) : null,
    capture_guests: draft.capture_guests,
    approval_required: draft.approval_required,
    restricted: draft.restricted,
    restricted_emails: draft.restricted ? draft.restricted_emails.split(/[\n,;]+/).map((e) => e.trim()).filter(Boolean) : [],
    img_urls: draft.img_urls,
    faqs: draft.faqs.map((f) => ({ id: f.id, question: f.question, answer: f.answer })),
    sections: draft.sections.map((s) => ({ name: s.name, lessons: s.lessons.map((l) => ({ id: l.id, name: l.name })) })),
  };
}

/**
 * The API body of a form, and the problems of fields that cannot be converted or break the rules (empty when the
 * body can be sent).
 */
export function draftToBody(draft: CourseDraft): { body: Record<string, unknown>; problems: ProblemProperty[] } {
  const problems: ProblemProperty[] = [];
  const convert = fieldConverters(problems);
  // The parts are converted in the form's order, so that its problems are listed in that order too.
  const body: Record<string, unknown> = {
    name: draft.name,
    slug: draft.slug.trim(),
    type: draft.type,
    delivery_modes: draft.delivery_modes,
    level: opt(draft.level),
    category_id: opt(draft.category_id),
    description: draft.description,
    meta_description: opt(draft.meta_description),
    keyword: opt(draft.keyword),
    ...sellingFields(draft, convert),
    ...placeAndAccessFields(draft, convert),
  };
  if (problems.length) return { body, problems };
  const parsed = courseInputSchema.safeParse(body);
  if (!parsed.success) return { body, problems: issuesToProperties(parsed.error.issues) };
  return { body, problems: courseRuleProblems(parsed.data) };
}

/** The input id of a field path ('offers.0.price' → 'f-offers-0-price'), shared by the inputs and their errors. */
export function fieldId(key: string): string {
  return `f-${key.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
}

/** Problem properties by key (the first message of each). */
export function fieldMessages(properties: ReadonlyArray<ProblemProperty>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of properties) if (!(p.key in out)) out[p.key] = p.message;
  return out;
}

export const TYPE_OPTIONS = COURSE_TYPES;
export const PRICING_OPTIONS = PRICING_TYPES;
