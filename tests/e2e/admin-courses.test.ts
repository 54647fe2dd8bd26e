/**
 * The educator admin's course screens in Chromium, on the admin host of the running product: a new educator's admin
 * finds the empty state, creates a course with an image and two offers from the keyboard, publishes it, sees
 * "Live on the marketplace, your site and your embed", and the marketplace shows it; /courses, /courses/new and the
 * course's editor have no axe violations (WCAG 2.2 AA) at desktop width and on a 390px-wide phone, where nothing
 * scrolls sideways.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { closeBrowser, newPage, productDb } from './harness.ts';
import type { Db } from '../../db/client.ts';
import { hashPassword } from '../../api/auth/crypto.ts';
import { createUser } from '../../api/auth/users.ts';
import { educatorRow } from '../api/public-fixtures.ts';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
const PASSWORD = 'an admin password for courses';

let db: Db;
let email: string;
const stamp = Date.now().toString(36);
const educator = { id: `edu_e2e_admin_${stamp}`, slug: `e2e-admin-studio-${stamp}`, name: 'E2E Admin Studio' };
let courseId: string;

const admin = (path: string) => `http://admin.localhost:${inject('port')}${path}`;
const withEducator = (path: string) => admin(`${path}${path.includes('?') ? '&' : '?'}educator-context=${educator.id}`);

beforeAll(async () => {
  db = productDb();
  await db.insertInto('educators').values(educatorRow({ id: educator.id, slug: educator.slug, name: educator.name, created_at: Math.floor(Date.now() / 1000) })).execute();
  email = `admin-courses-${stamp}@example.com`;
  const { user } = await createUser(db, { email, firstName: 'Ada', lastName: 'Admin', passwordHash: await hashPassword(PASSWORD), emailConfirmed: true }, Math.floor(Date.now() / 1000));
  await db.insertInto('educator_admins').values({ user_id: user.id, educator_id: educator.id, created_at: Math.floor(Date.now() / 1000) }).execute();
});

afterAll(async () => {
  await db.destroy();
  await closeBrowser();
});

/** A page signed in on the admin host (its own host-only session, as the login page would leave it). */
async function adminPage(width = 1280) {
  // axe is injected as an inline script, which the pages' own policy rightly refuses.
  const { page, context } = await newPage({ viewport: { width, height: 900 }, bypassCSP: true });
  await page.goto(admin('/login'));
  const status = await page.evaluate(async ([address, password]) => (await fetch('/api/auth/login', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: address, password }),
  })).status, [email, PASSWORD]);
  expect(status).toBe(200);
  return { page, context };
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} (${(n.failureSummary ?? '').split('\n').slice(1, 2).join('').trim()})`).join(' | ')}`);
  }, WCAG_TAGS);
}

