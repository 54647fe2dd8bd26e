/**
 * Catalogue reads of the checkout: a course with its educator, offers, add-ons, forms and payment
 * options. Every function takes a query handle, so it can run inside the checkout's transaction.
 */
import type { Kysely, Selectable } from 'kysely';
import { decodeRow } from '../codec.ts';
import type { AddOnsTable, Course, Database, Educator, Occurrence, OccurrencesTable, OffersTable } from '../schema.ts';
import type { FormDefinition, FormField, FormValidation } from '../../src/domain/checkout/validation.ts';
import { DEFAULT_FORM_REF, SYSTEM_FIELD_IDS, SYSTEM_FIELD_LABELS, defaultForm } from '../../src/domain/checkout/validation.ts';
import type { PaymentOptions } from '../../src/domain/checkout/paymentMethods.ts';
import { DEFAULT_PAYMENT_OPTIONS, PAYMENT_METHODS } from '../../src/domain/checkout/paymentMethods.ts';

export type Q = Kysely<Database>;
export type OfferRow = Selectable<OffersTable>;
export type AddOnRow = Selectable<AddOnsTable>;

/**
 * What a checkout sells from: a course of an educator's, or (a flow without a course: gift vouchers, memberships)
 * the educator alone, with no course, offers or add-ons.
 */
export interface CheckoutCatalogue {
  course: Course | null;
  educator: Educator;
  /** Course-wide offers and add-ons (occurrence_id null), in position order. */
  offers: OfferRow[];
  addOns: AddOnRow[];
  feesAbsorbed: boolean;
  /** The educator has membership plans (without any, no learner can have a member's prices with them). */
  sellsMemberships: boolean;
}

/** The catalogue of a course (its course is there). */
export interface CourseCatalogue extends CheckoutCatalogue {
  course: Course;
}

/** The catalogue of a flow that sells from the educator (no course, offers or add-ons). */
export async function loadEducatorCatalogue(q: Q, educatorId: string): Promise<CheckoutCatalogue | null> {
  const educator = await q.selectFrom('educators').selectAll().where('id', '=', educatorId).executeTakeFirst();
  if (!educator) return null;
  const [fee, sellsMemberships] = await Promise.all([
    q.selectFrom('educator_fee_settings').select('fees_absorbed').where('educator_id', '=', educator.id).executeTakeFirst(),
    hasMembershipPlans(q, educator.id),
  ]);
  return { course: null, educator, offers: [], addOns: [], feesAbsorbed: fee ? fee.fees_absorbed : true, sellsMemberships };
}

export async function loadCourseCatalogue(q: Q, courseId: string): Promise<CourseCatalogue | null> {
  const course = await q.selectFrom('courses').selectAll().where('id', '=', courseId).executeTakeFirst();
  if (!course) return null;
  const educator = await q.selectFrom('educators').selectAll().where('id', '=', course.educator_id).executeTakeFirst();
  if (!educator) return null;
  const [offers, addOns, fee, sellsMemberships] = await Promise.all([
    q.selectFrom('offers').selectAll().where('course_id', '=', courseId).where('occurrence_id', 'is', null).orderBy('position').orderBy('id').execute(),
    q.selectFrom('add_ons').selectAll().where('course_id', '=', courseId).where('occurrence_id', 'is', null).orderBy('position').orderBy('id').execute(),
    q.selectFrom('educator_fee_settings').select('fees_absorbed').where('educator_id', '=', educator.id).executeTakeFirst(),
    hasMembershipPlans(q, educator.id),
  ]);
  return { course, educator, offers, addOns, feesAbsorbed: fee ? fee.fees_absorbed : true, sellsMemberships };
}

async function hasMembershipPlans(q: Q, educatorId: string): Promise<boolean> {
  return !!(await q.selectFrom('membership_plans').select('id').where('educator_id', '=', educatorId).limit(1).executeTakeFirst());
}

