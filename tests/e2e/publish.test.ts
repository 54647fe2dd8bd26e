/**
 * Publishing, as a learner sees it: a review written on the add-review screen appears on the course page
 * (marketplace and embed) within seconds, without a rebuild — the server's publisher re-renders the
 * pre-rendered pages from the change feed (api/publish/publisher.ts).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeBrowser, productDb, url } from './harness.ts';
import { learnerPage, makeLearner } from './helpers/learners.ts';
import { hydrated } from './helpers/public.ts';

afterAll(async () => {
  await closeBrowser();
});

// Publishing waits for a batch and renders the educator's pages (more on a loaded machine): a generous bound.
describe('publishing a review', { timeout: 240_000 }, () => {
  it('a review written in the browser shows on the pre-rendered course page', async () => {
    const db = productDb();
    // An educator the other browser tests leave alone: the last one with published courses.
    const course = await db.selectFrom('courses as c').innerJoin('educators as e', 'e.id', 'c.educator_id')
      .select(['c.slug', 'c.name', 'e.slug as educatorSlug'])
      .where('c.published', '=', true).orderBy('e.slug', 'desc').orderBy('c.slug').executeTakeFirstOrThrow();
    const email = await makeLearner(db, 'publish-review', { firstName: 'Pia', lastName: 'Publisher' });
    const { page, context } = await learnerPage(email);
    const message = `Published without a rebuild ${Date.now().toString(36)}`;

    await page.goto(url(`/${course.educatorSlug}/${course.slug}/add-review`));
    await page.getByRole('heading', { name: `Review ${course.name}` }).waitFor();
    // The rating is React state: a star checked before the form hydrates is lost, and the submit then asks for one.
    await hydrated(page.getByRole('button', { name: 'Submit review' }));
    await page.getByLabel('5 out of 5 stars').check({ force: true });
    await page.getByLabel('Your review').fill(message);
    await page.getByRole('button', { name: 'Submit review' }).click();
    await page.getByTestId('review-done').waitFor();

    // The static course page, reloaded until the publisher has swapped the new one in (bounded).
    for (const path of [`/${course.educatorSlug}/${course.slug}`, `/embed/${course.educatorSlug}/${course.slug}`]) {
      await expect.poll(async () => {
        const res = await page.goto(url(path));
        expect(res?.status()).toBe(200);
        return (await page.content()).includes(message);
      }, { timeout: 180_000, interval: 1000 }).toBe(true);
      await expect(page.getByText(message)).toBeDefined();
      expect(await page.getByText(message).first().isVisible()).toBe(true);
    }
    await context.close();
  });
});
