/**
 * The real HTTP server (api/app.ts) on a free loopback port, over a fresh test database.
 * API tests talk to it with fetch, exactly as a browser or another service would.
 */
import type { Deps } from '../../api/deps.ts';
import { createApp } from '../../api/app.ts';
import { listen } from '../../api/http/node-server.ts';
import { loadConfig, type Config } from '../../api/config.ts';
import { createTestDb, type TestDb } from './db.ts';
import { listeningSessionCache } from '../../api/auth/session-cache.ts';
import { searchThreadsFor } from '../../api/server.ts';
import { loggerFor } from '../../api/log.ts';

export interface TestServer {
  url: string;
  port: number;
  db: TestDb['db'];
  testDb: TestDb;
  config: Config;
  /** What the app was built on (for running a background job's pass, e.g. the mail outbox, in the test). */
  deps: Deps;
  /** Pin or move the server's clock (epoch seconds). */
  setNow(seconds: number | null): void;
  close(): Promise<void>;
}

export async function startTestServer(env: Record<string, string> = {}, testDb?: TestDb): Promise<TestServer> {
  const tdb = testDb ?? (await createTestDb());
  const config = loadConfig({ LOG_LEVEL: 'error', PUBLIC_HOST: 'localhost', DIST_DIR: 'dist', ...env });
  let pinned: number | null = null;
  const deps: Deps = {
    db: tdb.db,
    dialect: tdb.dialect,
    config,
    now: () => pinned ?? Math.floor(Date.now() / 1000),
    // As the server runs it: on PostgreSQL every API test resolves sessions through the cache.
    sessionCache: listeningSessionCache(tdb.db),
    // Search threads (SQLite) only where a test asks for them: each one loads the server's modules anew.
    searchThreads: env.SEARCH_THREADS ? searchThreadsFor({ ...config, DATABASE_URL: tdb.url }, tdb.db, loggerFor(config)) : undefined,
  };
  const app = createApp(deps);
  const server = await listen(app, 0, '127.0.0.1');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    db: tdb.db,
    testDb: tdb,
    config,
    deps,
    setNow(seconds) {
      pinned = seconds;
    },
    async close() {
      await new Promise<void>((ok) => server.close(() => ok()));
      await deps.sessionCache?.close();
      await deps.searchThreads?.close();
      if (!testDb) await tdb.close();
    },
  };
}
