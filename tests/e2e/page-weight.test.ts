/**
 * Page weight (the built site, as served): a page with nothing interactive ships no JavaScript; a page whose only
 * interactive parts are the site-wide ones (account menu, save hearts, admin notice, review delete, bio toggle)
 * loads no React; a course page ships at most 85 KB of gzipped JavaScript, measured as `npm run bench:build`
 * reports it (tests/helpers/page-weight.ts). Byte counts only, no timing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { closeBrowser, minisiteUrl, newPage, productDb, url } from './harness.ts';
import { CLAY } from './helpers/public.ts';
import { jsClosure, scriptInfo, isReactScript, type ScriptInfo } from '../helpers/page-weight.ts';

/** The course page's budget of gzipped JavaScript. */
const COURSE_PAGE_BUDGET = 85 * 1024;

let educatorSlug: string;
let coursePaths: string[];

beforeAll(async () => {
  const db = productDb();
  const rows = await db
    .selectFrom('courses as c')
    .innerJoin('educators as e', 'e.id', 'c.educator_id')
    .select(['e.slug as educator_slug', 'c.slug'])
    .where('c.published', '=', true)
    .where('e.claimed', '=', true)
    .orderBy('e.slug')
    .orderBy('c.slug')
    .execute();
  await db.destroy();
  educatorSlug = rows[0]!.educator_slug;
  coursePaths = rows.map((r) => `/${r.educator_slug}/${r.slug}`);
});

afterAll(closeBrowser);

/** Opens a page and keeps the body of every script it loads, until the page has settled. */
async function scriptsLoaded(page: Page, address: string): Promise<{ url: string; text: string }[]> {
  const pending: Promise<{ url: string; text: string } | null>[] = [];
  const onResponse = (response: Response) => {
    if (response.request().resourceType() !== 'script') return;
    pending.push(response.text().then((text) => ({ url: response.url(), text }), () => null));
  };
  page.on('response', onResponse);
  await page.goto(address);
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  return (await Promise.all(pending)).filter((s): s is { url: string; text: string } => s !== null);
}

describe('pages without React', () => {
  it('the 404 page loads no JavaScript at all', async () => {
    const { page, context } = await newPage();
    const scripts = await scriptsLoaded(page, url('/no-such-educator-here/at-all'));
    expect(scripts.map((s) => s.url)).toEqual([]);
    await context.close();
  });

  it('pages whose only interactive parts are site-wide load no React, and those parts still work', async () => {
    const { page, context } = await newPage();
    const pages = [
      url('/terms'), url('/privacy'), url('/pricing'), url('/'), url(`/${educatorSlug}`), url(`/${CLAY.slug}`),
      url(`/${educatorSlug}/courses`), minisiteUrl(CLAY.slug, '/'), minisiteUrl(CLAY.slug, '/about'),
    ];
    for (const address of pages) {
      const scripts = await scriptsLoaded(page, address);
      expect(scripts.filter((s) => isReactScript(s)).map((s) => s.url), address).toEqual([]);
      expect(await page.locator('astro-island').count(), address).toBe(0);
      // The account menu is a plain script now: it must still answer.
      await page.locator('#account-menu').getByText('Log in or Sign Up').waitFor();
    }
    await context.close();
  });

  it('the long bio still opens and closes without React', async () => {
    const { page, context } = await newPage();
    await page.goto(url(`/${CLAY.slug}`));
    const toggle = page.locator('[data-bio-toggle] button');
    if ((await toggle.count()) === 0) {
      // Only a bio longer than 520 characters is collapsible; the showcase educator has one.
      throw new Error(`${CLAY.slug} has no collapsible bio`);
    }
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    await toggle.click();
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(toggle.textContent()).resolves.toBe('Read less');
    await expect(page.locator('.bio').getAttribute('class')).resolves.toContain('bio--expanded');
    await toggle.click();
    await expect(toggle.textContent()).resolves.toBe('Read more');
    await context.close();
  });
});

describe('course page weight', () => {
  it(`every marketplace course page ships at most ${COURSE_PAGE_BUDGET / 1024} KB of gzipped JavaScript`, async () => {
    const cache = new Map<string, Promise<ScriptInfo>>();
    const load = (ref: string) => {
      let info = cache.get(ref);
      if (!info) {
        info = fetch(url(ref)).then(async (res) => scriptInfo(ref, res.ok ? Buffer.from(await res.arrayBuffer()) : null));
        cache.set(ref, info);
      }
      return info;
    };
    expect(coursePaths.length).toBeGreaterThan(10);
    const weights: { path: string; gzip: number; react: boolean }[] = [];
    for (const path of coursePaths) {
      const res = await fetch(url(path));
      expect(res.status, path).toBe(200);
      const closure = await jsClosure(await res.text(), load);
      weights.push({ path, gzip: closure.gzip, react: closure.react });
    }
    const heaviest = weights.reduce((a, b) => (b.gzip > a.gzip ? b : a));
    console.log(`[page-weight] ${weights.length} course pages, heaviest ${(heaviest.gzip / 1024).toFixed(1)} KB gzipped JS (${heaviest.path})`);
    expect(weights.filter((w) => w.gzip > COURSE_PAGE_BUDGET)).toEqual([]);
    // Measured, not vacuous: a course page's islands (dates, booking aside) are React.
    expect(weights.every((w) => w.react && w.gzip > 0)).toBe(true);
  });
});
