/**
 * The visitor's walk in the embed: our pages inside an iframe of a third-party page
 * served from ANOTHER origin (a node:http server on 127.0.0.1, while the product is on localhost),
 * mounted by public/embed.js as docs/embed.md tells site owners to do. The frame resizes itself by
 * postMessage; links that must leave the frame open new windows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { baseUrl, closeBrowser, minisiteUrl, newPage, productDb } from './harness.ts';
import type { Db } from '../../db/client.ts';
import { CLAY, fillEnquiryForm, hydrated, isEnquiryPost, startHostSite, uniqueEmail, type HostSite } from './helpers/public.ts';

let db: Db;
let host: HostSite;
let tasterId: string;
let publishedCourses: number;

beforeAll(async () => {
  db = productDb();
  host = await startHostSite(baseUrl(), CLAY.slug);
  const courses = await db.selectFrom('courses').select(['id', 'slug']).where('educator_id', '=', CLAY.id).where('published', '=', true).execute();
  publishedCourses = courses.length;
  tasterId = courses.find((c) => c.slug === CLAY.taster.slug)!.id;
});

afterAll(async () => {
  await db.destroy();
  await host.close();
  await closeBrowser();
});

interface Embed {
  iframe: Locator;
  frame: FrameLocator;
  /** The iframe's Frame (the same object across its navigations). */
  content: Frame;
}

async function mountEmbed(page: Page, options: { page?: string; course?: string } = {}): Promise<Embed> {
  const hostUrl = host.pageUrl(options);
  expect((await page.goto(hostUrl))?.status()).toBe(200);
  const iframe = page.locator('#embed iframe');
  await iframe.waitFor();
  const content = await (await iframe.elementHandle())!.contentFrame();
  if (!content) throw new Error('the embed iframe has no frame');
  await content.waitForLoadState('load');
  return { iframe, frame: page.frameLocator('#embed iframe'), content };
}

/** The height the snippet gives the iframe for the frame's current document (clamped like embed.js). */
async function expectResizedToContent(embed: Embed): Promise<number> {
  let wanted = 0;
  await expect.poll(async () => {
    const content = await embed.content.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    wanted = Math.max(120, Math.min(content, 20_000));
    const applied = await embed.iframe.evaluate((el) => (el as HTMLIFrameElement).style.height);
    return applied === `${wanted}px` ? 'resized to its content' : `iframe ${applied}, content ${wanted}px`;
  }, { timeout: 10_000 }).toBe('resized to its content');
  return wanted;
}

function framePath(content: Frame): string {
  const u = new URL(content.url());
  return `${u.pathname}${u.search}`;
}

async function waitForFramePath(content: Frame, pathname: string): Promise<URL> {
  await expect.poll(() => new URL(content.url()).pathname, { timeout: 10_000 }).toBe(pathname);
  await content.waitForLoadState('load');
  return new URL(content.url());
}

