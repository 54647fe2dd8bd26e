/**
 * The educator admin's test fixture: two educators, each with its own admin, and a learner, on a real server;
 * `adminCall` talks to the API as the admin app does (on the admin host, same origin), and `expectGuarded`
 * tries a route as the other educator's admin, a learner and nobody.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import { expect } from 'vitest';
import type { TestServer } from './server.ts';
import { makeEducatorAdmin, rawRequest, signUpAndLogin, type RawResponse, type SignedInUser } from './auth.ts';
import { educatorRow } from '../api/public-fixtures.ts';

export const ADMIN_HOST = 'admin.localhost:4321';
export const ADMIN_ENV = { PUBLIC_HOST: 'localhost:4321', PUBLIC_PROTOCOL: 'http', ADMIN_HOST, CAPTCHA_MAX_NUMBER: '2000' };

export interface AdminFixture {
  /** The educator under test and its admin. */
  educatorId: string;
  admin: SignedInUser;
  /** Another educator and its admin, who must be refused everything of the first. */
  otherEducatorId: string;
  otherAdmin: SignedInUser;
  learner: SignedInUser;
}

let counter = 0;

export async function adminFixture(server: TestServer, prefix = 'adm'): Promise<AdminFixture> {
  const n = `${prefix}${++counter}${Date.now().toString(36)}`;
  const educatorId = `edu_${n}_a`;
  const otherEducatorId = `edu_${n}_b`;
  await server.db.insertInto('educators').values([
    educatorRow({ id: educatorId, slug: `${n}-a`, name: `Educator ${n} A` }),
    educatorRow({ id: otherEducatorId, slug: `${n}-b`, name: `Educator ${n} B` }),
  ]).execute();
  const admin = await signUpAndLogin(server, { firstName: 'Ada', lastName: 'Admin' });
  const otherAdmin = await signUpAndLogin(server, { firstName: 'Olly', lastName: 'Other' });
  const learner = await signUpAndLogin(server, { firstName: 'Lee', lastName: 'Learner' });
  await makeEducatorAdmin(server.db, admin.user.id, educatorId);
  await makeEducatorAdmin(server.db, otherAdmin.user.id, otherEducatorId);
  return { educatorId, admin, otherEducatorId, otherAdmin, learner };
}

/** A request as the admin app makes it: on the admin host, same origin, with the session cookie (or none). */
export function adminCall(server: TestServer, cookie: string | null, method: string, path: string, body?: unknown): Promise<RawResponse> {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (method !== 'GET' && method !== 'HEAD') headers.origin = `http://${ADMIN_HOST}`;
  return rawRequest(server, path, { method, host: ADMIN_HOST, headers, body });
}

/** The route refuses nobody (401), a learner (403) and the other educator's admin (403), and changes nothing. */
export async function expectGuarded(server: TestServer, fx: AdminFixture, method: string, path: string, body?: unknown): Promise<void> {
  const none = await adminCall(server, null, method, path, body);
  expect(none.status, `${method} ${path} without a session`).toBe(401);
  const learner = await adminCall(server, fx.learner.cookie, method, path, body);
  expect(learner.status, `${method} ${path} as a learner`).toBe(403);
  const other = await adminCall(server, fx.otherAdmin.cookie, method, path, body);
  expect(other.status, `${method} ${path} as another educator's admin`).toBe(403);
}

/**
 * The last Sunday of March (the UK's spring clock change) of the first year in which it is at least two weeks away, so
 * a weekly series around it is still to come.
 */
export function nextMarchClockChange(now = Date.now()): { year: number; sunday: number } {
  for (let year = new Date(now).getUTCFullYear(); ; year++) {
    const sunday = 31 - new Date(Date.UTC(year, 2, 31)).getUTCDay();
    if (Date.UTC(year, 2, sunday) - 14 * 86_400_000 > now) return { year, sunday };
  }
}

/** The dates a published course page offers: its date list's links into the checkout (`?occurrence=`), in order. */
export function offeredDateIds(html: string): string[] {
  return [...new Set([...html.matchAll(/occurrence=(occ_[A-Za-z0-9_-]+)/g)].map((m) => m[1]!))];
}

export interface UploadOptions {
  filename?: string;
  type?: string;
  /** The form field (the profile images' `file`, the course images' `image`). */
  field?: string;
}

/**
 * A multipart upload as the admin's page sends it (fetch cannot set the admin Host header). A server that stops
 * reading a body over its limit and closes the connection counts as 413.
 */
export function adminUpload(server: TestServer, cookie: string | null, path: string, file: Buffer, options: UploadOptions = {}): Promise<RawResponse> {
  const boundary = `----adm${Date.now().toString(16)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="${options.filename ?? 'image.png'}"\r\nContent-Type: ${options.type ?? 'image/png'}\r\n\r\n`);
  const body = Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const headers: Record<string, string> = {
    host: ADMIN_HOST, origin: `http://${ADMIN_HOST}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length),
  };
  if (cookie) headers.cookie = cookie;
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        ok({ status: res.statusCode ?? 0, headers: res.headers, setCookies: [], text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', (err) => (String(err).includes('EPIPE') || String(err).includes('ECONNRESET') ? ok({ status: 413, headers: {}, setCookies: [], text: '', json: <T,>() => ({}) as T }) : fail(err)));
    req.end(body);
  });
}

/** A GET (or HEAD) with any Host, its body as bytes (images). */
export function getRaw(server: Pick<TestServer, 'port'>, path: string, init: { host: string; method?: string; headers?: Record<string, string> }): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: init.method ?? 'GET', headers: { ...init.headers, host: init.host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', fail);
    req.end();
  });
}
