/**
 * Logging out at Payment and reopening the checkout (spec 2.14): the login screen shows in place of the
 * after-login step, the spaces stay held, and after logging in again the checkout resumes at Payment with the
 * choices made — it does not start a new checkout at Spaces.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { closeBrowser, productDb, url, baseUrl } from './harness.ts';
import type { Db } from '../../db/client.ts';
import { learnerPage, logIn, makeLearner } from './helpers/learners.ts';

let db: Db;
beforeAll(() => {
  db = productDb();
});
afterAll(async () => {
  await closeBrowser();
  await db.destroy();
});

const heading = (page: Page, name: string) => page.getByRole('heading', { name, level: 2 }).first();
const cont = (page: Page) => page.locator('.checkout-summary__continue').click();

describe('logging out at Payment', () => {
  it('shows the login step in its place, keeps the hold, and resumes at Payment after login', async () => {
    const email = await makeLearner(db, 'resume');
    const { page, context } = await learnerPage(email);
    await page.goto(url('/checkout?flow=booking&course=crs_0001_01'));
    await heading(page, 'Select Date').waitFor();
    await page.locator('.date-option:not([disabled])').first().click();
    await heading(page, 'Select Spaces').waitFor();
    await page.locator('.checkout-summary').getByText('Taster place', { exact: true }).waitFor();
    await cont(page);
    await heading(page, 'Contact Info').waitFor();
    await page.getByLabel('Mobile number').fill('07700 900123');
    await page.getByRole('radio', { name: 'Never' }).first().check();
    await page.getByRole('checkbox', { name: 'I accept the Terms and Privacy Policy *' }).check();
    await cont(page);
    await heading(page, 'Payment').waitFor();
    const checkoutUrl = page.url();
    const checkoutId = new URL(checkoutUrl).searchParams.get('checkoutId');
    expect(checkoutId).toMatch(/^chk_/);
    const held = await db.selectFrom('space_holds').select(['spaces', 'status']).where('checkout_id', '=', checkoutId!).executeTakeFirstOrThrow();
    expect(held).toMatchObject({ spaces: 1, status: 'held' });

    // Log out (as the Contact Info step's link does), then open the checkout again.
    const out = await context.request.post(url('/api/auth/logout'), { headers: { origin: baseUrl() } });
    expect(out.status()).toBe(204);
    await page.goto(checkoutUrl);
    await heading(page, 'Log in or Sign Up').waitFor();
    expect(new URL(page.url()).searchParams.get('checkoutId')).toBe(checkoutId);
    await expect(page.locator('.checkout-breadcrumb [aria-current="step"]').textContent()).resolves.toContain('Payment');
    await expect(db.selectFrom('space_holds').select('status').where('checkout_id', '=', checkoutId!).executeTakeFirstOrThrow()).resolves.toEqual({ status: 'held' });

    // Log in again: the same checkout continues at Payment with what was chosen.
    await logIn(context, email);
    await page.reload();
    await heading(page, 'Payment').waitFor();
    expect(new URL(page.url()).searchParams.get('checkoutId')).toBe(checkoutId);
    await page.locator('.checkout-summary').getByText('Taster place', { exact: true }).waitFor();
    await page.getByRole('radio', { name: 'Card' }).waitFor();
    await context.close();
  });
});
