/**
 * Found and trusted: every page type in every context is accessible (axe, WCAG 2.2 AA, with the
 * default, a light and a dark brand colour) and valid HTML (html-validate's standard rules, offline);
 * every marketplace course page carries complete Course structured data that matches what it shows;
 * and the pages the spec links to exist.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HtmlValidate } from 'html-validate';
import { closeBrowser, minisiteUrl, newPage, productDb, url } from './harness.ts';
import type { Db } from '../../db/client.ts';
import { CLAY, CODEFORGE, HARMONY, STILLWATER, httpGet } from './helpers/public.ts';
import { courseRichResultProblems } from '../helpers/course-rich-results.ts';
import { hasMarketplaceCoursePage, hasMarketplacePages } from '../../src/domain/routes.ts';
import { formatPriceShort, money } from '../../src/domain/money.ts';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/** WCAG 2.0, 2.1 and 2.2, levels A and AA. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** White-labelled dark-on-yellow: the light brand colour (#F2C14E). */
const LINGUA = { slug: 'lingua-franca-languages', inCompany: 'in-company-language-training', spanish: 'spanish-for-beginners-a1' } as const;

let db: Db;
let category: string;

beforeAll(async () => {
  db = productDb();
  category = (await db.selectFrom('categories').select('slug').orderBy('slug').executeTakeFirstOrThrow()).slug;
});

afterAll(async () => {
  await db.destroy();
  await closeBrowser();
});

/** Every page type per context, for one educator (its brand colour applies outside the marketplace). */
function pageTypes(slug: string, course: string): Record<string, string> {
  return {
    'marketplace about': url(`/${slug}`),
    'marketplace courses': url(`/${slug}/courses`),
    'marketplace reviews': url(`/${slug}/reviews`),
    'marketplace enquiry': url(`/${slug}/enquiry`),
    'marketplace waitlist': url(`/${slug}/waitlist`),
    'marketplace course': url(`/${slug}/${course}`),
    'minisite courses': minisiteUrl(slug, '/'),
    'minisite about': minisiteUrl(slug, '/about'),
    'minisite reviews': minisiteUrl(slug, '/reviews'),
    'minisite enquiry': minisiteUrl(slug, '/enquiry'),
    'minisite waitlist': minisiteUrl(slug, '/waitlist'),
    'minisite course': minisiteUrl(slug, `/${course}`),
    'embed courses': url(`/embed/${slug}`),
    'embed reviews': url(`/embed/${slug}/reviews`),
    'embed enquiry': url(`/embed/enquiry?educator=${slug}`),
    'embed waitlist': url(`/embed/${slug}/waitlist`),
    'embed course': url(`/embed/${slug}/${course}`),
  };
}

const marketplacePages = (): Record<string, string> => ({
  home: url('/'),
  search: url('/search?q=pottery'),
  category: url(`/courses/${category}`),
  pricing: url('/pricing'),
  privacy: url('/privacy'),
  terms: url('/terms'),
  'not found': url('/no-such-page/anywhere'),
});

async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} (${(n.failureSummary ?? '').split('\n').slice(1, 2).join('').trim()})`).join(' | ')}`);
  }, WCAG_TAGS);
  return violations;
}

async function checkAccessible(pages: Record<string, string>): Promise<void> {
  // axe is injected as an inline script, which the pages' own policy rightly refuses (tests/e2e/security.test.ts).
  const { page, context } = await newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const failures: Record<string, string[]> = {};
  try {
    for (const [name, target] of Object.entries(pages)) {
      await page.goto(target, { waitUntil: 'networkidle' });
      const violations = await axeViolations(page);
      if (violations.length) failures[`${name} ${target}`] = violations;
    }
  } finally {
    await context.close();
  }
  expect(failures).toEqual({});
}

// Each case walks every page type of three contexts through axe: far longer than one page's test.
const MANY_PAGES_TIMEOUT_MS = 240_000;

describe('accessibility: 0 axe violations at WCAG 2.2 AA', () => {
  it('marketplace pages of the product (home, search, category, pricing, privacy, terms, 404)', async () => {
    await checkAccessible(marketplacePages());
  }, MANY_PAGES_TIMEOUT_MS);

  it('every page type in every context, default brand colour', async () => {
    await checkAccessible(pageTypes(CLAY.slug, CLAY.taster.slug));
  }, MANY_PAGES_TIMEOUT_MS);

  it('every page type in every context, a light brand colour (white-labelled yellow)', async () => {
    await checkAccessible(pageTypes(LINGUA.slug, LINGUA.spanish));
  }, MANY_PAGES_TIMEOUT_MS);

  it('every page type in every context, a dark brand colour (white-labelled indigo)', async () => {
    await checkAccessible(pageTypes(CODEFORGE.slug, CODEFORGE.bootcamp.slug));
  }, MANY_PAGES_TIMEOUT_MS);
});

