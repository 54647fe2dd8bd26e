/**
 * Course pages and educator variants:
 * - a course page shows its sections in the spec's order (2.13) in each context;
 * - 'Dates' shows 5 per page and never private, child-not-bookable or all-offers-ended occurrences
 *   (compared with the database);
 * - bad enquiry and waitlist input shows the form's own messages (spec 5) and never reaches the API;
 *   problems from the API show as a danger alert with their detail (spec 8);
 * - the white-labelled showcase educator uses its brand colour and hides the powered-by banner (spec 2.17);
 * - hide_pricing hides prices on that educator's cards (spec 2.12).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { closeBrowser, newPage, productDb, url } from './harness.ts';
import type { Db } from '../../db/client.ts';
import {
  CLAY, CODEFORGE, CONTEXTS, HARMONY, STILLWATER, type Context, expectedDateIds, fillEnquiryForm, hydrated, isEnquiryPost,
  pageUrl, shownDateIds, uniqueEmail,
} from './helpers/public.ts';

let db: Db;

beforeAll(() => {
  db = productDb();
});

afterAll(async () => {
  await db.destroy();
  await closeBrowser();
});

async function courseId(educatorId: string, slug: string): Promise<string> {
  const row = await db.selectFrom('courses').select('id').where('educator_id', '=', educatorId).where('slug', '=', slug).executeTakeFirstOrThrow();
  return row.id;
}

const coursePath = (context: Context, educatorSlug: string, courseSlug: string) =>
  context === 'marketplace' ? `/${educatorSlug}/${courseSlug}` : context === 'minisite' ? `/${courseSlug}` : `/embed/${educatorSlug}/${courseSlug}`;

describe('course page', () => {
  for (const context of CONTEXTS) {
    it(`shows its sections in the spec's order in the ${context}`, async () => {
      const { page, context: browserContext } = await newPage();
      try {
        const { slug, name, keyword } = CODEFORGE.bootcamp;
        expect((await page.goto(pageUrl(context, CODEFORGE.slug, coursePath(context, CODEFORGE.slug, slug))))?.status()).toBe(200);
        // [label, selector, text the element must have (when given)], in the spec 2.13 order.
        const sections: [string, string, string?][] = [
          ...(context === 'embed' ? [['back button', '.course-back a', '‹ Back'] as [string, string, string]] : []),
          ['images', '.course-media .gallery'],
          ['title', 'h1.course-title', name],
          ['educator card', '.course-educator a', `By ${CODEFORGE.name}`],
          ['highlights', 'ul.highlights'],
          ['description', 'section[aria-label="Description"]'],
          ['faq', '#faq-heading', 'Frequently Asked Questions'],
          ['content', '#content-heading', `${keyword} Content`],
          ['dates', '#dates-heading', 'Dates'],
          ['location', '#location-heading', 'Location'],
          ['provider', '#provider-heading', 'About The Provider'],
          ['reviews', '#reviews-heading', 'Reviews'],
        ];
        const found = await page.evaluate((list) => {
          const all = Array.from(document.querySelectorAll('*'));
          return list.map(([label, selector]) => {
            const el = document.querySelector(selector);
            return { label, index: el ? all.indexOf(el) : -1, text: el?.textContent?.trim() ?? null };
          });
        }, sections.map(([label, selector]) => [label, selector] as [string, string]));
        for (const [i, [label, , text]] of sections.entries()) {
          expect(found[i]!.index, `${label} is on the page`).toBeGreaterThanOrEqual(0);
          if (text !== undefined) expect(found[i]!.text, label).toBe(text);
          if (i > 0) expect(found[i]!.index, `${label} comes after ${sections[i - 1]![0]}`).toBeGreaterThan(found[i - 1]!.index);
        }
        expect(await page.locator('.course-content, #content-heading + p').first().textContent()).toMatch(/^\d+ sections • \d+ lessons$/);
        // Aside carousels: 'More from {educator}' except in the embed; 'More in {category}' in the marketplace only.
        expect(await page.locator('#more-from-educator-heading').count()).toBe(context === 'embed' ? 0 : 1);
        expect(await page.locator('#more-in-category-heading').count()).toBe(context === 'marketplace' ? 1 : 0);
      } finally {
        await browserContext.close();
      }
    });
  }

  it('lists 5 dates per page and never private, child-not-bookable or all-offers-ended occurrences', async () => {
    const { page, context: browserContext } = await newPage();
    try {
      const courses: [typeof CLAY | typeof STILLWATER, string][] = [
        [CLAY, CLAY.dropIn], [CLAY, CLAY.sixWeek], [CLAY, CLAY.glaze], [STILLWATER, STILLWATER.weekly],
      ];
      for (const [educator, slug] of courses) {
        const id = await courseId(educator.id, slug);
        const live = page.waitForResponse((r) => r.url().endsWith(`/api/get-course-data-ids/${educator.id}/${id}`));
        expect((await page.goto(url(`/${educator.slug}/${slug}`)))?.status()).toBe(200);
        const dates = page.locator('#dates');
        await hydrated(dates.locator('ul.dates'));
        expect((await live).status()).toBe(200);
        const now = Math.floor(Date.now() / 1000);
        const expected = await expectedDateIds(db, id, now);
        const pages = Math.ceil(expected.length / 5);
        const shown: string[] = [];
        for (let p = 0; p < pages; p++) {
          await expect.poll(() => shownDateIds(dates), { message: `${slug} page ${p + 1}` }).toEqual(expected.slice(p * 5, p * 5 + 5));
          shown.push(...(await shownDateIds(dates)));
          if (pages > 1) expect(await dates.getByText(`Page ${p + 1} of ${pages}`).count()).toBe(1);
          if (p < pages - 1) await dates.getByRole('button', { name: 'Next' }).click();
        }
        if (pages === 1) expect(await dates.getByRole('button', { name: 'Next' }).count()).toBe(0);
        expect(shown).toEqual(expected);

        // The variants the rule drops exist in the database and are not shown.
        const future = await db.selectFrom('occurrences').selectAll().where('course_id', '=', id).where('end_datetime', '>', now).execute();
        const hidden = future.filter((o) => !expected.includes(o.id));
        if (slug === STILLWATER.weekly) expect(expected.length).toBeGreaterThan(10);
        if (slug === CLAY.dropIn) {
          expect(expected.length).toBeGreaterThan(5);
          expect(future.filter((o) => o.parent_ref && Boolean(o.individually_bookable)).every((o) => shown.includes(o.id))).toBe(true);
        }
        if (slug === CLAY.sixWeek) {
          const children = future.filter((o) => o.parent_ref && !o.individually_bookable);
          expect(children.length).toBeGreaterThan(0);
          expect(hidden.map((o) => o.id).sort()).toEqual(children.map((o) => o.id).sort());
        }
        if (slug === CLAY.glaze) {
          const privateOnes = future.filter((o) => o.visibility === 'private');
          expect(privateOnes.length).toBeGreaterThan(0);
          const offers = await db.selectFrom('offers').select(['occurrence_id', 'end_at']).where('course_id', '=', id).execute();
          const ended = future.filter((o) => {
            const own = offers.filter((f) => f.occurrence_id === o.id);
            return own.length > 0 && own.every((f) => f.end_at !== null && Number(f.end_at) <= now);
          });
          expect(ended.length).toBeGreaterThan(0);
          expect(hidden.map((o) => o.id).sort()).toEqual([...privateOnes, ...ended].map((o) => o.id).sort());
        }
        for (const o of hidden) expect(shown).not.toContain(o.id);
      }
    } finally {
      await browserContext.close();
    }
  });
});

/** The field error under an enquiry form field (id `{kind}-{field}-error`). */
const fieldError = (page: Page, kind: 'message' | 'waitlist', field: string) => page.locator(`#${kind}-${field}-error`);

