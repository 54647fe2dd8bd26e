/**
 * Shared pieces of the public-page browser tests (tests/e2e/public-*.test.ts): the showcase educators
 * they use (db/seed/showcase.ts), plain HTTP requests to any host of the product (Node cannot resolve
 * `{slug}.localhost`, so requests go to 127.0.0.1 with the Host header), the enquiry form, waiting for
 * islands to hydrate, the dates the database says a course lists, and a third-party site on another
 * origin that embeds our pages.
 */
import { request as httpRequest, createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Locator } from 'playwright-core';
import type { Db } from '../../../db/client.ts';
import { url, minisiteUrl } from '../harness.ts';

/** The flagship showcase educator: enquiry types, >20 reviews, every occurrence variant. */
export const CLAY = {
  id: 'edu_0001',
  slug: 'clay-and-kiln-pottery',
  name: 'Clay & Kiln Pottery Studio',
  enquiryTypes: ['Private party', 'Corporate team day', 'Gift vouchers', 'General question'],
  taster: { slug: 'beginners-wheel-throwing-taster', name: 'Beginners Wheel Throwing Taster' },
  /** A parent occurrence with six child sessions that are not individually bookable. */
  sixWeek: 'six-week-wheel-throwing-course',
  /** A series whose six child sessions are individually bookable (7 listed dates: two pages). */
  dropIn: 'handbuilding-drop-in-sessions',
  /** One listed date; one all-offers-ended, one private, one past. */
  glaze: 'glaze-lab-colour-and-surface',
} as const;

/** White-labelled (brand #4F46E5), blended course with FAQ, sections, dates, location and reviews. */
export const CODEFORGE = {
  id: 'edu_0002',
  slug: 'codeforge-academy',
  name: 'CodeForge Academy',
  brand: '#4F46E5',
  brandRgb: 'rgb(79, 70, 229)',
  bootcamp: { slug: 'full-stack-javascript-bootcamp', name: 'Full-Stack JavaScript Bootcamp', keyword: 'Bootcamp' },
} as const;

/** hide_pricing; a course with more than 10 weekly dates (three pages of 5). */
export const STILLWATER = { id: 'edu_0004', slug: 'stillwater-yoga', name: 'Stillwater Yoga', weekly: 'community-sunrise-flow' } as const;

/** can_be_contacted false: messages are refused by the API. */
export const HARMONY = { slug: 'harmony-music-academy', name: 'Harmony Music Academy' } as const;

export type Context = 'marketplace' | 'minisite' | 'embed';
export const CONTEXTS: readonly Context[] = ['marketplace', 'minisite', 'embed'];

/** Absolute URL of a path in a context: on the educator's subdomain for the minisite, else on the marketplace host. */
export function pageUrl(context: Context, educatorSlug: string, path: string): string {
  if (context === 'minisite') return minisiteUrl(educatorSlug, path);
  return url(path);
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The final URL after redirects. */
  url: string;
}

