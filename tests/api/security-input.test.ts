/**
 * Hostile input at the edge: request bodies have a size limit that is enforced before the body is read
 * whole, and text with a NUL character is refused as bad input on every engine.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { NOW, TEST_ENV, expectProblem, insertPublicFixtures, solvedCaptcha } from './public-fixtures.ts';
import { JSON_BODY_MAX_BYTES } from '../../api/http/body-limit.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(TEST_ENV);
  server.setNow(NOW);
  await insertPublicFixtures(server.db);
});
afterAll(async () => server.close());

/** A JSON object of exactly `bytes` bytes. */
function jsonOfSize(bytes: number): string {
  const shell = JSON.stringify({ email: 'a@example.com', password: '' });
  return JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(bytes - shell.length) });
}

interface Early {
  status: number;
  contentType: string;
  body: string;
  /** Bytes the client had written when the answer arrived. */
  sent: number;
}

/**
 * Sends a body in 16 KB chunks up to `total` bytes, without waiting, and reports the answer as soon as it
 * arrives: an answer that arrives before the body is all sent proves the server did not read it all.
 */
function streamBody(path: string, total: number, headers: Record<string, string>): Promise<Early> {
  return new Promise((ok, fail) => {
    let sent = 0;
    let answered = false;
    const req = request({ host: '127.0.0.1', port: server.port, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      const at = sent;
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        ok({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type']), body: Buffer.concat(chunks).toString('utf8'), sent: at });
        req.destroy();
      });
    });
    req.on('error', (err) => (answered ? undefined : fail(err)));
    const chunk = Buffer.alloc(16 * 1024, 'x');
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered && sent >= total) req.end();
    };
    pump();
  });
}

describe('request body size', () => {
  it('accepts a JSON body of exactly 64 KB and refuses one byte more with 413 problem+json', async () => {
    const atLimit = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: jsonOfSize(JSON_BODY_MAX_BYTES) });
    // Reaches the route (the password is too long for it), not refused for its size.
    expect(atLimit.status).toBe(400);
    const over = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: jsonOfSize(JSON_BODY_MAX_BYTES + 1) });
    await expectProblem(over, { status: 413, type: 'generic/payload-too-large', title: 'Payload Too Large' });
  });

  it('refuses a body announced as 250 MB before reading it', async () => {
    const res = await streamBody('/api/enquiries', 250 * 1024 * 1024, { 'content-length': String(250 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.contentType).toContain('application/problem+json');
    expect(res.sent).toBeLessThan(250 * 1024 * 1024);
  });

  it('refuses a chunked body as soon as it passes the limit, without waiting for the rest', async () => {
    const res = await streamBody('/api/checkout/initialise/booking', 250 * 1024 * 1024, { 'transfer-encoding': 'chunked' });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ title: 'Payload Too Large', status: 413 });
    expect(res.sent).toBeLessThan(250 * 1024 * 1024);
  });

  it('still reads a small chunked body', async () => {
    const res = await new Promise<number>((ok, fail) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/api/auth/login', method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (r) => {
        r.resume();
        ok(r.statusCode ?? 0);
      });
      req.on('error', fail);
      req.write('{"email":"nobody@example.com",');
      req.end('"password":"wrong-password"}');
    });
    expect(res).toBe(401);
  });

  it('refuses a large body sent to a page too', async () => {
    const res = await streamBody('/login', 10 * 1024 * 1024, { 'content-length': String(10 * 1024 * 1024) });
    expect(res.status).toBe(413);
  });

  it('gives provider webhooks their larger limit (256 KB)', async () => {
    const body = JSON.stringify({ pad: 'x'.repeat(200 * 1024) });
    const res = await fetch(`${server.url}/api/payments/webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).not.toBe(413);
    // On its own connection: the server answers 413 and closes it while the body is still being written, and a
    // pooled fetch connection caught in that race was once handed to the next test's request.
    const size = 300 * 1024;
    const over = await streamBody('/api/payments/webhooks/stripe', size, { 'content-length': String(size) });
    expect(over.status).toBe(413);
  });
});

describe('NUL characters (U+0000) in text', () => {
  const nul = '\u0000';

  it('refuses one in a query string or a path with a 400 validation problem', async () => {
    const search = await fetch(`${server.url}/api/courses/search?query=pot%00tery`);
    const body = await expectProblem(search, { status: 400, type: 'generic/validation-error', title: 'Validation Error' });
    expect(body.properties).toEqual([{ key: 'query', message: 'must not contain a NUL character' }]);
    const reviews = await fetch(`${server.url}/api/reviews/list/clay%00studio`);
    await expectProblem(reviews, { status: 400, type: 'generic/validation-error', title: 'Validation Error' });
    // A page's query too (the search page's own query string).
    expect((await fetch(`${server.url}/search?query=a%00b`)).status).toBe(400);
    // '%2500' is the text '%00', not a NUL: an ordinary search.
    expect((await fetch(`${server.url}/api/courses/search?query=pot%2500tery`)).status).toBe(200);
  });

  it('refuses one anywhere in a JSON body: an enquiry, a sign-up, a checkout, nested or in a key', async () => {
    const captchaToken = await solvedCaptcha(server.url);
    const enquiry = await fetch(`${server.url}/api/enquiries`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        contact_details: { first_name: `Ada${nul}`, last_name: 'Lovelace', email: 'ada@example.co.uk', phone: '07700 900123' },
        details: { message: 'Hello', embedded: false },
        type: 'message',
        educator_slug: 'clay-studio',
        captchaToken,
      }),
    });
    const problem = await expectProblem(enquiry, { status: 400, type: 'generic/validation-error', title: 'Validation Error' });
    expect(problem.properties).toEqual([{ key: 'contact_details.first_name', message: 'must not contain a NUL character' }]);
    expect(await server.db.selectFrom('enquiries').select('id').where('first_name', 'like', 'Ada%').execute()).toHaveLength(0);

    const signup = await fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nul@example.com', password: 'long enough password', firstName: 'A', lastName: `B${nul}` }),
    });
    await expectProblem(signup, { status: 400, type: 'generic/validation-error', title: 'Validation Error' });

    const checkout = await fetch(`${server.url}/api/checkout/initialise/booking`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ checkoutId: 'x', courseId: 'y', origin: 'marketplace', bookedOnURL: `https://example.com/${nul}`, utms: {} }),
    });
    const checkoutProblem = await expectProblem(checkout, { status: 400, type: 'generic/validation-error', title: 'Validation Error' });
    expect(checkoutProblem.properties).toEqual([{ key: 'bookedOnURL', message: 'must not contain a NUL character' }]);

    const inKey = await fetch(`${server.url}/api/analytics/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Educator Profile View', educator_ref: 'edu_clay', extra: [{ [`k${nul}`]: 1 }] }),
    });
    await expectProblem(inKey, { status: 400, type: 'generic/validation-error', title: 'Validation Error' });
  });
});