/** Types into a field reached by its label, from the keyboard. */
async function typeInto(page: Page, selector: string, text: string) {
  await page.locator(selector).focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

/** Presses a button from the keyboard. */
async function press(page: Page, name: string | RegExp) {
  await page.getByRole('button', { name, exact: typeof name === 'string' }).focus();
  await page.keyboard.press('Enter');
}

describe('the admin\u2019s course screens', () => {
  it('shows a new educator what to do first', async () => {
    const { page, context } = await adminPage();
    try {
      await page.goto(withEducator('/courses'), { waitUntil: 'networkidle' });
      await expect(page.getByRole('heading', { name: 'Add your first course' }).isVisible()).resolves.toBe(true);
      expect(await page.getByRole('link', { name: 'Create your first course' }).getAttribute('href')).toBe(`/courses/new?educator-context=${educator.id}`);
    } finally {
      await context.close();
    }
  });

  it('creates a course with an image and two offers from the keyboard, publishes it, and the marketplace shows it', async () => {
    const { page, context } = await adminPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(withEducator('/courses/new'), { waitUntil: 'networkidle' });
      await typeInto(page, '#f-name', 'Moonlit Raku Firing');
      expect(await page.locator('#f-slug').inputValue()).toBe('moonlit-raku-firing');

      const photo = await sharp({ create: { width: 2000, height: 1125, channels: 3, background: '#7a3e1d' } }).jpeg().toBuffer();
      await page.locator('#f-img_urls').setInputFiles({ name: 'raku.jpg', mimeType: 'image/jpeg', buffer: photo });
      await page.getByText('Image added. Save the course to keep it.').waitFor();

      await typeInto(page, '#f-offers-0-name', 'Standard');
      await typeInto(page, '#f-offers-0-price', '45');
      await press(page, 'Add an offer');
      // The new offer's name has the focus.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-offers-1-name');
      await page.keyboard.type('Pair');
      await typeInto(page, '#f-offers-1-price', '80.00');
      await typeInto(page, '#f-offers-1-spaces', '2');
      await page.locator('#f-description').focus();
      await page.keyboard.type('Fire your own pots under the moon.');
      await typeInto(page, '#f-spaces', '10');

      // A mistake first: the editor names the field before anything is sent.
      await typeInto(page, '#f-offers-1-price', 'eighty');
      await press(page, 'Create course');
      const alert = page.getByRole('alert').filter({ hasText: 'The course was not saved' });
      await alert.waitFor();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('alert');
      expect(await page.locator('#f-offers-1-price-error').textContent()).toBe('must be an amount of money, like 12.50');
      expect(await page.locator('#f-offers-1-price').getAttribute('aria-invalid')).toBe('true');
      await typeInto(page, '#f-offers-1-price', '80.00');

      await press(page, 'Create course');
      await page.getByText('Course created as a draft.').waitFor();
      expect(page.url()).toMatch(/\/courses\/crs_[A-Za-z0-9_-]+\?educator-context=/);
      courseId = /\/courses\/(crs_[A-Za-z0-9_-]+)/.exec(page.url())![1]!;
      const saved = await db.selectFrom('offers').select(['name', 'price', 'spaces']).where('course_id', '=', courseId).orderBy('position').execute();
      expect(saved.map((o) => [o.name, Number(o.price), Number(o.spaces)])).toEqual([['Standard', 4500, 1], ['Pair', 8000, 2]]);

      await press(page, 'Publish');
      await page.getByText('Published.', { exact: true }).waitFor();
      const status = page.getByTestId('publish-status');
      await page.locator('[data-testid="publish-status"][data-live="true"]').waitFor({ timeout: 60_000 });
      expect(await status.textContent()).toContain('Live on the marketplace, your site and your embed');
      const marketplace = await status.getByRole('link', { name: 'marketplace' }).getAttribute('href');
      expect(marketplace).toBe(`http://localhost:${inject('port')}/${educator.slug}/moonlit-raku-firing`);
      expect(await page.locator('.course-history').textContent()).toContain('Ada Admin published the course');

      const publicPage = await context.newPage();
      const res = await publicPage.goto(marketplace!);
      expect(res?.status()).toBe(200);
      await expect(publicPage.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Moonlit Raku Firing');
      const image = publicPage.locator('img.course-image');
      expect(await image.getAttribute('src')).toMatch(/^\/api\/course-images\/img_[A-Za-z0-9_-]+\.webp$/);
      expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1600);
      expect(await publicPage.locator('body').textContent()).toContain('£45');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  for (const width of [1280, 390]) {
    it(`has no axe violations on the list, the new course form and the editor at ${width}px, and nothing scrolls sideways`, async () => {
      expect(courseId, 'the course made above').toBeTruthy();
      const { page, context } = await adminPage(width);
      const failures: Record<string, string[]> = {};
      try {
        for (const path of ['/courses', '/courses/new', `/courses/${courseId}`]) {
          await page.goto(withEducator(path), { waitUntil: 'networkidle' });
          await page.locator('main h1').waitFor();
          if (path.startsWith('/courses/crs_')) await page.getByRole('heading', { name: 'History' }).waitFor();
          const violations = await axeViolations(page);
          if (violations.length) failures[path] = violations;
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, `${path} scrolls sideways at ${width}px`).toBeLessThanOrEqual(0);
        }
      } finally {
        await context.close();
      }
      expect(failures).toEqual({});
    });
  }
});