export interface OccurrenceCatalogue {
  occurrence: Occurrence;
  /** The occurrence's own offers and add-ons, or the course's when it has none. */
  offers: OfferRow[];
  addOns: AddOnRow[];
}

export async function loadOccurrence(q: Q, occurrenceId: string, catalogue: CheckoutCatalogue): Promise<OccurrenceCatalogue | null> {
  const occurrence = await loadOccurrenceRow(q, occurrenceId, catalogue);
  return occurrence && withOccurrenceOffers(occurrence, await loadOccurrenceOffers(q, occurrenceId), catalogue);
}

/** The occurrence of the catalogue's course (always read afresh: its spaces change with every hold). */
export async function loadOccurrenceRow(q: Q, occurrenceId: string, catalogue: CheckoutCatalogue): Promise<Occurrence | null> {
  if (!catalogue.course) return null;
  const occurrence = await q
    .selectFrom('occurrences')
    .selectAll()
    .where('id', '=', occurrenceId)
    .where('course_id', '=', catalogue.course.id)
    .executeTakeFirst();
  return occurrence ?? null;
}

/** An occurrence read with another row (the checkout's, api/checkout/engine/persist.ts), if it is of the catalogue's course. */
export function occurrenceOfCatalogue(occurrence: Occurrence | null, catalogue: CheckoutCatalogue): Occurrence | null {
  return occurrence && catalogue.course && occurrence.course_id === catalogue.course.id ? occurrence : null;
}

/** Every column of an occurrence, for reading one joined to another row under aliases. */
export const OCCURRENCE_COLUMNS = [
  'id', 'course_id', 'visibility', 'start_datetime', 'end_datetime', 'timezone', 'delivery', 'address', 'spaces', 'available_spaces',
  'parent_ref', 'individually_bookable', 'revision', 'series_id',
] as const satisfies readonly (keyof OccurrencesTable)[];
// A column added to the table but not to the list fails to compile here.
const _everyOccurrenceColumn: Exclude<keyof OccurrencesTable, (typeof OCCURRENCE_COLUMNS)[number]> extends never ? true : never = true;

/** The prefix of an occurrence's columns read joined to another row (readCheckout, courseStampWithOccurrence). */
const JOINED_OCCURRENCE = 'joined_occurrence_';

/** An occurrence's columns under JOINED_OCCURRENCE, for a select beside another table's. */
export const joinedOccurrenceColumns = () => OCCURRENCE_COLUMNS.map((column) => `occurrences.${column} as ${JOINED_OCCURRENCE}${column}` as const);

/**
 * Splits a row read with joinedOccurrenceColumns into its own columns and the occurrence (null: none joined). The
 * codec knows columns by name, so the occurrence's JSON and boolean columns are decoded here, under their own names.
 */
export function splitJoinedOccurrence(found: Record<string, unknown>, sqlite: boolean): { rest: Record<string, unknown>; occurrence: Occurrence | null } {
  const joined: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(found)) {
    if (key.startsWith(JOINED_OCCURRENCE)) joined[key.slice(JOINED_OCCURRENCE.length)] = value;
    else rest[key] = value;
  }
  return { rest, occurrence: joined.id == null ? null : (decodeRow(joined, sqlite) as unknown as Occurrence) };
}

/**
 * A course's stamp and, in the same statement, its occurrence `occurrenceId` (null: the course has none of that id):
 * opening a checkout for a date read them one round trip apart.
 */
export async function courseStampWithOccurrence(q: Q, courseId: string, occurrenceId: string, sqlite: boolean): Promise<{ stamp: CatalogueStamp; occurrence: Occurrence | null } | null> {
  const found = await q
    .selectFrom('courses')
    .leftJoin('catalogue_versions', 'catalogue_versions.educator_id', 'courses.educator_id')
    .leftJoin('occurrences', (join) => join.on('occurrences.id', '=', occurrenceId).onRef('occurrences.course_id', '=', 'courses.id'))
    .select(['courses.educator_id', 'catalogue_versions.version'])
    .select(joinedOccurrenceColumns())
    .where('courses.id', '=', courseId)
    .executeTakeFirst();
  if (!found) return null;
  const { occurrence } = splitJoinedOccurrence(found, sqlite);
  return { stamp: { educatorId: found.educator_id, version: Number(found.version ?? 0) }, occurrence };
}

