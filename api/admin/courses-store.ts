/**
 * The educator admin's courses, read and written (api/admin/courses.ts is the HTTP side): every query is scoped by
 * the educator, so a course id of another educator is simply not found.
 *
 * A save is one transaction: the revision is claimed first (api/admin/audit.ts: 409 when someone else saved since),
 * then what the database must confirm is checked (the slug is free, the category, forms, locations, offers, FAQs
 * and lessons named are this educator's), then what learners hold is respected:
 * - an offer or add-on that a booking on a date still to come, an application waiting for an answer, or a learner
 *   at Payment right now has chosen cannot be removed (409, with the reason beside the offers);
 * - the course's spaces cannot go below what a date that takes its spaces from the course has booked or held;
 *   such dates' counters (`occurrences.available_spaces`, which the checkout takes holds from) move with the
 *   course's spaces, in the same transaction;
 * - prices may change: a learner already at Payment keeps the total they were shown (the checkout stores it on
 *   entering Payment and charges exactly that — api/checkout/outcomes.ts enterPayment); everyone else sees the new
 *   price at their next step, as the checkout's catalogue cache follows the catalogue version the triggers raise
 *   (migration 0100).
 * The write then goes in, and the change is recorded in the audit log with each field before and after. The
 * public pages follow by themselves (the change feed's triggers, the publisher).
 */
import { sql, type Transaction } from 'kysely';
import type { Db, Dialect } from '../../db/client.ts';
import type { Database, CourseSection, DurationPricing } from '../../db/schema.ts';
import type { ProblemProperty } from '../../src/domain/problems.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { authProblems } from '../auth/problems.ts';
import { newId } from '../shared/ids.ts';
import { sanitize } from '../../src/lib/html.ts';
import {
  COURSE_SLUG_TAKEN_MESSAGE, SYSTEM_FORM_REF, courseProperty, firstFreeSlug, heldByText, publishProblems,
  spacesBelowTakenMessage, type CourseInput, type TakenSpaces,
} from '../../src/domain/admin/course.ts';
import { formatShortDateTime } from '../../src/domain/time.ts';
import { courseTypeGroup } from '../../src/domain/checkout/flows.ts';
import { claimRevision, diffFields, recordChange } from './audit.ts';
import { notifyWaitlistOfDate } from './inbox.ts';
import type { Deps } from '../deps.ts';

type Q = Db | Transaction<Database>;

export const COURSE_ENTITY = 'course';

// ---------------------------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------------------------

export interface OfferView {
  id: string; name: string; description: string | null; price: number; spaces: number; start_at: number | null; end_at: number | null;
  /** Bookings to honour and learners at Payment that chose it (it cannot be removed while > 0). */
  heldBy: number;
}
export interface AddOnView { id: string; name: string; description: string | null; price: number; heldBy: number }

/** The course as the editor shows it: the input's fields plus what the server knows. */
export interface CourseView extends Omit<CourseInput, 'offers' | 'add_ons' | 'faqs' | 'sections'> {
  id: string;
  revision: number;
  published: boolean;
  created_at: number;
  offers: OfferView[];
  add_ons: AddOnView[];
  faqs: { id: string; question: string; answer: string }[];
  sections: { name: string; lessons: { id: string; name: string }[] }[];
}

export interface CourseEditorData {
  course: CourseView;
  /** The fewest spaces the course may have: what its busiest date taking the course's spaces has booked or held. */
  minimumSpaces: { spaces: number; start: number } | null;
  dates: { upcoming: number; next: number | null };
  options: {
    categories: { id: string; name: string }[];
    forms: { id: string; name: string }[];
    locations: { id: string; name: string }[];
  };
}

/** The course of this educator (not archived), or null. */
export async function findCourse(q: Q, educatorId: string, courseId: string) {
  return q.selectFrom('courses').selectAll()
    .where('id', '=', courseId).where('educator_id', '=', educatorId)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('archived_courses').select('course_id').whereRef('archived_courses.course_id', '=', 'courses.id'))))
    .executeTakeFirst();
}

export async function requireCourse(q: Q, educatorId: string, courseId: string) {
  const course = await findCourse(q, educatorId, courseId);
  if (!course) throw new ProblemError(problems.notFound('No course of this educator has this id.'));
  return course;
}

/** What learners hold of a course: bookings and applications still to honour, orders, learners at Payment now. */
export interface Holdings {
  bookings: { lines: Record<string, unknown>; occurrence_id: string | null }[];
  applications: { lines: Record<string, unknown> }[];
  orders: number;
  checkouts: { step_state: Record<string, unknown> }[];
}

/** A learner at Payment is holding their price and spaces for up to this long after their last step. */
const PAYING_WINDOW_SECONDS = 2 * 3600;

