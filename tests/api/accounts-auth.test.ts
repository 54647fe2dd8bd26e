/**
 * Accounts: sign-up and log-in both ways, log-out, identity, cookies, tokens, rate limits,
 * cross-site request refusal, the minisite hand-off and the embed code exchange.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import {
  DEFAULT_PASSWORD, cookieFrom, lastMailTo, logIn, rawRequest, sessionCookieFrom, signUpAndLogin, tokenFromMail, uniqueEmail,
} from '../helpers/auth.ts';
import { SESSION_COOKIE, HANDOFF_STATE_COOKIE, SIGNUP_NONCE_COOKIE } from '../../api/http/cookies.ts';
import { sha256 } from '../../api/shared/ids.ts';
import { loadConfig } from '../../api/config.ts';
import { sharedCookieDomain } from '../../api/auth/site.ts';
import { ownSiteOf } from '../../api/shared/origins.ts';
import { keepRedirect } from '../../api/routes/auth.ts';
import { educatorRow } from './public-fixtures.ts';
import type { Db } from '../../db/client.ts';
import { PRODUCTION_ENV } from '../helpers/production-env.ts';

/** The minisite these tests use: its origin is ours only while an educator has the slug. */
async function addAcme(db: Db) {
  await db.insertInto('educators').values(educatorRow({ id: 'edu_acme', slug: 'acme', name: 'Acme' })).execute();
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ OUTBOX_DIR: mkdtempSync(join(tmpdir(), 'mkt-outbox-')) });
  await addAcme(server.db);
});
afterAll(async () => server.close());

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