describe('enquiry and waitlist input', () => {
  it('shows the form’s own messages for bad input and sends nothing', async () => {
    const { page, context: browserContext } = await newPage();
    let posts = 0;
    page.on('request', (r) => { if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/enquiries') posts += 1; });
    try {
      expect((await page.goto(url(`/${CLAY.slug}/enquiry`)))?.status()).toBe(200);
      const send = page.getByRole('button', { name: 'Send message' });
      await hydrated(send);
      await send.click();
      const required: [string, string][] = [
        ['enquiry_type', 'Enquiry Type is required'], ['first_name', 'First name is required'], ['last_name', 'Last name is required'],
        ['email', 'Email is required'], ['phone', 'Telephone is required'], ['message', 'Message is required'],
      ];
      for (const [field, message] of required) await expect.poll(() => fieldError(page, 'message', field).textContent()).toBe(message);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('message-enquiry_type'); // the first invalid field takes focus

      await fillEnquiryForm(page, { enquiryType: 'General question', firstName: 'Jo', lastName: 'Bloggs', email: 'jo@example.com', phone: '+44 7700 900123', message: 'Hello' });
      const emails: [string, string][] = [
        ['.jo@example.com', 'Email address cannot start with illegal character.'],
        ['jo@example.com.', 'Email address cannot end with a period.'],
        ['jo@-example.com', 'Email domain cannot start with illegal character.'],
        ['jo@example', 'Invalid email domain.'],
      ];
      for (const [email, message] of emails) {
        await page.getByLabel('Email').fill(email);
        await send.click();
        await expect.poll(() => fieldError(page, 'message', 'email').textContent(), { message: email }).toBe(message);
        expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
      }
      await page.getByLabel('Email').fill('jo@example.com');
      await expect.poll(() => fieldError(page, 'message', 'email').count()).toBe(0);
      const phones: [string, string][] = [['12 34', 'Phone number is too short.'], ['0770 0900 1234 5678 90123', 'Phone number is too long.']];
      for (const [phone, message] of phones) {
        await page.getByLabel('Telephone').fill(phone);
        await send.click();
        await expect.poll(() => fieldError(page, 'message', 'phone').textContent(), { message: phone }).toBe(message);
      }
      expect(await page.locator('.alert--danger').count()).toBe(0);

      // The waitlist form requires its four fields and no message.
      expect((await page.goto(url(`/${CLAY.slug}/waitlist`)))?.status()).toBe(200);
      const join = page.getByRole('button', { name: 'Join Waitlist' });
      await hydrated(join);
      await join.click();
      for (const [field, message] of required.slice(1, 5)) await expect.poll(() => fieldError(page, 'waitlist', field).textContent()).toBe(message);
      expect(await page.locator('#waitlist-message-error, #waitlist-enquiry_type-error').count()).toBe(0);
      expect(posts).toBe(0);
    } finally {
      await browserContext.close();
    }
  });

  it('shows problems from the API as a danger alert with their detail, and the form stays usable', async () => {
    const { page, context: browserContext } = await newPage();
    try {
      // An educator who cannot be contacted has no Contact tab and no enquiry page; a message sent to it
      // anyway (the request is altered on its way) is refused by the API (403).
      expect((await page.goto(url(`/${HARMONY.slug}/enquiry`)))?.status()).toBe(404);
      await page.goto(url(`/${HARMONY.slug}`));
      expect(await page.locator('nav.tabs a[data-tab="enquiry"]').count()).toBe(0);
      expect((await page.goto(url(`/${CLAY.slug}/enquiry`)))?.status()).toBe(200);
      const send = page.getByRole('button', { name: 'Send message' });
      await hydrated(send);
      await fillEnquiryForm(page, { enquiryType: 'General question', firstName: 'Sam', lastName: 'Lee', email: uniqueEmail('refused'), phone: '+44 7700 900111', message: 'Do you teach cello?' });
      await page.route('**/api/enquiries', async (route) => {
        const body = JSON.parse(route.request().postData() ?? '{}') as { educator_slug: string };
        body.educator_slug = HARMONY.slug;
        await route.continue({ postData: JSON.stringify(body) });
      }, { times: 1 });
      const refused = page.waitForResponse(isEnquiryPost);
      await send.click();
      const refusal = await refused;
      expect(refusal.status()).toBe(403);
      expect(refusal.headers()['content-type']).toMatch(/^application\/problem\+json/);
      const alert = page.locator('.alert--danger[role="alert"]');
      await expect.poll(() => alert.textContent()).toBe(`${HARMONY.name} is not accepting messages.`);
      await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('alert--danger'))).toBe(true);
      expect(await send.isEnabled()).toBe(true);

      // An address the API refuses (the request is altered on its way, past the form's own checks):
      // the alert shows the invalid-email-address problem's detail; a second, untouched try succeeds.
      expect((await page.goto(url(`/${CLAY.slug}/enquiry`)))?.status()).toBe(200);
      await hydrated(send);
      const email = uniqueEmail('retry');
      await fillEnquiryForm(page, { enquiryType: 'General question', firstName: 'Ada', lastName: 'Lovelace', email, phone: '+44 7700 900222', message: 'Hello there' });
      await page.route('**/api/enquiries', async (route) => {
        const body = JSON.parse(route.request().postData() ?? '{}') as { contact_details: { email: string; phone: string } };
        body.contact_details.email = 'ada@-example.com';
        await route.continue({ postData: JSON.stringify(body) });
      }, { times: 1 });
      const bad = page.waitForResponse(isEnquiryPost);
      await send.click();
      expect((await bad).status()).toBe(400);
      await expect.poll(() => alert.textContent()).toBe('Email domain cannot start with illegal character.');
      await page.route('**/api/enquiries', async (route) => {
        const body = JSON.parse(route.request().postData() ?? '{}') as { contact_details: { email: string; phone: string } };
        body.contact_details.phone = '12';
        await route.continue({ postData: JSON.stringify(body) });
      }, { times: 1 });
      const badPhone = page.waitForResponse(isEnquiryPost);
      await send.click();
      expect((await badPhone).status()).toBe(400);
      await expect.poll(() => alert.textContent()).toBe('Phone number is too short.');
      expect(await db.selectFrom('enquiries').select('id').where('email', '=', email).execute()).toEqual([]);
      const good = page.waitForResponse(isEnquiryPost);
      await send.click();
      expect((await good).status()).toBe(201);
      await expect.poll(() => page.getByRole('heading', { name: 'Thanks for contacting us' }).count()).toBe(1);
      expect(await db.selectFrom('enquiries').select('id').where('email', '=', email).execute()).toHaveLength(1);
    } finally {
      await browserContext.close();
    }
  });
});