export async function holdingsOf(q: Q, courseId: string, now: number): Promise<Holdings> {
  const [bookings, applications, orders, checkouts] = await Promise.all([
    q.selectFrom('bookings as b').leftJoin('occurrences as o', 'o.id', 'b.occurrence_id')
      .select(['b.lines', 'b.occurrence_id'])
      .where('b.course_id', '=', courseId).where('b.status', 'in', ['confirmed', 'awaiting-approval'])
      // A date still to come (its occurrence's end, else the booked slot's); a booking with no date is still open.
      .where((eb) => eb.or([
        eb('o.end_datetime', '>', now),
        eb.and([eb('o.id', 'is', null), eb.or([eb('b.end_datetime', '>', now), eb('b.end_datetime', 'is', null)])]),
      ]))
      .execute(),
    q.selectFrom('booking_applications as a').leftJoin('occurrences as o', 'o.id', 'a.occurrence_id')
      .select(['a.lines'])
      .where('a.course_id', '=', courseId).where('a.status', '=', 'sent')
      .where((eb) => eb.or([eb('o.end_datetime', '>', now), eb('o.id', 'is', null)]))
      .execute(),
    q.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).where('course_id', '=', courseId).where('status', '=', 'confirmed').executeTakeFirst(),
    q.selectFrom('checkouts').select(['step_state'])
      .where('course_id', '=', courseId).where('status', '=', 'open').where('current_step', '=', 'payment')
      .where('updated_at', '>', now - PAYING_WINDOW_SECONDS)
      .execute(),
  ]);
  return {
    bookings: bookings.map((b) => ({ lines: (b.lines ?? {}) as Record<string, unknown>, occurrence_id: b.occurrence_id })),
    applications: applications.map((a) => ({ lines: (a.lines ?? {}) as Record<string, unknown> })),
    orders: Number(orders?.n ?? 0),
    checkouts: checkouts.map((c) => ({ step_state: (c.step_state ?? {}) as Record<string, unknown> })),
  };
}

function linesName(lines: Record<string, unknown>, key: 'offers' | 'addOns', idKey: 'offerId' | 'addonId'): string[] {
  const list = Array.isArray(lines[key]) ? (lines[key] as Record<string, unknown>[]) : [];
  return list.map((l) => String(l[idKey] ?? ''));
}

/** How many holdings chose each of the course's offers and add-ons (by id). */
function heldCounts(h: Holdings, ids: { offers: readonly string[]; addOns: readonly string[] }) {
  type Count = { bookings: number; checkouts: number };
  const offers = new Map<string, Count>();
  const addOns = new Map<string, Count>();
  const bump = (map: Map<string, Count>, id: string, kind: keyof Count) => {
    const c = map.get(id) ?? { bookings: 0, checkouts: 0 };
    c[kind]++;
    map.set(id, c);
  };
  for (const b of [...h.bookings, ...h.applications]) {
    for (const id of new Set(linesName(b.lines, 'offers', 'offerId'))) bump(offers, id, 'bookings');
    for (const id of new Set(linesName(b.lines, 'addOns', 'addonId'))) bump(addOns, id, 'bookings');
  }
  // A checkout at Payment names its choices in its step state (price, delivery or dates, by flow): any mention counts.
  for (const c of h.checkouts) {
    const text = JSON.stringify(c.step_state);
    for (const id of ids.offers) if (text.includes(JSON.stringify(id))) bump(offers, id, 'checkouts');
    for (const id of ids.addOns) if (text.includes(JSON.stringify(id))) bump(addOns, id, 'checkouts');
  }
  return { offers, addOns };
}

/**
 * Spaces taken (booked or held) on each date still to come that takes its spaces from the course: the checkout's
 * own counter where it has one (the course's spaces minus what is left), and never less than the bookings and
 * live holds counted.
 */
export async function takenOnInheritingDates(q: Q, courseId: string, courseSpaces: number | null, now: number): Promise<TakenSpaces[]> {
  const dates = await q.selectFrom('occurrences').select(['id', 'start_datetime', 'available_spaces'])
    .where('course_id', '=', courseId).where('spaces', 'is', null).where('end_datetime', '>', now).execute();
  if (dates.length === 0) return [];
  const ids = dates.map((d) => d.id);
  const [booked, held] = await Promise.all([
    q.selectFrom('bookings').select(['occurrence_id', (eb) => eb.fn.sum<number>('spaces').as('n')])
      .where('occurrence_id', 'in', ids).where('status', 'in', ['confirmed', 'awaiting-approval']).groupBy('occurrence_id').execute(),
    q.selectFrom('space_holds').select(['occurrence_id', (eb) => eb.fn.sum<number>('spaces').as('n')])
      .where('occurrence_id', 'in', ids).where('status', '=', 'held').where('expires_at', '>', now).groupBy('occurrence_id').execute(),
  ]);
  const count = (rows: { occurrence_id: string | null; n: number | string | null }[], id: string) => Number(rows.find((r) => r.occurrence_id === id)?.n ?? 0);
  return dates.map((d) => {
    const counted = count(booked, d.id) + count(held, d.id);
    const fromCounter = d.available_spaces === null ? 0 : (courseSpaces ?? 0) - Number(d.available_spaces);
    return { occurrenceId: d.id, start: Number(d.start_datetime), taken: Math.max(counted, fromCounter) };
  });
}

async function loadOffers(q: Q, courseId: string) {
  const [offers, addOns] = await Promise.all([
    q.selectFrom('offers').selectAll().where('course_id', '=', courseId).where('occurrence_id', 'is', null).orderBy('position').orderBy('id').execute(),
    q.selectFrom('add_ons').selectAll().where('course_id', '=', courseId).where('occurrence_id', 'is', null).orderBy('position').orderBy('id').execute(),
  ]);
  return { offers, addOns };
}

type CourseRow = NonNullable<Awaited<ReturnType<typeof findCourse>>>;

