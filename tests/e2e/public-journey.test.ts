/**
 * A visitor's walk through the showcase educator's public pages, on the marketplace
 * (/{educatorSlug}/…) and on the educator's minisite on its real subdomain ({slug}.localhost):
 * educator → course → reviews (load more until the button disappears) → enquiry (the invisible
 * captcha is solved by the page; success screen; the row in the database) → waitlist.
 * The embed is walked in public-embed.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { closeBrowser, newPage, productDb, url, minisiteUrl } from './harness.ts';
import type { Db } from '../../db/client.ts';
import { CLAY, fillEnquiryForm, hydrated, isEnquiryPost, uniqueEmail } from './helpers/public.ts';

let db: Db;
let tasterId: string;
let publishedCourses: number;

beforeAll(async () => {
  db = productDb();
  const courses = await db.selectFrom('courses').select(['id', 'slug']).where('educator_id', '=', CLAY.id).where('published', '=', true).execute();
  publishedCourses = courses.length;
  tasterId = courses.find((c) => c.slug === CLAY.taster.slug)!.id;
});

afterAll(async () => {
  await db.destroy();
  await closeBrowser();
});

/** Clicks 'Load more' until it disappears; returns the reviews shown. */
async function loadAllReviews(page: Page): Promise<string[]> {
  const section = page.locator('section[aria-labelledby="reviews-heading"]');
  const items = section.locator('article.review');
  const more = section.getByRole('button', { name: 'Load more' });
  await hydrated(more);
  let clicks = 0;
  while ((await more.count()) > 0) {
    const before = await items.count();
    const answered = page.waitForResponse((r) => r.url().includes(`/api/reviews/list/${CLAY.slug}`) && new URL(r.url()).searchParams.has('pageToken'));
    await more.click();
    expect((await answered).status()).toBe(200);
    await expect.poll(() => items.count()).toBeGreaterThan(before);
    clicks += 1;
    expect(clicks).toBeLessThan(10);
  }
  expect(clicks).toBeGreaterThan(0);
  return items.locator('.review__name').allTextContents();
}

async function expectedReviewerNames(): Promise<string[]> {
  const rows = await db.selectFrom('reviews').select('reviewer_name').where('educator_id', '=', CLAY.id).where('archived_at', 'is', null).execute();
  return rows.map((r) => r.reviewer_name).sort();
}

