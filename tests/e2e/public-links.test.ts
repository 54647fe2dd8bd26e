/**
 * Links, search-engine tags and crawler files of the public pages:
 * - every link of the spec's navigation tables (2.1 educator navigation, 2.2 course page links,
 *   2.3 add-review links) for the showcase educator is the spec's URL in each context and leads to
 *   a real page (HTTP 200); gift vouchers are hidden (no link, no page);
 * - embed pages are `noindex` without a canonical URL; marketplace and minisite pages have a canonical URL;
 *   only marketplace course pages carry Course structured data (country GB);
 * - sitemap.xml and robots.txt answer on the marketplace and on a minisite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { baseUrl, closeBrowser, minisiteUrl, newPage, productDb, url } from './harness.ts';
import type { Db } from '../../db/client.ts';
import { CLAY, CONTEXTS, type Context, absolute, httpGet, hydrated, pageUrl } from './helpers/public.ts';

let db: Db;
let courseSlugs: string[];
let collectionIds: string[];
let draftCollectionIds: string[];

beforeAll(async () => {
  db = productDb();
  const [courses, collections] = await Promise.all([
    db.selectFrom('courses').select('slug').where('educator_id', '=', CLAY.id).where('published', '=', true).execute(),
    db.selectFrom('collections').select(['id', 'published']).where('educator_id', '=', CLAY.id).execute(),
  ]);
  courseSlugs = courses.map((c) => c.slug).sort();
  collectionIds = collections.filter((c) => Boolean(c.published)).map((c) => c.id).sort();
  draftCollectionIds = collections.filter((c) => !c.published).map((c) => c.id);
  expect(draftCollectionIds.length).toBeGreaterThan(0);
});

afterAll(async () => {
  await db.destroy();
  await closeBrowser();
});

/** Spec 2.1 as built (docs/routes.md): the educator's tabs per context, in order. */
const TABS: Record<Context, [string, string][]> = {
  marketplace: [['about', `/${CLAY.slug}`], ['courses', `/${CLAY.slug}/courses`], ['reviews', `/${CLAY.slug}/reviews`], ['memberships', `/${CLAY.slug}/memberships`], ['enquiry', `/${CLAY.slug}/enquiry`]],
  // Gift vouchers (the spec's vouchers link) on the minisite and in the embed: every showcase educator sells them.
  minisite: [['courses', '/'], ['about', '/about'], ['reviews', '/reviews'], ['memberships', '/memberships'], ['vouchers', '/gift-checkout'], ['enquiry', '/enquiry']],
  // The spec's /embed/enquiry carries the educator in ?educator= (one static shell for every educator).
  embed: [['courses', `/embed/${CLAY.slug}`], ['reviews', `/embed/${CLAY.slug}/reviews`], ['memberships', `/embed/${CLAY.slug}/memberships`], ['vouchers', `/embed/${CLAY.slug}/gift-checkout`], ['enquiry', `/embed/enquiry?educator=${CLAY.slug}`]],
};
const COURSES_PATH: Record<Context, string> = { marketplace: `/${CLAY.slug}/courses`, minisite: '/', embed: `/embed/${CLAY.slug}` };
const REVIEWS_PATH: Record<Context, string> = { marketplace: `/${CLAY.slug}/reviews`, minisite: '/reviews', embed: `/embed/${CLAY.slug}/reviews` };
const coursePath = (context: Context, courseSlug: string) =>
  context === 'marketplace' ? `/${CLAY.slug}/${courseSlug}` : context === 'minisite' ? `/${courseSlug}` : `/embed/${CLAY.slug}/${courseSlug}`;
/** Spec 2.1 vouchers: the gift checkout where the table has the link (none on the marketplace). */
const GIFT_PAGES: Record<Context, string[]> = {
  marketplace: [],
  minisite: ['/gift-checkout'],
  embed: [`/embed/${CLAY.slug}/gift-checkout`],
};

async function hrefs(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
}

async function expectAllOk(links: string[], base: string): Promise<void> {
  const unique = [...new Set(links.map((href) => absolute(href, base)))];
  const statuses = await Promise.all(unique.map(async (target) => [target, (await httpGet(target)).status] as const));
  expect(statuses.filter(([, status]) => status !== 200)).toEqual([]);
}

