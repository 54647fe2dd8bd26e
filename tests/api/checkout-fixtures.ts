/**
 * A small, explicit catalogue for the checkout API tests: one course per flow and per rule, written
 * straight into the test database. Times are relative to `now`.
 */
import type { Db } from '../../db/client.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import type { TestServer } from '../helpers/server.ts';
import type { NewCourse, NewEducator } from '../../db/schema.ts';

export const DAY = 86400;

export const IDS = {
  educator: 'edu_clay',
  educatorVat: 'edu_vat',
  form: 'form_clay',
  classCourse: 'crs_class',
  classOcc: 'occ_class',
  classOcc2: 'occ_class_2',
  pastOcc: 'occ_past',
  privateOcc: 'occ_private',
  guestsCourse: 'crs_guests',
  guestsOcc: 'occ_guests',
  freeCourse: 'crs_free',
  freeOcc: 'occ_free',
  raceCourse: 'crs_race',
  raceOcc: 'occ_race',
  blendedCourse: 'crs_blended',
  blendedOcc: 'occ_blended',
  onDemand: 'crs_ondemand',
  requestCal: 'crs_req_cal',
  requestFree: 'crs_req_free',
  requestPref: 'crs_req_pref',
  requestNone: 'crs_req_none',
  restricted: 'crs_restricted',
  restrictedOcc: 'occ_restricted',
  unpublished: 'crs_unpublished',
  vatCourse: 'crs_vat',
  vatOcc: 'occ_vat',
  locA: 'loc_a',
  locB: 'loc_b',
} as const;

export const OFFERS = {
  standard: 'off_standard', // £30, 1 space
  pair: 'off_pair', // £50, 2 spaces
  ended: 'off_ended',
  later: 'off_later',
  guests: 'off_guests', // £10
  free: 'off_free',
  race: 'off_race', // £10
  blended: 'off_blended',
  onDemand: 'off_ondemand', // £20
  requestCal: 'off_req_cal', // £40
  requestFree: 'off_req_free',
  vat: 'off_vat', // £100
  restricted: 'off_restricted',
  occ2: 'off_occ2',
} as const;

export const ADDONS = { apron: 'add_apron', notes: 'add_notes' } as const;

/** A database of its own (tests that need no server) with the checkout catalogue seeded at `now`. */
export async function seededCheckoutDb(now: number): Promise<TestDb> {
  const tdb = await createTestDb();
  await seedCheckoutCatalogue(tdb.db, now);
  return tdb;
}

/** Opening hours every day 09:00–17:00 (seconds from midnight). */
const OPEN = [{ from: 9 * 3600, until: 17 * 3600 }];
const WORKING_HOURS = { monday: OPEN, tuesday: OPEN, wednesday: OPEN, thursday: OPEN, friday: OPEN, saturday: OPEN, sunday: OPEN };

function educator(id: string, slug: string, name: string, now: number, extra: Partial<NewEducator> = {}): NewEducator {
  return {
    id, slug, name, bio: '', cover_url: null, logo_url: null, address: { line1: '1 High Street', city: 'Bristol', postcode: 'BS1 1AA' },
    phone_number: null, email: `${slug}@example.com`, tos: '<p>Our terms</p>', cancellation_allowed: 7, can_be_contacted: true, claimed: true,
    feature_flags: { hide_marketing_consent: false, hide_terms: false, hide_pricing: false, hide_social_prompts: false },
    third_party_codes: {}, vat_settings: { enabled: false, is_vat_absorbed: false, tax_label: null, rate_bp: 2000 },
    color_brand: null, on_color_brand: null, whitelabelling_enabled: false, links: {}, working_hours: WORKING_HOURS,
    enquiry_types: [], form_ref: null, created_at: now - 400 * DAY, ...extra,
  };
}

function course(id: string, educatorId: string, type: NewCourse['type'], now: number, extra: Partial<NewCourse> = {}): NewCourse {
  return {
    id, educator_id: educatorId, slug: id.replace(/_/g, '-'), name: `Course ${id}`, created_at: now - 100 * DAY, level: 'All',
    description: '', meta_description: null, keyword: null, category_id: null, type,
    delivery_modes: type === 'on-demand' ? ['on-demand'] : ['in-person'], currency: 'GBP', spaces: null,
    pricing_type: 'price-offers', minimum_price: null, maximum_price: null, form_ref: 'system_default', guest_form_ref: null,
    capture_guests: false, approval_required: false, restricted: false, img_urls: [], autoimg: null, address: null, lat: null, lng: null,
    faq_ids: [], sections: [], course_duration: 120, duration_pricing: [], date_requests: null,
    available_for_online_delivery: false, available_for_in_person_delivery: true,
    educator_travel_settings: { enabled: false, type: null }, student_travel_settings: { enabled: false, locations: [] }, published: true,
    ...extra,
  };
}

