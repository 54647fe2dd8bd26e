/**
 * Vitest's global set-up for the database and API tests on SQLite: one database migrated to the latest level
 * before any file runs, which each test file's createTestDb copies (tests/helpers/db.ts) instead of running every
 * migration again. Migrating took ~0.5–2 s a file (more on a busy machine), for ~150 files; a copy takes a few ms.
 * Each copy is still handed to the migrator, which finds nothing to do, so a file always starts at the latest level.
 * On PostgreSQL (TEST_DATABASE_URL) the template is a database beside TEST_DATABASE_URL's, migrated in its `public`
 * schema as a production database is, and each file gets a database of its own copied from it (CREATE DATABASE …
 * TEMPLATE).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDb } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { onPgServer, pgDatabaseUrl } from './pg-admin.ts';

export const SQLITE_TEMPLATE_ENV = 'TEST_SQLITE_TEMPLATE';
export const PG_TEMPLATE_ENV = 'TEST_PG_TEMPLATE';

async function pgTemplate(adminUrl: string): Promise<() => Promise<void>> {
  const name = `tpl_${randomBytes(5).toString('hex')}`;
  await onPgServer(adminUrl, `create database ${name}`);
  const db = openDb({ url: pgDatabaseUrl(adminUrl, name) });
  try {
    await migrateToLatest(db);
  } finally {
    // A template can be copied only while nobody is connected to it.
    await db.destroy();
  }
  process.env[PG_TEMPLATE_ENV] = name;
  return () => onPgServer(adminUrl, `drop database if exists ${name} with (force)`);
}

export default async function setup(): Promise<(() => void | Promise<void>) | undefined> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) return pgTemplate(pgUrl);
  const dir = mkdtempSync(join(tmpdir(), 'mkt-template-'));
  const migrated = join(dir, 'migrated.sqlite');
  const db = openDb({ url: migrated });
  try {
    await migrateToLatest(db);
    // One self-contained file (no -wal beside it), whatever the writer left unchecked-pointed.
    await sql.raw(`vacuum into '${join(dir, 'template.sqlite').replaceAll("'", "''")}'`).execute(db);
  } finally {
    await db.destroy();
  }
  // The test files' processes are started after this and inherit it.
  process.env[SQLITE_TEMPLATE_ENV] = join(dir, 'template.sqlite');
  return () => rmSync(dir, { recursive: true, force: true });
}