/** GET any URL of the product (marketplace or minisite host), following up to 5 redirects. */
export async function httpGet(target: string, redirects = 5): Promise<HttpResponse> {
  const u = new URL(target);
  const response = await new Promise<HttpResponse>((resolve, reject) => {
    const req = httpRequest(
      // A connection per request: a kept-alive socket can be closed by the server's idle timeout just as a slow
      // test (validating the last page under load) reuses it, which reads as 'socket hang up'.
      { host: '127.0.0.1', port: u.port, path: `${u.pathname}${u.search}`, method: 'GET', headers: { host: u.host, accept: 'text/html,*/*' }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), url: target }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
  const location = response.headers.location;
  if (response.status >= 300 && response.status < 400 && typeof location === 'string' && redirects > 0) {
    return httpGet(new URL(location, target).href, redirects - 1);
  }
  return response;
}

/** Resolves a link's href as the browser would, against the page it is on. */
export function absolute(href: string, base: string): string {
  return new URL(href, base).href;
}

/** Waits until the Astro island holding `inner` has hydrated (its `ssr` attribute is removed). */
export async function hydrated(inner: Locator): Promise<void> {
  await inner.first().waitFor();
  await inner.first().scrollIntoViewIfNeeded(); // client:visible islands hydrate once seen
  const island = inner.first().locator('xpath=ancestor::astro-island[1]');
  await expect.poll(() => island.getAttribute('ssr'), { timeout: 15_000 }).toBeNull();
}

/** A unique, valid e-mail address for one submission (found again in the database). */
export function uniqueEmail(tag: string): string {
  return `${tag}-${randomBytes(4).toString('hex')}@example.co.uk`;
}

export interface EnquiryInput {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  message?: string;
  enquiryType?: string;
}

/** Fills the enquiry or waitlist form found in `scope` (a page, or the frame locator of an embed). */
export async function fillEnquiryForm(scope: { getByLabel(text: string): Locator }, input: EnquiryInput): Promise<void> {
  if (input.enquiryType !== undefined) await scope.getByLabel('Enquiry Type').selectOption(input.enquiryType);
  await scope.getByLabel('First name').fill(input.firstName);
  await scope.getByLabel('Last name').fill(input.lastName);
  await scope.getByLabel('Email').fill(input.email);
  await scope.getByLabel('Telephone').fill(input.phone);
  if (input.message !== undefined) await scope.getByLabel('Message').fill(input.message);
}

/** The enquiries POST the page makes (for page.waitForResponse). */
export function isEnquiryPost(response: { url(): string; request(): { method(): string } }): boolean {
  return response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/enquiries';
}

/**
 * The occurrence ids a course's 'Dates' list must show, straight from the database (spec 3/4):
 * public, not ended, not a child session unless individually bookable, and not every offer ended
 * (an occurrence's own offers, else the course-wide ones); sorted by start.
 */
export async function expectedDateIds(db: Db, courseId: string, now: number): Promise<string[]> {
  const [occurrences, offers] = await Promise.all([
    db.selectFrom('occurrences').selectAll().where('course_id', '=', courseId).execute(),
    db.selectFrom('offers').select(['occurrence_id', 'end_at']).where('course_id', '=', courseId).execute(),
  ]);
  const courseWide = offers.filter((o) => o.occurrence_id === null);
  return occurrences
    .filter((o) => Number(o.end_datetime) > now)
    .filter((o) => o.visibility === 'public')
    .filter((o) => !o.parent_ref || Boolean(o.individually_bookable))
    .filter((o) => {
      const own = offers.filter((offer) => offer.occurrence_id === o.id);
      const list = own.length > 0 ? own : courseWide;
      return list.length === 0 || list.some((offer) => offer.end_at === null || Number(offer.end_at) > now);
    })
    .sort((a, b) => Number(a.start_datetime) - Number(b.start_datetime) || (a.id < b.id ? -1 : 1))
    .map((o) => o.id);
}

/** The occurrence ids of the 'Select' links in the shown page of a 'Dates' list. */
export async function shownDateIds(dates: Locator): Promise<string[]> {
  const hrefs = await dates.locator('ul.dates > li a[href*="occurrence="]').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
  return hrefs.map((href) => new URL(href).searchParams.get('occurrence') ?? '');
}

/**
 * A third-party website on another origin (http://127.0.0.1:{port}, while the product is on
 * http://localhost:{port}) whose pages embed ours with public/embed.js: `GET /?page=&course=&height=`
 * serves a page with one embed element (docs/embed.md options).
 */
export interface HostSite {
  origin: string;
  pageUrl(options?: { page?: string; course?: string; height?: number }): string;
  close(): Promise<void>;
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export async function startHostSite(marketplaceOrigin: string, educatorSlug: string): Promise<HostSite> {
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://host.invalid');
    if (u.pathname === '/favicon.ico') {
      res.writeHead(404).end();
      return;
    }
    const page = u.searchParams.get('page') ?? 'courses';
    const course = u.searchParams.get('course') ?? '';
    const height = u.searchParams.get('height') ?? '600';
    const attrs = [
      'data-marketplace-embed',
      `data-educator="${escapeAttr(educatorSlug)}"`,
      `data-page="${escapeAttr(page)}"`,
      course ? `data-course="${escapeAttr(course)}"` : '',
      `data-height="${escapeAttr(height)}"`,
      'data-title="Our courses"',
    ].filter(Boolean).join(' ');
    const html = `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>A pottery blog</title></head>
<body style="margin:0;font-family:sans-serif">
  <header style="height:40px">Our friends at the studio</header>
  <div id="embed" ${attrs}></div>
  <footer>Footer of the host site</footer>
  <script>
    // What the frames tell this page, for the tests: [{origin, type, height}].
    window.embedMessages = [];
    window.addEventListener('message', function (e) {
      if (e.data && typeof e.data === 'object') window.embedMessages.push({ origin: e.origin, type: e.data.type, height: e.data.height });
    });
  </script>
  <script async src="${marketplaceOrigin}/embed.js"></script>
</body></html>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    pageUrl(options = {}) {
      const q = new URLSearchParams();
      if (options.page) q.set('page', options.page);
      if (options.course) q.set('course', options.course);
      if (options.height) q.set('height', String(options.height));
      const qs = q.toString();
      return `${origin}/${qs ? `?${qs}` : ''}`;
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
