/**
 * Backups that are checked by reading them back, and restores into a new database (docs/operations.md).
 *
 * SQLite: SQLite's online backup API, run in a worker thread on a read-only connection of its own that first opens
 * a read transaction. In WAL mode that transaction is a snapshot: the server keeps writing (its writes go to the
 * WAL, which the snapshot does not see), the copy is exactly the database as it was when the snapshot began, and
 * the row counts read in the same transaction are the source's at that moment. The copy is then opened on its own,
 * `pragma integrity_check`ed and counted again; both counts must agree. Nothing of this runs on the thread that
 * answers requests.
 *
 * PostgreSQL: a repeatable-read transaction exports its snapshot, counts every table in it and hands the snapshot
 * to `pg_dump --snapshot` (custom format), so the dump and the counts are of the same moment; `pg_restore --list`
 * then reads the archive back and must list every table's data. A full check restores it into a scratch database.
 *
 * Every backup has a manifest beside it (`<backup>.json`): engine, tables and row counts, sha256 of the file,
 * when the snapshot was taken and the migrations applied then. A restore refuses a backup whose file does not
 * match its manifest, and a database that is not empty unless forced, and checks the restored counts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { z } from 'zod';
import { dialectOf, type Dialect } from './client.ts';
import { migrations as knownMigrations } from './migrations/index.ts';

export const MANIFEST_SUFFIX = '.json';
const PARTIAL_SUFFIX = '.partial';

const manifestSchema = z.object({
  format: z.literal(1),
  engine: z.enum(['sqlite', 'postgres']),
  /** The backup file's name, beside the manifest. */
  file: z.string().min(1),
  bytes: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The moment of the snapshot: everything committed before it is in the backup, nothing committed after. */
  created_at: z.iso.datetime(),
  completed_at: z.iso.datetime(),
  /** PostgreSQL: the schema that was dumped (restored under the same name). */
  schema: z.string().optional(),
  /** The migrations applied in the source at the snapshot, by name. */
  migrations: z.array(z.string()),
  /** Rows per table at the snapshot. */
  tables: z.record(z.string(), z.number().int().min(0)),
  /** SQLite: the copy's `pragma integrity_check`; PostgreSQL: `pg_restore --list` read every table's data. */
  integrity: z.enum(['ok', 'listed']),
});
export type BackupManifest = z.output<typeof manifestSchema>;

export interface Backup {
  path: string;
  manifest: BackupManifest;
}

/** SQLite URLs as openDb takes them: a path, optionally behind sqlite: or sqlite://. */
export function sqliteFileOf(url: string): string {
  return url.replace(/^sqlite:(\/\/)?/, '');
}

/** The manifest's path for a backup file. */
export function manifestPathOf(backupPath: string): string {
  return `${backupPath}${MANIFEST_SUFFIX}`;
}

