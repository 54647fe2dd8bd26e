/**
 * A fresh, migrated database for one test file: a temporary SQLite file by default, or a
 * private schema on PostgreSQL when TEST_DATABASE_URL is set (so files can run side by side).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { openDb, type Db } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { PG_TEMPLATE_ENV, SQLITE_TEMPLATE_ENV } from './migrated-template.ts';
import { onPgServer, pgDatabaseUrl } from './pg-admin.ts';

export interface TestDb {
  db: Db;
  url: string;
  schema?: string;
  dialect: 'sqlite' | 'postgres';
  /** Runs the migrator again (as a second start of the product would): the names it applied. */
  migrate(): Promise<string[]>;
  /**
   * Runs DDL of a test's own (a migration's down and up, a table made for the test) where it cannot fail another
   * file's migration (on PostgreSQL, under the lock below).
   */
  changeSchema<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Test files run side by side, each in a schema of its own in one database, and kysely's migrator first lists the
 * tables and columns of every schema in the database. That listing failed now and then while another file changed
 * its own schema: a schema dropped meanwhile ("schema t_… does not exist"), or a column a migration in flight had
 * just renamed ("column … of relation … does not exist", from pg_get_serial_sequence). So every schema change of the
 * tests (a migration, a drop, a test's own DDL: TestDb.changeSchema) holds this advisory lock: one at a time,
 * ~0.5 s for a migration.
 */
const SCHEMA_CHANGE_LOCK = 7_210_419;

async function underSchemaChangeLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [SCHEMA_CHANGE_LOCK]);
    return await work();
  } finally {
    // Ending the session releases its advisory locks.
    await client.end();
  }
}

/** Drops a test's PostgreSQL schema (with everything in it) without failing another file's migration. */
export async function dropTestSchema(db: Db, url: string, schema: string): Promise<void> {
  await underSchemaChangeLock(url, () => sql.raw(`drop schema if exists ${schema} cascade`).execute(db));
}

export async function createTestDb(): Promise<TestDb> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  const pgTemplate = process.env[PG_TEMPLATE_ENV];
  if (pgUrl && pgTemplate) {
    // A database of this file's own, copied from the one the global set-up migrated, its tables in `public` as in
    // production; no other file's schema changes can reach it, so its own need no lock.
    const name = `t_${randomBytes(6).toString('hex')}`;
    await onPgServer(pgUrl, `create database ${name} template ${pgTemplate}`);
    const url = pgDatabaseUrl(pgUrl, name);
    const db = openDb({ url, poolSize: 20 });
    await migrateToLatest(db);
    return {
      db, url, dialect: 'postgres', migrate: () => migrateToLatest(db), changeSchema: (work) => work(),
      async close() {
        await db.destroy();
        await onPgServer(pgUrl, `drop database if exists ${name} with (force)`);
      },
    };
  }
  if (pgUrl) {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const db = openDb({ url: pgUrl, schema, poolSize: 20 });
    const changeSchema = <T>(work: () => Promise<T>) => underSchemaChangeLock(pgUrl, work);
    const migrate = () => changeSchema(() => migrateToLatest(db));
    await migrate();
    return {
      db, url: pgUrl, schema, dialect: 'postgres', migrate, changeSchema,
      async close() {
        await dropTestSchema(db, pgUrl, schema);
        await db.destroy();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'mkt-test-'));
  const url = join(dir, 'test.sqlite');
  // A copy of the database the global set-up migrated (tests/helpers/migrated-template.ts), when there is one.
  const template = process.env[SQLITE_TEMPLATE_ENV];
  if (template) copyFileSync(template, url);
  const db = openDb({ url });
  await migrateToLatest(db);
  return {
    db, url, dialect: 'sqlite',
    migrate: () => migrateToLatest(db),
    changeSchema: (work) => work(),
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

/** Drops the throw-away databases a test file made (createThrowawayPgDatabase), with any connection still open to them. */
export async function dropThrowawayPgDatabases(adminUrl: string | undefined, names: readonly string[]): Promise<void> {
  if (!adminUrl || names.length === 0) return;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (const name of names) await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
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

/** An educator's name as stored (null: no such educator): what tests of writes and reads look at. */
export async function educatorName(db: Db, id: string): Promise<string | null> {
  return (await db.selectFrom('educators').select('name').where('id', '=', id).executeTakeFirst())?.name ?? null;
}