for (const context of ['marketplace', 'minisite'] as const) {
  describe(`public pages, ${context}`, () => {
    const at = (marketplacePath: string, minisitePath: string) =>
      context === 'marketplace' ? url(marketplacePath) : minisiteUrl(CLAY.slug, minisitePath);

    it('walks educator → course → reviews → enquiry → waitlist', async () => {
      const { page, context: browserContext } = await newPage();
      try {
        // Educator: marketplace starts on About (/{slug}), the minisite on its courses home page (/).
        const first = await page.goto(at(`/${CLAY.slug}`, '/'));
        expect(first?.status()).toBe(200);
        await expect.poll(() => page.locator('h1').first().textContent()).toBe(CLAY.name);
        if (context === 'marketplace') {
          await expect.poll(() => page.getByRole('heading', { name: `About ${CLAY.name}` }).count()).toBe(1);
          await page.locator('nav.tabs a[data-tab="courses"]').click();
          await page.waitForURL(url(`/${CLAY.slug}/courses`));
        }
        const cards = page.locator('article.course-card');
        expect(await cards.count()).toBe(publishedCourses);

        // Course: its card leads to the course page.
        await cards.getByRole('link', { name: CLAY.taster.name, exact: true }).click();
        await page.waitForURL(at(`/${CLAY.slug}/${CLAY.taster.slug}`, `/${CLAY.taster.slug}`));
        expect(await page.locator('h1.course-title').textContent()).toBe(CLAY.taster.name);
        const by = page.locator('.course-educator a');
        expect(await by.textContent()).toBe(`By ${CLAY.name}`);
        expect(await by.getAttribute('href')).toBe(context === 'marketplace' ? `/${CLAY.slug}/courses` : '/');

        // Reviews: 'Read more about {educator}' → About → Reviews tab → load every page.
        await page.getByRole('link', { name: `Read more about ${CLAY.name}` }).click();
        await page.waitForURL(at(`/${CLAY.slug}`, '/about'));
        await page.locator('nav.tabs a[data-tab="reviews"]').click();
        await page.waitForURL(at(`/${CLAY.slug}/reviews`, '/reviews'));
        expect(await page.locator('nav.tabs a[aria-current="page"]').getAttribute('data-tab')).toBe('reviews');
        const names = await loadAllReviews(page);
        expect([...names].sort()).toEqual(await expectedReviewerNames());
        expect(names).not.toContain('Archived Reviewer');

        // Enquiry: back to the course through a review, then 'Send an enquiry' (course_ref and course_name attached).
        await page.getByRole('link', { name: `Reviewed ${CLAY.taster.name}` }).first().click();
        await page.waitForURL(at(`/${CLAY.slug}/${CLAY.taster.slug}`, `/${CLAY.taster.slug}`));
        await page.getByRole('link', { name: 'Send an enquiry' }).click();
        const enquiryQuery = `?course_ref=${tasterId}&course_name=${encodeURIComponent(CLAY.taster.name).replace(/%20/g, '+')}`;
        await page.waitForURL(at(`/${CLAY.slug}/enquiry${enquiryQuery}`, `/enquiry${enquiryQuery}`));
        await expect.poll(() => page.getByRole('heading', { name: 'Send a message' }).count()).toBe(1);
        expect(await page.getByText(`Contact ${CLAY.name} to ask any questions or clarify any details.`).count()).toBe(1);
        const send = page.getByRole('button', { name: 'Send message' });
        await hydrated(send);
        const email = uniqueEmail(`walk-${context}`);
        await fillEnquiryForm(page, {
          enquiryType: 'Private party', firstName: 'Maisie', lastName: 'Okafor', email, phone: '+44 7700 900123',
          message: 'Could we book the taster for a birthday party of eight?',
        });
        const posted = page.waitForResponse(isEnquiryPost);
        await send.click();
        expect((await posted).status()).toBe(201);
        await expect.poll(() => page.getByRole('heading', { name: 'Thanks for contacting us' }).count()).toBe(1);
        expect(await page.getByText('Thank you Maisie for contacting us. We have received your message and someone will be in touch soon.').count()).toBe(1);
        expect(await page.getByRole('heading', { name: `More listings from ${CLAY.name}` }).count()).toBe(1);
        expect(await page.getByRole('link', { name: `View all listings by ${CLAY.name}` }).count()).toBe(1);
        expect(await page.locator('form').count()).toBe(0);

        const enquiry = await db.selectFrom('enquiries').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
        expect(enquiry).toMatchObject({
          type: 'message', educator_id: CLAY.id, course_id: tasterId, context, first_name: 'Maisie', last_name: 'Okafor',
          phone: '+447700900123', message: 'Could we book the taster for a birthday party of eight?', enquiry_type: 'Private party',
          course_slug: CLAY.taster.slug, course_name: CLAY.taster.name,
        });
        expect(Boolean(enquiry.embedded)).toBe(false);

        // Waitlist for the same course (the page a course without dates links to), with 'Back to course'.
        const waitlistQuery = `?course_ref=${tasterId}&educator_slug=${CLAY.slug}`;
        expect((await page.goto(at(`/${CLAY.slug}/waitlist${waitlistQuery}`, `/waitlist${waitlistQuery}`)))?.status()).toBe(200);
        await expect.poll(() => page.getByRole('heading', { name: 'Join the waitlist' }).count()).toBe(1);
        const join = page.getByRole('button', { name: 'Join Waitlist' });
        await hydrated(join);
        const back = page.getByRole('link', { name: '‹ Back to course' });
        expect(await back.getAttribute('href')).toBe(context === 'marketplace' ? `/${CLAY.slug}/${CLAY.taster.slug}` : `/${CLAY.taster.slug}`);
        const waitEmail = uniqueEmail(`waitlist-${context}`);
        await fillEnquiryForm(page, { firstName: 'Tomasz', lastName: 'Nowak', email: waitEmail, phone: '07700 900456' });
        expect(await page.getByLabel('Message').count()).toBe(0);
        const joined = page.waitForResponse(isEnquiryPost);
        await join.click();
        expect((await joined).status()).toBe(201);
        await expect.poll(() => page.getByRole('heading', { name: "You're on the waitlist!" }).count()).toBe(1);
        expect(await page.getByText('Thank you Tomasz for joining the waitlist. You will be notified when new dates or spaces become available.').count()).toBe(1);
        const waitlisted = await db.selectFrom('enquiries').selectAll().where('email', '=', waitEmail).executeTakeFirstOrThrow();
        expect(waitlisted).toMatchObject({ type: 'waitlist', educator_id: CLAY.id, course_id: tasterId, context, course_slug: CLAY.taster.slug });
      } finally {
        await browserContext.close();
      }
    });
  });
}