/** An occurrence's own offers and add-ons (none: it sells the course's). */
export interface OccurrenceOffers {
  offers: OfferRow[];
  addOns: AddOnRow[];
}

export async function loadOccurrenceOffers(q: Q, occurrenceId: string): Promise<OccurrenceOffers> {
  const [offers, addOns] = await Promise.all([
    q.selectFrom('offers').selectAll().where('occurrence_id', '=', occurrenceId).orderBy('position').orderBy('id').execute(),
    q.selectFrom('add_ons').selectAll().where('occurrence_id', '=', occurrenceId).orderBy('position').orderBy('id').execute(),
  ]);
  return { offers, addOns };
}

export function withOccurrenceOffers(occurrence: Occurrence, own: OccurrenceOffers, catalogue: CheckoutCatalogue): OccurrenceCatalogue {
  return {
    occurrence,
    offers: own.offers.length > 0 ? own.offers : catalogue.offers,
    addOns: own.addOns.length > 0 ? own.addOns : catalogue.addOns,
  };
}

/** Which educator's catalogue a checkout reads, at which version (migration 0100). */
export interface CatalogueStamp {
  educatorId: string;
  version: number;
}

export async function catalogueVersion(q: Q, educatorId: string): Promise<number> {
  const row = await q.selectFrom('catalogue_versions').select('version').where('educator_id', '=', educatorId).executeTakeFirst();
  return Number(row?.version ?? 0);
}

/** The course's educator and their catalogue's version, in one statement; null when there is no such course. */
export async function courseStamp(q: Q, courseId: string): Promise<CatalogueStamp | null> {
  const row = await q
    .selectFrom('courses')
    .leftJoin('catalogue_versions', 'catalogue_versions.educator_id', 'courses.educator_id')
    .select(['courses.educator_id', 'catalogue_versions.version'])
    .where('courses.id', '=', courseId)
    .executeTakeFirst();
  return row ? { educatorId: row.educator_id, version: Number(row.version ?? 0) } : null;
}

export type LoadedForm = FormDefinition & { _id: string; name: string };

/** Spec 3 "Form" in the API's shape; the three system fields are always present (first, in order). */
export async function loadForm(q: Q, formId: string | null | undefined): Promise<LoadedForm | null> {
  return (await loadOwnedForm(q, formId))?.form ?? null;
}

/** A form and the educator it belongs to (null: a system form). */
export async function loadOwnedForm(q: Q, formId: string | null | undefined): Promise<{ form: LoadedForm; educatorId: string | null } | null> {
  const id = formId || DEFAULT_FORM_REF;
  const form = await q.selectFrom('forms').selectAll().where('id', '=', id).executeTakeFirst();
  if (!form) {
    if (id !== DEFAULT_FORM_REF) return null;
    return { form: { _id: id, name: 'Default form', ...defaultForm() }, educatorId: null };
  }
  const [fields, validations] = await Promise.all([
    q.selectFrom('form_fields').selectAll().where('form_id', '=', id).orderBy('position').orderBy('id').execute(),
    q.selectFrom('form_validations').selectAll().where('form_id', '=', id).orderBy('field_ref').execute(),
  ]);
  const mapped: FormField[] = fields.map((f) => ({
    _id: f.id,
    label: f.label,
    description: f.description,
    data_type: f.data_type,
    items: f.items,
    educator_ref: f.educator_ref,
    created_at: Number(f.created_at),
    updated_at: Number(f.updated_at),
  }) as FormField);
  const present = new Set(mapped.map((f) => f._id));
  const system = defaultForm().fields.filter((f) => !present.has(f._id));
  const ordered = [
    ...SYSTEM_FIELD_IDS.map((sid) => mapped.find((f) => f._id === sid) ?? system.find((f) => f._id === sid)!).map((f) => ({
      ...f, label: f.label || SYSTEM_FIELD_LABELS[f._id as keyof typeof SYSTEM_FIELD_LABELS],
    })),
    ...mapped.filter((f) => !(SYSTEM_FIELD_IDS as string[]).includes(f._id)),
  ];
  const mappedValidations: FormValidation[] = validations.map((v) => ({ field_ref: v.field_ref, condition: v.condition, value: decodeValidationValue(v.value_json) }));
  return { form: { _id: form.id, name: form.name, fields: ordered, validations: mappedValidations }, educatorId: form.educator_id };
}