async function identity(cookie?: string, extra: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/api/identity`, { headers: { ...(cookie ? { cookie } : {}), ...extra } });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return res.json();
}

describe('identity', () => {
  it('answers the spec Identity shape for a visitor', async () => {
    const body = await identity();
    expect(body).toMatchObject({
      authenticated: false, ready: true, id: null, userId: null, studentId: null, email: null, emailConfirmed: false,
      firstName: null, lastName: null, avatar: { url: null }, educators: [],
    });
    expect(body.site.context).toBe('marketplace');
  });

  it('lists the educators a user administers, in the order they became admins, and none for a learner', async () => {
    await server.db.insertInto('educators').values(educatorRow({ id: 'edu_second', slug: 'second-school', name: 'Second School' })).execute();
    const admin = await signUpAndLogin(server);
    const learner = await signUpAndLogin(server);
    await server.db.insertInto('educator_admins').values([
      { user_id: admin.user.id, educator_id: 'edu_second', created_at: 1_000 },
      { user_id: admin.user.id, educator_id: 'edu_acme', created_at: 2_000 },
    ]).execute();
    const adminIdentity = await identity(admin.cookie);
    expect(adminIdentity.authenticated).toBe(true);
    expect(adminIdentity.educators.map((e: { slug: string }) => e.slug)).toEqual(['second-school', 'acme']);
    const learnerIdentity = await identity(learner.cookie);
    expect(learnerIdentity).toMatchObject({ authenticated: true, email: learner.user.email, educators: [] });
  });
});

describe('sign-up by password', () => {
  it('e-mails a confirmation link; using it creates the account, logs in, and the password works afterwards', async () => {
    const email = uniqueEmail('signup');
    const res = await post('/api/auth/signup', { email, password: 'a long enough password', firstName: 'Ada', lastName: 'Lovelace' });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ status: 'check-email', email });
    // No account until the link is used.
    expect(await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();

    const mail = await lastMailTo(server.db, email);
    expect(mail?.subject).toBe('Confirm your e-mail address');
    expect(mail?.tag).toBe('signup');
    const token = tokenFromMail(mail!.text_body);
    // Only the hash of the token is stored.
    const stored = await server.db.selectFrom('auth_tokens').select(['token_hash', 'payload']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(sha256(token));
    expect(JSON.stringify(stored.payload)).not.toContain('a long enough password');

    // Followed in the browser that signed up (it holds the sign-up nonce cookie), so the password applies.
    const nonce = cookieFrom(res.headers.getSetCookie(), SIGNUP_NONCE_COOKIE);
    const verified = await post('/api/auth/magic-link/verify', { token }, { cookie: nonce });
    expect(verified.status).toBe(200);
    const cookie = sessionCookieFrom(verified);
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43}$`));
    const body = await verified.json();
    expect(body.identity).toMatchObject({ authenticated: true, email, emailConfirmed: true, firstName: 'Ada', lastName: 'Lovelace', educators: [] });
    expect(body.identity.id).toBe(body.identity.userId);
    expect(body.identity.studentId).toMatch(/^stu_/);

    const me = await identity(cookie);
    expect(me).toMatchObject({ authenticated: true, email, firstName: 'Ada' });

    // The password is stored as a salted scrypt hash (N = 2^15) and logs in.
    const user = await server.db.selectFrom('users').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await logIn(server, email, 'a long enough password')).toMatch(/^mk_session=/);

    // The session secret is stored only as its hash.
    const secret = cookie.split('=')[1];
    const session = await server.db.selectFrom('sessions').select('token_hash').where('token_hash', '=', sha256(secret)).executeTakeFirst();
    expect(session).toBeDefined();
    expect(await server.db.selectFrom('sessions').select('token_hash').where('token_hash', '=', secret).executeTakeFirst()).toBeUndefined();
  });

  it('answers the same for an address that already has an account, and changes nothing', async () => {
    const { user } = await signUpAndLogin(server, { password: DEFAULT_PASSWORD, firstName: 'Existing' });
    const res = await post('/api/auth/signup', { email: user.email, password: 'attacker password 1', firstName: 'Eve', lastName: 'X' });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ status: 'check-email', email: user.email });
    const mail = await lastMailTo(server.db, user.email);
    expect(mail?.subject).toBe('You already have an account');
    // Using that link logs the owner in; the attacker's password never becomes valid.
    const verified = await post('/api/auth/magic-link/verify', { token: tokenFromMail(mail!.text_body) });
    expect(verified.status).toBe(200);
    expect((await verified.json()).identity.firstName).toBe('Existing');
    const wrong = await post('/api/auth/login', { email: user.email, password: 'attacker password 1' });
    expect(wrong.status).toBe(401);
    expect(await logIn(server, user.email, DEFAULT_PASSWORD)).toMatch(/^mk_session=/);
  });

  it('refuses bad input with problems', async () => {
    const bad = await post('/api/auth/signup', { email: 'not-an-email', password: 'long enough pw', firstName: 'A', lastName: 'B' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).type).toMatch(/generic\/invalid-email-address$/);
    const short = await post('/api/auth/signup', { email: uniqueEmail(), password: 'short', firstName: 'A', lastName: 'B' });
    expect(short.status).toBe(400);
    const body = await short.json();
    expect(body.type).toMatch(/generic\/validation-error$/);
    expect(body.properties[0].key).toBe('password');
  });
});