/** Every link on the page to gift vouchers leads to the real gift checkout (the educator sells them). */
async function expectGiftLinksWork(page: Page): Promise<void> {
  const links = await page.locator('a[href*="gift-checkout"]').evaluateAll((as) =>
    as.map((a) => a.getAttribute('href') ?? ''));
  await expectAllOk(links, page.url());
}

describe('navigation links (spec 2.1–2.3) for the showcase educator', () => {
  for (const context of CONTEXTS) {
    it(`are the spec's links and lead to real pages in the ${context}`, async () => {
      const { page, context: browserContext } = await newPage();
      try {
        // 2.1: the tabs on the courses page; collections are the courses link plus ?list=.
        const coursesUrl = pageUrl(context, CLAY.slug, COURSES_PATH[context]);
        expect((await page.goto(coursesUrl))?.status()).toBe(200);
        const tabs = await page.locator('nav.tabs a').evaluateAll((links) => links.map((a) => [a.getAttribute('data-tab'), a.getAttribute('href')]));
        expect(tabs).toEqual(TABS[context]);
        if (context === 'marketplace') expect(await hrefs(page, '.profile-head__actions a')).toEqual([`/${CLAY.slug}/enquiry`]); // "Contact"
        const collections = await hrefs(page, 'a[data-collection-link]');
        expect(collections.sort()).toEqual(collectionIds.map((id) => `${COURSES_PATH[context]}?list=${id}`).sort());
        // 2.2: every card links to its course page.
        const cards = await hrefs(page, 'article.course-card .course-card__title a');
        expect(cards.sort()).toEqual(courseSlugs.map((slug) => coursePath(context, slug)).sort());
        await expectGiftLinksWork(page);
        await expectAllOk([...tabs.map(([, href]) => href as string), ...collections, ...cards], coursesUrl);

        // A collection narrows the list in the browser.
        await page.goto(absolute(collections[0]!, coursesUrl));
        const visible = page.locator('li[data-course-item]:visible');
        await expect.poll(() => visible.count()).toBeLessThan(courseSlugs.length);
        const members = await db.selectFrom('collection_courses').select('course_id').where('collection_id', '=', new URL(absolute(collections[0]!, coursesUrl)).searchParams.get('list')!).execute();
        expect(await visible.count()).toBe(members.length);

        // 2.2 with a date, 2.3 course add-review, on the course page.
        const courseUrl = pageUrl(context, CLAY.slug, coursePath(context, CLAY.taster.slug));
        expect((await page.goto(courseUrl))?.status()).toBe(200);
        await hydrated(page.locator('#dates ul.dates'));
        const dates = await hrefs(page, '#dates ul.dates a[aria-label^="Select "]');
        expect(dates.length).toBeGreaterThan(0);
        for (const href of dates) expect(href).toMatch(new RegExp(`^${coursePath(context, CLAY.taster.slug)}\\?occurrence=occ_[0-9_]+$`));
        // A sold-out date offers its waitlist instead.
        const waitlists = await hrefs(page, '#dates ul.dates a[aria-label^="Join Waitlist for "]');
        expect(waitlists.length).toBeGreaterThan(0);
        for (const href of waitlists) expect(href).toMatch(/\/waitlist\?.*occurrence=occ_[0-9_]+$/);
        const addReview = page.getByRole('link', { name: '+ Add Review' });
        const courseReviewHref = context === 'marketplace' ? `/${CLAY.slug}/${CLAY.taster.slug}/add-review`
          : context === 'minisite' ? `/${CLAY.taster.slug}/add-review` : minisiteUrl(CLAY.slug, `/${CLAY.taster.slug}/add-review`);
        expect(await addReview.getAttribute('href')).toBe(courseReviewHref);
        expect((await addReview.getAttribute('rel'))?.split(' ')).toContain('nofollow');
        expect(await addReview.getAttribute('target')).toBe(context === 'embed' ? '_blank' : null);
        const educatorCard = await hrefs(page, '.course-educator a');
        expect(educatorCard).toEqual([COURSES_PATH[context]]);
        if (context === 'minisite') expect(await hrefs(page, 'header.site-header nav a.site-header__link')).toEqual(['/', '/about', '/reviews', '/memberships', '/gift-checkout', '/enquiry']);
        await expectGiftLinksWork(page);
        await expectAllOk([...dates, courseReviewHref, ...educatorCard], courseUrl);

        // 2.3 educator add-review, on the reviews page.
        const reviewsUrl = pageUrl(context, CLAY.slug, REVIEWS_PATH[context]);
        expect((await page.goto(reviewsUrl))?.status()).toBe(200);
        const add = page.getByRole('link', { name: 'Add Review', exact: true });
        const educatorReviewHref = context === 'marketplace' ? `/${CLAY.slug}/reviews/add-review`
          : context === 'minisite' ? '/reviews/add-review' : minisiteUrl(CLAY.slug, '/reviews/add-review');
        expect(await add.getAttribute('href')).toBe(educatorReviewHref);
        expect((await add.getAttribute('rel'))?.split(' ')).toContain('nofollow');
        await expectGiftLinksWork(page);
        await expectAllOk([educatorReviewHref], reviewsUrl);

        // Gift vouchers: a real page where the table links it.
        for (const path of GIFT_PAGES[context]) expect((await httpGet(pageUrl(context, CLAY.slug, path))).status, path).toBe(200);
      } finally {
        await browserContext.close();
      }
    });
  }
});

