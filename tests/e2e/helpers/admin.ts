/**
 * The educator admin in browser tests: its host on the running product, signing up as a new user does (the form on
 * the marketplace, then the e-mailed link), and logging in on the admin host through its own login page.
 */
import { expect, inject, vi } from 'vitest';
import type { Page } from 'playwright-core';
import type { Db } from '../../../db/client.ts';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { newPage, url } from '../harness.ts';
import { LEARNER_PASSWORD, makeLearner } from './learners.ts';
import { makeEducatorAdmin } from '../../helpers/auth.ts';
import { courseRow, educatorRow } from '../../api/public-fixtures.ts';

/** http://admin.localhost:{port}{path} */
export function adminUrl(path: string): string {
  return `http://admin.localhost:${inject('port')}${path}`;
}

/** An admin screen of one educator: http://admin.localhost:{port}{path} with its educator-context. */
export function educatorAdminUrl(educatorId: string, path: string): string {
  return adminUrl(`${path}${path.includes('?') ? '&' : '?'}educator-context=${educatorId}`);
}

/**
 * What an admin screen's test starts from: an educator with one course, administered by a new account "Ada Admin"
 * (`key` names its e-mail). Returns the account's e-mail and user.
 */
export async function seedEducatorAdmin(db: Db, key: string, educator: { id: string; slug: string; name: string }, course: { id: string; slug: string; name: string; spaces: number }): Promise<{ email: string; user: { id: string; student_id: string } }> {
  await db.insertInto('educators').values(educatorRow(educator)).execute();
  await db.insertInto('courses').values(courseRow({ ...course, educator_id: educator.id })).execute();
  const email = await makeLearner(db, key, { firstName: 'Ada', lastName: 'Admin' });
  const user = await db.selectFrom('users').select(['id', 'student_id']).where('email', '=', email).executeTakeFirstOrThrow();
  await makeEducatorAdmin(db, user.id, educator.id);
  return { email, user: { id: user.id, student_id: user.student_id } };
}

/** The sign-up link last e-mailed to the address. */
export async function lastLink(db: Db, email: string): Promise<string> {
  return vi.waitFor(async () => {
    const mail = await db.selectFrom('outbox_messages').select('text_body').where('to_address', '=', email).orderBy('id', 'desc').executeTakeFirst();
    const match = mail ? /(https?:\/\/\S+\/login\?token=[A-Za-z0-9_-]+)/.exec(mail.text_body) : null;
    if (!match) throw new Error(`no link e-mailed to ${email}`);
    return match[1]!;
  }, { timeout: 10_000, interval: 100 });
}

/**
 * Signs up on the marketplace's login page (spec 2.5) and follows the e-mailed link, which confirms the account and
 * logs it in there.
 */
export async function signUpInBrowser(page: Page, db: Db, input: { firstName: string; lastName: string; email: string; password: string }): Promise<void> {
  await page.goto(url('/login'));
  await page.locator('html[data-login-ready]').waitFor({ state: 'attached' });
  await page.getByRole('tab', { name: 'Sign up' }).click();
  await page.getByLabel('First name').fill(input.firstName);
  await page.getByLabel('Last name').fill(input.lastName);
  await page.getByLabel('Email').fill(input.email);
  await page.getByLabel('Password').fill(input.password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByTestId('check-email').waitFor();
  await page.goto(await lastLink(db, input.email));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((u) => !u.searchParams.has('token'));
  const user = await db.selectFrom('users').select(['email_confirmed', 'password_hash']).where('email', '=', input.email).executeTakeFirstOrThrow();
  expect(user.email_confirmed).toBe(true);
  expect(user.password_hash).toBeTruthy();
}

/** Opens an admin page without a session: the admin host's login page, then back to it once logged in. */
export async function logInOnAdminHost(page: Page, email: string, password: string, then: string): Promise<void> {
  await page.goto(adminUrl(then));
  await page.waitForURL((u) => u.pathname === '/login');
  await page.locator('html[data-login-ready]').waitFor({ state: 'attached' });
  await page.getByRole('tab', { name: 'Log in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForURL((u) => u.host.startsWith('admin.') && u.pathname === then.split('?')[0]);
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** A page at `width` px logged in on the admin host as `email` (the learner's password of tests/e2e/helpers/learners.ts). */
export async function adminPageAs(email: string, width: number): Promise<{ page: Page; close: () => Promise<void> }> {
  const { page, context } = await newPage({ viewport: { width, height: 900 }, bypassCSP: true });
  await page.goto(adminUrl('/login'));
  const status = await page.evaluate(async ({ email, password }) => {
    const res = await fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }), credentials: 'same-origin' });
    return res.status;
  }, { email, password: LEARNER_PASSWORD });
  expect(status).toBe(200);
  return { page, close: () => context.close() };
}

/** axe's WCAG 2.2 AA violations on the page, each with its first targets. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} (${(n.failureSummary ?? '').split('\n').slice(1, 2).join('').trim()})`).join(' | ')}`);
  }, WCAG_TAGS);
}
