/**
 * The demo catalogue: generated deterministically, loaded into SQLite (or PostgreSQL when
 * TEST_DATABASE_URL is set), and containing every variant the spec distinguishes
 * (docs/demo-catalogue.md). The variant checks query the loaded database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import {
  CATALOGUE_TABLES, IMAGE_PATHS, RACE_OCCURRENCE_ID, SHOWCASE, generateCatalogue, generateEducatorBatches,
} from '../../db/seed/generate.ts';
import { type LoadResult, MAX_PARAMETERS, insertRows, isCatalogueEmpty, loadCatalogue, resetCatalogue } from '../../db/seed/load.ts';
import { BREAKDOWN_KEYS, rebuildReviewAggregates } from '../../db/queries/review-aggregates.ts';
import { htmlToText } from '../../src/domain/text.ts';
import type { Course, Educator } from '../../db/schema.ts';

/** A fixed anchor (2026-01-15T00:00:00Z): every catalogue date is relative to it. */
const NOW = Date.UTC(2026, 0, 15) / 1000;
const DAY = 86400;

let t: TestDb;
let loaded: LoadResult;
let emptyBefore: boolean;

beforeAll(async () => {
  t = await createTestDb();
  emptyBefore = await isCatalogueEmpty(t.db);
  loaded = await loadCatalogue(t.db, { seed: 1, educators: 30, now: NOW });
});

afterAll(async () => {
  await t?.close();
});

const db = () => t.db;

async function educator(slug: string): Promise<Educator> {
  return db().selectFrom('educators').selectAll().where('slug', '=', slug).executeTakeFirstOrThrow();
}

async function course(educatorSlug: string, slug: string): Promise<Course> {
  const e = await educator(educatorSlug);
  return db().selectFrom('courses').selectAll().where('educator_id', '=', e.id).where('slug', '=', slug).executeTakeFirstOrThrow();
}

async function allCourses(): Promise<Course[]> {
  return db().selectFrom('courses').selectAll().execute();
}

/** value_json is stored as JSON text; whatever the codec hands back, read it as JSON. */
function jsonValue(v: unknown): unknown {
  return typeof v === 'string' ? JSON.parse(v) : v;
}

describe('migrations and loading', () => {
  it('applies every migration and leaves nothing pending', async () => {
    expect(await t.migrate()).toEqual([]);
    for (const table of [...CATALOGUE_TABLES, 'review_aggregates', 'catalogue_meta'] as const) {
      await db().selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    }
  });

  it('starts empty and loads about 30 educators and 300 courses', async () => {
    expect(emptyBefore).toBe(true);
    expect(await isCatalogueEmpty(db())).toBe(false);
    const { n: educators } = await db().selectFrom('educators').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    const { n: courses } = await db().selectFrom('courses').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    expect(Number(educators)).toBe(30);
    expect(Number(courses)).toBeGreaterThanOrEqual(240);
    expect(Number(courses)).toBeLessThanOrEqual(360);
  });

  it('reports counts that match the database', async () => {
    for (const table of [...CATALOGUE_TABLES, 'review_aggregates'] as const) {
      const { n } = await db().selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
      expect(Number(n), table).toBe(loaded.counts[table]);
    }
  });

  it('records how the catalogue was made in catalogue_meta', async () => {
    const rows = await db().selectFrom('catalogue_meta').selectAll().execute();
    const meta = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    expect(meta.seed).toBe('1');
    expect(meta.educators).toBe('30');
    expect(meta.now).toBe(String(NOW));
    expect(Number(meta.generated_at)).toBeGreaterThan(NOW);
  });

  it('splits inserts by column count under the parameter limit', async () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => ({ key: `chunk_test_${i}`, value: String(i) }));
    const statements = await insertRows(db(), 'catalogue_meta', rows);
    const limit = t.dialect === 'postgres' ? MAX_PARAMETERS.postgres : MAX_PARAMETERS.sqlite;
    expect(statements).toBe(Math.ceil(rows.length / Math.floor(limit / 2)));
    const { n } = await db().selectFrom('catalogue_meta').select(sql<number>`count(*)`.as('n')).where('key', 'like', 'chunk_test_%').executeTakeFirstOrThrow();
    expect(Number(n)).toBe(40_000);
    await db().deleteFrom('catalogue_meta').where('key', 'like', 'chunk_test_%').execute();
  });
});

