/**
 * SESSION_CACHE (api/config.ts; docs/operations.md "Sessions in memory, and connection poolers"), on running servers:
 * by default a server on PostgreSQL answers a signed-in request from the sessions it keeps in memory; with
 * SESSION_CACHE=false (behind a pooler in transaction mode, which delivers no notices) it reads the session on every
 * request. Shown by deleting the session's row with the triggers that would announce it switched off: only a server
 * that keeps sessions in memory still knows it. PostgreSQL-only (set TEST_DATABASE_URL): SQLite keeps no cache.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { loadConfig } from '../../api/config.ts';
import { startServer } from '../../api/server.ts';
import { databaseUrlOf } from '../helpers/db.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const pgUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!pgUrl)('SESSION_CACHE on a running server (set TEST_DATABASE_URL to run)', () => {
  let server: TestServer;
  const started: Array<Awaited<ReturnType<typeof startServer>>> = [];

  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'silent' });
  }, 60_000);
  afterAll(async () => {
    for (const s of started) await s.close();
    await server?.close();
  });

  async function productServer(env: Record<string, string>): Promise<(cookie: string) => Promise<number>> {
    const config = loadConfig({
      DATABASE_URL: databaseUrlOf(server.testDb), PORT: '0', BIND_HOST: '127.0.0.1', PUBLIC_HOST: 'localhost',
      LOG_LEVEL: 'silent', DIST_DIR: '/nonexistent-dist', ...env,
    });
    // Starting migrates (nothing to do here), which lists the schemas: under the tests' schema lock.
    const s = await server.testDb.changeSchema(() => startServer(config, { backgroundJobs: false }));
    started.push(s);
    return async (cookie) => (await fetch(`http://127.0.0.1:${s.port}/api/account`, { headers: { cookie } })).status;
  }

  it('serves a session from memory by default, and reads it on every request with SESSION_CACHE=false', async () => {
    const cached = await productServer({});
    const uncached = await productServer({ SESSION_CACHE: 'false' });
    const { cookie, user } = await signUpAndLogin(server);
    // A few requests, so one comes after the cached server's listening connection is up (it serves from memory only then).
    for (let i = 0; i < 5; i++) {
      expect(await cached(cookie)).toBe(200);
      await new Promise((ok) => setTimeout(ok, 100));
    }
    expect(await uncached(cookie)).toBe(200);

    await sql`alter table sessions disable trigger user`.execute(server.db);
    try {
      await server.db.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    } finally {
      await sql`alter table sessions enable trigger user`.execute(server.db);
    }
    expect(await cached(cookie)).toBe(200);
    expect(await uncached(cookie)).toBe(401);
  });
});