describe('keyboard', () => {
  it('the first tab stop is a skip link to the main content, on every context', async () => {
    const { page, context } = await newPage();
    try {
      for (const target of [url(`/${CLAY.slug}/${CLAY.taster.slug}`), minisiteUrl(CLAY.slug, `/${CLAY.taster.slug}`), url(`/embed/${CLAY.slug}/${CLAY.taster.slug}`), url('/')]) {
        await page.goto(target);
        await page.keyboard.press('Tab');
        const focused = await page.evaluate(() => ({ text: document.activeElement?.textContent?.trim(), href: document.activeElement?.getAttribute('href') }));
        expect(focused, target).toEqual({ text: 'Skip to main content', href: '#main' });
        await page.keyboard.press('Enter');
        expect(await page.evaluate(() => document.activeElement?.id), target).toBe('main');
      }
    } finally {
      await context.close();
    }
  });

  it('the image gallery can be reached and scrolled with the keyboard', async () => {
    const { page, context } = await newPage();
    try {
      await page.goto(url(`/${CLAY.slug}/${CLAY.taster.slug}`));
      const track = page.locator('[data-gallery-track]');
      expect(await track.getAttribute('tabindex')).toBe('0');
      expect(await track.getAttribute('aria-label')).toBeTruthy();
      await track.focus();
      expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-gallery-track'))).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('a category page goes h1 → h2 → h3 without skipping a level', async () => {
    const { page, context } = await newPage();
    try {
      await page.goto(url(`/courses/${category}`), { waitUntil: 'networkidle' });
      const levels = await page.locator('h1, h2, h3, h4, h5, h6').evaluateAll((hs) => hs.map((h) => Number(h.tagName[1])));
      expect(levels[0]).toBe(1);
      for (let i = 1; i < levels.length; i += 1) expect(levels[i]! - levels[i - 1]!, `heading ${i}`).toBeLessThanOrEqual(1);
    } finally {
      await context.close();
    }
  });
});

describe('valid HTML: 0 errors from html-validate on a sample of every page type', () => {
  it('in every context', async () => {
    const validator = new HtmlValidate({
      extends: ['html-validate:standard'],
      // Astro's island elements are custom elements (valid HTML); the validator need not know them.
      elements: ['html5', { 'astro-island': { flow: true, phrasing: true }, 'astro-slot': { flow: true, phrasing: true } }],
    });
    const targets = { ...marketplacePages(), ...pageTypes(CLAY.slug, CLAY.taster.slug), ...Object.fromEntries(Object.entries(pageTypes(LINGUA.slug, LINGUA.inCompany)).map(([k, v]) => [`${k} (on-request)`, v])) };
    const failures: Record<string, string[]> = {};
    for (const [name, target] of Object.entries(targets)) {
      const res = await httpGet(target);
      const report = await validator.validateString(res.body);
      const errors = report.results.flatMap((r) => r.messages.filter((m) => m.severity === 2).map((m) => `${m.line}:${m.column} ${m.ruleId} ${m.message}`));
      if (errors.length) failures[name] = errors.slice(0, 5);
    }
    expect(failures).toEqual({});
  });
});

const jsonLd = (html: string) => [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
const decode = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&nbsp;|\u00a0/g, ' ');

describe('structured data on every built marketplace course page', () => {
  it('meets the course-info properties, and the marked-up price is the one the page shows', async () => {
    const courses = await db.selectFrom('courses as c').innerJoin('educators as e', 'e.id', 'c.educator_id')
      .select(['c.slug', 'c.type', 'c.pricing_type', 'c.duration_pricing', 'c.course_duration', 'e.slug as educator', 'e.feature_flags'])
      .where('c.published', '=', true).execute();
    const pages = courses.filter((c) => hasMarketplacePages(c.educator) && hasMarketplaceCoursePage(c.educator, c.slug));
    expect(pages.length).toBeGreaterThan(200);
    const failures: Record<string, string[]> = {};
    let priced = 0;
    for (let i = 0; i < pages.length; i += 8) {
      await Promise.all(pages.slice(i, i + 8).map(async (c) => {
        const path = `/${c.educator}/${c.slug}`;
        const res = await httpGet(url(path));
        const data = jsonLd(res.body);
        const problems = data.length === 1 ? courseRichResultProblems(data[0]) : [`${data.length} JSON-LD blocks`];
        // A duration "To be confirmed" (an on-request course with no durations) cannot be marked up
        // without inventing one: such a course has no instances (none without a workload), and the page says so.
        const unknownDuration = c.type === 'on-request' && !(c.duration_pricing ?? []).length && !c.course_duration;
        // Hidden pricing: no offer at all (even a category would say what the page does not).
        const hidden = Boolean((c.feature_flags as { hide_pricing?: boolean } | null)?.hide_pricing);
        const rest = problems.filter((p) => !(unknownDuration && p === 'hasCourseInstance missing') && !(hidden && p === 'offers missing'));
        expect(rest.filter((p) => /neither courseSchedule nor courseWorkload/.test(p)), path).toEqual([]);
        if (unknownDuration) expect(decode(res.body), path).toContain('To be confirmed');
        if (hidden) expect(data[0], path).not.toHaveProperty('offers');
        const offer = (data[0]?.offers ?? {}) as { price?: string; priceCurrency?: string };
        const text = decode(res.body);
        if (hidden || c.pricing_type === 'price-on-enquiry') {
          if (offer.price !== undefined) rest.push(`publishes price ${offer.price} the page does not show`);
        } else if (offer.price !== undefined) {
          priced += 1;
          const shown = formatPriceShort(money(Math.round(Number(offer.price) * 100), 'GBP'));
          if (!text.includes(shown) && !(Number(offer.price) === 0 && text.includes('Free'))) rest.push(`price ${shown} is not on the page`);
        }
        if (rest.length) failures[path] = rest;
      }));
    }
    expect(failures).toEqual({});
    expect(priced).toBeGreaterThan(100);
  });

  it('an educator who hides pricing publishes no price, nor an offer whose category would say "Free" (Stillwater Yoga)', async () => {
    const courses = await db.selectFrom('courses').select('slug').where('educator_id', '=', STILLWATER.id).where('published', '=', true).execute();
    for (const { slug } of courses) {
      const res = await httpGet(url(`/${STILLWATER.slug}/${slug}`));
      const data = jsonLd(res.body)[0];
      expect(data, slug).toBeDefined();
      expect(data, slug).not.toHaveProperty('offers');
      expect(res.body, slug).not.toMatch(/"price":|"category":"Free"/);
    }
  });
});

describe('crawler hygiene', () => {
  it('titles are at most 65 characters and reviews pages have a real description', async () => {
    const educators = await db.selectFrom('educators').select('slug').execute();
    const courses = await db.selectFrom('courses as c').innerJoin('educators as e', 'e.id', 'c.educator_id').select(['c.slug', 'e.slug as educator']).where('c.published', '=', true).execute();
    const targets = [
      ...educators.flatMap((e) => [url(`/${e.slug}`), url(`/${e.slug}/reviews`), minisiteUrl(e.slug, '/about')]),
      ...courses.map((c) => url(`/${c.educator}/${c.slug}`)),
    ].filter((t) => !/\/(search|courses|embed|checkout|login|profile|api|images|privacy|pricing|terms)(\/|$)/.test(new URL(t).pathname.split('/').slice(0, 2).join('/')));
    const long: string[] = [];
    for (let i = 0; i < targets.length; i += 8) {
      await Promise.all(targets.slice(i, i + 8).map(async (target) => {
        const res = await httpGet(target);
        if (res.status !== 200) return;
        const title = decode(/<title>([^<]*)<\/title>/.exec(res.body)?.[1] ?? '');
        if (title.length > 65) long.push(`${title.length} ${title}`);
        if (target.endsWith('/reviews')) {
          const description = decode(/<meta name="description" content="([^"]*)"/.exec(res.body)?.[1] ?? '');
          expect(description.length, target).toBeGreaterThanOrEqual(70);
        }
      }));
    }
    expect(long).toEqual([]);
  });

  it('og:image is a PNG or JPEG that answers', async () => {
    for (const target of [url('/'), url(`/${CLAY.slug}`), url(`/${CLAY.slug}/${CLAY.taster.slug}`), minisiteUrl(CODEFORGE.slug, '/'), url('/pricing')]) {
      const res = await httpGet(target);
      const image = /<meta property="og:image" content="([^"]+)"/.exec(res.body)?.[1] ?? '';
      expect(image, target).toMatch(/\.(png|jpe?g)$/);
      const file = await httpGet(image);
      expect(file.status, image).toBe(200);
      expect(file.headers['content-type'], image).toMatch(/^image\/(png|jpeg)/);
    }
  });
});

