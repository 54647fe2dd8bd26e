/**
 * Signed-in users for API tests.
 *
 *   const { cookie, user } = await signUpAndLogin(server);
 *   await fetch(`${server.url}/api/…`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body });
 *
 * The account is created directly in the database (a confirmed address, a real scrypt hash) and the session
 * comes from the real POST /api/auth/login, so the cookie is exactly what a browser would hold. Going around
 * the e-mailed confirmation keeps the helper fast and clear of the per-IP e-mail rate limit; the full sign-up
 * flow is covered by tests/api/accounts-auth.test.ts.
 */
import { randomBytes } from 'node:crypto';
import type { TestServer } from './server.ts';
import { hashPassword } from '../../api/auth/crypto.ts';
import { createUser } from '../../api/auth/users.ts';
import { SESSION_COOKIE } from '../../api/http/cookies.ts';
import type { Db } from '../../db/client.ts';

export interface SignUpOptions {
  email?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
}

export interface SignedInUser {
  /** The Cookie header value to send, e.g. 'mk_session=…'. */
  cookie: string;
  user: { id: string; studentId: string; email: string };
}

export const DEFAULT_PASSWORD = 'correct horse battery staple';

const hashes = new Map<string, Promise<string>>();

function hashFor(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
}

export function uniqueEmail(prefix = 'learner'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.com`;
}

/** The session cookie from a response's Set-Cookie headers, as a Cookie header value ('' when none). */
export function sessionCookieFrom(res: Response): string {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const [name, value] = pair.split('=');
    if (name.trim() === SESSION_COOKIE && value) return `${SESSION_COOKIE}=${value.trim()}`;
  }
  return '';
}

/** Logs in with e-mail and password through the API; throws unless it succeeds. */
export async function logIn(server: TestServer, email: string, password: string): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const cookie = sessionCookieFrom(res);
  if (!cookie) throw new Error('login answered without a session cookie');
  return cookie;
}

/** Creates a confirmed account and logs it in. */
export async function signUpAndLogin(server: TestServer, opts: SignUpOptions = {}): Promise<SignedInUser> {
  const email = (opts.email ?? uniqueEmail()).toLowerCase();
  const password = opts.password ?? DEFAULT_PASSWORD;
  const { user } = await createUser(
    server.db,
    {
      email,
      firstName: opts.firstName ?? 'Test',
      lastName: opts.lastName ?? 'Learner',
      passwordHash: await hashFor(password),
      emailConfirmed: true,
    },
    Math.floor(Date.now() / 1000),
  );
  const cookie = await logIn(server, email, password);
  return { cookie, user: { id: user.id, studentId: user.student_id, email: user.email } };
}

/** Makes a user an admin of an educator (spec 6 "Educator admin"). */
export async function makeEducatorAdmin(db: Db, userId: string, educatorId: string): Promise<void> {
  await db
    .insertInto('educator_admins')
    .values({ user_id: userId, educator_id: educatorId, created_at: Math.floor(Date.now() / 1000) })
    .onConflict((oc) => oc.columns(['user_id', 'educator_id']).doNothing())
    .execute();
}

/** The newest outbox message to an address (the outbox mailer is the default). */
export async function lastMailTo(db: Db, address: string) {
  return db
    .selectFrom('outbox_messages')
    .selectAll()
    .where('to_address', '=', address.toLowerCase())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** The one-time token in an e-mailed /login?token=… (or ?confirm-email=…) link. */
export function tokenFromMail(text: string): string {
  const match = /[?&](?:token|confirm-email)=([A-Za-z0-9_-]+)/.exec(text);
  if (!match) throw new Error(`no link token in: ${text}`);
  return match[1];
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  setCookies: string[];
  text: string;
  json<T = any>(): T;
}

/**
 * A request with any Host header (fetch cannot set one): for minisite hosts such as acme.localhost,
 * served by the same test server. Redirects are not followed.
 */
export async function rawRequest(
  server: TestServer,
  path: string,
  init: { method?: string; host?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<RawResponse> {
  const { request } = await import('node:http');
  const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.host) headers.host = init.host;
  if (body !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: init.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const setCookie = res.headers['set-cookie'];
        ok({
          status: res.statusCode ?? 0,
          headers: res.headers,
          setCookies: Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [],
          text,
          json: () => JSON.parse(text),
        });
      });
    });
    req.on('error', fail);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** A named cookie from Set-Cookie lines, as 'name=value' ('' when absent or being deleted). */
export function cookieFrom(setCookies: string[], name: string): string {
  for (const line of setCookies) {
    const [pair] = line.split(';');
    const index = pair.indexOf('=');
    if (pair.slice(0, index).trim() === name) {
      const value = pair.slice(index + 1).trim();
      return value ? `${name}=${value}` : '';
    }
  }
  return '';
}

/** A login attempt from the given client address (the server reads X-Forwarded-For in its tests). */
export function loginFrom(baseUrl: string, email: string, password: string, ip: string): Promise<Response> {
  return fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email, password }),
  });
}

/** How many answers had each status. */
export function countStatuses(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}