describe('determinism', () => {
  it('gives deep-equal catalogues for the same seed and anchor', () => {
    expect(generateCatalogue({ seed: 1, educators: 30, now: NOW })).toEqual(generateCatalogue({ seed: 1, educators: 30, now: NOW }));
  });

  it('differs for another seed, but keeps the showcase slugs', () => {
    const a = generateCatalogue({ seed: 1, educators: 30, now: NOW });
    const b = generateCatalogue({ seed: 2, educators: 30, now: NOW });
    expect(b).not.toEqual(a);
    expect(b.educators.slice(0, SHOWCASE.length).map((e) => e.slug)).toEqual(a.educators.slice(0, SHOWCASE.length).map((e) => e.slug));
    expect(b.educators.slice(SHOWCASE.length).map((e) => e.slug)).not.toEqual(a.educators.slice(SHOWCASE.length).map((e) => e.slug));
  });

  it('streams the same educators whatever the total', () => {
    const small = [...generateEducatorBatches({ seed: 7, educators: 20, now: NOW })];
    const large = generateEducatorBatches({ seed: 7, educators: 10_000, now: NOW });
    for (const batch of small) expect(large.next().value).toEqual(batch);
  });

  it('moves every date with the anchor', () => {
    const a = generateCatalogue({ seed: 1, educators: 12, now: NOW });
    const b = generateCatalogue({ seed: 1, educators: 12, now: NOW + 7 * DAY });
    expect(b.reviews.map((r) => r.created_at - NOW - 7 * DAY)).toEqual(a.reviews.map((r) => r.created_at - NOW));
    expect(b.courses.map((c) => c.slug)).toEqual(a.courses.map((c) => c.slug));
  });
});

describe('ids, slugs and content', () => {
  const cat = generateCatalogue({ seed: 1, educators: 30, now: NOW });

  it('has unique ids in every table', () => {
    const keyOf: Record<string, (r: Record<string, unknown>) => string> = {
      form_fields: (r) => `${r.form_id}/${r.id}`,
      form_validations: (r) => `${r.form_id}/${r.field_ref}/${r.condition}`,
      collection_courses: (r) => `${r.collection_id}/${r.course_id}`,
      payment_option_methods: (r) => `${r.payment_options_id}/${r.method}`,
      gift_voucher_settings: (r) => String(r.educator_id),
    };
    for (const table of CATALOGUE_TABLES) {
      const rows = cat[table] as unknown as Record<string, unknown>[];
      const keys = rows.map(keyOf[table] ?? ((r) => String(r.id)));
      expect(new Set(keys).size, table).toBe(keys.length);
    }
  });

  it('uses prefixed ids', () => {
    expect(cat.educators[0].id).toBe('edu_0001');
    expect(cat.courses.every((c) => /^crs_\d{4}_\d{2}$/.test(c.id))).toBe(true);
    expect(cat.occurrences.every((o) => /^occ_\d{4}_\d{2}_\d{2}$/.test(o.id))).toBe(true);
    expect(cat.offers.every((o) => /^off_\d{4}_\d{2}_\d{2}$/.test(o.id))).toBe(true);
  });

  it('has unique URL-safe slugs: educators globally, courses per educator', () => {
    const slug = /^[a-z0-9]+(-[a-z0-9]+)*$/;
    expect(new Set(cat.educators.map((e) => e.slug)).size).toBe(cat.educators.length);
    expect(cat.educators.every((e) => slug.test(e.slug))).toBe(true);
    expect(cat.courses.every((c) => slug.test(c.slug))).toBe(true);
    const perEducator = cat.courses.map((c) => `${c.educator_id}/${c.slug}`);
    expect(new Set(perEducator).size).toBe(perEducator.length);
    expect(new Set(cat.categories.map((c) => c.slug)).size).toBe(cat.categories.length);
  });

  it('only references local images that are listed in IMAGE_PATHS', () => {
    const known = new Set(IMAGE_PATHS);
    const used = [
      ...cat.educators.flatMap((e) => [e.cover_url, e.logo_url]),
      ...cat.courses.flatMap((c) => [...c.img_urls, c.autoimg?.url]),
      ...cat.collections.map((c) => c.image_url),
    ].filter((u): u is string => typeof u === 'string');
    expect(used.length).toBeGreaterThan(100);
    for (const url of used) expect(known.has(url), url).toBe(true);
    expect(IMAGE_PATHS.every((p) => p.startsWith('/images/'))).toBe(true);
  });

  it('writes HTML with simple tags only', () => {
    const html = [
      ...cat.educators.flatMap((e) => [e.bio, e.tos ?? '']),
      ...cat.courses.map((c) => c.description),
      ...cat.faqs.map((f) => f.answer),
    ];
    const tags = new Set(html.flatMap((h) => [...h.matchAll(/<\/?([a-z0-9]+)/gi)].map((m) => m[1].toLowerCase())));
    expect([...tags].sort()).toEqual(['a', 'em', 'li', 'p', 'strong', 'ul']);
  });

  it('looks British: phone numbers, postcodes and address objects', () => {
    for (const e of cat.educators) {
      if (e.phone_number) expect(e.phone_number).toMatch(/^0\d{2,4} \d{3,4} ?\d{3,4}$/);
      expect(e.address).toMatchObject({ line1: expect.any(String), city: expect.any(String) });
      expect(e.address?.postcode).toMatch(/^[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}$/);
    }
    expect(cat.educators[0].phone_number).toBe('020 7946 0123');
  });

  it('puts most dates in the next six months and some in the past', () => {
    const starts = cat.occurrences.map((o) => o.start_datetime - NOW);
    const future = starts.filter((s) => s > 0);
    expect(future.length / starts.length).toBeGreaterThan(0.7);
    expect(starts.some((s) => s < 0)).toBe(true);
    expect(Math.max(...starts)).toBeLessThan(200 * DAY);
  });
});

