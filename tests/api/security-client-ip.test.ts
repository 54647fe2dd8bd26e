/**
 * One rule for the client's address: forwarded headers count only when TRUST_PROXY says proxies of ours
 * stand in front, and then only the right-most hop they did not add themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { clientIpOf } from '../../api/http/client-ip.ts';
import { loadConfig } from '../../api/config.ts';
import { NOW, TEST_ENV, insertPublicFixtures, solvedCaptcha } from './public-fixtures.ts';

describe('clientIpOf', () => {
  it('ignores X-Forwarded-For unless proxies are trusted', () => {
    expect(clientIpOf('6.6.6.6', '10.0.0.5', 0)).toBe('10.0.0.5');
    expect(clientIpOf(undefined, '10.0.0.5', 1)).toBe('10.0.0.5');
  });

  it('takes the right-most hop our proxies did not add', () => {
    // One proxy: it appended what it saw; what the client wrote is further left.
    expect(clientIpOf('6.6.6.6, 203.0.113.9', '10.0.0.5', 1)).toBe('203.0.113.9');
    expect(clientIpOf('203.0.113.9', '10.0.0.5', 1)).toBe('203.0.113.9');
    // Two proxies (a CDN, then a load balancer).
    expect(clientIpOf('6.6.6.6, 203.0.113.9, 198.51.100.2', '10.0.0.5', 2)).toBe('203.0.113.9');
    // A chain shorter than the proxies claimed: the left-most address there is.
    expect(clientIpOf('203.0.113.9', '10.0.0.5', 3)).toBe('203.0.113.9');
  });

  it('reads TRUST_PROXY as a number of proxies', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(() => loadConfig({ TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY/);
  });
});

describe.each([
  { name: 'without TRUST_PROXY', env: {} as Record<string, string> },
  { name: 'behind one trusted proxy', env: { TRUST_PROXY: 'true' } as Record<string, string> },
])('enquiries and rate limits see one client address ($name)', ({ env }) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ...TEST_ENV, RATE_LIMIT_LOGIN_PER_IP: '3', RATE_LIMIT_LOGIN_PER_EMAIL: '100', ...env });
    server.setNow(NOW);
    await insertPublicFixtures(server.db);
  });
  afterAll(async () => server.close());

  async function enquire(forwardedFor: string, email: string) {
    const res = await fetch(`${server.url}/api/enquiries`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({
        contact_details: { first_name: 'Ada', last_name: 'Lovelace', email, phone: '07700 900123' },
        details: { message: 'Hello', embedded: false, enquiry_type: 'General' },
        type: 'message',
        educator_slug: 'clay-studio',
        captchaToken: await solvedCaptcha(server.url),
      }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const row = await server.db.selectFrom('enquiries').select('ip_hash').where('email', '=', email).executeTakeFirstOrThrow();
    return row.ip_hash;
  }

  it('records the same address for one client whatever it writes in X-Forwarded-For', async () => {
    const a = await enquire('6.6.6.6, 203.0.113.9', 'ip-a@example.com');
    const b = await enquire('7.7.7.7, 203.0.113.9', 'ip-b@example.com');
    expect(a).toBeTruthy();
    expect(a).toBe(b);
  });

  it('counts failed logins per client whatever it writes in X-Forwarded-For', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.0.${i}, 203.0.113.77` },
        body: JSON.stringify({ email: `nobody-${i}@example.com`, password: 'wrong password' }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });
});
