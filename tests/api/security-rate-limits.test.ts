/**
 * Rate limits hold under parallel requests (counting and checking are one atomic step in the database),
 * and a guesser's failures do not lock the owner out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { DEFAULT_PASSWORD, countStatuses, loginFrom, signUpAndLogin, uniqueEmail } from '../helpers/auth.ts';

let server: TestServer;
beforeAll(async () => {
  // Behind one trusted proxy, so each test client can have its own address.
  server = await startTestServer({ TRUST_PROXY: 'true' });
});
afterAll(async () => server.close());

const login = (email: string, password: string, ip: string) => loginFrom(server.url, email, password, ip);
const count = countStatuses;

describe('login limit under 40 parallel guesses', () => {
  it('checks at most RATE_LIMIT_LOGIN_PER_EMAIL passwords from one client, then refuses the right one too', async () => {
    const { user } = await signUpAndLogin(server);
    const limit = server.config.RATE_LIMIT_LOGIN_PER_EMAIL;
    const wrong = await Promise.all(Array.from({ length: 40 }, (_, i) => login(user.email, `wrong password ${i}`, '203.0.113.10')));
    expect(count(wrong.map((r) => r.status))).toEqual({ 401: limit, 429: 40 - limit });
    const refused = wrong.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const right = await login(user.email, DEFAULT_PASSWORD, '203.0.113.10');
    expect(right.status).toBe(429);
  });

  it('does not lock the owner out: the right password from the owner\'s own address still logs in', async () => {
    const { user } = await signUpAndLogin(server);
    await Promise.all(Array.from({ length: 40 }, (_, i) => login(user.email, `wrong password ${i}`, '203.0.113.20')));
    const owner = await login(user.email, DEFAULT_PASSWORD, '198.51.100.7');
    expect(owner.status).toBe(200);
  });

  it('never slows down right passwords: they are not counted', async () => {
    const { user } = await signUpAndLogin(server);
    const limit = server.config.RATE_LIMIT_LOGIN_PER_EMAIL;
    for (let i = 0; i < limit + 2; i++) expect((await login(user.email, DEFAULT_PASSWORD, '198.51.100.8')).status).toBe(200);
  });
});

describe('e-mail limit under 20 parallel magic-link requests', () => {
  it('sends exactly RATE_LIMIT_MAIL_PER_EMAIL e-mails to one address and refuses the rest', async () => {
    const email = uniqueEmail('flood');
    const limit = server.config.RATE_LIMIT_MAIL_PER_EMAIL;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => fetch(`${server.url}/api/auth/magic-link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `192.0.2.${i + 1}` },
      body: JSON.stringify({ email }),
    })));
    expect(count(answers.map((r) => r.status))).toEqual({ 202: limit, 429: 20 - limit });
  });
});