describe('educator variants', () => {
  it('uses the white-labelled educator’s brand colour and hides the powered-by banner', async () => {
    const { page, context: browserContext } = await newPage();
    try {
      const activeTabColour = () => page.locator('nav.tabs a[aria-current="page"]').evaluate((a) => getComputedStyle(a).borderBottomColor);
      for (const context of ['minisite', 'embed'] as const) {
        // White-labelled: brand colour, no banner.
        expect((await page.goto(pageUrl(context, CODEFORGE.slug, context === 'minisite' ? '/' : `/embed/${CODEFORGE.slug}`)))?.status()).toBe(200);
        expect((await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand').trim())).toUpperCase()).toBe(CODEFORGE.brand);
        expect(await activeTabColour()).toBe(CODEFORGE.brandRgb);
        expect(await page.locator('.powered-by').count()).toBe(0);
        expect(await page.getByText('Powered by').count()).toBe(0);
        // Not white-labelled: the product's colour and the banner.
        expect((await page.goto(pageUrl(context, CLAY.slug, context === 'minisite' ? '/' : `/embed/${CLAY.slug}`)))?.status()).toBe(200);
        expect(await activeTabColour()).not.toBe(CODEFORGE.brandRgb);
        expect(await page.locator('.powered-by').isVisible()).toBe(true);
      }
      // The minisite's course page too.
      expect((await page.goto(pageUrl('minisite', CODEFORGE.slug, `/${CODEFORGE.bootcamp.slug}`)))?.status()).toBe(200);
      expect(await page.locator('.powered-by').count()).toBe(0);
      expect(await page.locator('a.btn').first().evaluate((a) => getComputedStyle(a).backgroundColor)).toBe(CODEFORGE.brandRgb);
      // The embed's enquiry shell learns the educator in the browser and applies the same branding.
      expect((await page.goto(url(`/embed/enquiry?educator=${CODEFORGE.slug}`)))?.status()).toBe(200);
      await page.getByRole('button', { name: 'Send message' }).waitFor();
      expect(await page.locator('.powered-by').isVisible()).toBe(false);
      expect(await page.getByRole('button', { name: 'Send message' }).evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(CODEFORGE.brandRgb);
      // The marketplace keeps the product's own colours and never shows the banner.
      expect((await page.goto(url(`/${CODEFORGE.slug}/courses`)))?.status()).toBe(200);
      expect(await activeTabColour()).not.toBe(CODEFORGE.brandRgb);
      expect(await page.locator('.powered-by').count()).toBe(0);
    } finally {
      await browserContext.close();
    }
  });

  it('hides prices on the cards of an educator with hide_pricing', async () => {
    const { page, context: browserContext } = await newPage();
    try {
      const published = await db.selectFrom('courses').select(['id', 'category_id']).where('educator_id', '=', STILLWATER.id).where('published', '=', true).execute();
      for (const context of CONTEXTS) {
        const path = context === 'marketplace' ? `/${STILLWATER.slug}/courses` : context === 'minisite' ? '/' : `/embed/${STILLWATER.slug}`;
        expect((await page.goto(pageUrl(context, STILLWATER.slug, path)))?.status()).toBe(200);
        expect(await page.locator('article.course-card').count()).toBe(published.length);
        expect(await page.locator('article.course-card .course-card__price').count()).toBe(0);
        expect(await page.locator('article.course-card').filter({ hasText: '£' }).count()).toBe(0);
        // Another educator's cards in the same context do show prices.
        const other = context === 'marketplace' ? `/${CLAY.slug}/courses` : context === 'minisite' ? '/' : `/embed/${CLAY.slug}`;
        await page.goto(pageUrl(context, CLAY.slug, other));
        expect(await page.locator('article.course-card .course-card__price').count()).toBeGreaterThan(0);
      }
      // On its category listing (pre-rendered cards).
      const withCategory = published.find((c) => c.category_id !== null)!;
      const category = await db.selectFrom('categories').select('slug').where('id', '=', withCategory.category_id!).executeTakeFirstOrThrow();
      expect((await page.goto(url(`/courses/${category.slug}`)))?.status()).toBe(200);
      const card = page.locator(`article.course-card[data-course-id="${withCategory.id}"]`);
      await card.first().waitFor();
      expect(await card.locator('.course-card__price').count()).toBe(0);
      // In search results rendered from the API, among other educators' cards.
      const searched = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/courses/search');
      expect((await page.goto(url('/search?q=evening')))?.status()).toBe(200);
      const results = (await (await searched).json()) as { results: { _id: string; educator_ref: string }[] };
      const ours = results.results.filter((r) => r.educator_ref === STILLWATER.id).map((r) => r._id);
      const others = results.results.filter((r) => r.educator_ref !== STILLWATER.id).map((r) => r._id);
      expect(ours.length).toBeGreaterThan(0);
      expect(others.length).toBeGreaterThan(0);
      await page.locator(`article.course-card[data-course-id="${ours[0]}"]`).first().waitFor();
      for (const id of ours) expect(await page.locator(`article.course-card[data-course-id="${id}"] .course-card__price`).count(), id).toBe(0);
      expect(await page.locator('article.course-card .course-card__price').count()).toBeGreaterThan(0);
    } finally {
      await browserContext.close();
    }
  });
});
