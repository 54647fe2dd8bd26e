import { afterAll, describe, expect, it } from 'vitest';
import { closeBrowser, newPage, url, productDb } from './harness.ts';

afterAll(closeBrowser);

describe('marketplace home page', () => {
  it('lists the demo educators and categories, and the API answers on the same origin', async () => {
    const db = productDb();
    const [educatorCount, firstCategory] = await Promise.all([
      db.selectFrom('educators').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      db.selectFrom('categories').select(['name', 'slug']).orderBy('name').executeTakeFirstOrThrow(),
    ]);
    await db.destroy();

    const { page, context } = await newPage();
    const response = await page.goto(url('/'));
    expect(response?.status()).toBe(200);
    expect(await page.title()).toMatch(/^Find and book courses across the UK/);
    const categoryLink = page.locator(`a[href="/courses/${firstCategory.slug}"]`);
    expect(await categoryLink.first().textContent()).toContain(firstCategory.name);
    const educatorLinks = await page.locator('section[aria-labelledby="educators-heading"] li a').count();
    expect(educatorLinks).toBe(Math.min(Number(educatorCount.n), 60));

    const health = await page.request.get(url('/api/health'));
    expect(health.status()).toBe(200);
    expect((await health.json()).status).toBe('ok');
    await context.close();
  });

  it('answers an unknown page with the 404 page', async () => {
    const { page, context } = await newPage();
    const response = await page.goto(url('/no-such-educator-here/at-all'));
    expect(response?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('404 - Not found');
    await context.close();
  });
});
