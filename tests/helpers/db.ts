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

/**
 * Test files run side by side, each in a schema of its own in one database. kysely's migrator first lists the
 * tables of every schema, asking has_schema_privilege of each by name, so a schema another file dropped meanwhile
 * failed a file's migration now and then ("schema t_… does not exist"). Migrations hold this advisory lock
 * shared, and dropping a schema takes it exclusively.
 */
const SCHEMA_DROP_LOCK = 7_210_419;

async function underSchemaDropLock<T>(url: string, mode: 'shared' | 'exclusive', work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(mode === 'shared' ? 'select pg_advisory_lock_shared($1)' : 'select pg_advisory_lock($1)', [SCHEMA_DROP_LOCK]);
    return await work();
  } finally {
    // Ending the session releases its advisory locks.
    await client.end();
  }
}

/** Drops a test's PostgreSQL schema (with everything in it) without failing another file's migration. */
export async function dropTestSchema(db: Db, url: string, schema: string): Promise<void> {
  await underSchemaDropLock(url, 'exclusive', () => sql.raw(`drop schema if exists ${schema} cascade`).execute(db));
}

export async function createTestDb(): Promise<TestDb> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const db = openDb({ url: pgUrl, schema, poolSize: 20 });
    await underSchemaDropLock(pgUrl, 'shared', () => migrateToLatest(db));
    return {
      db, url: pgUrl, schema, dialect: 'postgres',
      async close() {
        await dropTestSchema(db, pgUrl, schema);
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