/**
 * value_json is JSON text ('true'); the codec parses only objects and arrays, and a boolean written through
 * the SQLite codec reads back as 1. Both read as the JSON value, with 1/0 as true/false.
 */
export function decodeValidationValue(raw: unknown): unknown {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      value = raw;
    }
  }
  if (value === 1) return true;
  if (value === 0) return false;
  return value;
}

export interface ResolvedPaymentOptions extends PaymentOptions {
  /** Days until an invoice is due. */
  invoice_due_days: number;
}

/** Spec 7: the course's own options, else the educator's, else card only. One statement: each set with its methods. */
export async function loadPaymentOptions(q: Q, educatorId: string, courseId: string | null): Promise<ResolvedPaymentOptions> {
  const rows = await q
    .selectFrom('payment_options as po')
    .leftJoin('payment_option_methods as m', 'm.payment_options_id', 'po.id')
    .select(['po.id', 'po.course_id', 'po.invoice_due_days', 'm.method', 'm.enabled', 'm.label', 'm.message'])
    .where('po.educator_id', '=', educatorId)
    .where((eb) => (courseId ? eb.or([eb('po.course_id', '=', courseId), eb('po.course_id', 'is', null)]) : eb('po.course_id', 'is', null)))
    .execute();
  const row = rows.find((r) => courseId && r.course_id === courseId) ?? rows.find((r) => r.course_id === null);
  if (!row) return { ...structuredClone(DEFAULT_PAYMENT_OPTIONS), invoice_due_days: 14 } as ResolvedPaymentOptions;
  // One row per method; a method without a row is not offered, and a row for a method this build does not
  // know (PAYMENT_METHODS, which the provider registry serves) is ignored.
  const methods = rows.filter((r) => r.id === row.id && r.method !== null);
  const options: ResolvedPaymentOptions = { invoice_due_days: Number(row.invoice_due_days ?? 14) };
  for (const method of PAYMENT_METHODS) {
    const m = methods.find((r) => r.method === method);
    options[method] = method === 'manual'
      ? { enabled: !!m?.enabled, label: m?.label ?? null, message: m?.message ?? null }
      : { enabled: !!m?.enabled };
  }
  return options;
}

export async function loadLocations(q: Q, ids: readonly string[]): Promise<{ _id: string; formatted: string; city: string; name: string | null }[]> {
  if (ids.length === 0) return [];
  const rows = await q.selectFrom('locations').select(['id', 'formatted', 'city', 'name']).where('id', 'in', [...ids]).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [{ _id: r.id, formatted: r.formatted, city: r.city, name: r.name }] : [];
  });
}

/** Busy intervals of an educator: calendar-based request bookings that are not cancelled. */
export async function educatorBusyIntervals(q: Q, educatorId: string, from: number, to: number): Promise<{ from: number; to: number }[]> {
  const rows = await q
    .selectFrom('bookings')
    .select(['start_datetime', 'end_datetime'])
    .where('educator_id', '=', educatorId)
    .where('occurrence_id', 'is', null)
    .where('status', '!=', 'cancelled')
    .where('start_datetime', '<', to)
    .where('end_datetime', '>', from)
    .execute();
  return rows.map((r) => ({ from: Number(r.start_datetime), to: Number(r.end_datetime) }));
}
