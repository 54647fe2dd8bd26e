/**
 * A small hand-made catalogue for the public API tests, where each edge case is one named row
 * (the demo catalogue is exercised separately in public-catalogue.test.ts), and helpers shared
 * by the public-*.test.ts files.
 */
import { solveChallenge } from 'altcha-lib/v1';
import { expect } from 'vitest';
import type { Db } from '../../db/client.ts';
import type { NewCourse, NewEducator } from '../../db/schema.ts';

/** The pinned clock: 2025-06-15T15:06:40Z (British Summer Time). */
export const NOW = 1_750_000_000;
export const DAY = 86_400;

/** Environment for startTestServer: a low captcha difficulty keeps solving in tests fast. */
export const TEST_ENV = { CAPTCHA_MAX_NUMBER: '2000', PUBLIC_HOST: 'localhost:4321', PUBLIC_PROTOCOL: 'http' };

export function educatorRow(overrides: Partial<NewEducator> & Pick<NewEducator, 'id' | 'slug' | 'name'>): NewEducator {
  return {
    feature_flags: { hide_marketing_consent: false, hide_terms: false, hide_pricing: false, hide_social_prompts: false },
    third_party_codes: {},
    vat_settings: { enabled: false, is_vat_absorbed: false },
    links: {},
    working_hours: {},
    enquiry_types: [],
    created_at: NOW - 400 * DAY,
    // Multi-row inserts on SQLite cannot fall back to column defaults: spell them out.
    bio: '',
    can_be_contacted: true,
    claimed: true,
    whitelabelling_enabled: false,
    ...overrides,
  };
}

export function courseRow(overrides: Partial<NewCourse> & Pick<NewCourse, 'id' | 'educator_id' | 'slug' | 'name'>): NewCourse {
  return {
    created_at: NOW - 100 * DAY,
    type: 'class',
    delivery_modes: ['in-person'],
    pricing_type: 'price-offers',
    img_urls: [],
    faq_ids: [],
    sections: [],
    duration_pricing: [],
    educator_travel_settings: { enabled: false },
    student_travel_settings: { enabled: false, locations: [] },
    description: '',
    currency: 'GBP',
    form_ref: 'system_default',
    capture_guests: false,
    approval_required: false,
    restricted: false,
    available_for_online_delivery: false,
    available_for_in_person_delivery: false,
    published: true,
    category_id: null,
    address: null,
    autoimg: null,
    keyword: null,
    level: null,
    minimum_price: null,
    maximum_price: null,
    ...overrides,
  };
}

/** Reviews of Clay Studio: 23 listed (+1 archived); the newest first is rev_23. */
export const CLAY_REVIEW_COUNT = 23;

