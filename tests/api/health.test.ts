import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

describe('GET /api/health', () => {
  it('answers ok with the database dialect in use', async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.status).toBe('ok');
    expect(body.database).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('answers an unknown API route with a not-found problem', async () => {
    const res = await fetch(`${server.url}/api/no-such-route`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const body = await res.json();
    expect(body.status).toBe(404);
    expect(body.type).toMatch(/^https?:\/\//);
  });

  it('sends security headers and refuses framing outside /embed', async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
  });
});
