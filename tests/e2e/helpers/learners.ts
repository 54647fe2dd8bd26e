/**
 * Learners for browser tests: a confirmed account made directly in the product's database, and a browser
 * context logged in through the real accounts API. Analytics scripts are answered locally (no network here).
 */
import { expect } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { Db } from '../../../db/client.ts';
import { hashPassword } from '../../../api/auth/crypto.ts';
import { createUser } from '../../../api/auth/users.ts';
import { baseUrl, newPage, url } from '../harness.ts';

export const LEARNER_PASSWORD = 'a sturdy checkout password';

/** A confirmed learner with a unique e-mail address; returns the address. */
export async function makeLearner(db: Db, prefix: string, name: { firstName: string; lastName: string } = { firstName: 'Ada', lastName: 'Lovelace' }): Promise<string> {
  const email = `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
  await createUser(db, { email, ...name, passwordHash: await hashPassword(LEARNER_PASSWORD), emailConfirmed: true }, Math.floor(Date.now() / 1000));
  return email;
}

/** Logs the browser context in through the accounts API (the session cookie lands in the context). */
export async function logIn(context: BrowserContext, email: string): Promise<void> {
  const res = await context.request.post(url('/api/auth/login'), { data: { email, password: LEARNER_PASSWORD }, headers: { origin: baseUrl() } });
  expect(res.status()).toBe(200);
}

/** A page (logged in when an e-mail is given) whose analytics scripts are answered locally. */
export async function learnerPage(email?: string, height = 900): Promise<{ page: Page; context: BrowserContext }> {
  const { page, context } = await newPage({ viewport: { width: 1280, height } });
  await context.route(/googletagmanager\.com|connect\.facebook\.net/, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }));
  if (email) await logIn(context, email);
  return { page, context };
}
