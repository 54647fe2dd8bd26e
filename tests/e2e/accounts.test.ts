/**
 * Accounts in the browser: sign up and log in both ways, save courses from cards on the marketplace
 * and on a minisite (whose session arrives by the localhost hand-off, without logging in twice), Saved, write
 * and delete one's own review, log out back to the page, the admin banner, the post-login redirect rules, and
 * the embed's login through a first-party window without third-party cookies.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { closeBrowser, minisiteUrl, newPage, productDb, url, baseUrl } from './harness.ts';
import type { Db } from '../../db/client.ts';
import { hydrated } from './helpers/public.ts';
import { hashPassword } from '../../api/auth/crypto.ts';
import { createUser } from '../../api/auth/users.ts';

const PASSWORD = 'a sturdy test password';

let db: Db;
let educator: { id: string; slug: string; name: string };
let courses: { id: string; slug: string; name: string }[];

beforeAll(async () => {
  db = productDb();
  const rows = await db
    .selectFrom('courses as c')
    .innerJoin('educators as e', 'e.id', 'c.educator_id')
    .select(['e.id as educator_id', 'e.slug as educator_slug', 'e.name as educator_name', 'c.id', 'c.slug', 'c.name'])
    .where('c.published', '=', true)
    .where('e.claimed', '=', true)
    .orderBy('e.slug')
    .orderBy('c.id')
    .execute();
  const first = rows[0];
  educator = { id: first.educator_id, slug: first.educator_slug, name: first.educator_name };
  courses = rows.filter((r) => r.educator_id === educator.id).map((r) => ({ id: r.id, slug: r.slug, name: r.name }));
  expect(courses.length).toBeGreaterThanOrEqual(3);
});

afterAll(async () => {
  await closeBrowser();
  await db.destroy();
});

function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
}

/** A confirmed account with a password, made directly in the database. */
async function makeUser(prefix: string, names: { firstName?: string; lastName?: string; studentId?: string } = {}) {
  const email = uniqueEmail(prefix);
  const { user } = await createUser(db, {
    email, firstName: names.firstName ?? 'Pat', lastName: names.lastName ?? 'Learner', passwordHash: await hashPassword(PASSWORD), emailConfirmed: true,
  }, Math.floor(Date.now() / 1000));
  if (names.studentId) await db.updateTable('users').set({ student_id: names.studentId }).where('id', '=', user.id).execute();
  return { ...user, student_id: names.studentId ?? user.student_id };
}

/** The login link last e-mailed to the address, once the outbox holds it. */
async function lastLink(email: string): Promise<string> {
  return vi.waitFor(async () => {
    const mail = await db.selectFrom('outbox_messages').select('text_body').where('to_address', '=', email).orderBy('id', 'desc').executeTakeFirst();
    const match = mail ? /(https?:\/\/\S+\/login\?token=[A-Za-z0-9_-]+)/.exec(mail.text_body) : null;
    if (!match) throw new Error(`no link e-mailed to ${email}`);
    return match[1]!;
  }, { timeout: 5_000, interval: 50 });
}

function heart(page: Page, courseId: string) {
  return page.locator(`[data-save-course="${courseId}"] button.save-heart`);
}