export async function readManifest(backupPath: string): Promise<BackupManifest> {
  const path = manifestPathOf(backupPath);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new Error(`${path}: no manifest beside the backup (every backup is written with one); without it the backup cannot be checked`);
  }
  const parsed = manifestSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${path}: not a backup manifest (${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`);
  return parsed.data;
}

export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  // Streamed: a large file is hashed in chunks between other work, never in one blocking call.
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

// ---------------------------------------------------------------------------------------------------------------
// SQLite, in a worker thread

/**
 * Plain JavaScript evaluated from a string (as db/checkpointer.ts does), so it runs the same under tsx, vitest and
 * the compiled server. `backup` copies the snapshot and checks the copy; `check` opens a file and reads its
 * integrity, counts and migrations.
 */
const SQLITE_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const quote = (name) => '"' + name.replace(/"/g, '""') + '"';
// Ordinary tables only: a virtual table's rows are in its shadow tables, which are ordinary and counted.
function tablesOf(db) {
  return db.prepare("select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").all()
    .filter((t) => !/^\\s*create\\s+virtual\\s+table/i.test(t.sql || '')).map((t) => t.name);
}
function countAll(db) {
  const out = {};
  for (const t of tablesOf(db)) out[t] = Number(db.prepare('select count(*) from ' + quote(t)).pluck().get());
  return out;
}
function migrationsOf(db) {
  const has = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
  return has ? db.prepare('select name from kysely_migration order by name').pluck().all() : [];
}
function check(file) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = db.pragma('integrity_check').map((row) => row.integrity_check);
    return { integrity, tables: countAll(db), migrations: migrationsOf(db) };
  } finally {
    db.close();
  }
}
const pause = new Int32Array(new SharedArrayBuffer(4));
async function backup({ source, partial, pagesPerStep, pauseMs }) {
  const src = new Database(source, { readonly: true, fileMustExist: true });
  // This thread answers no requests: it may wait for a lock (a checkpoint restarting the WAL) a while.
  src.pragma('busy_timeout = 10000');
  let snapshot;
  try {
    src.exec('BEGIN');
    // The first read opens the snapshot; the counts and the copy below are all of it.
    const tables = countAll(src);
    const migrations = migrationsOf(src);
    const createdAt = Date.now();
    parentPort.postMessage({ type: 'snapshot', createdAt });
    await src.backup(partial, {
      progress() {
        if (pauseMs > 0) Atomics.wait(pause, 0, 0, pauseMs);
        return pagesPerStep;
      },
    });
    snapshot = { tables, migrations, createdAt };
  } finally {
    if (src.inTransaction) src.exec('COMMIT');
    src.close();
  }
  // One self-contained file: the copy took the source's WAL mode along with its header.
  const copy = new Database(partial);
  copy.pragma('journal_mode = DELETE');
  copy.close();
  return { ...snapshot, copy: check(partial) };
}
(async () => {
  try {
    const result = workerData.op === 'backup' ? await backup(workerData) : check(workerData.file);
    parentPort.postMessage({ type: 'done', result });
  } catch (error) {
    parentPort.postMessage({ type: 'failed', message: error && error.message ? error.message : String(error) });
  }
})();
`;

interface SqliteCheck {
  integrity: string[];
  tables: Record<string, number>;
  migrations: string[];
}
interface SqliteBackupResult {
  tables: Record<string, number>;
  migrations: string[];
  createdAt: number;
  copy: SqliteCheck;
}

function runSqliteWorker<T>(data: Record<string, unknown>, options: { signal?: AbortSignal; onSnapshot?: (at: Date) => void } = {}): Promise<T> {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  return new Promise<T>((ok, fail) => {
    if (options.signal?.aborted) return fail(new Error('backup stopped'));
    const worker = new Worker(SQLITE_WORKER_SOURCE, { eval: true, workerData: { module, ...data } });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = () => settle(() => {
      void worker.terminate();
      fail(new Error('backup stopped'));
    });
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: { type: string; createdAt?: number; result?: T; message?: string }) => {
      if (message.type === 'snapshot') options.onSnapshot?.(new Date(message.createdAt!));
      else if (message.type === 'done') settle(() => ok(message.result as T));
      else if (message.type === 'failed') settle(() => fail(new Error(message.message)));
    });
    worker.on('error', (error) => settle(() => fail(error)));
    worker.on('exit', (code) => settle(() => fail(new Error(`backup worker exited with code ${code}`))));
  });
}