/** The editor's view of a course row (with its offers, add-ons, FAQs, lessons and access list). */
export async function courseView(q: Q, row: CourseRow, now: number): Promise<CourseView> {
  const [{ offers, addOns }, faqs, lessons, access, holdings] = await Promise.all([
    loadOffers(q, row.id),
    row.faq_ids.length ? q.selectFrom('faqs').selectAll().where('educator_id', '=', row.educator_id).where('id', 'in', row.faq_ids).execute() : [],
    (() => {
      const ids = (row.sections ?? []).flatMap((s) => (s.contents ?? []).map((c) => c.ref));
      return ids.length ? q.selectFrom('lessons').selectAll().where('educator_id', '=', row.educator_id).where('id', 'in', ids).execute() : [];
    })(),
    q.selectFrom('restricted_course_access').select('email').where('course_id', '=', row.id).orderBy('email').execute(),
    holdingsOf(q, row.id, now),
  ]);
  const held = heldCounts(holdings, { offers: offers.map((o) => o.id), addOns: addOns.map((a) => a.id) });
  const total = (c: { bookings: number; checkouts: number } | undefined) => (c ? c.bookings + c.checkouts : 0);
  const faqById = new Map(faqs.map((f) => [f.id, f]));
  const lessonById = new Map(lessons.map((l) => [l.id, l]));
  return {
    id: row.id,
    revision: Number(row.revision),
    published: !!row.published,
    created_at: Number(row.created_at),
    name: row.name,
    slug: row.slug,
    type: row.type as CourseView['type'],
    delivery_modes: (row.delivery_modes ?? []) as CourseView['delivery_modes'],
    level: row.level,
    category_id: row.category_id,
    description: row.description ?? '',
    meta_description: row.meta_description,
    keyword: row.keyword,
    spaces: row.spaces === null ? null : Number(row.spaces),
    pricing_type: row.pricing_type,
    minimum_price: row.minimum_price === null ? null : Number(row.minimum_price),
    maximum_price: row.maximum_price === null ? null : Number(row.maximum_price),
    course_duration: row.course_duration === null ? null : Number(row.course_duration),
    duration_pricing: (row.duration_pricing ?? []).map((d) => ({
      _id: d._id, duration: Number(d.duration), label: d.label ?? null, description: d.description ?? null, extra_cost: d.extra_cost ?? null,
    })),
    date_requests: row.date_requests === 'calendar_based' ? 'calendar_based' : null,
    address: row.address ? { line1: row.address.line1 ?? null, line2: row.address.line2 ?? null, city: row.address.city ?? null, postcode: row.address.postcode ?? null } : null,
    lat: row.lat === null ? null : Number(row.lat),
    lng: row.lng === null ? null : Number(row.lng),
    available_for_online_delivery: !!row.available_for_online_delivery,
    available_for_in_person_delivery: !!row.available_for_in_person_delivery,
    educator_travel_settings: {
      enabled: !!row.educator_travel_settings?.enabled,
      type: row.educator_travel_settings?.type === 'UK Wide' || row.educator_travel_settings?.type === 'Internationally' ? row.educator_travel_settings.type : null,
    },
    student_travel_settings: { enabled: !!row.student_travel_settings?.enabled, locations: row.student_travel_settings?.locations ?? [] },
    form_ref: row.form_ref || SYSTEM_FORM_REF,
    guest_form_ref: row.guest_form_ref,
    capture_guests: !!row.capture_guests,
    approval_required: !!row.approval_required,
    restricted: !!row.restricted,
    restricted_emails: access.map((a) => a.email),
    img_urls: row.img_urls ?? [],
    offers: offers.map((o) => ({
      id: o.id, name: o.name, description: o.description, price: Number(o.price ?? 0), spaces: Number(o.spaces ?? 1),
      start_at: o.start_at === null ? null : Number(o.start_at), end_at: o.end_at === null ? null : Number(o.end_at), heldBy: total(held.offers.get(o.id)),
    })),
    add_ons: addOns.map((a) => ({ id: a.id, name: a.name, description: a.description, price: Number(a.price ?? 0), heldBy: total(held.addOns.get(a.id)) })),
    faqs: row.faq_ids.flatMap((fid) => {
      const f = faqById.get(fid);
      return f ? [{ id: f.id, question: f.question, answer: f.answer }] : [];
    }),
    sections: (row.sections ?? []).map((s) => ({
      name: s.name,
      lessons: (s.contents ?? []).flatMap((c) => {
        const l = lessonById.get(c.ref);
        return c.type === 'lesson' && l ? [{ id: l.id, name: l.name }] : [];
      }),
    })),
  };
}

/** What the audit log compares: the view without what only the server counts. */
function snapshot(view: CourseView): Record<string, unknown> {
  const { revision: _r, created_at: _c, ...rest } = view;
  return {
    ...rest,
    offers: view.offers.map(({ heldBy: _h, ...o }) => o),
    add_ons: view.add_ons.map(({ heldBy: _h, ...a }) => a),
  };
}

export async function editorData(db: Db, educatorId: string, courseId: string, now: number): Promise<CourseEditorData> {
  const row = await requireCourse(db, educatorId, courseId);
  const [course, options, taken, dates] = await Promise.all([
    courseView(db, row, now),
    editorOptions(db, educatorId),
    takenOnInheritingDates(db, courseId, row.spaces === null ? null : Number(row.spaces), now),
    db.selectFrom('occurrences').select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<number>('start_datetime').as('next')])
      .where('course_id', '=', courseId).where('start_datetime', '>', now).executeTakeFirst(),
  ]);
  const busiest = taken.reduce<TakenSpaces | null>((max, d) => (!max || d.taken > max.taken ? d : max), null);
  return {
    course,
    minimumSpaces: busiest && busiest.taken > 0 ? { spaces: busiest.taken, start: busiest.start } : null,
    dates: { upcoming: Number(dates?.n ?? 0), next: dates?.next === null || dates?.next === undefined ? null : Number(dates.next) },
    options,
  };
}