describe('public pages, embed on another origin', () => {
  it('walks educator → course → reviews → enquiry, resizing the frame and opening new windows where it must', async () => {
    const { page, context } = await newPage();
    try {
      const embed = await mountEmbed(page);
      const { iframe, frame, content } = embed;
      expect(await iframe.getAttribute('allow')).toBe('payment');
      expect(await iframe.getAttribute('title')).toBe('Our courses');
      const src = new URL((await iframe.getAttribute('src'))!);
      expect(src.origin).toBe(baseUrl());
      expect(src.pathname).toBe(`/embed/${CLAY.slug}`);
      expect(src.searchParams.get('parent_origin')).toBe(host.origin);
      expect(src.searchParams.get('parent_url')).toBe(host.pageUrl());
      expect(host.origin).not.toBe(baseUrl());

      // Educator (the embed's courses page): no About tab; the frame grows from 600px to its content.
      await expect.poll(() => frame.locator('h1').first().textContent()).toBe(CLAY.name);
      expect(await frame.locator('nav.tabs a').evaluateAll((links) => links.map((a) => a.getAttribute('data-tab')))).toEqual(['courses', 'reviews', 'memberships', 'vouchers', 'enquiry']);
      expect(await frame.locator('article.course-card').count()).toBe(publishedCourses);
      expect(await frame.locator('.course-card__save').count()).toBe(0); // no save hearts in the embed (spec 2.12)
      const coursesHeight = await expectResizedToContent(embed);
      expect(coursesHeight).not.toBe(600);
      // The frame posted {type: 'marketplace:resize', height} from the marketplace's origin.
      const messages = await page.evaluate(() => (window as unknown as { embedMessages: { origin: string; type: string; height: number }[] }).embedMessages);
      expect(messages.length).toBeGreaterThan(0);
      expect(messages.every((m) => m.origin === baseUrl() && m.type === 'marketplace:resize' && Number.isInteger(m.height))).toBe(true);
      expect(messages.some((m) => m.height === coursesHeight)).toBe(true);

      // Only the marketplace's own frames may resize: a message from the host page itself is ignored.
      await page.evaluate(() => new Promise<void>((resolve) => {
        window.addEventListener('message', (e) => { if (e.data === 'sentinel') resolve(); });
        window.postMessage({ type: 'marketplace:resize', height: 4321 }, '*');
        window.postMessage('sentinel', '*');
      }));
      expect(await iframe.evaluate((el) => (el as HTMLIFrameElement).style.height)).toBe(`${coursesHeight}px`);

      // Course: links clicked inside the frame carry the parent's origin and URL on.
      await frame.getByRole('link', { name: CLAY.taster.name, exact: true }).click();
      const courseUrl = await waitForFramePath(content, `/embed/${CLAY.slug}/${CLAY.taster.slug}`);
      expect(courseUrl.searchParams.get('parent_origin')).toBe(host.origin);
      expect(courseUrl.searchParams.get('parent_url')).toBe(host.pageUrl());
      expect(await frame.locator('h1.course-title').textContent()).toBe(CLAY.taster.name);
      expect(await frame.getByRole('link', { name: '‹ Back' }).getAttribute('href')).toBe(`/embed/${CLAY.slug}`);
      await expectResizedToContent(embed);

      // Choosing a date opens the course page with the occurrence in a new window (spec 2.13).
      const dates = frame.locator('#dates');
      const select = dates.getByRole('link', { name: /^Select / }).first();
      await hydrated(select);
      expect(await select.getAttribute('target')).toBe('_blank');
      const occurrenceHref = (await select.getAttribute('href'))!;
      expect(occurrenceHref).toMatch(new RegExp(`^/embed/${CLAY.slug}/${CLAY.taster.slug}\\?occurrence=occ_`));
      const popup = context.waitForEvent('page');
      await select.click();
      const opened = await popup;
      await opened.waitForLoadState('domcontentloaded');
      expect(new URL(opened.url()).pathname + new URL(opened.url()).search).toBe(occurrenceHref);
      await opened.close();
      expect(framePath(content)).toContain(`/embed/${CLAY.slug}/${CLAY.taster.slug}?`); // the frame stayed where it was

      // Other ways out of the frame open new tabs on the educator's minisite; the booking stays in the frame.
      const readMore = frame.getByRole('link', { name: `Read more about ${CLAY.name}` });
      expect(await readMore.getAttribute('href')).toBe(minisiteUrl(CLAY.slug, '/about'));
      expect(await readMore.getAttribute('target')).toBe('_blank');
      const addReview = frame.getByRole('link', { name: '+ Add Review' });
      expect(await addReview.getAttribute('href')).toBe(minisiteUrl(CLAY.slug, `/${CLAY.taster.slug}/add-review`));
      expect(await addReview.getAttribute('target')).toBe('_blank');
      expect(await addReview.getAttribute('rel')).toContain('nofollow');
      const book = frame.getByRole('link', { name: 'Book Now' });
      await hydrated(book);
      await expect.poll(async () => new URL((await book.getAttribute('href'))!, baseUrl()).searchParams.get('parent_window_url')).toBe(host.pageUrl());
      const bookHref = new URL((await book.getAttribute('href'))!, baseUrl());
      expect(bookHref.pathname).toBe('/embed/checkout');
      expect(bookHref.searchParams.get('origin')).toBe('embed');
      expect(await book.getAttribute('target')).toBeNull();

      // Reviews: back to the courses, the Reviews tab, every page; the frame grows with the list.
      await frame.getByRole('link', { name: '‹ Back' }).click();
      await waitForFramePath(content, `/embed/${CLAY.slug}`);
      await frame.locator('nav.tabs a[data-tab="reviews"]').click();
      await waitForFramePath(content, `/embed/${CLAY.slug}/reviews`);
      const reviewsHeight = await expectResizedToContent(embed);
      const section = frame.locator('section[aria-labelledby="reviews-heading"]');
      const more = section.getByRole('button', { name: 'Load more' });
      await hydrated(more);
      let clicks = 0;
      while ((await more.count()) > 0) {
        const before = await section.locator('article.review').count();
        const answered = page.waitForResponse((r) => r.url().includes(`/api/reviews/list/${CLAY.slug}`) && new URL(r.url()).searchParams.has('pageToken'));
        await more.click();
        const response = await answered;
        expect(response.status()).toBe(200);
        expect(new URL(response.url()).searchParams.get('context')).toBe('minisite'); // spec 4: embed is sent as minisite
        await expect.poll(() => section.locator('article.review').count()).toBeGreaterThan(before);
        expect(++clicks).toBeLessThan(10);
      }
      const shown = await section.locator('article.review .review__name').allTextContents();
      const stored = await db.selectFrom('reviews').select('reviewer_name').where('educator_id', '=', CLAY.id).where('archived_at', 'is', null).execute();
      expect([...shown].sort()).toEqual(stored.map((r) => r.reviewer_name).sort());
      expect(await expectResizedToContent(embed)).toBeGreaterThan(reviewsHeight);

      // Enquiry about the course: through a review's course link, then 'Send an enquiry' (the embed's enquiry shell).
      await section.getByRole('link', { name: `Reviewed ${CLAY.taster.name}` }).first().click();
      await waitForFramePath(content, `/embed/${CLAY.slug}/${CLAY.taster.slug}`);
      await frame.getByRole('link', { name: 'Send an enquiry' }).click();
      const enquiryUrl = await waitForFramePath(content, '/embed/enquiry');
      expect(enquiryUrl.searchParams.get('educator')).toBe(CLAY.slug);
      expect(enquiryUrl.searchParams.get('course_ref')).toBe(tasterId);
      expect(enquiryUrl.searchParams.get('course_name')).toBe(CLAY.taster.name);
      expect(enquiryUrl.searchParams.get('parent_origin')).toBe(host.origin);
      const send = frame.getByRole('button', { name: 'Send message' });
      await send.waitFor();
      expect(await frame.getByRole('heading', { name: 'Send a message' }).count()).toBe(1);
      await expectResizedToContent(embed);
      const email = uniqueEmail('walk-embed');
      await fillEnquiryForm(frame, {
        enquiryType: 'Corporate team day', firstName: 'Priya', lastName: 'Shah', email, phone: '+44 7700 900789',
        message: 'Do you run team days for twelve people?',
      });
      const posted = page.waitForResponse(isEnquiryPost);
      await send.click();
      expect((await posted).status()).toBe(201);
      await expect.poll(() => frame.getByRole('heading', { name: 'Thanks for contacting us' }).count()).toBe(1);
      expect(await frame.getByText('Thank you Priya for contacting us. We have received your message and someone will be in touch soon.').count()).toBe(1);
      await expectResizedToContent(embed);
      const row = await db.selectFrom('enquiries').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        type: 'message', educator_id: CLAY.id, context: 'embed', course_id: tasterId, course_slug: CLAY.taster.slug,
        course_name: CLAY.taster.name, enquiry_type: 'Corporate team day', phone: '+447700900789',
      });
      expect(Boolean(row.embedded)).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('joins the waitlist from an embedded waitlist page', async () => {
    const { page, context } = await newPage();
    try {
      const embed = await mountEmbed(page, { page: 'waitlist' });
      expect(new URL(embed.content.url()).pathname).toBe(`/embed/${CLAY.slug}/waitlist`);
      const join = embed.frame.getByRole('button', { name: 'Join Waitlist' });
      await hydrated(join);
      expect(await embed.frame.getByRole('heading', { name: 'Join the waitlist' }).count()).toBe(1);
      await expectResizedToContent(embed);
      const email = uniqueEmail('waitlist-embed');
      await fillEnquiryForm(embed.frame, { firstName: 'Oluwaseun', lastName: 'Adeyemi', email, phone: '+44 7700 900321' });
      const joined = page.waitForResponse(isEnquiryPost);
      await join.click();
      expect((await joined).status()).toBe(201);
      await expect.poll(() => embed.frame.getByRole('heading', { name: "You're on the waitlist!" }).count()).toBe(1);
      expect(await embed.frame.getByText('Thank you Oluwaseun for joining the waitlist. You will be notified when new dates or spaces become available.').count()).toBe(1);
      await expectResizedToContent(embed);
      const row = await db.selectFrom('enquiries').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ type: 'waitlist', educator_id: CLAY.id, context: 'embed' });
      expect(Boolean(row.embedded)).toBe(true);
    } finally {
      await context.close();
    }
  });
});