function tag(html: string, pattern: RegExp): string[] {
  return [...html.matchAll(pattern)].map((m) => m[0]);
}
const canonicalOf = (html: string) => tag(html, /<link[^>]+rel="canonical"[^>]*>/g).map((t) => /href="([^"]+)"/.exec(t)?.[1]);
const noindex = (html: string) => /<meta name="robots" content="noindex"\s*\/?>/.test(html);
const jsonLd = (html: string) => [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);

describe('search engines', () => {
  it('gives each page one canonical URL (a course: its marketplace copy), and keeps embed pages and forms out of the index', async () => {
    const course = CLAY.taster.slug;
    const indexed: [string, string][] = [
      ...[`/${CLAY.slug}`, `/${CLAY.slug}/courses`, `/${CLAY.slug}/reviews`, `/${CLAY.slug}/${course}`].map((p) => [url(p), url(p)] as [string, string]),
      ...['/', '/about', '/reviews'].map((p) => [minisiteUrl(CLAY.slug, p), minisiteUrl(CLAY.slug, p)] as [string, string]),
      // Both copies of a course name the marketplace copy, the one with the structured data.
      [minisiteUrl(CLAY.slug, `/${course}`), url(`/${CLAY.slug}/${course}`)],
    ];
    for (const [target, canonical] of indexed) {
      const res = await httpGet(target);
      expect(res.status, target).toBe(200);
      expect(canonicalOf(res.body), target).toEqual([canonical]);
      expect(noindex(res.body), target).toBe(false);
      expect(tag(res.body, /<title>/g), target).toHaveLength(1);
      expect(res.headers['content-security-policy'], target).toContain("frame-ancestors 'self'");
    }
    // Forms and the search shell: noindex.
    for (const target of [url(`/${CLAY.slug}/enquiry`), minisiteUrl(CLAY.slug, '/enquiry'), url('/search')]) {
      const res = await httpGet(target);
      expect(res.status, target).toBe(200);
      expect(noindex(res.body), target).toBe(true);
    }
    const embeds = [`/embed/${CLAY.slug}`, `/embed/${CLAY.slug}/reviews`, `/embed/${CLAY.slug}/${course}`, `/embed/${CLAY.slug}/waitlist`, `/embed/enquiry?educator=${CLAY.slug}`];
    for (const path of embeds) {
      const res = await httpGet(url(path));
      expect(res.status, path).toBe(200);
      expect(noindex(res.body), path).toBe(true);
      expect(canonicalOf(res.body), path).toEqual([]);
      expect(res.headers['content-security-policy'], path).toContain('frame-ancestors *');
    }
    // Waitlist pages are noindex in every context.
    for (const target of [url(`/${CLAY.slug}/waitlist`), minisiteUrl(CLAY.slug, '/waitlist')]) expect(noindex((await httpGet(target)).body), target).toBe(true);
  });

  it('puts Course structured data with country GB on marketplace course pages only', async () => {
    const [market, minisite, embed] = await Promise.all([
      httpGet(url(`/${CLAY.slug}/${CLAY.taster.slug}`)),
      httpGet(minisiteUrl(CLAY.slug, `/${CLAY.taster.slug}`)),
      httpGet(url(`/embed/${CLAY.slug}/${CLAY.taster.slug}`)),
    ]);
    const data = jsonLd(market.body);
    expect(data).toHaveLength(1);
    const courseLd = data[0] as {
      '@type': string; name: string; url: string;
      provider: { '@type': string; sameAs: string; address?: { addressCountry: string } };
      hasCourseInstance: { location?: { address: { '@type': string; addressCountry: string } }; courseWorkload?: string }[];
      offers: { priceCurrency: string };
    };
    expect(courseLd['@type']).toBe('Course');
    expect(courseLd.name).toBe(CLAY.taster.name);
    expect(courseLd.url).toBe(url(`/${CLAY.slug}/${CLAY.taster.slug}`));
    expect(courseLd.provider).toMatchObject({ '@type': 'Organization', sameAs: url(`/${CLAY.slug}`), address: { addressCountry: 'GB' } });
    expect(courseLd.hasCourseInstance.length).toBeGreaterThan(0);
    for (const instance of courseLd.hasCourseInstance) {
      expect(instance.location?.address).toMatchObject({ '@type': 'PostalAddress', addressCountry: 'GB' });
      expect(instance.courseWorkload).toMatch(/^P/);
    }
    expect(courseLd.offers.priceCurrency).toBe('GBP');
    expect(jsonLd(minisite.body)).toEqual([]);
    expect(jsonLd(embed.body)).toEqual([]);
  });

  /** The URLs of every child sitemap an index names (fetched through the host that serves them). */
  async function sitemapLocs(index: string, origin = baseUrl()): Promise<string[]> {
    const locs: string[] = [];
    for (const [, child] of index.matchAll(/<loc>([^<]+)<\/loc>/g)) {
      expect(child!.startsWith(`${origin}/sitemap-`)).toBe(true);
      const res = await httpGet(child!);
      expect(res.status).toBe(200);
      locs.push(...[...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!));
    }
    return locs;
  }

  it('answers sitemap.xml and robots.txt on the marketplace and on a minisite', async () => {
    const robots = await httpGet(url('/robots.txt'));
    expect(robots.status).toBe(200);
    expect(robots.headers['content-type']).toMatch(/^text\/plain/);
    expect(robots.body).toContain(`Sitemap: ${url('/sitemap.xml')}`);
    const sitemap = await httpGet(url('/sitemap.xml'));
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers['content-type']).toMatch(/xml/);
    // /sitemap.xml is an index of child sitemaps (each within 50,000 URLs and 50 MB).
    expect(sitemap.body).toContain('<sitemapindex');
    const locs = await sitemapLocs(sitemap.body);
    expect(locs).toContain(`${baseUrl()}/`);
    // Clay & Kiln has a membership plan: its memberships page is listed (an empty one is not).
    for (const path of [`/${CLAY.slug}`, `/${CLAY.slug}/courses`, `/${CLAY.slug}/reviews`, `/${CLAY.slug}/memberships`, ...courseSlugs.map((s) => `/${CLAY.slug}/${s}`)]) {
      expect(locs, path).toContain(url(path));
    }
    expect(locs.every((loc) => loc.startsWith(`${baseUrl()}/`))).toBe(true);
    expect(locs.filter((loc) => loc.includes('/embed/') || loc.includes('/minisite/'))).toEqual([]);
    // Neither the search shell nor any enquiry or waitlist form.
    expect(locs.filter((loc) => /\/search$|\/enquiry$|\/waitlist$/.test(loc))).toEqual([]);
    await expectAllOk(locs.filter((loc) => loc.includes(`/${CLAY.slug}`)), baseUrl());

    const origin = minisiteUrl(CLAY.slug, '').replace(/\/$/, '');
    const miniRobots = await httpGet(minisiteUrl(CLAY.slug, '/robots.txt'));
    expect(miniRobots.status).toBe(200);
    expect(miniRobots.body).toContain(`Sitemap: ${origin}/sitemap.xml`);
    const miniSitemap = await httpGet(minisiteUrl(CLAY.slug, '/sitemap.xml'));
    expect(miniSitemap.status).toBe(200);
    expect(miniSitemap.body).toContain('<sitemapindex');
    const miniLocs = await sitemapLocs(miniSitemap.body, origin);
    expect(miniLocs.every((loc) => loc.startsWith(`${origin}/`))).toBe(true);
    // The minisite lists its own pages; its course pages are the marketplace's (their canonical copy).
    expect(miniLocs).toEqual(['/', '/about', '/reviews', '/memberships'].map((path) => `${origin}${path}`));
    await expectAllOk(miniLocs, origin);
  });
});
