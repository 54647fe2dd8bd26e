import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { isAllowedOrigin } from '../../api/http/cors.ts';
import { loadConfig } from '../../api/config.ts';
import { NOW, TEST_ENV, expectProblem, insertPublicFixtures, postJson } from './public-fixtures.ts';
import { PRODUCTION_ENV } from '../helpers/production-env.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(TEST_ENV); // PUBLIC_HOST localhost:4321, http
  server.setNow(NOW);
  await insertPublicFixtures(server.db);
});
afterAll(async () => server.close());

const MINISITE = 'http://clay-studio.localhost:4321';
const MARKETPLACE = 'http://localhost:4321';
const FOREIGN = 'https://evil.example';

function varyOf(res: Response): string[] {
  return (res.headers.get('vary') ?? '').toLowerCase().split(/\s*,\s*/);
}

describe('CORS on /api', () => {
  it('answers a preflight from a minisite with its origin, credentials and the method and headers asked', async () => {
    const res = await fetch(`${server.url}/api/enquiries`, {
      method: 'OPTIONS',
      headers: { origin: MINISITE, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(MINISITE);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type');
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(varyOf(res)).toContain('origin');
  });

  it('lets a minisite read answers, errors included, with credentials', async () => {
    for (const [path, status] of [['/api/courses/search?size=1', 200], ['/api/reviews/list/no-such-educator', 404], ['/api/no-such-route', 404]] as const) {
      const res = await fetch(`${server.url}${path}`, { headers: { origin: MINISITE } });
      expect(res.status).toBe(status);
      expect(res.headers.get('access-control-allow-origin')).toBe(MINISITE);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(varyOf(res)).toContain('origin');
    }
  });

  it('lets a minisite post an enquiry-shaped request (reaching the route)', async () => {
    const res = await postJson(`${server.url}/api/enquiries`, { type: 'message', educator_slug: 'nobody' }, { origin: MINISITE });
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe(MINISITE);
  });

  it('allows the marketplace and the minisite host of each educator, never with *', async () => {
    for (const origin of [MARKETPLACE, 'http://code-academy.localhost:4321']) {
      const res = await fetch(`${server.url}/api/courses/search?size=1`, { headers: { origin } });
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    }
  });

  it('gives a foreign origin no CORS headers and refuses its preflight (and its writes)', async () => {
    const read = await fetch(`${server.url}/api/courses/search?size=1`, { headers: { origin: FOREIGN } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    expect(read.headers.get('access-control-allow-credentials')).toBeNull();
    expect(varyOf(read)).toContain('origin');

    const preflight = await fetch(`${server.url}/api/enquiries`, {
      method: 'OPTIONS',
      headers: { origin: FOREIGN, 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    await expectProblem(preflight, { status: 403, type: 'generic/forbidden-origin', title: 'Forbidden Origin', detail: `Requests from ${FOREIGN} are not allowed.` });

    const count = async () => (await server.db.selectFrom('analytics_events').select('id').execute()).length;
    const before = await count();
    const write = await postJson(`${server.url}/api/analytics/events`, { name: 'Educator Profile View', educator_ref: 'edu_clay' }, { origin: FOREIGN });
    // Refused by the CSRF check (api/http/csrf.ts), and unreadable by the foreign page.
    expect(write.status).toBe(403);
    expect(write.headers.get('access-control-allow-origin')).toBeNull();
    expect(varyOf(write)).toContain('origin');
    expect(await count()).toBe(before);
  });

  it('refuses look-alike origins', async () => {
    for (const origin of [
      'http://a.b.localhost:4321', // two labels
      'http://clay-studio.localhost:9999', // another port
      'https://clay-studio.localhost:4321', // another protocol
      'http://admin.localhost:4321', // the admin host
      'http://localhost:4321.evil.example',
      'http://evillocalhost:4321',
      'null',
    ]) {
      const res = await fetch(`${server.url}/api/courses/search?size=1`, { headers: { origin } });
      expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });

  it('leaves requests without Origin alone', async () => {
    const res = await postJson(`${server.url}/api/analytics/events`, { name: 'Educator Profile View', educator_ref: 'edu_clay' });
    expect(res.status).toBe(202);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('isAllowedOrigin', () => {
  it('follows PUBLIC_PROTOCOL, PUBLIC_HOST (default ports dropped) and API_ORIGIN', () => {
    const config = loadConfig({ ...PRODUCTION_ENV, PUBLIC_HOST: 'courses.example', API_ORIGIN: 'https://api.courses.example', ADMIN_HOST: 'admin.courses.example' });
    expect(isAllowedOrigin('https://courses.example', config)).toBe(true);
    expect(isAllowedOrigin('https://courses.example:443', config)).toBe(true);
    expect(isAllowedOrigin('https://clay.courses.example', config)).toBe(true);
    expect(isAllowedOrigin('https://api.courses.example', config)).toBe(true);
    expect(isAllowedOrigin('https://admin.courses.example', config)).toBe(false);
    expect(isAllowedOrigin('http://clay.courses.example', config)).toBe(false);
    expect(isAllowedOrigin('https://clay.courses.example.evil', config)).toBe(false);
    expect(isAllowedOrigin('https://-bad.courses.example', config)).toBe(false);
    expect(isAllowedOrigin('https://evil.example', config, 'evil.example')).toBe(true); // the request's own host
    expect(isAllowedOrigin('not a url', config)).toBe(false);
  });
});
