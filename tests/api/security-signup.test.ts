/**
 * Sign-up cannot set someone else's password: the password typed at sign-up applies only when the e-mailed
 * link is followed in the browser that typed it; anywhere else the link confirms the address and logs in
 * without a password, and the owner is asked to choose one.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { cookieFrom, lastMailTo, sessionCookieFrom, tokenFromMail, uniqueEmail } from '../helpers/auth.ts';
import { SIGNUP_NONCE_COOKIE } from '../../api/http/cookies.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ OUTBOX_DIR: mkdtempSync(join(tmpdir(), 'mkt-outbox-')) });
});
afterAll(async () => server.close());

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

async function signUp(email: string, password: string) {
  const res = await post('/api/auth/signup', { email, password, firstName: 'Ada', lastName: 'Lovelace' });
  expect(res.status).toBe(202);
  const nonce = cookieFrom(res.headers.getSetCookie(), SIGNUP_NONCE_COOKIE);
  const mail = await lastMailTo(server.db, email);
  return { nonce, token: tokenFromMail(mail!.text_body) };
}

describe('sign-up password', () => {
  it('sets a browser-bound nonce cookie: HttpOnly, SameSite=Lax, living as long as the link', async () => {
    const res = await post('/api/auth/signup', { email: uniqueEmail('nonce'), password: 'long enough password', firstName: 'A', lastName: 'B' });
    const line = res.headers.getSetCookie().find((l) => l.startsWith(`${SIGNUP_NONCE_COOKIE}=`))!;
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Lax/);
    expect(line).toMatch(/Max-Age=86400/);
  });

  it('is not applied when the link is followed in another browser (the victim of someone else\'s sign-up)', async () => {
    const victim = uniqueEmail('victim');
    // The attacker signs the victim's address up with their own password; the victim follows the e-mailed link.
    const { token } = await signUp(victim, 'attacker chosen password');
    const verified = await post('/api/auth/magic-link/verify', { token });
    expect(verified.status).toBe(200);
    const body = await verified.json();
    expect(body).toMatchObject({ passwordApplied: false, setPassword: true });
    expect(body.identity).toMatchObject({ authenticated: true, email: victim, emailConfirmed: true });
    expect(sessionCookieFrom(verified)).not.toBe('');
    // The attacker's password does not log in; the account has no password until the owner chooses one.
    expect((await post('/api/auth/login', { email: victim, password: 'attacker chosen password' })).status).toBe(401);
    const row = await server.db.selectFrom('users').select('password_hash').where('email', '=', victim).executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();
  });

  it('is not applied with another browser\'s nonce either', async () => {
    const victim = uniqueEmail('victim2');
    const { token } = await signUp(victim, 'attacker chosen password');
    const other = await signUp(uniqueEmail('other'), 'another password here');
    const verified = await post('/api/auth/magic-link/verify', { token }, { cookie: other.nonce });
    expect((await verified.json()).passwordApplied).toBe(false);
    expect((await post('/api/auth/login', { email: victim, password: 'attacker chosen password' })).status).toBe(401);
  });

  it('is applied when the link is followed in the browser that signed up', async () => {
    const email = uniqueEmail('owner');
    const { nonce, token } = await signUp(email, 'my own good password');
    expect(nonce).not.toBe('');
    const verified = await post('/api/auth/magic-link/verify', { token }, { cookie: nonce });
    expect(await verified.json()).toMatchObject({ passwordApplied: true, setPassword: false });
    expect((await post('/api/auth/login', { email, password: 'my own good password' })).status).toBe(200);
  });
});