describe('pages and links the spec names', () => {
  it('/pricing, /privacy and /terms are real pages linked from every marketplace footer', async () => {
    for (const [path, heading] of [['/pricing', 'Pricing'], ['/privacy', 'Privacy policy'], ['/terms', 'Terms of use']] as const) {
      const res = await httpGet(url(path));
      expect(res.status, path).toBe(200);
      expect(res.body).toContain(`<h1>${heading}</h1>`);
    }
    const terms = decode((await httpGet(url('/terms'))).body);
    for (const figure of ['18 or older', 'within 30 days of the delivery date', '30 days ahead', 'within 24 hours', '99.99%']) expect(terms).toContain(figure);
    expect(decode((await httpGet(url('/pricing'))).body)).toContain('2.5% + 30p');
    const home = (await httpGet(url(`/${CLAY.slug}/${CLAY.taster.slug}`))).body;
    for (const path of ['/pricing', '/privacy', '/terms']) expect(home).toContain(`href="${path}"`);
  });

  it('an educator who cannot be contacted has no enquiry button, page or sitemap entry', async () => {
    const course = (await db.selectFrom('courses').select('slug').where('educator_id', '=', 'edu_0008').where('published', '=', true).executeTakeFirstOrThrow()).slug;
    for (const target of [url(`/${HARMONY.slug}/${course}`), minisiteUrl(HARMONY.slug, `/${course}`), url(`/embed/${HARMONY.slug}/${course}`)]) {
      const res = await httpGet(target);
      expect(res.status).toBe(200);
      expect(res.body, target).not.toContain('Send an enquiry');
      expect(res.body, target).not.toContain('/enquiry');
    }
    expect((await httpGet(url(`/${HARMONY.slug}/enquiry`))).status).toBe(404);
    expect((await httpGet(minisiteUrl(HARMONY.slug, '/enquiry'))).status).toBe(404);
    expect((await httpGet(url(`/embed/enquiry?educator=${HARMONY.slug}`))).status).toBe(404);
    expect((await httpGet(url('/sitemap.xml'))).body).not.toContain(`/${HARMONY.slug}/enquiry`);
  });

  it('the embed enquiry page answers 404 for an unknown educator', async () => {
    expect((await httpGet(url('/embed/enquiry?educator=no-such-educator'))).status).toBe(404);
    expect((await httpGet(url(`/embed/enquiry?educator=${CLAY.slug}`))).status).toBe(200);
  });

  it('shows every place an in-company course travels to, on its card and its page', async () => {
    const card = decode((await httpGet(url(`/${LINGUA.slug}/courses`))).body);
    expect(card).toContain('Edinburgh & 2 more or Online');
    const page = decode((await httpGet(url(`/${LINGUA.slug}/${LINGUA.inCompany}`))).body);
    expect(page).toContain('Edinburgh and 2 more');
  });

  it('"Next date" is never a sold-out date (Beginners Wheel Throwing Taster)', async () => {
    const soldOut = await db.selectFrom('occurrences').select(['start_datetime']).where('id', '=', 'occ_0001_01_02').executeTakeFirstOrThrow();
    expect(Number(soldOut.start_datetime)).toBeGreaterThan(Date.now() / 1000);
    const { page, context } = await newPage();
    try {
      await page.goto(url(`/${CLAY.slug}/${CLAY.taster.slug}`), { waitUntil: 'networkidle' });
      const aside = await page.locator('.booking-aside').innerText();
      const soldOutDay = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' }).format(Number(soldOut.start_datetime) * 1000);
      expect(aside).toContain('Next date:');
      expect(aside).not.toContain(soldOutDay);
      await page.goto(url(`/${CLAY.slug}/courses`));
      const cardNext = await page.locator(`article[data-course-id="crs_0001_01"] .course-card__next`).innerText();
      const shortDay = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'Europe/London' }).format(Number(soldOut.start_datetime) * 1000);
      expect(cardNext).not.toContain(shortDay);
    } finally {
      await context.close();
    }
  });
});