async function logInWithPassword(page: Page, email: string) {
  await page.locator('html[data-login-ready]').waitFor({ state: 'attached' });
  await page.getByRole('tab', { name: 'Log in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

async function accountButton(page: Page) {
  return page.locator('#account-menu').getByRole('button', { name: 'My Account' });
}

describe('a learner’s walk: sign up, save, Saved everywhere, review, log out', () => {
  it('signs up from the save modal, saves on the marketplace and a minisite, reviews, deletes it, and logs out back to the page', async () => {
    const { page, context } = await newPage();
    const [c1, c2] = courses;
    const coursesPage = url(`/${educator.slug}/courses`);

    // Signed out: the heart opens "Log in to save this course"; the backdrop does not close it.
    await page.goto(coursesPage);
    await heart(page, c1.id).click();
    const modal = page.getByTestId('save-login-modal');
    // The heart opens the dialog once it has asked the API who is logged in: wait for it, not for the click alone.
    const title = modal.getByRole('heading', { name: 'Log in to save this course' });
    await title.waitFor({ state: 'visible' });
    await expect(title.isVisible()).resolves.toBe(true);
    await page.mouse.click(5, 5);
    // The click's handlers have run once two frames have been painted after it.
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
    expect(await modal.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    await modal.getByRole('button', { name: 'Log in or Sign Up' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(coursesPage);

    // Sign up by password: the account exists once the e-mailed link is opened.
    const email = uniqueEmail('walk');
    await page.locator('html[data-login-ready]').waitFor({ state: 'attached' });
    await page.getByRole('tab', { name: 'Sign up' }).click();
    await page.getByLabel('First name').fill('Wendy');
    await page.getByLabel('Last name').fill('Walker');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByTestId('check-email').waitFor();
    await page.goto(await lastLink(email));
    await page.getByRole('button', { name: 'Continue' }).click();

    // Back on the page it started from, with the course saved after authenticating.
    await page.waitForURL(coursesPage);
    await expect.poll(() => heart(page, c1.id).getAttribute('aria-pressed')).toBe('true');
    const user = await db.selectFrom('users').select(['id', 'student_id', 'password_hash']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^scrypt\$/);

    // The minisite: no second login (the session arrives by hand-off), the saved heart shows, save another there.
    await page.goto(minisiteUrl(educator.slug, '/'));
    await (await accountButton(page)).waitFor();
    await expect.poll(() => heart(page, c1.id).getAttribute('aria-pressed')).toBe('true');
    await expect(heart(page, c2.id).getAttribute('aria-pressed')).resolves.toBe('false');
    await heart(page, c2.id).click();
    await expect.poll(() => heart(page, c2.id).getAttribute('aria-pressed')).toBe('true');

    // The heart turns on at once (local state); the save reaches the server a moment later.
    const savedIds = async () =>
      (await db.selectFrom('saved_courses').select('course_id').where('student_id', '=', user.student_id).execute()).map((s) => s.course_id).sort();
    await expect.poll(savedIds).toEqual([c1.id, c2.id].sort());

    // Saved, on the minisite and on the marketplace.
    await page.goto(minisiteUrl(educator.slug, '/profile/saved-courses'));
    await expect(page.getByTestId('saved-courses').textContent()).resolves.toContain(c1.name);
    await expect(page.getByTestId('saved-courses').textContent()).resolves.toContain(c2.name);
    await page.goto(url('/profile/saved-courses'));
    const list = page.getByTestId('saved-courses');
    await expect(list.textContent()).resolves.toContain(c1.name);
    await expect(list.textContent()).resolves.toContain(c2.name);

    // A review from the minisite's add-review screen.
    await page.goto(minisiteUrl(educator.slug, `/${c1.slug}/add-review`));
    await page.getByRole('heading', { name: `Review ${c1.name}` }).waitFor();
    // The rating is React state: a star checked before the form hydrates is lost, and the submit then asks for one.
    await hydrated(page.getByRole('button', { name: 'Submit review' }));
    await page.getByLabel('4 out of 5 stars').check({ force: true });
    await page.getByRole('group').filter({ hasText: 'Rating' }).waitFor();
    await page.getByText('Rate the details (optional)').click();
    await page.getByLabel('Facilitator').selectOption('5');
    await page.getByLabel('Your review').fill('Patient teacher and a lovely studio.');
    await page.getByRole('button', { name: 'Submit review' }).click();
    await page.getByTestId('review-done').waitFor();
    const review = await db.selectFrom('reviews').selectAll().where('reviewer_id', '=', user.student_id).executeTakeFirstOrThrow();
    expect(review).toMatchObject({ rating: 4, course_id: c1.id, verified: false, archived_at: null });
    expect(review.breakdown).toMatchObject({ facilitator: 5 });

    // Another user cannot delete it, even by calling the API.
    const stranger = await makeUser('stranger-walk');
    const other = await newPage();
    const login = await other.page.request.post(url('/api/auth/login'), { data: { email: stranger.email, password: PASSWORD }, headers: { origin: baseUrl() } });
    expect(login.status()).toBe(200);
    const refused = await other.page.request.delete(url(`/api/reviews/${review.id}`), { headers: { origin: baseUrl() } });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).type).toMatch(/auth\/forbidden$/);
    await other.context.close();

    // Delete it: trash → Delete / Cancel; Cancel returns to the icon; Delete archives and reloads.
    await page.goto(url('/profile'));
    const own = page.locator(`[data-own-review="${review.id}"]`);
    await own.getByRole('button', { name: 'Delete review' }).click();
    await own.getByRole('button', { name: 'Cancel' }).click();
    await own.getByRole('button', { name: 'Delete review' }).click();
    await Promise.all([page.waitForEvent('load'), own.getByRole('button', { name: 'Delete', exact: true }).click()]);
    await expect.poll(async () => (await db.selectFrom('reviews').select('archived_at').where('id', '=', review.id).executeTakeFirstOrThrow()).archived_at).not.toBeNull();
    await expect(page.locator(`[data-own-review="${review.id}"]`).count()).resolves.toBe(0);

    // Log out from the account dropdown: back on the page, signed out, on the minisite too.
    await page.goto(coursesPage);
    await (await accountButton(page)).click();
    await page.getByTestId('account-logout').click();
    await page.waitForURL(coursesPage);
    await page.locator('#account-menu').getByText('Log in or Sign Up').waitFor();
    await page.goto(minisiteUrl(educator.slug, '/'));
    await page.locator('#account-menu').getByText('Log in or Sign Up').waitFor();
    await context.close();
  });
});

describe('logging in', () => {
  it('logs in with a password and by an e-mailed link', async () => {
    const user = await makeUser('both-ways', { firstName: 'Bo' });
    let { page, context } = await newPage();
    await page.goto(url('/login'));
    await logInWithPassword(page, user.email);
    await page.waitForURL(url('/profile'));
    await (await accountButton(page)).click();
    await expect(page.locator('.account-menu__who').textContent()).resolves.toContain(user.email);
    await context.close();

    ({ page, context } = await newPage());
    await page.goto(url('/login'));
    await page.locator('html[data-login-ready]').waitFor({ state: 'attached' });
    await page.getByRole('tab', { name: 'E-mail me a link' }).click();
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByTestId('check-email').waitFor();
    await page.goto(await lastLink(user.email));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(url('/profile'));
    await context.close();
  });

  it('shows one message for a wrong password and an unknown address', async () => {
    const user = await makeUser('wrong');
    const { page, context } = await newPage();
    await page.goto(url('/login'));
    await page.locator('html[data-login-ready]').waitFor({ state: 'attached' });
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    const first = await page.getByRole('alert').textContent();
    await page.getByLabel('Email').fill(uniqueEmail('nobody'));
    // Wait for the second answer itself, so the message compared is the one it produced.
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/auth/login') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    expect((await answered).status()).toBe(401);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe(first);
    await context.close();
  });
});

describe('post-login redirect (spec 4, 5)', () => {
  async function loginWithRedirect(context: BrowserContext, page: Page, redirect: string, email: string) {
    await page.goto(url(`/login?redirect=${encodeURIComponent(redirect)}`));
    await page.locator('html[data-login-ready]').waitFor({ state: 'attached' });
    const stored = await page.evaluate(() => localStorage.getItem('authRedirect'));
    await logInWithPassword(page, email);
    return stored;
  }

  it('follows a redirect to our own pages, including a minisite (signed in there), and refuses a foreign host and the site root', async () => {
    const user = await makeUser('redirects');
    let { page, context } = await newPage();
    const target = minisiteUrl(educator.slug, `/${courses[0].slug}`);
    expect(await loginWithRedirect(context, page, target, user.email)).toBe(target);
    await page.waitForURL(target);
    await (await accountButton(page)).waitFor();
    await context.close();

    ({ page, context } = await newPage());
    expect(await loginWithRedirect(context, page, 'https://evil.example/steal', user.email)).toBeNull();
    await page.waitForURL(url('/profile'));
    await context.close();

    ({ page, context } = await newPage());
    expect(await loginWithRedirect(context, page, `${baseUrl()}/`, user.email)).toBeNull();
    await page.waitForURL(url('/profile'));
    await context.close();
  });

  it('sends an educator admin to the admin host when there is no stored redirect', async () => {
    const admin = await makeUser('admin-login');
    await db.insertInto('educator_admins').values({ user_id: admin.id, educator_id: educator.id, created_at: Math.floor(Date.now() / 1000) }).execute();
    const { page, context } = await newPage();
    const identity = await (await page.request.get(url('/api/identity'))).json();
    const adminOrigin: string = identity.site.adminOrigin;
    await context.route(`${adminOrigin}/**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Admin app</h1>' }));
    await page.goto(url('/login'));
    await logInWithPassword(page, admin.email);
    await page.waitForURL((u) => u.origin === new URL(adminOrigin).origin);
    await context.close();
  });
});

describe('educator admins', () => {
  it('shows the admin banner and Admin Dashboard to an admin of this educator only', async () => {
    const admin = await makeUser('admin', { firstName: 'Ada', lastName: 'Admin' });
    await db.insertInto('educator_admins').values({ user_id: admin.id, educator_id: educator.id, created_at: Math.floor(Date.now() / 1000) }).execute();
    const learner = await makeUser('not-admin');

    let { page, context } = await newPage();
    await page.goto(url(`/login?redirect=${encodeURIComponent(url(`/${educator.slug}`))}`));
    await logInWithPassword(page, admin.email);
    await page.waitForURL(url(`/${educator.slug}`));
    const banner = page.getByText('You can manage this page as an admin');
    await banner.waitFor();
    const view = page.getByRole('link', { name: 'View in Admin' });
    await expect(view.getAttribute('target')).resolves.toBe('_blank');
    await expect(view.getAttribute('href')).resolves.toContain(`educator-context=${educator.id}`);
    await (await accountButton(page)).click();
    const menu = page.locator('.account-menu__panel');
    await expect(menu.getByText('Admin Dashboard').isVisible()).resolves.toBe(true);
    await expect(menu.getByText('Student Profile').isVisible()).resolves.toBe(true);
    await expect(menu.getByRole('link', { name: educator.name }).getAttribute('target')).resolves.toBe('_blank');
    // On another educator's page: no banner.
    const other = await db.selectFrom('educators').select('slug').where('id', '!=', educator.id).where('claimed', '=', true).executeTakeFirstOrThrow();
    await page.goto(url(`/${other.slug}`));
    await (await accountButton(page)).waitFor();
    await expect(page.getByText('You can manage this page as an admin').count()).resolves.toBe(0);
    await context.close();

    ({ page, context } = await newPage());
    await page.goto(url(`/login?redirect=${encodeURIComponent(url(`/${educator.slug}`))}`));
    await logInWithPassword(page, learner.email);
    await page.waitForURL(url(`/${educator.slug}`));
    await (await accountButton(page)).click();
    await expect(page.locator('.account-menu__panel').getByText('User Profile').isVisible()).resolves.toBe(true);
    await expect(page.locator('.account-menu__panel').getByText('Admin Dashboard').count()).resolves.toBe(0);
    await expect(page.getByText('You can manage this page as an admin').count()).resolves.toBe(0);
    await context.close();
  });
});

describe('review deletion on the reviews page', () => {
  it('shows the trash icon on the author’s own reviews only, and the server refuses anyone else', async () => {
    // A learner who owns seeded reviews (their studentId is the seed's reviewer id).
    const seeded = await db
      .selectFrom('reviews')
      .select(['id', 'reviewer_id'])
      .where('educator_id', '=', educator.id)
      .where('reviewer_id', 'is not', null)
      .where('archived_at', 'is', null)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    const author = await makeUser('author', { studentId: seeded.reviewer_id! });
    const stranger = await makeUser('stranger');

    let { page, context } = await newPage();
    await page.goto(url(`/login?redirect=${encodeURIComponent(url(`/${educator.slug}/reviews`))}`));
    await logInWithPassword(page, stranger.email);
    await page.waitForURL(url(`/${educator.slug}/reviews`));
    await (await accountButton(page)).waitFor();
    await page.locator('html[data-review-actions-ready]').waitFor({ state: 'attached' });
    await expect(page.getByRole('button', { name: 'Delete review' }).count()).resolves.toBe(0);
    // Calling the API directly is refused with a problem.
    const refused = await page.request.delete(url(`/api/reviews/${seeded.id}`), { headers: { origin: baseUrl() } });
    expect(refused.status()).toBe(403);
    expect(refused.headers()['content-type']).toContain('application/problem+json');
    await context.close();

    ({ page, context } = await newPage());
    await page.goto(url(`/login?redirect=${encodeURIComponent(url(`/${educator.slug}/reviews`))}`));
    await logInWithPassword(page, author.email);
    await page.waitForURL(url(`/${educator.slug}/reviews`));
    const mine = page.locator(`.review__actions[data-review-id="${seeded.id}"]`);
    await mine.getByRole('button', { name: 'Delete review' }).click();
    await Promise.all([page.waitForEvent('load'), mine.getByRole('button', { name: 'Delete', exact: true }).click()]);
    const row = await db.selectFrom('reviews').select('archived_at').where('id', '=', seeded.id).executeTakeFirstOrThrow();
    expect(row.archived_at).not.toBeNull();
    await context.close();
  });
});

describe('embed login without third-party cookies', () => {
  it('logs in through a first-party window and gives the embed its own token', async () => {
    const user = await makeUser('embed');
    const { page, context } = await newPage();
    const embedUrl = url(`/embed/${educator.slug}`);
    // A partner's page on another site: its own small server on the loopback (each *.localhost host is its own
    // site for Chromium, and a loopback address keeps Local Network Access checks satisfied).
    const partnerServer = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>Partner</title><iframe id="w" src="${embedUrl}" width="800" height="600"></iframe>`);
    });
    await new Promise<void>((ok) => partnerServer.listen(0, '127.0.0.1', ok));
    const partner = `http://partner-site.localhost:${(partnerServer.address() as AddressInfo).port}`;
    await page.goto(`${partner}/page`);
    const frame = page.frameLocator('#w');
    await frame.locator('body').waitFor();
    const embed = page.frames().find((f) => f.url().startsWith(embedUrl))!;
    const main = new URL(baseUrl()).origin;
    // The embed listens for the code (as src/stores/embed-login.ts does) and opens the main site's login.
    await embed.evaluate((origin) => {
      (window as unknown as { __login: Promise<string> }).__login = new Promise((resolve) => {
        window.addEventListener('message', async (event) => {
          if (event.origin !== origin || event.data?.type !== 'marketplace:embed-code') return;
          const res = await fetch('/api/auth/embed/exchange', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: event.data.code }) });
          const body = await res.json();
          // A third-party frame may be denied sessionStorage: the store then keeps the token in memory.
          try {
            sessionStorage.setItem('marketplace:embed_token', body.token);
          } catch {
            /* memory only */
          }
          resolve(body.token);
        });
      });
    }, main);
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      embed.evaluate((origin) => window.open(`${origin}/login?mode=embed`, 'marketplace-login', 'popup'), main),
    ]);
    await logInWithPassword(popup, user.email);
    const token = await embed.evaluate(() => (window as unknown as { __login: Promise<string> }).__login);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect.poll(() => popup.isClosed()).toBe(true);
    const seen = await embed.evaluate(async (t) => {
      const withCookies = await (await fetch('/api/identity', { credentials: 'include' })).json();
      const withToken = await (await fetch('/api/identity', { headers: { authorization: `Bearer ${t}` } })).json();
      return { cookie: withCookies.authenticated, token: withToken.authenticated, email: withToken.email };
    }, token);
    // Inside the third-party page the first-party session cookie is not sent; the embed's token works.
    expect(seen).toEqual({ cookie: false, token: true, email: user.email });
    await context.close();
    partnerServer.close();
  });
});
