/**
 * On an https site only https pages of ours may call the API with credentials, and a minisite origin
 * only when an educator has that slug.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { rawRequest } from '../helpers/auth.ts';
import { NOW, insertPublicFixtures } from './public-fixtures.ts';
import { PRODUCTION_ENV } from '../helpers/production-env.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ ...PRODUCTION_ENV, PUBLIC_HOST: 'courses.example', ADMIN_HOST: 'admin.courses.example' });
  server.setNow(NOW);
  await insertPublicFixtures(server.db);
});
afterAll(async () => server.close());

async function read(origin: string, host = 'courses.example') {
  return rawRequest(server, '/api/courses/search?size=1', { host, headers: { origin } });
}

async function write(origin: string, host = 'courses.example') {
  return rawRequest(server, '/api/analytics/events', { method: 'POST', host, headers: { origin }, body: { name: 'Educator Profile View', educator_ref: 'edu_clay' } });
}

describe('CORS and CSRF on an https site', () => {
  it('trusts the https marketplace and an existing educator\'s minisite', async () => {
    for (const origin of ['https://courses.example', 'https://clay-studio.courses.example']) {
      const res = await read(origin);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect((await write(origin)).status).toBe(202);
    }
  });

  it('refuses an http:// page on the same host (the scheme is part of the origin)', async () => {
    const res = await read('http://courses.example');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect((await write('http://courses.example')).status).toBe(403);
    // Sent to a minisite host, from that host over http: the same.
    expect((await write('http://clay-studio.courses.example', 'clay-studio.courses.example')).status).toBe(403);
  });

  it('refuses a minisite-shaped origin when no educator has that slug', async () => {
    const res = await read('https://no-such-educator.courses.example');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await rawRequest(server, '/api/enquiries', {
      method: 'OPTIONS', host: 'courses.example',
      headers: { origin: 'https://no-such-educator.courses.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect((await write('https://no-such-educator.courses.example')).status).toBe(403);
    // Even when the request is sent to that very host.
    expect((await write('https://no-such-educator.courses.example', 'no-such-educator.courses.example')).status).toBe(403);
  });
});