export async function insertPublicFixtures(db: Db): Promise<void> {
  await db.insertInto('categories').values([
    { id: 'cat_pottery', slug: 'pottery-ceramics', name: 'Pottery & Ceramics' },
    { id: 'cat_coding', slug: 'coding-tech', name: 'Coding & Tech' },
  ]).execute();

  await db.insertInto('educators').values([
    educatorRow({
      id: 'edu_clay', slug: 'clay-studio', name: 'Clay Studio', claimed: true, can_be_contacted: true,
      enquiry_types: [{ label: 'General' }, { label: 'Group booking' }], address: { city: 'Bristol' }, logo_url: '/logo.svg',
    }),
    educatorRow({
      id: 'edu_code', slug: 'code-academy', name: 'Code Academy', claimed: true, can_be_contacted: false,
      feature_flags: { hide_marketing_consent: false, hide_terms: false, hide_pricing: true, hide_social_prompts: false },
    }),
    // Unclaimed, nothing published: its reviews are not public (423).
    educatorRow({ id: 'edu_ghost', slug: 'ghost-listing', name: 'Ghost Listing', claimed: false }),
    // Unclaimed but with a published course: its reviews are public.
    educatorRow({ id: 'edu_listed', slug: 'listed-unclaimed', name: 'Listed Unclaimed', claimed: false }),
    // Claimed, no reviews at all.
    educatorRow({ id: 'edu_fresh', slug: 'fresh-start', name: 'Fresh Start', claimed: true }),
  ]).execute();

  await db.insertInto('locations').values([
    { id: 'loc_bath', educator_id: 'edu_clay', name: 'Bath studio', city: 'Bath', formatted: '1 Abbey Green\nBath\nBA1 1NW' },
    { id: 'loc_london', educator_id: 'edu_clay', name: null, city: 'London', formatted: '2 Mare Street\nLondon\nE8 4RP' },
    { id: 'loc_leeds', educator_id: 'edu_code', name: 'Leeds hub', city: 'Leeds', formatted: '3 Call Lane\nLeeds\nLS1 6DT' },
  ]).execute();

  await db.insertInto('courses').values([
    courseRow({
      id: 'crs_wheel', educator_id: 'edu_clay', slug: 'pottery-wheel-basics', name: 'Pottery Wheel Basics', category_id: 'cat_pottery',
      description: '<p>Learn to centre clay and throw your first bowls.</p>', keyword: 'workshop', level: 'Beginner',
      address: { line1: '5 Kiln Yard', city: 'Bristol', postcode: 'BS1 4QA' }, img_urls: ['/images/wheel.jpg'],
      created_at: NOW - 100 * DAY,
    }),
    courseRow({
      id: 'crs_glaze', educator_id: 'edu_clay', slug: 'glaze-chemistry', name: 'Glaze Chemistry', category_id: 'cat_pottery',
      description: '<p>The science behind colour on pottery: oxides, firing and surfaces.</p>', delivery_modes: ['online'],
      pricing_type: 'price-range', minimum_price: 2000, maximum_price: 2000, autoimg: { url: '/images/auto/glaze.svg', author: 'Auto' },
      created_at: NOW - 10 * DAY,
    }),
    courseRow({
      id: 'crs_hand', educator_id: 'edu_clay', slug: 'hand-building', name: 'Hand Building at Home', category_id: 'cat_pottery',
      type: 'on-demand', delivery_modes: ['on-demand'], pricing_type: 'free',
      student_travel_settings: { enabled: true, locations: ['loc_bath', 'loc_london'] }, created_at: NOW - 50 * DAY,
    }),
    courseRow({
      id: 'crs_raku', educator_id: 'edu_clay', slug: 'raku-weekend', name: 'Raku Pottery Weekend', category_id: 'cat_pottery',
      published: false, created_at: NOW - 5 * DAY,
    }),
    courseRow({
      id: 'crs_python', educator_id: 'edu_code', slug: 'intro-to-python', name: 'Intro to Python', category_id: 'cat_coding',
      delivery_modes: ['online'], pricing_type: 'price-range', minimum_price: 10000, maximum_price: 30000, created_at: NOW - 5 * DAY,
    }),
    courseRow({
      id: 'crs_web', educator_id: 'edu_code', slug: 'web-bootcamp', name: 'Web Development Bootcamp', category_id: 'cat_coding',
      delivery_modes: ['hybrid'], pricing_type: 'price-on-enquiry', description: 'Build websites with HTML and a little pottery of code.',
      created_at: NOW - 200 * DAY,
    }),
    courseRow({ id: 'crs_ghost', educator_id: 'edu_ghost', slug: 'ghost-course', name: 'Ghost Course', published: false }),
    courseRow({ id: 'crs_listed', educator_id: 'edu_listed', slug: 'listed-course', name: 'Listed Course', delivery_modes: ['online'] }),
  ]).execute();

  await db.insertInto('review_aggregates').values([
    { subject_type: 'course', subject_id: 'crs_wheel', count: 20, rating: 4.5, material: null, facilitator: null, organiser: null, resources: null, delivery: null, communication: null },
    { subject_type: 'course', subject_id: 'crs_glaze', count: 2, rating: 5, material: null, facilitator: null, organiser: null, resources: null, delivery: null, communication: null },
  ]).execute();

  // Occurrences of Pottery Wheel Basics. Course-wide offers: Standard and Premium.
  const occ = (id: string, startDays: number, extra: Record<string, unknown> = {}) => ({
    id, course_id: 'crs_wheel', start_datetime: NOW + startDays * DAY, end_datetime: NOW + startDays * DAY + 3 * 3600,
    delivery: 'in-person' as const, address: { line1: '5 Kiln Yard', city: 'Bristol' } as Record<string, string> | null, spaces: 8, available_spaces: 5 as number | null,
    visibility: 'public', timezone: 'Europe/London', parent_ref: null as string | null, individually_bookable: true, ...extra,
  });
  await db.insertInto('occurrences').values([
    occ('occ_future2', 20),
    occ('occ_future1', 10),
    occ('occ_started', -2),
    occ('occ_private', 12, { visibility: 'private' }),
    occ('occ_ended', 14),
    occ('occ_ny', 30, { timezone: 'America/New_York', delivery: 'online', address: null, available_spaces: null }),
  ]).execute();
  await db.insertInto('occurrences').values([
    occ('occ_child_hidden', 10, { parent_ref: 'occ_future1', individually_bookable: false }),
    occ('occ_child_bookable', 11, { parent_ref: 'occ_future1', individually_bookable: true }),
  ]).execute();
  await db.insertInto('occurrences').values([
    { id: 'occ_glaze', course_id: 'crs_glaze', start_datetime: NOW + 3 * DAY, end_datetime: NOW + 3 * DAY + 3600, delivery: 'online', spaces: 20, available_spaces: 20, visibility: 'public', timezone: 'Europe/London', individually_bookable: true },
  ]).execute();

  await db.insertInto('offers').values([
    { id: 'off_standard', course_id: 'crs_wheel', occurrence_id: null, position: 0, name: 'Standard', description: 'One place', price: 4500, spaces: 1, start_at: null, end_at: null },
    { id: 'off_premium', course_id: 'crs_wheel', occurrence_id: null, position: 1, name: 'Premium', description: null, price: 6000, spaces: 1, start_at: null, end_at: null },
    { id: 'off_early', course_id: 'crs_wheel', occurrence_id: 'occ_future1', position: 0, name: 'Early bird', description: null, price: 4000, spaces: 1, start_at: NOW - 10 * DAY, end_at: NOW + 5 * DAY },
    { id: 'off_gone', course_id: 'crs_wheel', occurrence_id: 'occ_ended', position: 0, name: 'Sold window', description: null, price: 4500, spaces: 1, start_at: null, end_at: NOW - 1 },
    { id: 'off_glaze', course_id: 'crs_glaze', occurrence_id: null, position: 0, name: 'Standard', description: null, price: 2000, spaces: 1, start_at: null, end_at: null },
  ]).execute();
  await db.insertInto('add_ons').values([
    { id: 'add_apron', course_id: 'crs_wheel', occurrence_id: null, position: 0, name: 'Apron', description: 'Keep it', price: 1200 },
    { id: 'add_clay', course_id: 'crs_wheel', occurrence_id: 'occ_future1', position: 0, name: 'Extra clay', description: null, price: 500 },
  ]).execute();

  // 23 listed reviews of Clay Studio plus one archived; rev_13 and rev_14 share a timestamp (a tie at the page boundary).
  const reviews = [];
  for (let i = 1; i <= CLAY_REVIEW_COUNT; i++) {
    const n = String(i).padStart(2, '0');
    reviews.push({
      id: `rev_${n}`,
      educator_id: 'edu_clay',
      course_id: i % 2 === 0 ? 'crs_wheel' : i === 3 ? 'crs_raku' : null,
      entity: (i % 2 === 0 || i === 3 ? 'course' : 'educator') as 'course' | 'educator',
      rating: i === 7 ? 9 : (i % 5) + 1,
      verified: i % 3 === 0,
      source_key: i === 9 ? 'googlemaps' : 'marketplace',
      source_label: i === 9 ? 'Google Maps' : 'Marketplace',
      external_url: i === 9 ? 'https://maps.example/review/9' : null,
      reviewer_id: i === 1 ? null : `stu_${n}`,
      reviewer_name: `Reviewer ${n}`,
      public_message: `Message ${n}`,
      response_message: i === 23 ? 'Thank you!' : null,
      response_created_at: i === 23 ? NOW - 3600 : null,
      created_at: NOW - (CLAY_REVIEW_COUNT - (i === 13 ? 14 : i)) * DAY * 2,
      archived_at: null,
    });
  }
  reviews.push({ ...reviews[0], id: 'rev_archived', public_message: 'Archived', created_at: NOW, archived_at: NOW });
  reviews.push({ ...reviews[0], id: 'rev_listed', educator_id: 'edu_listed', course_id: 'crs_listed', entity: 'course' as const, created_at: NOW - DAY });
  await db.insertInto('reviews').values(reviews).execute();
}

/** Fetches a captcha challenge from the server and solves it for real; returns the token. */
export async function solvedCaptcha(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/captcha/challenge`);
  expect(res.status).toBe(200);
  const challenge = (await res.json()) as { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
  if (!solution) throw new Error('captcha not solved');
  return Buffer.from(
    JSON.stringify({ algorithm: challenge.algorithm, challenge: challenge.challenge, number: solution.number, salt: challenge.salt, signature: challenge.signature }),
  ).toString('base64');
}

export interface ExpectedProblem {
  status: number;
  /** The end of the type URL, e.g. 'generic/validation-error'. */
  type: string;
  title: string;
  detail?: string;
}

/** Asserts a problem-details answer and returns its body. */
export async function expectProblem(res: Response, expected: ExpectedProblem): Promise<Record<string, unknown>> {
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const body = (await res.json()) as Record<string, unknown>;
  expect({ status: res.status, bodyStatus: body.status, title: body.title }).toEqual({ status: expected.status, bodyStatus: expected.status, title: expected.title });
  expect(String(body.type)).toMatch(new RegExp(`^https?://[^/]+/${expected.type.replace(/^\//, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  if (expected.detail !== undefined) expect(body.detail).toBe(expected.detail);
  return body;
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}
