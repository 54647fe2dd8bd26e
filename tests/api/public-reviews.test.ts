import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { CLAY_REVIEW_COUNT, NOW, TEST_ENV, expectProblem, insertPublicFixtures } from './public-fixtures.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(TEST_ENV);
  server.setNow(NOW);
  await insertPublicFixtures(server.db);
});
afterAll(async () => server.close());

interface Page {
  reviews: Array<Record<string, unknown> & { id: string; createdAt: number }>;
  nextPageToken: string | null;
}

async function page(path: string): Promise<Page> {
  const res = await fetch(`${server.url}/api${path}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return (await res.json()) as Page;
}

async function allPages(path: string, param = 'pageToken'): Promise<Page[]> {
  const pages: Page[] = [];
  let token: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const p: Page = await page(token ? `${path}${sep}${param}=${encodeURIComponent(token)}` : path);
    pages.push(p);
    token = p.nextPageToken;
  } while (token && pages.length < 20);
  return pages;
}

describe('GET /api/reviews/list/{educatorSlug}', () => {
  it('pages through every non-archived review, 10 at a time, newest first, ending with a null token', async () => {
    const pages = await allPages('/reviews/list/clay-studio?context=marketplace');
    expect(pages.map((p) => p.reviews.length)).toEqual([10, 10, 3]);
    expect(pages[2].nextPageToken).toBeNull();
    expect(pages[0].nextPageToken).toEqual(expect.any(String));
    const ids = pages.flatMap((p) => p.reviews.map((r) => r.id));
    // Newest first; rev_14 and rev_13 share a timestamp across the first page boundary and neither is lost.
    expect(ids).toEqual(Array.from({ length: CLAY_REVIEW_COUNT }, (_, i) => `rev_${String(CLAY_REVIEW_COUNT - i).padStart(2, '0')}`));
    expect(ids).not.toContain('rev_archived');
    const times = pages.flatMap((p) => p.reviews.map((r) => r.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('answers each review in the spec shape', async () => {
    const first = await page('/reviews/list/clay-studio?context=marketplace');
    expect(first.reviews[0]).toEqual({
      id: 'rev_23',
      createdAt: NOW,
      rating: 4,
      verified: false,
      sourceKey: 'marketplace',
      sourceLabel: 'Marketplace',
      externalUrl: null,
      entity: 'educator',
      course: null,
      reviewer: { id: 'stu_23', name: 'Reviewer 23' },
      publicMessage: 'Message 23',
      educatorResponse: { message: 'Thank you!', createdAt: NOW - 3600 },
    });
    const second = first.reviews.find((r) => r.id === 'rev_22');
    expect(second).toMatchObject({
      entity: 'course',
      course: { name: 'Pottery Wheel Basics', slug: 'pottery-wheel-basics', published: true },
      educatorResponse: null,
    });
    const all = (await allPages('/reviews/list/clay-studio')).flatMap((p) => p.reviews);
    expect(all.find((r) => r.id === 'rev_03')).toMatchObject({ course: { name: 'Raku Pottery Weekend', slug: 'raku-weekend', published: false } });
    expect(all.find((r) => r.id === 'rev_09')).toMatchObject({ sourceKey: 'googlemaps', sourceLabel: 'Google Maps', externalUrl: 'https://maps.example/review/9' });
    expect(all.find((r) => r.id === 'rev_07')).toMatchObject({ rating: 5 }); // stored 9, clamped to the scale
    expect(all.find((r) => r.id === 'rev_01')).toMatchObject({ reviewer: { id: null, name: 'Reviewer 01' } });
  });

  it('treats embed as minisite, and lists the same reviews in every context', async () => {
    const marketplace = await allPages('/reviews/list/clay-studio?context=marketplace');
    const minisite = await allPages('/reviews/list/clay-studio?context=minisite');
    const embed = await allPages('/reviews/list/clay-studio?context=embed');
    const none = await allPages('/reviews/list/clay-studio');
    expect(embed).toEqual(minisite);
    expect(minisite).toEqual(marketplace);
    expect(none).toEqual(marketplace);
  });

  it('accepts page_token as well as pageToken', async () => {
    const viaSnake = await allPages('/reviews/list/clay-studio?context=minisite', 'page_token');
    expect(viaSnake.map((p) => p.reviews.length)).toEqual([10, 10, 3]);
  });

  it('answers an educator without reviews with an empty list', async () => {
    expect(await page('/reviews/list/fresh-start?context=marketplace')).toEqual({ reviews: [], nextPageToken: null });
  });

  it('lists an unclaimed educator that has a published course', async () => {
    const p = await page('/reviews/list/listed-unclaimed');
    expect(p.reviews.map((r) => r.id)).toEqual(['rev_listed']);
  });

  it('answers an unknown educator with 404', async () => {
    await expectProblem(await fetch(`${server.url}/api/reviews/list/no-such-educator?context=marketplace`), {
      status: 404, type: 'generic/not-found', title: '404 - Not found', detail: 'No educator has this address.',
    });
  });

  it('answers 423 for an unclaimed educator with nothing published', async () => {
    await expectProblem(await fetch(`${server.url}/api/reviews/list/ghost-listing?context=marketplace`), {
      status: 423, type: 'reviews/locked', title: 'Reviews Not Available', detail: 'This educator’s reviews are not public.',
    });
    await expectProblem(await fetch(`${server.url}/api/reviews/list/ghost-listing?context=embed`), {
      status: 423, type: 'reviews/locked', title: 'Reviews Not Available',
    });
  });

  it('refuses a page token it did not issue', async () => {
    for (const token of ['not-a-token!', 'bm9wZQ', Buffer.from('["x","y"]').toString('base64url'), Buffer.from('[1]').toString('base64url')]) {
      const body = await expectProblem(await fetch(`${server.url}/api/reviews/list/clay-studio?pageToken=${encodeURIComponent(token)}`), {
        status: 400, type: 'generic/validation-error', title: 'Validation Error', detail: 'Page token is not valid',
      });
      expect(body.properties).toEqual([{ key: 'pageToken', name: 'Page token', message: 'is not valid' }]);
    }
  });

  it('refuses an unknown context', async () => {
    const body = await expectProblem(await fetch(`${server.url}/api/reviews/list/clay-studio?context=admin`), {
      status: 400, type: 'generic/validation-error', title: 'Validation Error',
    });
    expect((body.properties as Array<{ key: string }>)[0].key).toBe('context');
  });
});

describe('GET /api/reviews/{educatorSlug}/{courseSlug}/list', () => {
  it("pages through one course's reviews to the end", async () => {
    const pages = await allPages('/reviews/clay-studio/pottery-wheel-basics/list');
    expect(pages.map((p) => p.reviews.length)).toEqual([10, 1]);
    expect(pages[1].nextPageToken).toBeNull();
    const ids = pages.flatMap((p) => p.reviews.map((r) => r.id));
    expect(ids).toEqual(['rev_22', 'rev_20', 'rev_18', 'rev_16', 'rev_14', 'rev_12', 'rev_10', 'rev_08', 'rev_06', 'rev_04', 'rev_02']);
    for (const r of pages.flatMap((p) => p.reviews)) expect(r.course).toEqual({ name: 'Pottery Wheel Basics', slug: 'pottery-wheel-basics', published: true });
  });

  it('answers a course without reviews with an empty list', async () => {
    expect(await page('/reviews/clay-studio/glaze-chemistry/list')).toEqual({ reviews: [], nextPageToken: null });
  });

  it('answers an unknown course, a course of another educator and an unpublished course with 404', async () => {
    for (const path of ['clay-studio/no-such-course', 'code-academy/pottery-wheel-basics', 'no-such-educator/pottery-wheel-basics', 'clay-studio/raku-weekend']) {
      await expectProblem(await fetch(`${server.url}/api/reviews/${path}/list`), {
        status: 404, type: 'generic/not-found', title: '404 - Not found', detail: 'No course has this address.',
      });
    }
  });

  it('refuses a bad page token', async () => {
    await expectProblem(await fetch(`${server.url}/api/reviews/clay-studio/pottery-wheel-basics/list?pageToken=%%%`), {
      status: 400, type: 'generic/validation-error', title: 'Validation Error', detail: 'Page token is not valid',
    });
  });
});
