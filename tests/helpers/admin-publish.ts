/**
 * The publisher over a test server's database, rendering with a built site: what the admin's writes put on the
 * public pages, read back as the files the publisher writes (all three contexts). The site is built once per
 * test file into .tmp (or taken from ADMIN_TEST_DIST, a folder `astro build` wrote, to skip the build).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createPublisher } from '../../api/publish/publisher.ts';
import { createDirectoryTarget } from '../../api/publish/page-target.ts';
import { loggerFor } from '../../api/log.ts';
import type { TestServer } from './server.ts';
import { openDb } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { loadCatalogue } from '../../db/seed/load.ts';

const run = promisify(execFile);

export interface TestPublisher {
  /** Publishes until the change feed is empty. */
  drain(): Promise<void>;
  /** A published file (e.g. `{slug}/{course}/index.html`), or null. */
  read(file: string): string | null;
  close(): Promise<void>;
}

export async function builtSite(): Promise<{ distDir: string; cleanup(): void }> {
  const given = process.env.ADMIN_TEST_DIST;
  if (given && existsSync(join(given, 'server/entry.mjs'))) return { distDir: given, cleanup: () => {} };
  const work = mkdtempSync(join(process.cwd(), '.tmp', 'admin-publish-'));
  const distDir = join(work, 'dist');
  // The build pre-renders the marketplace's own pages from a catalogue: a small demo one.
  const databaseUrl = join(work, 'build.sqlite');
  const db = openDb({ url: databaseUrl });
  await migrateToLatest(db);
  await loadCatalogue(db, { seed: 1, educators: 2, now: Math.floor(Date.now() / 1000) });
  await db.destroy();
  await run(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, ASTRO_OUT_DIR: distDir, ASTRO_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' }, maxBuffer: 64 * 1024 * 1024,
  });
  return { distDir, cleanup: () => rmSync(work, { recursive: true, force: true }) };
}

export function testPublisher(server: TestServer, distDir: string): TestPublisher {
  const out = mkdtempSync(join(process.cwd(), '.tmp', 'admin-pages-'));
  const publisher = createPublisher({
    db: server.db, dialect: server.deps.dialect, distDir, target: createDirectoryTarget(out),
    log: loggerFor({ LOG_LEVEL: 'silent' }), now: () => Math.floor(Date.now() / 1000), batchMs: 0, leaseSeconds: 5,
  });
  return {
    async drain() {
      const deadline = Date.now() + 60_000;
      for (;;) {
        await publisher.run();
        const left = await server.db.selectFrom('page_changes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        if (Number(left.n) === 0) return;
        if (Date.now() > deadline) throw new Error('the publisher did not empty the change feed');
        await new Promise((ok) => setTimeout(ok, 100));
      }
    },
    read(file) {
      const path = join(out, file);
      return existsSync(path) ? readFileSync(path, 'utf8') : null;
    },
    async close() {
      await publisher.close();
      rmSync(out, { recursive: true, force: true });
    },
  };
}