/** Integrity, row counts and migrations of a SQLite file, read in a worker thread. */
export function checkSqliteFile(file: string): Promise<SqliteCheck> {
  return runSqliteWorker<SqliteCheck>({ op: 'check', file: resolve(file) });
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL, through pg_dump and pg_restore

/** The URL without its password, which goes to the tools in PGPASSWORD instead of on their command line. */
function toolConnection(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (parsed.password) {
    env.PGPASSWORD = decodeURIComponent(parsed.password);
    parsed.password = '';
  }
  return { url: parsed.toString(), env };
}

function runTool(command: string, args: string[], env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<string> {
  return new Promise((ok, fail) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], signal });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => fail((error as NodeJS.ErrnoException).code === 'ENOENT'
      ? new Error(`${command} not found: install the PostgreSQL client tools (the same major version as the server, or newer)`)
      : error));
    child.on('close', (code) => {
      if (code === 0) ok(Buffer.concat(out).toString('utf8'));
      else fail(new Error(`${command} failed (exit ${code}): ${Buffer.concat(err).toString('utf8').trim()}`));
    });
  });
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function pgTables(client: pg.ClientBase, schema: string): Promise<Record<string, number>> {
  const { rows } = await client.query<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE' order by table_name", [schema]);
  const out: Record<string, number> = {};
  for (const { table_name: table } of rows) {
    const { rows: [row] } = await client.query<{ n: string | number }>(`select count(*) as n from ${quoteIdent(schema)}.${quoteIdent(table)}`);
    out[table] = Number(row.n);
  }
  return out;
}

async function pgMigrations(client: pg.ClientBase, schema: string): Promise<string[]> {
  const { rows: [has] } = await client.query<{ n: string | number }>(
    "select count(*) as n from information_schema.tables where table_schema = $1 and table_name = 'kysely_migration'", [schema]);
  if (Number(has.n) === 0) return [];
  const { rows } = await client.query<{ name: string }>(`select name from ${quoteIdent(schema)}.kysely_migration order by name`);
  return rows.map((r) => r.name);
}

/** The archive's table-data entries, as `schema.table`. */
async function listedTables(archive: string): Promise<Set<string>> {
  const listing = await runTool('pg_restore', ['--list', archive], process.env);
  const out = new Set<string>();
  for (const line of listing.split('\n')) {
    const match = /^\d+; \d+ \d+ TABLE DATA (\S+) (\S+) /.exec(line);
    if (match) out.add(`${match[1]}.${match[2]}`);
  }
  return out;
}

async function verifyListing(archive: string, schema: string, tables: Record<string, number>): Promise<void> {
  const listed = await listedTables(archive);
  const missing = Object.keys(tables).filter((t) => !listed.has(`${schema}.${t}`));
  if (missing.length) throw new Error(`the archive has no data for ${missing.join(', ')}: not a complete backup`);
}

// ---------------------------------------------------------------------------------------------------------------
// Taking a backup

export interface BackupOptions {
  /** DATABASE_URL of the source: a SQLite file or postgres://… */
  url: string;
  /** Folder the backup and its manifest are written to (created when missing). */
  dir: string;
  /** Stops the backup (shutdown): the partial file is removed. */
  signal?: AbortSignal;
  /** Called once the snapshot is taken: everything committed before this is in the backup. */
  onSnapshot?: (at: Date) => void;
  /**
   * SQLite: pages copied per step and a pause between steps, to spread a large copy's reads out. The copy is
   * of the snapshot whatever the pace; a slower copy only keeps the WAL from being checkpointed for longer.
   */
  pace?: { pagesPerStep: number; pauseMs: number };
}

function stamp(at: Date): string {
  return at.toISOString().replace(/[-:]/g, '').replace(/\.(\d+)Z$/, '$1Z');
}

export async function takeBackup(options: BackupOptions): Promise<Backup> {
  const engine = dialectOf(options.url);
  const dir = resolve(options.dir);
  await mkdir(dir, { recursive: true });
  const started = new Date();
  const name = `backup-${engine}-${stamp(started)}-${randomBytes(3).toString('hex')}.${engine === 'sqlite' ? 'sqlite' : 'dump'}`;
  const path = join(dir, name);
  const partial = `${path}${PARTIAL_SUFFIX}`;
  try {
    const taken = engine === 'sqlite' ? await sqliteSnapshot(options, partial) : await postgresSnapshot(options, partial);
    const manifest: BackupManifest = {
      format: 1,
      engine,
      file: name,
      bytes: (await stat(partial)).size,
      sha256: await sha256Of(partial),
      created_at: taken.createdAt.toISOString(),
      completed_at: new Date().toISOString(),
      ...(taken.schema ? { schema: taken.schema } : {}),
      migrations: taken.migrations,
      tables: taken.tables,
      integrity: taken.integrity,
    };
    // The manifest first, then the file under its final name: a backup listed is always a complete one.
    await writeFile(manifestPathOf(path), `${JSON.stringify(manifest, null, 2)}\n`);
    await rename(partial, path);
    return { path, manifest };
  } catch (error) {
    await rm(partial, { force: true });
    await rm(manifestPathOf(path), { force: true });
    throw error;
  }
}