describe('magic link', () => {
  it('signs up a new address and logs in a known one, with identical answers', async () => {
    const fresh = uniqueEmail('magic');
    const a = await post('/api/auth/magic-link', { email: fresh, firstName: 'Grace', lastName: 'Hopper' });
    const { user } = await signUpAndLogin(server);
    const b = await post('/api/auth/magic-link', { email: user.email });
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(Object.keys(await a.json())).toEqual(Object.keys(await b.json()));

    const signupMail = await lastMailTo(server.db, fresh);
    expect(signupMail?.tag).toBe('signup');
    const created = await post('/api/auth/magic-link/verify', { token: tokenFromMail(signupMail!.text_body) });
    expect((await created.json()).identity).toMatchObject({ email: fresh, firstName: 'Grace', lastName: 'Hopper', emailConfirmed: true });

    const loginMail = await lastMailTo(server.db, user.email);
    expect(loginMail?.subject).toBe('Your log-in link');
    const token = tokenFromMail(loginMail!.text_body);
    const first = await post('/api/auth/magic-link/verify', { token });
    expect(first.status).toBe(200);
    expect(sessionCookieFrom(first)).not.toBe('');
    // One use only.
    const again = await post('/api/auth/magic-link/verify', { token });
    expect(again.status).toBe(400);
    expect((await again.json()).type).toMatch(/auth\/invalid-token$/);
  });

  it('expires after 30 minutes', async () => {
    const { user } = await signUpAndLogin(server);
    await post('/api/auth/magic-link', { email: user.email });
    const token = tokenFromMail((await lastMailTo(server.db, user.email))!.text_body);
    server.setNow(Math.floor(Date.now() / 1000) + 31 * 60);
    try {
      const res = await post('/api/auth/magic-link/verify', { token });
      expect(res.status).toBe(400);
    } finally {
      server.setNow(null);
    }
  });

  it('keeps a redirect only to our own sites', async () => {
    const email = uniqueEmail('redir');
    await post('/api/auth/magic-link', { email, redirect: 'https://evil.example/steal' });
    let res = await post('/api/auth/magic-link/verify', { token: tokenFromMail((await lastMailTo(server.db, email))!.text_body) });
    expect((await res.json()).redirect).toBeNull();
    const email2 = uniqueEmail('redir');
    await post('/api/auth/magic-link', { email: email2, redirect: 'http://acme.localhost/some-course' });
    res = await post('/api/auth/magic-link/verify', { token: tokenFromMail((await lastMailTo(server.db, email2))!.text_body) });
    expect((await res.json()).redirect).toBe('http://acme.localhost/some-course');
  });
});

describe('password login and logout', () => {
  it('gives one answer for an unknown address and a wrong password', async () => {
    const { user } = await signUpAndLogin(server);
    const unknown = await post('/api/auth/login', { email: uniqueEmail('nobody'), password: 'whatever it is' });
    const wrong = await post('/api/auth/login', { email: user.email, password: 'whatever it is' });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const [u, w] = [await unknown.json(), await wrong.json()];
    delete u.instance;
    delete w.instance;
    expect(u).toEqual(w);
    expect(u.type).toMatch(/auth\/invalid-credentials$/);
  });

  it('sets a HttpOnly, SameSite=Lax, host-only cookie on localhost (no Secure on plain http localhost)', async () => {
    const { user } = await signUpAndLogin(server);
    const res = await post('/api/auth/login', { email: user.email, password: DEFAULT_PASSWORD });
    const line = res.headers.getSetCookie().find((l) => l.startsWith(`${SESSION_COOKIE}=`))!;
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; SameSite=Lax/);
    expect(line).toMatch(/; Path=\//);
    expect(line).toMatch(/; Max-Age=2592000/);
    expect(line).not.toMatch(/Domain=/);
    expect(line).not.toMatch(/Secure/);
  });

  it('logs out: the cookie is cleared and the session no longer works', async () => {
    const { cookie } = await signUpAndLogin(server);
    expect((await identity(cookie)).authenticated).toBe(true);
    const res = await post('/api/auth/logout', {}, { cookie });
    expect(res.status).toBe(204);
    expect(res.headers.getSetCookie().some((l) => l.startsWith(`${SESSION_COOKIE}=;`) && /Max-Age=0/.test(l))).toBe(true);
    expect((await identity(cookie)).authenticated).toBe(false);
  });

  it('rate-limits failed logins per address (429 with Retry-After), even for the right password', async () => {
    const { user } = await signUpAndLogin(server);
    for (let i = 0; i < server.config.RATE_LIMIT_LOGIN_PER_EMAIL; i += 1) {
      expect((await post('/api/auth/login', { email: user.email, password: `wrong ${i} password` })).status).toBe(401);
    }
    const limited = await post('/api/auth/login', { email: user.email, password: DEFAULT_PASSWORD });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json()).type).toMatch(/generic\/too-many-requests$/);
    // The counters live in the database (several processes share them).
    const rows = await server.db.selectFrom('rate_limits').selectAll().where('bucket', 'like', 'login:email:%').execute();
    expect(rows.some((r) => r.hits >= server.config.RATE_LIMIT_LOGIN_PER_EMAIL)).toBe(true);
  });

  it('rate-limits magic-link e-mails per address, whether or not it has an account', async () => {
    const email = uniqueEmail('flood');
    for (let i = 0; i < server.config.RATE_LIMIT_MAIL_PER_EMAIL; i += 1) {
      expect((await post('/api/auth/magic-link', { email })).status).toBe(202);
    }
    const limited = await post('/api/auth/magic-link', { email });
    expect(limited.status).toBe(429);
  });
});

