/**
 * The public API over the demo catalogue (db/seed/load.ts): every educator's review listing,
 * search over a few hundred courses, listed occurrences, enquiries to the showcase educators.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { loadCatalogue } from '../../db/seed/load.ts';
import { SEARCH_COUNT_STEP } from '../../db/queries/search.ts';
import { listedOccurrences } from '../../src/domain/pricing.ts';
import type { Occurrence as DomainOccurrence } from '../../src/domain/entities.ts';
import { TEST_ENV, expectProblem, postJson, solvedCaptcha } from './public-fixtures.ts';

/** 2025-06-16T00:00:00Z, a UTC day start like the CLI's anchor. */
const ANCHOR = 1_750_032_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(TEST_ENV);
  server.setNow(ANCHOR);
  await loadCatalogue(server.db, { seed: 1, educators: 30, now: ANCHOR });
}, 120_000);
afterAll(async () => server.close());

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${server.url}/api${path}`);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

interface ReviewsPage { reviews: Array<{ id: string; createdAt: number }>; nextPageToken: string | null }
async function allReviews(path: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let token: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page: ReviewsPage = await getJson<ReviewsPage>(token ? `${path}${sep}pageToken=${encodeURIComponent(token)}` : path);
    expect(page.reviews.length).toBeLessThanOrEqual(10);
    if (page.nextPageToken) expect(page.reviews).toHaveLength(10);
    ids.push(...page.reviews.map((r) => r.id));
    token = page.nextPageToken;
    pages++;
  } while (token && pages < 100);
  return { ids, pages };
}

describe('reviews over the demo catalogue', () => {
  it("lists every educator's non-archived reviews to the end, newest first (or 423 when not public)", async () => {
    const educators = await server.db.selectFrom('educators').select(['id', 'slug', 'claimed']).execute();
    expect(educators.length).toBe(30);
    let paged = 0;
    for (const e of educators) {
      const published = await server.db.selectFrom('courses').select('id').where('educator_id', '=', e.id).where('published', '=', true).execute();
      if (!e.claimed && published.length === 0) {
        await expectProblem(await fetch(`${server.url}/api/reviews/list/${e.slug}?context=marketplace`), { status: 423, type: 'reviews/locked', title: 'Reviews Not Available' });
        continue;
      }
      const expected = await server.db
        .selectFrom('reviews').select('id').where('educator_id', '=', e.id).where('archived_at', 'is', null)
        .orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
      const { ids, pages } = await allReviews(`/reviews/list/${e.slug}?context=marketplace`);
      expect(ids, e.slug).toEqual(expected.map((r) => r.id));
      expect(pages).toBe(Math.max(1, Math.ceil(expected.length / 10)));
      if (pages > 1) paged++;
    }
    expect(paged).toBeGreaterThan(0);
  });

  it('pages the flagship educator (more than 20 reviews) identically in every context', async () => {
    const marketplace = await allReviews('/reviews/list/clay-and-kiln-pottery?context=marketplace');
    expect(marketplace.ids.length).toBeGreaterThan(20);
    expect(marketplace.pages).toBeGreaterThanOrEqual(3);
    expect(await allReviews('/reviews/list/clay-and-kiln-pottery?context=embed')).toEqual(await allReviews('/reviews/list/clay-and-kiln-pottery?context=minisite'));
  });

  it("lists each of the flagship's published courses' reviews to the end", async () => {
    const courses = await server.db.selectFrom('courses').select(['id', 'slug']).where('educator_id', '=', 'edu_0001').where('published', '=', true).execute();
    for (const c of courses) {
      const expected = await server.db.selectFrom('reviews').select('id').where('course_id', '=', c.id).where('archived_at', 'is', null)
        .orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
      expect((await allReviews(`/reviews/clay-and-kiln-pottery/${c.slug}/list`)).ids, c.slug).toEqual(expected.map((r) => r.id));
    }
  });
});

interface SearchResult { results: Array<{ _id: string; name: string; delivery: string[]; pricing_option: { minimumPrice: number | null; maximumPrice: number | null } }>; total: number; total_capped?: boolean }

/** The total search answers for a page (db/queries/search.ts): exact up to the next multiple of 100 past the page. */
function expectedTotal(matches: number, page: number, size: number): { total: number; total_capped?: boolean } {
  const countTo = Math.ceil((page * size + 1) / SEARCH_COUNT_STEP) * SEARCH_COUNT_STEP;
  return matches > countTo ? { total: countTo, total_capped: true } : { total: matches };
}

/** Every result of a search, page by page, checking each page's total. */
async function allResults(qs: string, matches: number): Promise<SearchResult['results']> {
  const out: SearchResult['results'] = [];
  for (let page = 1; page < 50; page++) {
    const r = await getJson<SearchResult>(`/courses/search?${qs}&size=50&page=${page}`);
    const { total, total_capped } = expectedTotal(matches, page, 50);
    expect(r.total, `${qs} page ${page}`).toBe(total);
    expect(r.total_capped, `${qs} page ${page}`).toBe(total_capped);
    if (r.results.length === 0) break;
    out.push(...r.results);
  }
  return out;
}

describe('search over the demo catalogue', () => {
  it('pages through every published course exactly once', async () => {
    const published = await server.db.selectFrom('courses').select('id').where('published', '=', true).execute();
    const seen = (await allResults('sort=relevance', published.length)).map((c) => c._id);
    expect(seen.length).toBe(published.length);
    expect(new Set(seen)).toEqual(new Set(published.map((c) => c.id)));
  });

  it("puts the course whose name is the query first, for each showcase educator's courses", async () => {
    const courses = await server.db.selectFrom('courses').select(['id', 'name']).where('published', '=', true)
      .where('educator_id', 'in', ['edu_0001', 'edu_0002', 'edu_0003', 'edu_0004', 'edu_0005', 'edu_0006']).execute();
    expect(courses.length).toBeGreaterThan(10);
    for (const c of courses) {
      const r = await getJson<SearchResult>(`/courses/search?query=${encodeURIComponent(c.name)}`);
      expect(r.results[0]?.name, c.name).toBe(c.name);
      expect(r.results.some((x) => x._id === c.id), c.name).toBe(true);
    }
  });

  it('filters by educator, category and delivery as the catalogue says', async () => {
    const rows = await server.db.selectFrom('courses as c').leftJoin('categories as cat', 'cat.id', 'c.category_id')
      .select(['c.id', 'c.educator_id', 'cat.slug as category_slug', 'c.delivery_modes']).where('c.published', '=', true).execute();
    for (const educator of ['edu_0001', 'edu_0007', 'edu_0020']) {
      const r = await getJson<SearchResult>(`/courses/search?educator_ref=${educator}&size=50`);
      expect(new Set(r.results.map((c) => c._id))).toEqual(new Set(rows.filter((x) => x.educator_id === educator).map((x) => x.id)));
    }
    for (const slug of ['pottery-ceramics', 'coding-tech', 'languages']) {
      const expected = rows.filter((x) => x.category_slug === slug).map((x) => x.id);
      expect(new Set((await allResults(`category_slug=${slug}`, expected.length)).map((c) => c._id)), slug).toEqual(new Set(expected));
    }
    for (const mode of ['online', 'in-person', 'hybrid', 'on-demand']) {
      const expected = rows.filter((x) => (x.delivery_modes as string[]).includes(mode)).map((x) => x.id);
      const found = await allResults(`delivery=${mode}`, expected.length);
      expect(new Set(found.map((c) => c._id)), mode).toEqual(new Set(expected));
      for (const c of found) expect(c.delivery).toContain(mode);
    }
  });

  it('filters and sorts by price', async () => {
    const r = await getJson<SearchResult>('/courses/search?price_min=2000&price_max=6000&size=50&sort=price_asc');
    expect(r.total).toBeGreaterThan(0);
    let last = -1;
    for (const c of r.results) {
      const { minimumPrice: min, maximumPrice: max } = c.pricing_option;
      expect(min).not.toBeNull();
      expect(max! >= 2000 && min! <= 6000).toBe(true);
      expect(min!).toBeGreaterThanOrEqual(last);
      last = min!;
    }
  });
});

describe('occurrences over the demo catalogue', () => {
  it('lists, for every published course of two showcase educators, exactly the occurrences the domain rule lists', async () => {
    const courses = await server.db.selectFrom('courses').select(['id', 'educator_id']).where('published', '=', true)
      .where('educator_id', 'in', ['edu_0001', 'edu_0002']).execute();
    let listedTotal = 0;
    for (const c of courses) {
      const [occs, offers] = await Promise.all([
        server.db.selectFrom('occurrences').selectAll().where('course_id', '=', c.id).execute(),
        server.db.selectFrom('offers').select(['id', 'occurrence_id', 'end_at']).where('course_id', '=', c.id).execute(),
      ]);
      const courseWide = offers.filter((o) => o.occurrence_id === null).map((o) => ({ _id: o.id, end_at: o.end_at }));
      const domain: DomainOccurrence[] = occs.map((o) => ({
        _id: o.id, visibility: o.visibility, parent_ref: o.parent_ref, individually_bookable: o.individually_bookable, start_datetime: o.start_datetime,
        offers: offers.filter((x) => x.occurrence_id === o.id).map((x) => ({ _id: x.id, end_at: x.end_at })),
      }));
      const expected = listedOccurrences(domain, ANCHOR, courseWide)
        .sort((a, b) => Number((a.start_datetime ?? 0) < ANCHOR) - Number((b.start_datetime ?? 0) < ANCHOR) || (a.start_datetime ?? 0) - (b.start_datetime ?? 0) || (a._id < b._id ? -1 : 1))
        .map((o) => o._id);
      const body = await getJson<{ occurrences: Array<{ _id: string; offers: unknown[] }> }>(`/get-course-data-ids/${c.educator_id}/${c.id}`);
      expect(body.occurrences.map((o) => o._id), c.id).toEqual(expected);
      listedTotal += expected.length;
    }
    expect(listedTotal).toBeGreaterThan(10);
  });
});

describe('enquiries and locations over the demo catalogue', () => {
  const base = (educator_slug: string, type: 'message' | 'waitlist', enquiry_type: string | null) => ({
    contact_details: { first_name: 'Sam', last_name: 'Jones', email: 'sam@example.org', phone: '0044 7700 900999' },
    details: { message: 'Hello', embedded: false, course_slug: null, course_name: null, enquiry_type, occurrence_ref: null },
    type,
    educator_slug,
  });

  it('takes an enquiry with one of the flagship’s enquiry types', async () => {
    const res = await postJson(`${server.url}/api/enquiries`, { ...base('clay-and-kiln-pottery', 'message', 'Private party'), captchaToken: await solvedCaptcha(server.url) });
    expect(res.status).toBe(201);
    await expectProblem(await postJson(`${server.url}/api/enquiries`, { ...base('clay-and-kiln-pottery', 'message', null), captchaToken: 'x' }), {
      status: 400, type: 'generic/validation-error', title: 'Validation Error', detail: 'Enquiry Type is required',
    });
  });

  it('refuses a message to Harmony Music Academy (cannot be contacted) but takes its waitlist', async () => {
    await expectProblem(await postJson(`${server.url}/api/enquiries`, { ...base('harmony-music-academy', 'message', null), captchaToken: 'x' }), {
      status: 403, type: 'enquiries/contact-disabled', title: 'Messages Not Accepted', detail: 'Harmony Music Academy is not accepting messages.',
    });
    const res = await postJson(`${server.url}/api/enquiries`, { ...base('harmony-music-academy', 'waitlist', null), captchaToken: await solvedCaptcha(server.url) });
    expect(res.status).toBe(201);
    const row = await server.db.selectFrom('enquiries').select(['phone', 'educator_id']).where('id', '=', (await res.json()).id).executeTakeFirstOrThrow();
    expect(row).toEqual({ phone: '+447700900999', educator_id: 'edu_0008' });
  });

  it("answers the flagship's locations by id", async () => {
    const locations = await server.db.selectFrom('locations').select(['id', 'city']).where('educator_id', '=', 'edu_0001').execute();
    expect(locations.length).toBeGreaterThan(0);
    const res = await postJson(`${server.url}/api/locations/by-ids`, { locationIds: locations.map((l) => l.id) });
    expect((await res.json()).map((l: { id: string; city: string }) => [l.id, l.city])).toEqual(locations.map((l) => [l.id, l.city]));
  });
});