interface Snapshot {
  createdAt: Date;
  tables: Record<string, number>;
  migrations: string[];
  integrity: 'ok' | 'listed';
  schema?: string;
}

async function sqliteSnapshot(options: BackupOptions, partial: string): Promise<Snapshot> {
  const source = resolve(sqliteFileOf(options.url));
  if (sqliteFileOf(options.url) === ':memory:') throw new Error('an in-memory database cannot be backed up');
  if (!existsSync(source)) throw new Error(`${source}: no such database file`);
  const result = await runSqliteWorker<SqliteBackupResult>(
    { op: 'backup', source, partial, pagesPerStep: options.pace?.pagesPerStep ?? 0x7fffffff, pauseMs: options.pace?.pauseMs ?? 0 },
    { signal: options.signal, onSnapshot: options.onSnapshot },
  );
  const { copy } = result;
  if (copy.integrity.length !== 1 || copy.integrity[0] !== 'ok') throw new Error(`the copy failed its integrity check: ${copy.integrity.slice(0, 5).join('; ')}`);
  const differences = compareCounts(result.tables, copy.tables);
  if (differences.length) throw new Error(`the copy's row counts differ from the source's at the snapshot: ${differences.join('; ')}`);
  if (copy.migrations.join() !== result.migrations.join()) throw new Error('the copy\u2019s migrations differ from the source\u2019s');
  return { createdAt: new Date(result.createdAt), tables: result.tables, migrations: result.migrations, integrity: 'ok' };
}

async function postgresSnapshot(options: BackupOptions, partial: string): Promise<Snapshot> {
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const { rows: [row] } = await client.query<{ snapshot: string; schema: string }>('select pg_export_snapshot() as snapshot, current_schema() as schema');
    const tables = await pgTables(client, row.schema);
    const migrations = await pgMigrations(client, row.schema);
    const createdAt = new Date();
    options.onSnapshot?.(createdAt);
    const { url, env } = toolConnection(options.url);
    // The exported snapshot lives as long as this transaction: pg_dump must import it before the commit below.
    await runTool('pg_dump', ['--format=custom', `--snapshot=${row.snapshot}`, `--schema=${quoteIdent(row.schema)}`, `--file=${partial}`, `--dbname=${url}`], env, options.signal);
    await client.query('commit');
    await verifyListing(partial, row.schema, tables);
    return { createdAt, tables, migrations, integrity: 'listed', schema: row.schema };
  } finally {
    await client.end();
  }
}