describe('variants in the loaded catalogue', () => {
  it('has every course type and delivery mode', async () => {
    const courses = await allCourses();
    expect(new Set(courses.map((c) => c.type))).toEqual(new Set(['class', 'blended', 'on-demand', 'on-request']));
    expect(new Set(courses.flatMap((c) => c.delivery_modes))).toEqual(new Set(['online', 'in-person', 'hybrid', 'on-demand']));
    const deliveries = await db().selectFrom('occurrences').select('delivery').distinct().execute();
    expect(new Set(deliveries.map((d) => d.delivery))).toEqual(new Set(['online', 'in-person', 'hybrid']));
  });

  it('has every pricing type, including a price range with min == max', async () => {
    const courses = await allCourses();
    expect(new Set(courses.map((c) => c.pricing_type))).toEqual(new Set(['price-offers', 'free', 'price-on-enquiry', 'price-range']));
    const sql = await course('codeforge-academy', 'sql-fundamentals-self-paced');
    expect([sql.pricing_type, sql.minimum_price, sql.maximum_price]).toEqual(['price-range', 9900, 9900]);
    const bootcamp = await course('codeforge-academy', 'full-stack-javascript-bootcamp');
    expect(bootcamp.minimum_price!).toBeLessThan(bootcamp.maximum_price!);
  });

  it('has offers before, inside and after their sale window, and an occurrence whose offers have all ended', async () => {
    const glaze = await course('clay-and-kiln-pottery', 'glaze-lab-colour-and-surface');
    const offers = await db().selectFrom('offers').selectAll().where('course_id', '=', glaze.id).execute();
    const of = (occ: string) => offers.filter((o) => o.occurrence_id === occ);
    const first = of('occ_0001_04_01');
    expect(first.some((o) => o.start_at !== null && o.start_at > NOW)).toBe(true);
    expect(first.some((o) => o.start_at !== null && o.start_at <= NOW && o.end_at !== null && o.end_at > NOW)).toBe(true);
    expect(first.some((o) => o.end_at !== null && o.end_at <= NOW)).toBe(true);
    const ended = of('occ_0001_04_02');
    expect(ended.length).toBeGreaterThan(1);
    expect(ended.every((o) => o.end_at !== null && o.end_at <= NOW)).toBe(true);
    expect(ended.some((o) => o.end_at === NOW)).toBe(true);
    const occ = await db().selectFrom('occurrences').selectAll().where('id', '=', 'occ_0001_04_02').executeTakeFirstOrThrow();
    expect(occ.start_datetime).toBeGreaterThan(NOW);
  });

  it('has sold-out, private, past and child occurrences (bookable and not)', async () => {
    const occ = await db().selectFrom('occurrences').selectAll().execute();
    expect(occ.some((o) => o.available_spaces === 0 && o.start_datetime > NOW)).toBe(true);
    expect(occ.some((o) => o.visibility === 'private')).toBe(true);
    expect(occ.some((o) => o.start_datetime < NOW)).toBe(true);
    const children = occ.filter((o) => o.parent_ref !== null);
    expect(children.some((o) => o.individually_bookable === true)).toBe(true);
    expect(children.some((o) => o.individually_bookable === false)).toBe(true);
    const ids = new Set(occ.map((o) => o.id));
    expect(children.every((o) => ids.has(o.parent_ref!))).toBe(true);
  });

  it('has a course whose occurrences differ in length', async () => {
    const raku = await course('clay-and-kiln-pottery', 'raku-firing-day');
    const occ = await db().selectFrom('occurrences').select(['start_datetime', 'end_datetime']).where('course_id', '=', raku.id).execute();
    expect(new Set(occ.map((o) => o.end_datetime - o.start_datetime)).size).toBeGreaterThan(1);
  });

  it('has a course whose dates mix delivery types and one with more than ten dates', async () => {
    const guitar = await course('harmony-music-academy', 'guitar-for-absolute-beginners');
    expect(guitar.delivery_modes).toEqual(['in-person', 'online']);
    const deliveries = await db().selectFrom('occurrences').select('delivery').distinct().where('course_id', '=', guitar.id).execute();
    expect(deliveries).toHaveLength(2);
    const sunrise = await course('stillwater-yoga', 'community-sunrise-flow');
    const dates = await db().selectFrom('occurrences').select('id').where('course_id', '=', sunrise.id)
      .where('visibility', '=', 'public').where('start_datetime', '>', NOW).execute();
    expect(dates.length).toBeGreaterThan(10);
  });

  it('has the race-test occurrence with exactly 10 spaces left', async () => {
    const occ = await db().selectFrom('occurrences').selectAll().where('id', '=', RACE_OCCURRENCE_ID).executeTakeFirstOrThrow();
    expect(occ).toMatchObject({ spaces: 10, available_spaces: 10, visibility: 'public', parent_ref: null });
    expect(occ.start_datetime).toBeGreaterThan(NOW + 14 * DAY);
    const c = await db().selectFrom('courses').selectAll().where('id', '=', occ.course_id).executeTakeFirstOrThrow();
    expect(c).toMatchObject({ slug: 'beginners-wheel-throwing-taster', published: true, type: 'class', pricing_type: 'price-offers' });
    const offers = await db().selectFrom('offers').selectAll().where('course_id', '=', c.id).execute();
    expect(offers.some((o) => o.occurrence_id === null && (o.price ?? 0) > 0 && o.start_at === null && o.end_at === null && o.spaces === 1)).toBe(true);
  });

  it('sets every feature flag on at least one educator', async () => {
    const educators = await db().selectFrom('educators').selectAll().execute();
    for (const flag of ['hide_marketing_consent', 'hide_terms', 'hide_pricing', 'hide_social_prompts'] as const) {
      expect(educators.some((e) => e.feature_flags[flag] === true), flag).toBe(true);
    }
    expect((await educator('lifeline-first-aid-training')).feature_flags).toMatchObject({ hide_terms: true, hide_marketing_consent: true });
    expect((await educator('stillwater-yoga')).feature_flags.hide_pricing).toBe(true);
    expect((await educator('codeforge-academy')).feature_flags.hide_social_prompts).toBe(true);
  });

  it('has white-labelled, unclaimed and non-contactable educators', async () => {
    const codeforge = await educator('codeforge-academy');
    expect(codeforge).toMatchObject({ whitelabelling_enabled: true, color_brand: '#4F46E5', on_color_brand: '#FFFFFF' });
    expect(await educator('lingua-franca-languages')).toMatchObject({ whitelabelling_enabled: true, on_color_brand: '#1B1B1B' });
    expect(await educator('northern-lights-photography')).toMatchObject({ claimed: false, logo_url: null, cover_url: null });
    expect(await educator('harmony-music-academy')).toMatchObject({ can_be_contacted: false, claimed: true });
  });

  it('has a claimed educator with courses, none of them published', async () => {
    const e = await educator('roadready-driving-theory');
    const courses = await db().selectFrom('courses').selectAll().where('educator_id', '=', e.id).execute();
    expect(courses.length).toBeGreaterThan(0);
    expect(courses.every((c) => c.published === false)).toBe(true);
    expect((await allCourses()).some((c) => c.published === false && c.educator_id !== e.id)).toBe(true);
  });

  it('has reviews from every source, at both levels, with and without responses and breakdowns', async () => {
    const reviews = await db().selectFrom('reviews').selectAll().execute();
    expect(new Set(reviews.map((r) => r.source_key))).toEqual(new Set(['marketplace', 'facebook', 'googlemaps', 'trustpilot']));
    const trustpilot = reviews.find((r) => r.source_key === 'trustpilot')!;
    expect(trustpilot.source_label).toBe('Trustpilot');
    expect(trustpilot.external_url).toMatch(/^https:\/\//);
    expect(reviews.some((r) => r.entity === 'educator' && r.course_id === null)).toBe(true);
    expect(reviews.some((r) => r.entity === 'course' && r.course_id !== null)).toBe(true);
    expect(reviews.some((r) => r.response_message !== null && r.response_created_at !== null)).toBe(true);
    expect(reviews.some((r) => r.response_message === null)).toBe(true);
    const full = reviews.filter((r) => r.breakdown && BREAKDOWN_KEYS.every((k) => typeof r.breakdown![k] === 'number'));
    expect(full.length).toBeGreaterThan(0);
    expect(reviews.some((r) => r.breakdown === null)).toBe(true);
    expect(reviews.some((r) => r.archived_at !== null)).toBe(true);
    expect(reviews.some((r) => r.verified) && reviews.some((r) => !r.verified && r.source_key === 'marketplace')).toBe(true);
  });

  it('has review ages in every relative-age band (spec 9)', async () => {
    const e = await educator('clay-and-kiln-pottery');
    const reviews = await db().selectFrom('reviews').select('created_at').where('educator_id', '=', e.id).where('archived_at', 'is', null).execute();
    const band = (age: number) =>
      age < 86400 ? 'today' : age < 172800 ? 'yesterday' : age < 1209600 ? 'days' : age < 4838400 ? 'weeks'
        : age < 29030400 ? 'months' : age < 43545600 ? 'a year' : 'years';
    const bands = new Set(reviews.map((r) => band(NOW - r.created_at)));
    expect(bands).toEqual(new Set(['today', 'yesterday', 'days', 'weeks', 'months', 'a year', 'years']));
  });

  it('has an educator with more than 20 reviews and one with none', async () => {
    const count = async (slug: string) => {
      const e = await educator(slug);
      const { n } = await db().selectFrom('reviews').select(sql<number>`count(*)`.as('n')).where('educator_id', '=', e.id).where('archived_at', 'is', null).executeTakeFirstOrThrow();
      return Number(n);
    };
    expect(await count('clay-and-kiln-pottery')).toBeGreaterThan(20);
    expect(await count('harmony-music-academy')).toBe(0);
  });

  it('has courses with no image (auto image), one image and many images', async () => {
    const courses = await allCourses();
    const none = courses.filter((c) => c.img_urls.length === 0);
    expect(none.length).toBeGreaterThan(0);
    expect(none.every((c) => c.autoimg && c.autoimg.url.startsWith('/images/') && c.autoimg.author.length > 0)).toBe(true);
    expect(courses.some((c) => c.img_urls.length === 1)).toBe(true);
    expect((await course('clay-and-kiln-pottery', 'beginners-wheel-throwing-taster')).img_urls).toHaveLength(4);
  });

  it('resolves FAQ ids and lesson refs to rows of the same educator', async () => {
    const courses = await allCourses();
    const faqs = new Map((await db().selectFrom('faqs').selectAll().execute()).map((f) => [f.id, f]));
    const lessons = new Map((await db().selectFrom('lessons').selectAll().execute()).map((l) => [l.id, l]));
    expect(courses.some((c) => c.faq_ids.length > 0)).toBe(true);
    for (const c of courses) {
      for (const id of c.faq_ids) expect(faqs.get(id)?.educator_id).toBe(c.educator_id);
      for (const s of c.sections) for (const item of s.contents) expect(lessons.get(item.ref)?.educator_id).toBe(c.educator_id);
    }
  });

  it('has on-demand and blended courses with one section and with several', async () => {
    const withContent = (await allCourses()).filter((c) => (c.type === 'on-demand' || c.type === 'blended') && c.sections.length > 0);
    expect(withContent.some((c) => c.sections.length === 1)).toBe(true);
    expect(withContent.some((c) => c.sections.length > 1)).toBe(true);
    expect((await course('codeforge-academy', 'python-for-data-analysis-self-paced')).sections).toHaveLength(1);
    expect((await course('codeforge-academy', 'cloud-foundations-bootcamp')).sections).toHaveLength(1);
    expect((await course('codeforge-academy', 'full-stack-javascript-bootcamp')).sections.length).toBeGreaterThan(1);
  });

  it('has on-request courses with 0, 1 and many durations, extra costs, calendar based and > 1440 minutes', async () => {
    const onRequest = (await allCourses()).filter((c) => c.type === 'on-request');
    const lengths = new Set(onRequest.map((c) => Math.min(c.duration_pricing.length, 2)));
    expect(lengths).toEqual(new Set([0, 1, 2]));
    expect(onRequest.some((c) => c.duration_pricing.some((d) => (d.extra_cost ?? 0) > 0))).toBe(true);
    const efaw = await course('lifeline-first-aid-training', 'emergency-first-aid-at-work-onsite');
    expect(efaw.date_requests).toBe('calendar_based');
    expect(efaw.duration_pricing).toHaveLength(1);
    expect(efaw.duration_pricing[0].duration).toBeLessThanOrEqual(1440);
    const paediatric = await course('lifeline-first-aid-training', 'paediatric-first-aid-two-days');
    expect(paediatric.duration_pricing[0].duration).toBeGreaterThan(1440);
    expect((await course('lifeline-first-aid-training', 'mental-health-first-aid-bespoke')).duration_pricing).toEqual([]);
  });

  it('has every travel setting and both delivery availability flags', async () => {
    const onRequest = (await allCourses()).filter((c) => c.type === 'on-request');
    const types = new Set(onRequest.filter((c) => c.educator_travel_settings.enabled).map((c) => c.educator_travel_settings.type));
    expect(types.has('Internationally') && types.has('UK Wide')).toBe(true);
    const student = onRequest.filter((c) => c.student_travel_settings.enabled);
    expect(student.some((c) => c.student_travel_settings.locations.length === 1)).toBe(true);
    expect(student.some((c) => c.student_travel_settings.locations.length > 1)).toBe(true);
    expect(onRequest.some((c) => c.educator_travel_settings.enabled && c.student_travel_settings.enabled)).toBe(true);
    expect(onRequest.some((c) => !c.educator_travel_settings.enabled && !c.student_travel_settings.enabled)).toBe(true);
    expect(onRequest.some((c) => c.available_for_online_delivery)).toBe(true);
    expect(onRequest.some((c) => c.available_for_in_person_delivery)).toBe(true);
    const locations = new Set((await db().selectFrom('locations').select('id').execute()).map((l) => l.id));
    expect(student.every((c) => c.student_travel_settings.locations.every((id) => locations.has(id)))).toBe(true);
  });

  it('has guest capture, approval-required and restricted courses', async () => {
    const courses = await allCourses();
    const forms = new Set((await db().selectFrom('forms').select('id').execute()).map((f) => f.id));
    const guests = courses.filter((c) => c.capture_guests);
    expect(guests.length).toBeGreaterThan(0);
    expect(guests.every((c) => c.guest_form_ref !== null && forms.has(c.guest_form_ref))).toBe(true);
    expect(courses.every((c) => forms.has(c.form_ref))).toBe(true);
    expect(courses.some((c) => c.approval_required)).toBe(true);
    expect((await course('lingua-franca-languages', 'business-german-alumni')).restricted).toBe(true);
  });

  it('has a form with every field type, required validations and a marketing-consent field', async () => {
    const fields = await db().selectFrom('form_fields').selectAll().where('form_id', '=', 'frm_0001_booker').execute();
    expect(new Set(fields.map((f) => f.data_type))).toEqual(new Set([
      'url', 'address', 'boolean', 'checkbox', 'date', 'dropdown', 'email', 'first_name', 'last_name', 'number',
      'radio', 'tel', 'text', 'textarea', 'statement',
    ]));
    expect(fields.some((f) => f.id === 'educator_marketing_consent')).toBe(true);
    for (const f of fields.filter((f) => ['radio', 'dropdown', 'checkbox'].includes(f.data_type))) expect(f.items!.length).toBeGreaterThan(1);
    const validations = await db().selectFrom('form_validations').selectAll().where('form_id', '=', 'frm_0001_booker').execute();
    expect(validations.map((v) => v.field_ref)).toEqual(expect.arrayContaining(['system_email', 'phone', 'wheel_experience']));
    expect(validations.every((v) => v.condition === 'required' && jsonValue(v.value_json) === true)).toBe(true);
    expect(fields.filter((f) => !validations.some((v) => v.field_ref === f.id)).length).toBeGreaterThan(0);
  });

  it('has the system default form', async () => {
    const form = await db().selectFrom('forms').selectAll().where('id', '=', 'system_default').executeTakeFirstOrThrow();
    expect(form.educator_id).toBeNull();
    const fields = await db().selectFrom('form_fields').select(['id', 'label']).where('form_id', '=', 'system_default').orderBy('position').execute();
    expect(fields).toEqual([
      { id: 'system_first_name', label: 'First Name' },
      { id: 'system_last_name', label: 'Last Name' },
      { id: 'system_email', label: 'Email' },
    ]);
  });

  it('has enquiry types on some educators and none on others', async () => {
    expect((await educator('clay-and-kiln-pottery')).enquiry_types.length).toBeGreaterThan(1);
    expect((await educator('stillwater-yoga')).enquiry_types).toEqual([]);
  });

  it('has closed days, 24-hour days, ranges and several ranges on one day', async () => {
    const clay = (await educator('clay-and-kiln-pottery')).working_hours;
    expect(clay.monday).toBeNull();
    expect(clay.sunday).toBeUndefined();
    expect(clay.wednesday).toHaveLength(2);
    expect(clay.tuesday).toEqual([{ from: 36000, until: 64800 }]);
    expect((await educator('lifeline-first-aid-training')).working_hours.monday).toEqual([]);
    expect((await educator('stillwater-yoga')).working_hours.monday).toHaveLength(3);
  });

  it('has all social links on one educator and none on another', async () => {
    const links = (await educator('clay-and-kiln-pottery')).links;
    for (const k of ['web', 'facebook', 'instagram', 'twitter', 'pinterest', 'linkedin', 'youtube'] as const) expect(links[k], k).toMatch(/^https:\/\//);
    expect((await educator('stillwater-yoga')).links).toEqual({});
  });

  it('has bios longer than 520 characters and shorter than 280', async () => {
    const bios = (await db().selectFrom('educators').select('bio').execute()).map((e) => htmlToText(e.bio).length);
    expect(bios.some((n) => n > 520)).toBe(true);
    expect(bios.some((n) => n > 280 && n <= 520)).toBe(true);
    expect(bios.some((n) => n > 0 && n < 280)).toBe(true);
    expect(htmlToText((await educator('clay-and-kiln-pottery')).bio).length).toBeGreaterThan(520);
    expect(htmlToText((await educator('stillwater-yoga')).bio).length).toBeLessThan(280);
  });

  it('has published and unpublished collections, with and without an image', async () => {
    const e = await educator('clay-and-kiln-pottery');
    const cols = await db().selectFrom('collections').selectAll().where('educator_id', '=', e.id).execute();
    expect(cols.some((c) => c.published && c.image_url !== null)).toBe(true);
    expect(cols.some((c) => c.published && c.image_url === null)).toBe(true);
    expect(cols.some((c) => !c.published)).toBe(true);
    const links = await db().selectFrom('collection_courses').selectAll().where('collection_id', 'in', cols.map((c) => c.id)).execute();
    expect(links.length).toBeGreaterThan(3);
  });

  it('has vouchers of every kind', async () => {
    const e = await educator('clay-and-kiln-pottery');
    const vouchers = await db().selectFrom('vouchers').selectAll().where('educator_id', '=', e.id).execute();
    const by = (code: string) => vouchers.find((v) => v.code === code)!;
    expect(by('WELCOME10')).toMatchObject({ kind: 'percent', amount: 10, course_id: null, expires_at: null, max_uses: null });
    expect(by('TENOFF')).toMatchObject({ kind: 'fixed', amount: 1000, course_id: null });
    expect(by('TENOFF').expires_at!).toBeGreaterThan(NOW);
    expect(by('SPRING20').expires_at!).toBeLessThan(NOW);
    expect(by('FIRST5').uses).toBe(by('FIRST5').max_uses);
    expect(by('GLAZE15').course_id).toBe((await course('clay-and-kiln-pottery', 'glaze-lab-colour-and-surface')).id);
  });

  it('has every payment options combination', async () => {
    // One row per method: read each set back as {method}_enabled (and the in-person method's label and message).
    const methods = await db().selectFrom('payment_option_methods').selectAll().execute();
    const options = (await db().selectFrom('payment_options').selectAll().execute()).map((o) => ({
      ...o,
      ...Object.fromEntries(methods.filter((m) => m.payment_options_id === o.id).flatMap((m) => [
        [`${m.method}_enabled`, m.enabled],
        ...(m.method === 'manual' ? [['manual_label', m.label], ['manual_message', m.message]] : []),
      ])),
    }));
    const of = async (slug: string) => {
      const e = await educator(slug);
      return options.filter((o) => o.educator_id === e.id);
    };
    expect(await of('saffron-kitchen-cookery-school')).toEqual([]);
    expect((await of('clay-and-kiln-pottery'))[0]).toMatchObject({ card_enabled: true, paypal_enabled: true, klarna_enabled: true, invoice_enabled: false, manual_enabled: false });
    expect((await of('codeforge-academy'))[0]).toMatchObject({ card_enabled: false, paypal_enabled: false, klarna_enabled: false, invoice_enabled: true, manual_enabled: false });
    expect((await of('lifeline-first-aid-training'))[0]).toMatchObject({ manual_enabled: true, manual_label: 'Pay on the day (cash or card)', manual_message: expect.any(String) });
    expect((await of('stillwater-yoga'))[0]).toMatchObject({ manual_enabled: true, manual_label: null });
    const lingua = await of('lingua-franca-languages');
    expect(lingua.find((o) => o.course_id === null)).toMatchObject({ card_enabled: true, paypal_enabled: true, klarna_enabled: true, invoice_enabled: true, manual_enabled: true });
    expect(lingua.find((o) => o.course_id !== null)).toMatchObject({ course_id: (await course('lingua-franca-languages', 'in-company-language-training')).id, card_enabled: false, invoice_enabled: true });
  });

  it('has VAT absorbed, added and disabled, with a custom and the default label', async () => {
    expect((await educator('clay-and-kiln-pottery')).vat_settings).toMatchObject({ enabled: true, is_vat_absorbed: true, tax_label: null });
    expect((await educator('codeforge-academy')).vat_settings).toMatchObject({ enabled: true, is_vat_absorbed: false, tax_label: 'VAT' });
    expect((await educator('lifeline-first-aid-training')).vat_settings).toMatchObject({ enabled: true, is_vat_absorbed: false, tax_label: null });
    expect((await educator('stillwater-yoga')).vat_settings.enabled).toBe(false);
  });

  it('has cancellation of 1 day, several days and none; analytics ids; keywords; levels', async () => {
    expect((await educator('clay-and-kiln-pottery')).cancellation_allowed).toBe(1);
    expect((await educator('codeforge-academy')).cancellation_allowed).toBe(14);
    expect((await educator('stillwater-yoga')).cancellation_allowed).toBeNull();
    expect((await educator('clay-and-kiln-pottery')).third_party_codes).toEqual({ ga4_id: 'G-CLAYKILN01', facebook_pixel_id: '100000000000001' });
    const courses = await allCourses();
    expect(courses.some((c) => c.keyword === 'workshop') && courses.some((c) => c.keyword === 'class')).toBe(true);
    expect(courses.some((c) => c.keyword === null)).toBe(true);
    expect(courses.some((c) => c.level === 'All') && courses.some((c) => c.level === null)).toBe(true);
    expect(courses.some((c) => c.category_id === null)).toBe(true);
  });
});

describe('review aggregates', () => {
  async function manual(filter: { educator_id?: string; course_id?: string }) {
    let q = db().selectFrom('reviews').selectAll().where('archived_at', 'is', null);
    if (filter.educator_id) q = q.where('educator_id', '=', filter.educator_id);
    if (filter.course_id) q = q.where('course_id', '=', filter.course_id);
    const reviews = await q.execute();
    const avg = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
    return {
      count: reviews.length,
      rating: avg(reviews.map((r) => r.rating)),
      ...Object.fromEntries(BREAKDOWN_KEYS.map((k) => [k, avg(reviews.flatMap((r) => (typeof r.breakdown?.[k] === 'number' ? [r.breakdown[k] as number] : [])))])),
    } as Record<string, number | null>;
  }

  async function stored(type: 'educator' | 'course', id: string) {
    return db().selectFrom('review_aggregates').selectAll().where('subject_type', '=', type).where('subject_id', '=', id).executeTakeFirst();
  }

  function expectClose(actual: Record<string, unknown> | undefined, expected: Record<string, number | null>) {
    expect(actual).toBeDefined();
    expect(Number(actual!.count)).toBe(expected.count);
    for (const k of ['rating', ...BREAKDOWN_KEYS]) {
      if (expected[k] === null) expect(actual![k], k).toBeNull();
      else expect(actual![k] as number, k).toBeCloseTo(expected[k]!, 9);
    }
  }

  it('match a manual computation for an educator and a course', async () => {
    const e = await educator('clay-and-kiln-pottery');
    const expected = await manual({ educator_id: e.id });
    expect(expected.count).toBeGreaterThan(20);
    expectClose(await stored('educator', e.id), expected);
    const c = await course('clay-and-kiln-pottery', 'beginners-wheel-throwing-taster');
    const expectedCourse = await manual({ course_id: c.id });
    expect(expectedCourse.count).toBe(8);
    expectClose(await stored('course', c.id), expectedCourse);
  });

  it('leave breakdown averages null when no review rated a part, and omit subjects without reviews', async () => {
    const e = await educator('roadready-driving-theory');
    const row = await stored('educator', e.id);
    expect(row).toMatchObject({ count: 3, material: null, communication: null });
    expect(await stored('educator', (await educator('harmony-music-academy')).id)).toBeUndefined();
    expect(await stored('course', (await course('clay-and-kiln-pottery', 'pottery-date-night')).id)).toBeUndefined();
  });

  it('cover every educator and course with reviews', async () => {
    const educators = await db().selectFrom('reviews').select('educator_id').distinct().where('archived_at', 'is', null).execute();
    const courses = await db().selectFrom('reviews').select('course_id').distinct().where('archived_at', 'is', null).where('course_id', 'is not', null).execute();
    expect(loaded.counts.review_aggregates).toBe(educators.length + courses.length);
  });

  it('rebuild for one educator or one course after a review changes', async () => {
    const e = await educator('clay-and-kiln-pottery');
    const c = await course('clay-and-kiln-pottery', 'beginners-wheel-throwing-taster');
    const review = await db().selectFrom('reviews').selectAll().where('course_id', '=', c.id).where('archived_at', 'is', null).orderBy('id').executeTakeFirstOrThrow();
    const before = Number((await stored('educator', e.id))!.count);
    await db().updateTable('reviews').set({ archived_at: NOW }).where('id', '=', review.id).execute();
    await rebuildReviewAggregates(db(), { courseId: c.id });
    expectClose(await stored('course', c.id), await manual({ course_id: c.id }));
    expect(Number((await stored('educator', e.id))!.count)).toBe(before); // not in scope
    await rebuildReviewAggregates(db(), { educatorId: e.id });
    expectClose(await stored('educator', e.id), await manual({ educator_id: e.id }));
    expect(Number((await stored('educator', e.id))!.count)).toBe(before - 1);
    await db().updateTable('reviews').set({ archived_at: null }).where('id', '=', review.id).execute();
    await db().transaction().execute((trx) => rebuildReviewAggregates(trx, { educatorId: e.id, courseId: c.id }));
    expect(Number((await stored('educator', e.id))!.count)).toBe(before);
    await rebuildReviewAggregates(db());
    const { n } = await db().selectFrom('review_aggregates').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    expect(Number(n)).toBe(loaded.counts.review_aggregates);
  });
});

describe('reset', () => {
  it('empties the catalogue and loads it again identically', async () => {
    const snapshot = await db().selectFrom('occurrences').selectAll().orderBy('id').execute();
    await resetCatalogue(db());
    expect(await isCatalogueEmpty(db())).toBe(true);
    for (const table of [...CATALOGUE_TABLES, 'review_aggregates', 'catalogue_meta'] as const) {
      const { n } = await db().selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
      expect(Number(n), table).toBe(0);
    }
    const again = await loadCatalogue(db(), { seed: 1, educators: 30, now: NOW });
    expect(again.counts).toEqual(loaded.counts);
    expect(await db().selectFrom('occurrences').selectAll().orderBy('id').execute()).toEqual(snapshot);
  });
});