/** The choices the editor offers: categories, the forms the checkout may use, the educator's locations. */
export async function editorOptions(q: Q, educatorId: string): Promise<CourseEditorData['options']> {
  const [categories, forms, locations] = await Promise.all([
    q.selectFrom('categories').select(['id', 'name']).orderBy('name').orderBy('id').execute(),
    q.selectFrom('forms').select(['id', 'name', 'educator_id'])
      .where((eb) => eb.or([eb('educator_id', '=', educatorId), eb('educator_id', 'is', null)]))
      .orderBy('name').orderBy('id').execute(),
    q.selectFrom('locations').select(['id', 'name', 'city', 'formatted']).where('educator_id', '=', educatorId).orderBy('city').orderBy('id').execute(),
  ]);
  const formOptions = [{ id: SYSTEM_FORM_REF, name: 'Default form (name and e-mail)' }];
  for (const f of forms) if (f.id !== SYSTEM_FORM_REF) formOptions.push({ id: f.id, name: f.name });
  return {
    categories,
    forms: formOptions,
    locations: locations.map((l) => ({ id: l.id, name: [l.name, l.formatted.split('\n')[0], l.city].filter((p, i, all) => p && all.indexOf(p) === i).join(', ') })),
  };
}

export interface CourseListItem {
  id: string; name: string; slug: string; type: string; published: boolean; image: string | null;
  upcomingDates: number; nextDate: number | null; revision: number;
}

export const COURSE_LIST_PAGE = 50;

