/**
 * Gift vouchers in the browser (docs/gifts-and-memberships.md): the embed's gift checkout
 * (/embed/{slug}/gift-checkout, an on-demand page) renders the island on its Amount step with the educator's amounts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBrowser, productDb, url } from './harness.ts';
import type { Db } from '../../db/client.ts';
import { learnerPage } from './helpers/learners.ts';

const SLUG = 'clay-and-kiln-pottery';
let db: Db;

beforeAll(() => {
  db = productDb();
});
afterAll(async () => {
  await closeBrowser();
  await db.destroy();
});

describe('gift vouchers', () => {
  it('opens the embed’s gift checkout on its Amount step', async () => {
    const { page } = await learnerPage();
    await page.goto(url(`/embed/${SLUG}/gift-checkout`));
    await page.getByRole('heading', { name: 'Choose an Amount', level: 2 }).waitFor({ timeout: 20_000 });
    await expect(page.getByRole('radio', { name: 'Another amount' }).count()).resolves.toBe(1);
    await page.locator('.checkout-summary__course', { hasText: 'Gift Voucher' }).waitFor();
  });
});