describe('cross-site request forgery', () => {
  it('refuses state-changing requests from foreign origins and cross-site fetches', async () => {
    const { user, cookie } = await signUpAndLogin(server);
    const foreign = await post('/api/auth/login', { email: user.email, password: DEFAULT_PASSWORD }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const opaque = await post('/api/auth/logout', {}, { cookie, origin: 'null' });
    expect(opaque.status).toBe(403);
    const crossSite = await post('/api/auth/logout', {}, { cookie, 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect((await identity(cookie)).authenticated).toBe(true);
  });

  it('accepts our own origins: the marketplace and minisites', async () => {
    const { user } = await signUpAndLogin(server);
    const main = await post('/api/auth/login', { email: user.email, password: DEFAULT_PASSWORD }, { origin: 'http://localhost' });
    expect(main.status).toBe(200);
    const minisite = await post('/api/auth/login', { email: user.email, password: DEFAULT_PASSWORD }, { origin: 'http://acme.localhost' });
    expect(minisite.status).toBe(200);
    const sameSite = await post('/api/auth/login', { email: user.email, password: DEFAULT_PASSWORD }, { 'sec-fetch-site': 'same-origin' });
    expect(sameSite.status).toBe(200);
  });
});

describe('minisite session hand-off (localhost: no shared cookie domain)', () => {
  it('gives a minisite its own session for the same login, and logging out there ends it everywhere', async () => {
    const { cookie } = await signUpAndLogin(server);
    const target = 'http://acme.localhost/some-course?x=1';

    // 1. The minisite remembers a state nonce and sends the browser to the main host.
    const start = await rawRequest(server, `/api/auth/handoff/start?return=${encodeURIComponent(target)}`, { host: 'acme.localhost' });
    expect(start.status).toBe(302);
    const state = cookieFrom(start.setCookies, HANDOFF_STATE_COOKIE);
    expect(state).not.toBe('');
    const toMain = new URL(String(start.headers.location));
    expect(toMain.origin).toBe('http://localhost');
    expect(toMain.pathname).toBe('/api/auth/handoff');

    // 2. The main host, where the browser is signed in, answers with a one-time token.
    const main = await rawRequest(server, `${toMain.pathname}${toMain.search}`, { host: 'localhost', headers: { cookie } });
    expect(main.status).toBe(302);
    const accept = new URL(String(main.headers.location));
    expect(accept.origin).toBe('http://acme.localhost');
    expect(accept.searchParams.get('token')).toBeTruthy();

    // Without this browser's state cookie the token is worth nothing.
    const stolen = await rawRequest(server, `${accept.pathname}${accept.search}`, { host: 'acme.localhost' });
    expect(stolen.status).toBe(302);
    expect(cookieFrom(stolen.setCookies, SESSION_COOKIE)).toBe('');

    // Start again, properly this time.
    const start2 = await rawRequest(server, `/api/auth/handoff/start?return=${encodeURIComponent(target)}`, { host: 'acme.localhost' });
    const state2 = cookieFrom(start2.setCookies, HANDOFF_STATE_COOKIE);
    const toMain2 = new URL(String(start2.headers.location));
    const main2 = await rawRequest(server, `${toMain2.pathname}${toMain2.search}`, { host: 'localhost', headers: { cookie } });
    const accept2 = new URL(String(main2.headers.location));
    const done = await rawRequest(server, `${accept2.pathname}${accept2.search}`, { host: 'acme.localhost', headers: { cookie: state2 } });
    expect(done.status).toBe(302);
    expect(done.headers.location).toBe(target);
    const minisiteCookie = cookieFrom(done.setCookies, SESSION_COOKIE);
    expect(minisiteCookie).not.toBe('');
    expect(minisiteCookie).not.toBe(cookie);
    expect(state).not.toBe(state2);

    const there = await rawRequest(server, '/api/identity', { host: 'acme.localhost', headers: { cookie: minisiteCookie } });
    expect(there.json()).toMatchObject({ authenticated: true, site: { context: 'minisite', handoff: true } });

    // A used token cannot be replayed.
    const replay = await rawRequest(server, `${accept2.pathname}${accept2.search}`, { host: 'acme.localhost', headers: { cookie: state2 } });
    expect(cookieFrom(replay.setCookies, SESSION_COOKIE)).toBe('');

    // Logging out on the minisite ends the main host's session too.
    const out = await rawRequest(server, '/api/auth/logout', { method: 'POST', host: 'acme.localhost', headers: { cookie: minisiteCookie, origin: 'http://acme.localhost' } });
    expect(out.status).toBe(204);
    expect((await identity(cookie)).authenticated).toBe(false);
  });

  it('sends a signed-out browser straight back, and never to a foreign host', async () => {
    const target = 'http://acme.localhost/page';
    const start = await rawRequest(server, `/api/auth/handoff/start?return=${encodeURIComponent(target)}`, { host: 'acme.localhost' });
    const toMain = new URL(String(start.headers.location));
    const main = await rawRequest(server, `${toMain.pathname}${toMain.search}`, { host: 'localhost' });
    const accept = new URL(String(main.headers.location));
    expect(accept.searchParams.get('token')).toBeNull();
    const back = await rawRequest(server, `${accept.pathname}${accept.search}`, { host: 'acme.localhost', headers: { cookie: cookieFrom(start.setCookies, HANDOFF_STATE_COOKIE) } });
    expect(back.headers.location).toBe(target);

    const foreign = await rawRequest(server, `/api/auth/handoff?return=${encodeURIComponent('https://evil.example/x')}&state=${'s'.repeat(43)}`, { host: 'localhost' });
    expect(foreign.status).toBe(302);
    expect(String(foreign.headers.location)).toBe('http://localhost');
    const otherMinisite = await rawRequest(server, `/api/auth/handoff/start?return=${encodeURIComponent('http://other.localhost/x')}`, { host: 'acme.localhost' });
    expect(cookieFrom(otherMinisite.setCookies, HANDOFF_STATE_COOKIE)).toBe('');
  });
});

describe('embed login without third-party cookies', () => {
  it('trades a one-time code from the first-party window for a bearer token', async () => {
    const { cookie, user } = await signUpAndLogin(server);
    const codeRes = await post('/api/auth/embed/code', {}, { cookie });
    expect(codeRes.status).toBe(200);
    const { code } = await codeRes.json();
    const exchange = await post('/api/auth/embed/exchange', { code });
    expect(exchange.status).toBe(200);
    const body = await exchange.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.identity).toMatchObject({ authenticated: true, email: user.email });
    expect(exchange.headers.getSetCookie()).toEqual([]);

    const me = await identity(undefined, { authorization: `Bearer ${body.token}` });
    expect(me).toMatchObject({ authenticated: true, email: user.email });
    // The bearer token is not a cookie session, and a code works once.
    expect((await identity(`${SESSION_COOKIE}=${body.token}`)).authenticated).toBe(false);
    expect((await post('/api/auth/embed/exchange', { code })).status).toBe(400);
    // A code needs a signed-in first-party session.
    expect((await post('/api/auth/embed/code', {})).status).toBe(401);
  });
});

describe('shared cookie mode (a PUBLIC_HOST with a parent domain)', () => {
  it('sets the session cookie on the parent domain, Secure, and needs no hand-off', async () => {
    const shared = await startTestServer({ ...PRODUCTION_ENV, PUBLIC_HOST: 'marketplace.example', MAIL_FROM: 'Marketplace <no-reply@marketplace.example>', OUTBOX_DIR: mkdtempSync(join(tmpdir(), 'mkt-outbox-')) });
    try {
      await addAcme(shared.db);
      const { user } = await signUpAndLogin(shared);
      const res = await rawRequest(shared, '/api/auth/login', {
        method: 'POST', host: 'marketplace.example', headers: { origin: 'https://acme.marketplace.example' },
        body: { email: user.email, password: DEFAULT_PASSWORD },
      });
      expect(res.status).toBe(200);
      const line = res.setCookies.find((l) => l.startsWith(`${SESSION_COOKIE}=`))!;
      expect(line).toMatch(/; Domain=marketplace\.example/);
      expect(line).toMatch(/; Secure/);
      expect(line).toMatch(/; HttpOnly/);
      expect(line).toMatch(/; SameSite=Lax/);
      const cookie = cookieFrom(res.setCookies, SESSION_COOKIE);
      // The same cookie works on a minisite host.
      const there = await rawRequest(shared, '/api/identity', { host: 'acme.marketplace.example', headers: { cookie } });
      expect(there.json()).toMatchObject({ authenticated: true, email: user.email, site: { context: 'minisite', handoff: false } });
      const start = await rawRequest(shared, `/api/auth/handoff/start?return=${encodeURIComponent('https://acme.marketplace.example/x')}`, { host: 'acme.marketplace.example' });
      expect(start.status).toBe(302);
      expect(start.headers.location).toBe('https://acme.marketplace.example/x');
      expect(cookieFrom(start.setCookies, HANDOFF_STATE_COOKIE)).toBe('');
      // Foreign origins are still refused.
      const forged = await rawRequest(shared, '/api/auth/logout', { method: 'POST', host: 'marketplace.example', headers: { cookie, origin: 'https://marketplace.example.evil.test' } });
      expect(forged.status).toBe(403);
    } finally {
      await shared.close();
    }
  });
});

describe('which hosts are ours (api/auth/site.ts) and which redirects are kept', () => {
  const config = loadConfig({ PUBLIC_HOST: 'localhost:4321', ADMIN_HOST: 'admin.localhost:4321' });
  it('knows the main site and minisites by protocol, host and port; nothing else', () => {
    expect(ownSiteOf('http://localhost:4321/x', config)).toEqual({ kind: 'main' });
    expect(ownSiteOf('http://acme.localhost:4321/x', config)).toEqual({ kind: 'minisite', slug: 'acme' });
    expect(ownSiteOf('http://acme.localhost:9999/x', config)).toBeNull();
    expect(ownSiteOf('https://acme.localhost:4321/x', config)).toBeNull();
    expect(ownSiteOf('http://admin.localhost:4321/x', config)).toBeNull();
    expect(ownSiteOf('http://a.b.localhost:4321/x', config)).toBeNull();
    expect(ownSiteOf('http://evil.example/?localhost:4321', config)).toBeNull();
    expect(ownSiteOf('http://user:pw@localhost:4321/', config)).toBeNull();
    expect(ownSiteOf('javascript:alert(1)', config)).toBeNull();
  });
  it('shares a cookie domain only when the host has a parent domain', () => {
    expect(sharedCookieDomain({ PUBLIC_HOST: 'localhost:4321', SESSION_COOKIE_DOMAIN: '' })).toBeNull();
    expect(sharedCookieDomain({ PUBLIC_HOST: '127.0.0.1:4321', SESSION_COOKIE_DOMAIN: '' })).toBeNull();
    expect(sharedCookieDomain({ PUBLIC_HOST: 'courses.example.co.uk', SESSION_COOKIE_DOMAIN: '' })).toBe('courses.example.co.uk');
    expect(sharedCookieDomain({ PUBLIC_HOST: 'localhost', SESSION_COOKIE_DOMAIN: '.example.test' })).toBe('example.test');
  });
  it('keeps a redirect only to our own pages, never the site root', () => {
    expect(keepRedirect('http://acme.localhost:4321/course', config)).toBe('http://acme.localhost:4321/course');
    expect(keepRedirect('http://localhost:4321/', config)).toBeNull();
    expect(keepRedirect('http://localhost:4321/?q=1', config)).toBe('http://localhost:4321/?q=1');
    expect(keepRedirect('https://evil.example/', config)).toBeNull();
    expect(keepRedirect(null, config)).toBeNull();
  });
});