function compareCounts(expected: Record<string, number>, actual: Record<string, number>): string[] {
  const out: string[] = [];
  for (const table of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    if (expected[table] !== actual[table]) out.push(`${table}: ${expected[table] ?? 'missing'} expected, ${actual[table] ?? 'missing'} found`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Listing, retention, verification

/** The complete backups in a folder (each with a readable manifest), newest first. */
export async function listBackups(dir: string): Promise<Backup[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const out: Backup[] = [];
  for (const name of names) {
    if (!/^backup-(sqlite|postgres)-.*\.(sqlite|dump)$/.test(name)) continue;
    const path = join(dir, name);
    try {
      out.push({ path, manifest: await readManifest(path) });
    } catch {
      // A file without a readable manifest is not a backup we made: left alone.
    }
  }
  return out.sort((a, b) => b.manifest.created_at.localeCompare(a.manifest.created_at) || b.path.localeCompare(a.path));
}

/** Keeps the newest `keep` backups in `dir`; removes the rest and any partial file left by a stopped backup. */
export async function pruneBackups(dir: string, keep: number, options: { keepPartials?: boolean } = {}): Promise<string[]> {
  const removed: string[] = [];
  for (const { path } of (await listBackups(dir)).slice(keep)) {
    await rm(path, { force: true });
    await rm(manifestPathOf(path), { force: true });
    removed.push(path);
  }
  if (!options.keepPartials) {
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (name.startsWith('backup-') && name.endsWith(PARTIAL_SUFFIX)) await rm(join(dir, name), { force: true });
    }
  }
  return removed;
}

export interface Verified {
  manifest: BackupManifest;
  /** Migrations in the backup this code does not have (it was taken by newer code), and ones this code would add. */
  migrations: { unknown: string[]; pending: string[] };
}

function migrationLevel(names: string[]): Verified['migrations'] {
  const known = Object.keys(knownMigrations);
  return { unknown: names.filter((n) => !known.includes(n)), pending: known.filter((n) => !names.includes(n)) };
}

/**
 * Checks a backup file against its manifest: the sha256, then SQLite's integrity and row counts in the file, or
 * the PostgreSQL archive's listing. Throws with what is wrong.
 */
export async function verifyBackup(path: string): Promise<Verified> {
  const manifest = await readManifest(path);
  const sha256 = await sha256Of(path);
  if (sha256 !== manifest.sha256) throw new Error(`${path}: sha256 ${sha256} is not the manifest's ${manifest.sha256}: the file changed since it was written`);
  if (manifest.engine === 'sqlite') {
    const check = await checkSqliteFile(path);
    if (check.integrity.join() !== 'ok') throw new Error(`${path}: integrity check failed: ${check.integrity.slice(0, 5).join('; ')}`);
    const differences = compareCounts(manifest.tables, check.tables);
    if (differences.length) throw new Error(`${path}: row counts differ from the manifest: ${differences.join('; ')}`);
  } else {
    await verifyListing(path, manifest.schema ?? 'public', manifest.tables);
  }
  return { manifest, migrations: migrationLevel(manifest.migrations) };
}

// ---------------------------------------------------------------------------------------------------------------
// Restoring

export interface RestoreOptions {
  /** The new database: a SQLite file or postgres://… (of the backup's engine). */
  to: string;
  /** Restore over a database that already has tables (its tables are replaced). */
  force?: boolean;
}

export interface RestoreReport extends Verified {
  target: string;
  engine: Dialect;
  rows: number;
}

export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

export async function restoreBackup(path: string, options: RestoreOptions): Promise<RestoreReport> {
  const verified = await verifyBackup(path);
  const { manifest } = verified;
  const engine = dialectOf(options.to);
  if (engine !== manifest.engine) {
    throw new RestoreRefused(manifest.engine === 'sqlite'
      ? 'this is a SQLite backup: restore it to a SQLite file, then move it to PostgreSQL with npm run db:copy'
      : 'this is a PostgreSQL backup: restore it to a postgres:// database');
  }
  const restored = engine === 'sqlite' ? await restoreSqlite(path, options) : await restorePostgres(path, manifest, options);
  const differences = compareCounts(manifest.tables, restored.tables);
  if (differences.length) throw new Error(`the restored database's row counts differ from the backup's: ${differences.join('; ')}`);
  if (restored.migrations.join() !== manifest.migrations.join()) throw new Error('the restored database\u2019s migrations differ from the backup\u2019s');
  const rows = Object.values(restored.tables).reduce((a, b) => a + b, 0);
  return { ...verified, target: restored.target, engine, rows };
}

async function restoreSqlite(path: string, options: RestoreOptions) {
  const target = resolve(sqliteFileOf(options.to));
  if (existsSync(target) && (await stat(target)).size > 0) {
    const present = await checkSqliteFile(target).catch(() => null);
    const tables = present ? Object.keys(present.tables).length : 1;
    if (tables > 0 && !options.force) {
      throw new RestoreRefused(`${target} is not empty (${present ? `${tables} tables` : 'not a database we can read'}): restore into a new file, or add --force to replace it (stop the server first)`);
    }
  }
  await mkdir(dirname(target), { recursive: true });
  const restoring = `${target}.restoring`;
  await copyFile(path, restoring);
  try {
    const check = await checkSqliteFile(restoring);
    if (check.integrity.join() !== 'ok') throw new Error(`the restored copy failed its integrity check: ${check.integrity.slice(0, 5).join('; ')}`);
    // A WAL left by the database being replaced must not be replayed onto the restored one.
    await rm(`${target}-wal`, { force: true });
    await rm(`${target}-shm`, { force: true });
    await rename(restoring, target);
    return { target, tables: check.tables, migrations: check.migrations };
  } catch (error) {
    await rm(restoring, { force: true });
    throw error;
  }
}

async function restorePostgres(path: string, manifest: BackupManifest, options: RestoreOptions) {
  const schema = manifest.schema ?? 'public';
  const client = new pg.Client({ connectionString: options.to });
  await client.connect();
  try {
    const { rows: [present] } = await client.query<{ n: string | number }>(
      "select count(*) as n from information_schema.tables where table_schema = $1", [schema]);
    if (Number(present.n) > 0 && !options.force) {
      throw new RestoreRefused(`the target database already has ${present.n} tables in schema ${schema}: restore into a new database (createdb …), or add --force to replace them (stop the servers first)`);
    }
    const { rows: [exists] } = await client.query<{ n: string | number }>('select count(*) as n from pg_namespace where nspname = $1', [schema]);
    const { url, env } = toolConnection(options.to);
    const args = ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${url}`];
    if (options.force) args.push('--clean', '--if-exists');
    let listFile: string | null = null;
    if (Number(exists.n) > 0) {
      // The schema is there already (public always is): restore everything in it but the schema itself.
      const listing = await runTool('pg_restore', ['--list', path], process.env);
      const keep = listing.split('\n').filter((line) => !new RegExp(`^\\d+; \\d+ \\d+ (SCHEMA - |COMMENT - SCHEMA )${schema.replace(/[^a-z0-9_]/gi, '')} `).test(line));
      listFile = `${path}.restore-list-${randomBytes(3).toString('hex')}`;
      await writeFile(listFile, keep.join('\n'));
      args.push(`--use-list=${listFile}`);
    }
    try {
      await runTool('pg_restore', [...args, path], env);
    } finally {
      if (listFile) await rm(listFile, { force: true });
    }
    return { target: redactUrl(options.to), tables: await pgTables(client, schema), migrations: await pgMigrations(client, schema) };
  } finally {
    await client.end();
  }
}

/** A database URL fit to print: its password hidden. */
export function redactUrl(url: string): string {
  if (dialectOf(url) !== 'postgres') return url;
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** What the operator does after a restore, in plain steps. */
export function nextSteps(report: RestoreReport): string[] {
  const steps: string[] = [];
  steps.push(`Point the server at the restored database: DATABASE_URL=${report.target}`);
  if (report.migrations.unknown.length) {
    steps.push(`The backup was taken by newer code (migrations ${report.migrations.unknown.join(', ')} are unknown here): run the version of the code that took it, or newer.`);
  } else if (report.migrations.pending.length) {
    steps.push(`Start the server (npm run serve): it applies the ${report.migrations.pending.length} migration(s) newer than the backup at start-up.`);
  } else {
    steps.push('Start the server (npm run serve): the schema is current.');
  }
  steps.push('Rebuild the pre-rendered pages from the restored data: npm run build (the publisher keeps them fresh from then on).');
  steps.push(`Anything committed after ${report.manifest.created_at} is not in this backup: check payments taken since then with your payment provider, and e-mails queued but unsent then will be sent again.`);
  return steps;
}
