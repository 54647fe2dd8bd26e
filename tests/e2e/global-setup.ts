/**
 * Browser tests run against the real product: a fresh database with the demo catalogue, the site built
 * from it as `npm run build` builds it (scripts/build-site.mjs: `astro build`, then the educators' pages by the
 * build workers), and api/server.ts serving both on a free loopback port.
 * SQLite by default; a throw-away PostgreSQL database when TEST_DATABASE_URL is set.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { createThrowawayPgDatabase } from '../helpers/db.ts';
import type { TestProject } from 'vitest/node';
import { openDb } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { loadCatalogue } from '../../db/seed/load.ts';
import { loadConfig } from '../../api/config.ts';
import { startServer } from '../../api/server.ts';
import { freePort } from '../helpers/ports.ts';

const run = promisify(execFile);

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    port: number;
    databaseUrl: string;
    catalogueNow: number;
    /** The built site the server serves (tests that must plant a file in it). */
    distDir: string;
  }
}

export default async function setup(project: TestProject) {
  // Inside the project, not the system temp folder: the built server must resolve node_modules from its folder.
  mkdirSync(join(process.cwd(), '.tmp'), { recursive: true });
  const work = mkdtempSync(join(process.cwd(), '.tmp', 'e2e-'));
  const pgAdminUrl = process.env.TEST_DATABASE_URL;
  let databaseUrl = join(work, 'e2e.sqlite');
  let pgDatabase: string | null = null;
  if (pgAdminUrl) {
    const created = await createThrowawayPgDatabase(pgAdminUrl, 'e2e');
    pgDatabase = created.name;
    databaseUrl = created.url;
  }

  const now = Math.floor(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) / 1000);
  const db = openDb({ url: databaseUrl });
  await migrateToLatest(db);
  await loadCatalogue(db, { seed: 1, educators: 30, now });
  await db.destroy();

  const port = await freePort();
  const distDir = join(work, 'dist');
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    ASTRO_OUT_DIR: distDir,
    PUBLIC_HOST: `localhost:${port}`,
    ASTRO_TELEMETRY_DISABLED: '1',
    // vitest sets NODE_ENV=test; the site under test is the production build.
    NODE_ENV: 'production',
  };
  const started = performance.now();
  await run(process.execPath, ['scripts/build-site.mjs'], { env, maxBuffer: 64 * 1024 * 1024 });
  console.log(`[e2e] site built in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // On-demand pages rendered in this process read the same database.
  process.env.DATABASE_URL = databaseUrl;
  process.env.PUBLIC_HOST = `localhost:${port}`;
  // Every browser test comes from one address: the per-client abuse limits (tested in tests/api) stay out of the way.
  const abuseLimits = {
    RATE_LIMIT_ENQUIRY_PER_IP: '100000', RATE_LIMIT_ENQUIRY_PER_EDUCATOR: '100000', RATE_LIMIT_VOUCHER_PER_IP: '100000',
    RATE_LIMIT_VOUCHER_PER_EDUCATOR: '100000', RATE_LIMIT_ANALYTICS_PER_IP: '100000', RATE_LIMIT_ANALYTICS_PER_TARGET: '100000',
  };
  const config = loadConfig({ ...env, ...abuseLimits, PORT: String(port), BIND_HOST: '127.0.0.1', DIST_DIR: distDir, LOG_LEVEL: 'error', OUTBOX_DIR: join(work, 'outbox'), UPLOADS_DIR: join(work, 'uploads') });
  const server = await startServer(config);
  const baseUrl = `http://localhost:${port}`;
  project.provide('baseUrl', baseUrl);
  project.provide('port', port);
  project.provide('databaseUrl', databaseUrl);
  project.provide('catalogueNow', now);
  project.provide('distDir', distDir);

  return async () => {
    await server.close();
    if (pgDatabase && pgAdminUrl) {
      const admin = new pg.Client({ connectionString: pgAdminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${pgDatabase} with (force)`);
      await admin.end();
    }
    rmSync(work, { recursive: true, force: true });
  };
}