/** The educator's courses by name (keyset paging on name, id), optionally filtered. */
export async function listCourses(
  db: Db, educatorId: string, input: { q?: string; status?: 'published' | 'draft'; after?: { name: string; id: string } | null; now: number },
): Promise<{ courses: CourseListItem[]; next: string | null; total: number }> {
  let base = db.selectFrom('courses as c').where('c.educator_id', '=', educatorId)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('archived_courses as a').select('a.course_id').whereRef('a.course_id', '=', 'c.id'))));
  if (input.q) {
    const like = `%${input.q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    // The escape character named: SQLite has none by default.
    base = base.where(sql<boolean>`lower(c.name) like ${like} escape '\\'`);
  }
  if (input.status) base = base.where('c.published', '=', input.status === 'published');
  let page = base;
  if (input.after) {
    const after = input.after;
    page = page.where((eb) => eb.or([eb('c.name', '>', after.name), eb.and([eb('c.name', '=', after.name), eb('c.id', '>', after.id)])]));
  }
  const [rows, total] = await Promise.all([
    page.select((eb) => [
      'c.id', 'c.name', 'c.slug', 'c.type', 'c.published', 'c.img_urls', 'c.revision',
      eb.selectFrom('occurrences as o').select((o) => o.fn.countAll<number>().as('n')).whereRef('o.course_id', '=', 'c.id').where('o.start_datetime', '>', input.now).as('upcoming'),
      eb.selectFrom('occurrences as o').select((o) => o.fn.min<number>('o.start_datetime').as('m')).whereRef('o.course_id', '=', 'c.id').where('o.start_datetime', '>', input.now).as('next_date'),
    ]).orderBy('c.name').orderBy('c.id').limit(COURSE_LIST_PAGE + 1).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  const more = rows.length > COURSE_LIST_PAGE;
  const shown = rows.slice(0, COURSE_LIST_PAGE);
  const last = shown[shown.length - 1];
  return {
    courses: shown.map((r) => ({
      id: r.id, name: r.name, slug: r.slug, type: r.type, published: !!r.published, image: r.img_urls?.[0] ?? null,
      upcomingDates: Number(r.upcoming ?? 0), nextDate: r.next_date === null || r.next_date === undefined ? null : Number(r.next_date), revision: Number(r.revision),
    })),
    next: more && last ? Buffer.from(JSON.stringify({ name: last.name, id: last.id })).toString('base64url') : null,
    total: Number(total?.n ?? 0),
  };
}

export function parseCursor(cursor: string | undefined): { name: string; id: string } | null {
  if (!cursor) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { name?: unknown; id?: unknown };
    return typeof v.name === 'string' && typeof v.id === 'string' ? { name: v.name, id: v.id } : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------------------------

export interface SaveContext {
  educatorId: string;
  userId: string;
  now: number;
  dialect: Dialect;
  /** For the e-mails a save may send (the waitlist told when more spaces open a full date). */
  config: Deps['config'];
}

function validationFailed(properties: ProblemProperty[]): never {
  throw new ProblemError(problems.validation(properties));
}

/** 409 with the reason beside each field (the editor shows `properties` as it shows a validation problem's). */
function heldConflict(title: string, properties: ProblemProperty[]): never {
  throw new ProblemError({ ...authProblems.conflict(title, properties.map((p) => `${p.name} ${p.message}`).join(' ')), properties });
}

/** Checks the rows a course names are the educator's (the slug free, the category, forms, locations, ids known). */
async function checkReferences(trx: Q, educatorId: string, courseId: string | null, input: CourseInput, existing: { offers: string[]; addOns: string[] }): Promise<void> {
  const out: ProblemProperty[] = [];
  const faqIds = input.faqs.flatMap((f) => (f.id ? [f.id] : []));
  const lessonIds = input.sections.flatMap((s) => s.lessons.flatMap((l) => (l.id ? [l.id] : [])));
  const formIds = [input.form_ref, input.guest_form_ref].filter((f): f is string => !!f && f !== SYSTEM_FORM_REF);
  const [clash, category, forms, locations, faqs, lessons] = await Promise.all([
    trx.selectFrom('courses').select('id').where('educator_id', '=', educatorId).where('slug', '=', input.slug)
      .where('id', '!=', courseId ?? '').executeTakeFirst(),
    input.category_id ? trx.selectFrom('categories').select('id').where('id', '=', input.category_id).executeTakeFirst() : null,
    formIds.length ? trx.selectFrom('forms').select('id').where('id', 'in', formIds)
      .where((eb) => eb.or([eb('educator_id', '=', educatorId), eb('educator_id', 'is', null)])).execute() : [],
    input.student_travel_settings.locations.length
      ? trx.selectFrom('locations').select('id').where('educator_id', '=', educatorId).where('id', 'in', input.student_travel_settings.locations).execute() : [],
    faqIds.length ? trx.selectFrom('faqs').select('id').where('educator_id', '=', educatorId).where('id', 'in', faqIds).execute() : [],
    lessonIds.length ? trx.selectFrom('lessons').select('id').where('educator_id', '=', educatorId).where('id', 'in', lessonIds).execute() : [],
  ]);
  if (clash) out.push(courseProperty('slug', COURSE_SLUG_TAKEN_MESSAGE));
  if (input.category_id && !category) out.push(courseProperty('category_id', 'is not a category'));
  const formSet = new Set(forms.map((f) => f.id));
  if (input.form_ref !== SYSTEM_FORM_REF && !formSet.has(input.form_ref)) out.push(courseProperty('form_ref', 'is not one of your forms'));
  if (input.guest_form_ref && input.guest_form_ref !== SYSTEM_FORM_REF && !formSet.has(input.guest_form_ref)) out.push(courseProperty('guest_form_ref', 'is not one of your forms'));
  const locationSet = new Set(locations.map((l) => l.id));
  input.student_travel_settings.locations.forEach((l, i) => {
    if (!locationSet.has(l)) out.push(courseProperty(`student_travel_settings.locations.${i}`, 'is not one of your locations'));
  });
  const offerSet = new Set(existing.offers);
  input.offers.forEach((o, i) => { if (o.id && !offerSet.has(o.id)) out.push(courseProperty(`offers.${i}.id`, 'is not an offer of this course')); });
  const addOnSet = new Set(existing.addOns);
  input.add_ons.forEach((a, i) => { if (a.id && !addOnSet.has(a.id)) out.push(courseProperty(`add_ons.${i}.id`, 'is not an add-on of this course')); });
  const faqSet = new Set(faqs.map((f) => f.id));
  input.faqs.forEach((f, i) => { if (f.id && !faqSet.has(f.id)) out.push(courseProperty(`faqs.${i}.id`, 'is not one of your questions')); });
  const lessonSet = new Set(lessons.map((l) => l.id));
  input.sections.forEach((s, si) => s.lessons.forEach((l, li) => {
    if (l.id && !lessonSet.has(l.id)) out.push(courseProperty(`sections.${si}.lessons.${li}.id`, 'is not one of your lessons'));
  }));
  if (out.length) validationFailed(out);
}

/** The course columns of an input (what `courses` stores). */
function courseColumns(input: CourseInput, sections: CourseSection[], faqIds: string[]) {
  const address = input.address && Object.values(input.address).some(Boolean)
    ? Object.fromEntries(Object.entries(input.address).filter((e): e is [string, string] => !!e[1]))
    : null;
  return {
    name: input.name,
    slug: input.slug,
    type: input.type,
    delivery_modes: input.delivery_modes,
    level: input.level,
    category_id: input.category_id,
    description: sanitize(input.description),
    meta_description: input.meta_description,
    keyword: input.keyword,
    spaces: input.spaces,
    pricing_type: input.pricing_type,
    minimum_price: input.pricing_type === 'price-range' ? input.minimum_price : null,
    maximum_price: input.pricing_type === 'price-range' ? input.maximum_price : null,
    course_duration: input.course_duration,
    duration_pricing: input.duration_pricing.map((d): DurationPricing => ({
      _id: d._id ?? newId('dur'), duration: d.duration, label: d.label, description: d.description, extra_cost: d.extra_cost,
    })),
    date_requests: input.date_requests,
    address,
    lat: input.lat,
    lng: input.lng,
    available_for_online_delivery: input.available_for_online_delivery,
    available_for_in_person_delivery: input.available_for_in_person_delivery,
    educator_travel_settings: { enabled: input.educator_travel_settings.enabled, type: input.educator_travel_settings.type },
    student_travel_settings: { enabled: input.student_travel_settings.enabled, locations: input.student_travel_settings.locations },
    form_ref: input.form_ref,
    guest_form_ref: input.capture_guests ? input.guest_form_ref : null,
    capture_guests: input.capture_guests,
    approval_required: input.approval_required,
    restricted: input.restricted,
    img_urls: input.img_urls,
    faq_ids: faqIds,
    sections,
  };
}

/** Writes the FAQs and lessons a course names (new ones created, named ones updated) → the course's faq_ids and sections. */
async function writeContent(trx: Q, educatorId: string, input: CourseInput): Promise<{ faqIds: string[]; sections: CourseSection[] }> {
  const faqIds: string[] = [];
  for (const f of input.faqs) {
    const answer = sanitize(f.answer);
    if (f.id) {
      await trx.updateTable('faqs').set({ question: f.question, answer }).where('id', '=', f.id).where('educator_id', '=', educatorId).execute();
      faqIds.push(f.id);
    } else {
      const id = newId('faq');
      await trx.insertInto('faqs').values({ id, educator_id: educatorId, question: f.question, answer }).execute();
      faqIds.push(id);
    }
  }
  const sections: CourseSection[] = [];
  for (const s of input.sections) {
    const contents: CourseSection['contents'] = [];
    for (const l of s.lessons) {
      if (l.id) {
        await trx.updateTable('lessons').set({ name: l.name }).where('id', '=', l.id).where('educator_id', '=', educatorId).execute();
        contents.push({ type: 'lesson', ref: l.id });
      } else {
        const id = newId('les');
        await trx.insertInto('lessons').values({ id, educator_id: educatorId, name: l.name }).execute();
        contents.push({ type: 'lesson', ref: id });
      }
    }
    sections.push({ name: s.name, contents });
  }
  return { faqIds: [...new Set(faqIds)], sections };
}

/** Replaces the course-wide offers and add-ons with the input's: named ones updated in place (their ids kept), new ones added. */
async function writeOffers(trx: Q, courseId: string, input: CourseInput, existing: { offers: string[]; addOns: string[] }): Promise<void> {
  const keepOffers = new Set(input.offers.flatMap((o) => (o.id ? [o.id] : [])));
  const dropOffers = existing.offers.filter((id) => !keepOffers.has(id));
  if (dropOffers.length) await trx.deleteFrom('offers').where('course_id', '=', courseId).where('id', 'in', dropOffers).execute();
  for (const [position, o] of input.offers.entries()) {
    const values = { name: o.name, description: o.description, price: o.price, spaces: o.spaces, start_at: o.start_at, end_at: o.end_at, position };
    if (o.id) await trx.updateTable('offers').set(values).where('id', '=', o.id).where('course_id', '=', courseId).execute();
    else await trx.insertInto('offers').values({ id: newId('off'), course_id: courseId, occurrence_id: null, ...values }).execute();
  }
  const keepAddOns = new Set(input.add_ons.flatMap((a) => (a.id ? [a.id] : [])));
  const dropAddOns = existing.addOns.filter((id) => !keepAddOns.has(id));
  if (dropAddOns.length) await trx.deleteFrom('add_ons').where('course_id', '=', courseId).where('id', 'in', dropAddOns).execute();
  for (const [position, a] of input.add_ons.entries()) {
    const values = { name: a.name, description: a.description, price: a.price, position };
    if (a.id) await trx.updateTable('add_ons').set(values).where('id', '=', a.id).where('course_id', '=', courseId).execute();
    else await trx.insertInto('add_ons').values({ id: newId('add'), course_id: courseId, occurrence_id: null, ...values }).execute();
  }
}

async function writeAccess(trx: Q, courseId: string, emails: string[]): Promise<void> {
  await trx.deleteFrom('restricted_course_access').where('course_id', '=', courseId).execute();
  const unique = [...new Set(emails)];
  for (let i = 0; i < unique.length; i += 200) {
    await trx.insertInto('restricted_course_access').values(unique.slice(i, i + 200).map((email) => ({ course_id: courseId, email }))).execute();
  }
}

/** Refuses removing an offer or add-on a learner holds (a booking to honour, or Payment right now). */
function checkRemovals(view: CourseView, input: CourseInput, holdings: Holdings): void {
  const held = heldCounts(holdings, { offers: view.offers.map((o) => o.id), addOns: view.add_ons.map((a) => a.id) });
  const out: ProblemProperty[] = [];
  const keepOffers = new Set(input.offers.flatMap((o) => (o.id ? [o.id] : [])));
  for (const o of view.offers) {
    const c = held.offers.get(o.id);
    if (!keepOffers.has(o.id) && c) out.push({ key: 'offers', name: `Offer “${o.name}”`, message: `cannot be removed: ${heldByText(c)} chose it. Stop selling it with a sale end date instead.` });
  }
  const keepAddOns = new Set(input.add_ons.flatMap((a) => (a.id ? [a.id] : [])));
  for (const a of view.add_ons) {
    const c = held.addOns.get(a.id);
    if (!keepAddOns.has(a.id) && c) out.push({ key: 'add_ons', name: `Add-on “${a.name}”`, message: `cannot be removed: ${heldByText(c)} chose it.` });
  }
  if (out.length) heldConflict('Learners Hold This', out);
}

/**
 * Refuses changing what kind of course it is (which decides the checkout's flow) while learners hold something of
 * it: a learner at Payment would find their checkout refused at the next step, a booking would no longer match.
 */
function checkTypeChange(view: CourseView, input: CourseInput, holdings: Holdings): void {
  if (courseTypeGroup(view.type) === courseTypeGroup(input.type)) return;
  const counts = { bookings: holdings.bookings.length, applications: holdings.applications.length, orders: holdings.orders, checkouts: holdings.checkouts.length };
  if (counts.bookings + counts.applications + counts.orders + counts.checkouts === 0) return;
  heldConflict('Learners Hold This', [courseProperty('type', `cannot change while the course has ${heldByText(counts)}`)]);
}

const dateText = (epoch: number) => formatShortDateTime(epoch);

/**
 * Moves the counters of the dates that take their spaces from the course with its spaces, refusing when a date has
 * more booked or held than the new number allows.
 */
async function moveInheritedSpaces(trx: Transaction<Database>, ctx: SaveContext, courseId: string, before: number | null, after: number | null): Promise<void> {
  if (before === after) return;
  if (ctx.dialect === 'postgres') {
    // The dates' rows locked first: a hold cannot take a space between the count and the update.
    await trx.selectFrom('occurrences').select('id').where('course_id', '=', courseId).where('spaces', 'is', null)
      .where('end_datetime', '>', ctx.now).forUpdate().execute();
  }
  const taken = await takenOnInheritingDates(trx, courseId, before, ctx.now);
  const message = spacesBelowTakenMessage(after, taken, dateText);
  if (message) heldConflict('Learners Hold These Spaces', [courseProperty('spaces', message)]);
  const delta = (after ?? 0) - (before ?? 0);
  if (delta === 0) return;
  // Only counters the checkout has started (null: it will start from the course's spaces as they are then).
  for (const d of taken) {
    const was = delta > 0 ? await trx.selectFrom('occurrences').select(['visibility', 'available_spaces']).where('id', '=', d.occurrenceId).executeTakeFirst() : undefined;
    await trx.updateTable('occurrences')
      .set({ available_spaces: sql<number>`available_spaces + ${delta}` })
      .where('id', '=', d.occurrenceId).where('available_spaces', 'is not', null).execute();
    // More spaces on a date that was full free up room, as a cancellation does: the course's waitlist is told.
    if (was) await notifyWaitlistOfDate(trx, d.occurrenceId, { visibility: was.visibility, available_spaces: was.available_spaces === null ? null : Number(was.available_spaces) }, { now: () => ctx.now, config: ctx.config });
  }
}

/** Creates a course (a draft unless told) → its id. */
export async function createCourse(db: Db, ctx: SaveContext, input: CourseInput, options: { published?: boolean } = {}): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const id = newId('crs');
    await checkReferences(trx, ctx.educatorId, null, input, { offers: [], addOns: [] });
    // Named FAQs and lessons are the educator's own (checked above); new ones are created.
    const { faqIds, sections } = await writeContent(trx, ctx.educatorId, input);
    await trx.insertInto('courses').values({
      id, educator_id: ctx.educatorId, created_at: ctx.now, currency: 'GBP', autoimg: null, published: options.published ?? false,
      ...courseColumns(input, sections, faqIds),
    }).execute();
    await writeOffers(trx, id, input, { offers: [], addOns: [] });
    await writeAccess(trx, id, input.restricted_emails);
    const view = await courseView(trx, (await findCourse(trx, ctx.educatorId, id))!, ctx.now);
    await recordChange(trx, {
      educatorId: ctx.educatorId, userId: ctx.userId, entity: COURSE_ENTITY, entityId: id, action: 'create', revision: 1,
      changes: diffFields({} as Record<string, unknown>, snapshot(view)), at: ctx.now,
    });
    return id;
  });
}

/** Saves the editor's course over revision `expected` → the new revision. */
export async function updateCourse(db: Db, ctx: SaveContext, courseId: string, expected: number, input: CourseInput): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const row = await requireCourse(trx, ctx.educatorId, courseId);
    const revision = await claimRevision(trx, { table: 'courses', id: courseId, expected, educatorId: ctx.educatorId, entity: COURSE_ENTITY });
    const before = await courseView(trx, row, ctx.now);
    const existing = { offers: before.offers.map((o) => o.id), addOns: before.add_ons.map((a) => a.id) };
    await checkReferences(trx, ctx.educatorId, courseId, input, existing);
    const holdings = await holdingsOf(trx, courseId, ctx.now);
    checkRemovals(before, input, holdings);
    checkTypeChange(before, input, holdings);
    await moveInheritedSpaces(trx, ctx, courseId, before.spaces, input.spaces);
    if (row.published) {
      const missing = publishProblems(input, input.offers);
      if (missing.length) validationFailed(missing);
    }
    const { faqIds, sections } = await writeContent(trx, ctx.educatorId, input);
    await trx.updateTable('courses').set(courseColumns(input, sections, faqIds)).where('id', '=', courseId).where('educator_id', '=', ctx.educatorId).execute();
    await writeOffers(trx, courseId, input, existing);
    await writeAccess(trx, courseId, input.restricted_emails);
    const after = await courseView(trx, (await findCourse(trx, ctx.educatorId, courseId))!, ctx.now);
    await recordChange(trx, {
      educatorId: ctx.educatorId, userId: ctx.userId, entity: COURSE_ENTITY, entityId: courseId, action: 'update', revision,
      changes: diffFields(snapshot(before), snapshot(after)), at: ctx.now,
    });
    return revision;
  });
}

/** Publishes or unpublishes over revision `expected` → the new revision. */
export async function setPublished(db: Db, ctx: SaveContext, courseId: string, expected: number, published: boolean): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const row = await requireCourse(trx, ctx.educatorId, courseId);
    const revision = await claimRevision(trx, { table: 'courses', id: courseId, expected, educatorId: ctx.educatorId, entity: COURSE_ENTITY });
    if (published) {
      const { offers } = await loadOffers(trx, courseId);
      const missing = publishProblems(row, offers);
      if (missing.length) validationFailed(missing);
    }
    await trx.updateTable('courses').set({ published }).where('id', '=', courseId).where('educator_id', '=', ctx.educatorId).execute();
    await recordChange(trx, {
      educatorId: ctx.educatorId, userId: ctx.userId, entity: COURSE_ENTITY, entityId: courseId, action: published ? 'publish' : 'unpublish', revision,
      changes: diffFields({ published: !!row.published }, { published }), at: ctx.now,
    });
    return revision;
  });
}

/** A copy of the course (a draft, its offers and add-ons copied, its FAQs and lessons shared) → the copy's id. */
export async function duplicateCourse(db: Db, ctx: SaveContext, courseId: string): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const row = await requireCourse(trx, ctx.educatorId, courseId);
    const slugs = await trx.selectFrom('courses').select('slug').where('educator_id', '=', ctx.educatorId).execute();
    const id = newId('crs');
    const { id: _id, revision: _revision, created_at: _created, published: _published, slug: _slug, name: _name, ...copy } = row;
    await trx.insertInto('courses').values({
      ...copy, id, name: `${row.name} (copy)`.slice(0, 150), slug: firstFreeSlug(`${row.slug}-copy`, new Set(slugs.map((s) => s.slug))),
      created_at: ctx.now, published: false,
    }).execute();
    const { offers, addOns } = await loadOffers(trx, courseId);
    for (const o of offers) {
      await trx.insertInto('offers').values({
        id: newId('off'), course_id: id, occurrence_id: null, position: o.position, name: o.name, description: o.description, price: o.price,
        spaces: o.spaces, start_at: o.start_at, end_at: o.end_at,
      }).execute();
    }
    for (const a of addOns) {
      await trx.insertInto('add_ons').values({ id: newId('add'), course_id: id, occurrence_id: null, position: a.position, name: a.name, description: a.description, price: a.price }).execute();
    }
    const access = await trx.selectFrom('restricted_course_access').select('email').where('course_id', '=', courseId).execute();
    await writeAccess(trx, id, access.map((a) => a.email));
    await recordChange(trx, {
      educatorId: ctx.educatorId, userId: ctx.userId, entity: COURSE_ENTITY, entityId: id, action: 'duplicate', revision: 1,
      changes: { duplicatedFrom: [null, courseId] }, at: ctx.now,
    });
    return id;
  });
}

export type DeleteOutcome = 'deleted' | 'archived';

/**
 * Deletes a course over revision `expected`: refused (409, with the reason) while learners hold something of it —
 * bookings on dates still to come, applications waiting for an answer, orders (on-demand access is kept), a
 * learner at Payment now. A course with past records is archived (they stay, with their course); one without is
 * removed.
 */
export async function deleteCourse(db: Db, ctx: SaveContext, courseId: string, expected: number): Promise<DeleteOutcome> {
  return db.transaction().execute(async (trx) => {
    const row = await requireCourse(trx, ctx.educatorId, courseId);
    const revision = await claimRevision(trx, { table: 'courses', id: courseId, expected, educatorId: ctx.educatorId, entity: COURSE_ENTITY });
    const h = await holdingsOf(trx, courseId, ctx.now);
    const counts = { bookings: h.bookings.length, applications: h.applications.length, orders: h.orders, checkouts: h.checkouts.length };
    if (counts.bookings + counts.applications + counts.orders + counts.checkouts > 0) {
      throw new ProblemError({
        ...authProblems.conflict('Learners Hold This Course', `This course cannot be deleted: it has ${heldByText(counts)}. Cancel or move them first, or unpublish the course to stop new bookings.`),
        holdings: counts,
      });
    }
    const history = await Promise.all([
      trx.selectFrom('bookings').select('id').where('course_id', '=', courseId).limit(1).executeTakeFirst(),
      trx.selectFrom('orders').select('id').where('course_id', '=', courseId).limit(1).executeTakeFirst(),
      trx.selectFrom('booking_requests').select('id').where('course_id', '=', courseId).limit(1).executeTakeFirst(),
      trx.selectFrom('booking_applications').select('id').where('course_id', '=', courseId).limit(1).executeTakeFirst(),
    ]);
    const archived = history.some(Boolean);
    if (archived) {
      await trx.insertInto('archived_courses').values({ course_id: courseId, educator_id: ctx.educatorId, archived_by: ctx.userId, archived_at: ctx.now }).execute();
      // Unpublished (its pages go), and its address freed for another course.
      const freed = `${row.slug.slice(0, 150)}-deleted-${ctx.now.toString(36)}`;
      await trx.updateTable('courses').set({ published: false, slug: freed }).where('id', '=', courseId).execute();
    } else {
      await trx.deleteFrom('courses').where('id', '=', courseId).where('educator_id', '=', ctx.educatorId).execute();
    }
    await recordChange(trx, {
      educatorId: ctx.educatorId, userId: ctx.userId, entity: COURSE_ENTITY, entityId: courseId, action: 'delete', revision,
      changes: { name: [row.name, null], ...(archived ? { archived: [false, true] } : {}) }, at: ctx.now,
    });
    return archived ? 'archived' : 'deleted';
  });
}
