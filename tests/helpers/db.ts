/**
 * A fresh, migrated database for one test file: a temporary SQLite file by default, or a
 * private schema on PostgreSQL when TEST_DATABASE_URL is set (so files can run side by side).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { openDb, type Db } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';

export interface TestDb {
  db: Db;
  url: string;
  schema?: string;
  dialect: 'sqlite' | 'postgres';
  close(): Promise<void>;
}

export async function createTestDb(): Promise<TestDb> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const db = openDb({ url: pgUrl, schema, poolSize: 20 });
    await migrateToLatest(db);
    return {
      db, url: pgUrl, schema, dialect: 'postgres',
      async close() {
        await sql.raw(`drop schema if exists ${schema} cascade`).execute(db);
        await db.destroy();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'mkt-test-'));
  const url = join(dir, 'test.sqlite');
  const db = openDb({ url });
  await migrateToLatest(db);
  return {
    db, url, dialect: 'sqlite',
    async close() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A DATABASE_URL another process (a server, a CLI) can open to reach this test database: the SQLite file, or the
 * PostgreSQL URL with the test schema as its search_path.
 */
export function databaseUrlOf(tdb: Pick<TestDb, 'url' | 'schema'>): string {
  if (!tdb.schema) return tdb.url;
  const sep = tdb.url.includes('?') ? '&' : '?';
  return `${tdb.url}${sep}options=${encodeURIComponent(`-c search_path=${tdb.schema}`)}`;
}

/**
 * A whole throw-away PostgreSQL database beside the admin one (for tests that start servers or builds of their own,
 * which a schema per test file does not fit): its name and its URL.
 */
export async function createThrowawayPgDatabase(adminUrl: string, prefix: string): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}