function occurrence(id: string, courseId: string, start: number, spaces: number | null, extra: Record<string, unknown> = {}) {
  return {
    id, course_id: courseId, visibility: 'public', start_datetime: start, end_datetime: start + 3 * 3600, timezone: 'Europe/London',
    delivery: 'in-person' as const, address: { line1: 'The Old Dairy', city: 'Bristol', postcode: 'BS1 4DJ' }, spaces, available_spaces: spaces,
    parent_ref: null, individually_bookable: true, ...extra,
  };
}

function offer(id: string, courseId: string, occurrenceId: string | null, name: string, price: number | null, extra: Record<string, unknown> = {}) {
  return { id, course_id: courseId, occurrence_id: occurrenceId, position: 0, name, description: null, price, spaces: 1, start_at: null, end_at: null, ...extra };
}

export async function seedCheckoutCatalogue(db: Db, now: number): Promise<void> {
  const soon = now + 14 * DAY;
  await db.insertInto('educators').values([
    educator(IDS.educator, 'clay-studio', 'Clay Studio', now, { form_ref: null }),
    educator(IDS.educatorVat, 'vat-academy', 'VAT Academy', now, {
      feature_flags: { hide_marketing_consent: true, hide_terms: true, hide_pricing: false, hide_social_prompts: false },
      vat_settings: { enabled: true, is_vat_absorbed: false, tax_label: 'VAT', rate_bp: 2000 },
    }),
  ]).execute();
  await db.insertInto('educator_fee_settings').values({ educator_id: IDS.educatorVat, fees_absorbed: false }).execute();
  await db.insertInto('locations').values([
    { id: IDS.locA, educator_id: IDS.educator, name: 'Studio A', city: 'Bristol', formatted: 'Studio A\n1 Mill Lane\nBristol', address: null, lat: null, lng: null },
    { id: IDS.locB, educator_id: IDS.educator, name: 'Studio B', city: 'Bath', formatted: 'Studio B\n2 Wharf Road\nBath', address: null, lat: null, lng: null },
  ]).execute();

  // The educator's booker form: the system fields, a required phone, an optional note, a marketing-consent field.
  await db.insertInto('forms').values({ id: IDS.form, educator_id: IDS.educator, name: 'Booking form' }).execute();
  const field = (id: string, position: number, label: string, data_type: string) => ({
    form_id: IDS.form, id, position, label, description: null, data_type: data_type as never, items: null, educator_ref: IDS.educator,
    created_at: now - DAY, updated_at: now - DAY,
  });
  await db.insertInto('form_fields').values([
    field('system_first_name', 0, 'First Name', 'first_name'),
    field('system_last_name', 1, 'Last Name', 'last_name'),
    field('system_email', 2, 'Email', 'email'),
    field('phone', 3, 'Phone', 'tel'),
    field('notes', 4, 'Anything we should know?', 'textarea'),
    field('educator_marketing_consent', 5, 'Marketing', 'boolean'),
  ]).execute();
  await db.insertInto('form_validations').values({ form_id: IDS.form, field_ref: 'phone', condition: 'required', value_json: JSON.stringify(true) }).execute();

  await db.insertInto('courses').values([
    course(IDS.classCourse, IDS.educator, 'class', now, { form_ref: IDS.form }),
    course(IDS.guestsCourse, IDS.educator, 'class', now, { capture_guests: true, approval_required: true }),
    course(IDS.freeCourse, IDS.educator, 'class', now, { pricing_type: 'free' }),
    course(IDS.raceCourse, IDS.educator, 'class', now),
    course(IDS.blendedCourse, IDS.educator, 'blended', now),
    course(IDS.onDemand, IDS.educator, 'on-demand', now, { capture_guests: true }),
    course(IDS.requestCal, IDS.educator, 'on-request', now, {
      date_requests: 'calendar_based', available_for_online_delivery: true,
      duration_pricing: [
        { _id: 'dur_60', duration: 60, label: '1 Hour', description: null, extra_cost: 0 },
        { _id: 'dur_120', duration: 120, label: '2 Hours', description: null, extra_cost: 1000 },
        { _id: 'dur_2d', duration: 2880, label: '2 Days', description: null, extra_cost: 0 },
      ],
    }),
    course(IDS.requestFree, IDS.educator, 'on-request', now, {
      date_requests: 'calendar_based', pricing_type: 'free', available_for_online_delivery: true,
      duration_pricing: [{ _id: 'dur_30', duration: 30, label: '30 Minutes', description: null, extra_cost: 0 }],
    }),
    course(IDS.requestPref, IDS.educator, 'on-request', now, {
      pricing_type: 'price-on-enquiry', educator_travel_settings: { enabled: true, type: 'UK Wide' },
      student_travel_settings: { enabled: true, locations: [IDS.locA, IDS.locB] },
    }),
    course(IDS.requestNone, IDS.educator, 'on-request', now, { available_for_in_person_delivery: false }),
    course(IDS.restricted, IDS.educator, 'class', now, { restricted: true }),
    course(IDS.unpublished, IDS.educator, 'class', now, { published: false }),
    course(IDS.vatCourse, IDS.educatorVat, 'class', now),
  ]).execute();

  await db.insertInto('occurrences').values([
    occurrence(IDS.classOcc, IDS.classCourse, soon, 20),
    occurrence(IDS.classOcc2, IDS.classCourse, soon + 7 * DAY, 5),
    occurrence(IDS.pastOcc, IDS.classCourse, now - 3 * DAY, 5),
    occurrence(IDS.privateOcc, IDS.classCourse, soon, 5, { visibility: 'private' }),
    occurrence(IDS.guestsOcc, IDS.guestsCourse, soon, 20),
    occurrence(IDS.freeOcc, IDS.freeCourse, soon, 3),
    occurrence(IDS.raceOcc, IDS.raceCourse, soon, 10),
    occurrence(IDS.blendedOcc, IDS.blendedCourse, soon, 8),
    occurrence(IDS.restrictedOcc, IDS.restricted, soon, 8),
    occurrence(IDS.vatOcc, IDS.vatCourse, soon, 8),
  ]).execute();

  await db.insertInto('offers').values([
    offer(OFFERS.standard, IDS.classCourse, IDS.classOcc, 'Standard', 3000),
    offer(OFFERS.pair, IDS.classCourse, IDS.classOcc, 'Pair', 5000, { spaces: 2, position: 1 }),
    offer(OFFERS.ended, IDS.classCourse, IDS.classOcc, 'Early bird', 2000, { position: 2, end_at: now - DAY }),
    offer(OFFERS.later, IDS.classCourse, IDS.classOcc, 'Last minute', 3500, { position: 3, start_at: now + 7 * DAY }),
    offer(OFFERS.occ2, IDS.classCourse, IDS.classOcc2, 'Standard', 3000),
    offer('off_past', IDS.classCourse, IDS.pastOcc, 'Standard', 3000),
    offer('off_private', IDS.classCourse, IDS.privateOcc, 'Standard', 3000),
    offer(OFFERS.guests, IDS.guestsCourse, null, 'Seat', 1000),
    offer(OFFERS.free, IDS.freeCourse, null, 'Free seat', 0),
    offer(OFFERS.race, IDS.raceCourse, null, 'Seat', 1000),
    offer(OFFERS.blended, IDS.blendedCourse, null, 'Place', 15000),
    offer(OFFERS.onDemand, IDS.onDemand, null, 'Lifetime access', 2000),
    offer(OFFERS.requestCal, IDS.requestCal, null, 'Private lesson', 4000),
    offer(OFFERS.requestFree, IDS.requestFree, null, 'Taster', 0),
    offer(OFFERS.vat, IDS.vatCourse, null, 'Workshop', 10000),
    offer(OFFERS.restricted, IDS.restricted, null, 'Seat', 1000),
  ]).execute();
  await db.insertInto('add_ons').values([
    { id: ADDONS.apron, course_id: IDS.classCourse, occurrence_id: null, position: 0, name: 'Apron', description: null, price: 500 },
    { id: ADDONS.notes, course_id: IDS.onDemand, occurrence_id: null, position: 0, name: 'Printed notes', description: null, price: 800 },
  ]).execute();

  await db.insertInto('payment_options').values({ id: 'pay_clay', educator_id: IDS.educator, course_id: null, invoice_due_days: 14 }).execute();
  await db.insertInto('payment_option_methods').values([
    ...(['card', 'paypal', 'klarna', 'invoice'] as const).map((method) => ({ payment_options_id: 'pay_clay', method, enabled: true, label: null, message: null })),
    { payment_options_id: 'pay_clay', method: 'manual', enabled: true, label: 'Pay at the studio', message: 'Bring cash on the day.' },
  ]).execute();

  await db.insertInto('vouchers').values([
    { id: 'vch_ten', educator_id: IDS.educator, course_id: null, code: 'TENOFF', kind: 'percent', amount: 10, currency: 'GBP', expires_at: null, max_uses: null, uses: 0, created_at: now - DAY },
    { id: 'vch_fiver', educator_id: IDS.educator, course_id: IDS.classCourse, code: 'FIVER', kind: 'fixed', amount: 500, currency: 'GBP', expires_at: now + 30 * DAY, max_uses: null, uses: 0, created_at: now - DAY },
    { id: 'vch_expired', educator_id: IDS.educator, course_id: null, code: 'OLD', kind: 'percent', amount: 50, currency: 'GBP', expires_at: now - DAY, max_uses: null, uses: 0, created_at: now - 10 * DAY },
    { id: 'vch_once', educator_id: IDS.educator, course_id: null, code: 'ONCE', kind: 'percent', amount: 100, currency: 'GBP', expires_at: null, max_uses: 1, uses: 0, created_at: now - DAY },
    { id: 'vch_other', educator_id: IDS.educator, course_id: IDS.onDemand, code: 'ONDEMAND', kind: 'fixed', amount: 100, currency: 'GBP', expires_at: null, max_uses: null, uses: 0, created_at: now - DAY },
  ]).execute();
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers

export interface Call {
  status: number;
  body: any;
  headers: Headers;
}

export function client(server: TestServer, cookie = '') {
  const headers = (extra: Record<string, string> = {}) => ({
    origin: server.url, 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...extra,
  });
  async function call(method: string, path: string, body?: unknown): Promise<Call> {
    const res = await fetch(`${server.url}/api${path}`, { method, headers: headers(), body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body ?? {}),
    put: (path: string, body?: unknown) => call('PUT', path, body ?? {}),
    initialise: (flowSlug: string, body: Record<string, unknown>) =>
      call('POST', `/checkout/initialise/${flowSlug}`, { checkoutId: null, origin: 'marketplace', bookedOnURL: 'http://localhost/course', utms: { utm_source: 'test' }, ...body }),
    submit: (checkoutId: string, action: string, payload: Record<string, unknown> = {}) =>
      call('POST', `/checkout/${checkoutId}/submit-response`, { action, payload }),
  };
}

export type Client = ReturnType<typeof client>;

/**
 * Fresh dated occurrences of the race course (its £10 course-wide offer), one a call, so tests do not share spaces:
 * each `prefix_N` starts N hours after `now() + 20 days`.
 */
export function raceOccurrences(db: Db, prefix: string, now: () => number): (spaces: number) => Promise<string> {
  let count = 0;
  return async (spaces) => {
    const id = `${prefix}_${++count}`;
    const start = now() + 20 * DAY + count * 3600;
    await db.insertInto('occurrences').values({
      id, course_id: IDS.raceCourse, visibility: 'public', start_datetime: start, end_datetime: start + 3600, timezone: 'Europe/London',
      delivery: 'in-person', address: null, spaces, available_spaces: spaces, parent_ref: null, individually_bookable: true,
    }).execute();
    return id;
  };
}

/** A booker form response for the system form. */
export function booker(email: string, extra: Record<string, unknown> = {}) {
  return { system_first_name: 'Ada', system_last_name: 'Lovelace', system_email: email, ...extra };
}

export function contactPayload(email: string, extra: Record<string, unknown> = {}) {
  return {
    bookerId: null, bookerFormId: 'system_default', attendeeFormId: null, termsAccepted: true, bookerIsAttending: true,
    bookerFormResponse: booker(email), attendeeFormResponses: [], marketingConsent: false, ...extra,
  };
}

/** Confirms a test payment as the card element would. */
export async function payWithCard(server: TestServer, state: { stepState: Record<string, { state: Record<string, unknown> }> }, card: string) {
  const payment = state.stepState.payment.state;
  const res = await fetch(`${server.url}/api/test-payments/${payment.paymentId}/confirm`, {
    method: 'POST',
    headers: { origin: server.url, 'content-type': 'application/json' },
    body: JSON.stringify({ card_number: card, client_secret: payment.clientSecret, return_url: '/checkout/return' }),
  });
  return { status: res.status, body: await res.json() };
}

export const CARDS = { success: '4242424242424242', declined: '4000000000000002', threeDS: '4000002500003155' } as const;

export function problemType(body: { type?: string }): string {
  return String(body?.type ?? '').replace(/^https?:\/\/[^/]+\//, '');
}
