/**
 * Copies a SQLite database of the product into an empty PostgreSQL database (npm run db:copy, db/copy-cli.ts):
 * the site that started on one machine moves to the engine for several processes without losing a row.
 *
 * 1. The source must be at this version's migration level (the same schema the target will get); the target must
 *    not be ahead of it. The target is migrated (db/migrate.ts) and must then hold no row in any table.
 * 2. Every table both engines share is copied in one PostgreSQL transaction, in batches, in primary-key order:
 *    a failure leaves the target as empty as it was. Values are converted by the target column's type (SQLite's
 *    0/1 booleans become booleans; integers are read as 64-bit integers, so ids, pence and epoch seconds stay
 *    exact; JSON stays the text it was). The target's own triggers (change feed, search, catalogue versions) are
 *    silenced while rows arrive, since the rows they would write are copied too or rebuilt after, and foreign keys
 *    are checked at the end of the transaction, so tables and rows may arrive in any order (occurrences refer to
 *    occurrences). Sequences (page_changes.id) continue after the highest id SQLite ever gave out.
 * 3. The search read model (course_search, search_cards: computed from the catalogue, and shaped differently on
 *    each engine) is rebuilt from the copied catalogue, as `npm run db:reindex` does.
 * 4. Verification: per table, the row count and a SHA-256 over the rows in primary-key order, each value written
 *    the same way for both engines (tableChecksums); the source is read in one snapshot throughout, so a server
 *    still writing to it cannot make the two sides differ.
 */
import { createHash } from 'node:crypto';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { openDb } from './client.ts';
import { migrateToLatest } from './migrate.ts';
import { migrations } from './migrations/index.ts';
import { rebuildSearchIndex } from './queries/search.ts';

/** Tables of the migrator itself and of SQLite; never copied, never counted as the product's rows. */
const INTERNAL_TABLES = new Set(['kysely_migration', 'kysely_migration_lock', 'sqlite_sequence', 'sqlite_stat1', 'sqlite_stat4']);
/** The search read model: computed from the catalogue and shaped per engine, so rebuilt rather than copied. */
export const REBUILT_TABLES = ['course_search', 'search_cards'] as const;
/**
 * PostgreSQL's own tables of search, which SQLite has no copy of: the words of search_lexemes (migration 0296),
 * filled by their triggers when the read model is rebuilt, and the search replicas' feed (migration 0299), which
 * starts empty: a replica made after the copy reads the copied tables themselves.
 */
const POSTGRES_DERIVED_TABLES = new Set(['search_lexemes', 'search_replica_changes']);

/** Rows per INSERT (fewer for wide tables: PostgreSQL takes at most 65,535 parameters a statement). */
export const DEFAULT_BATCH_ROWS = 500;
const MAX_PARAMETERS = 65_535;

/** The copy was not started because the target or the source is not fit for it; nothing was written. */
export class CopyRefused extends Error {
  override name = 'CopyRefused';
}

export interface CopyOptions {
  /** The SQLite file. */
  from: string;
  /** postgres://… (a search_path in its options is honoured). */
  to: string;
  batchRows?: number;
  log?: (line: string) => void;
}

export interface TableResult {
  table: string;
  /** copied: rows and checksum compared; rebuilt: the search read model, counts compared (one row per course). */
  kind: 'copied' | 'rebuilt';
  sourceRows: number;
  targetRows: number;
  sourceChecksum: string | null;
  targetChecksum: string | null;
  ok: boolean;
}

export interface CopyResult {
  tables: TableResult[];
  /** Sequences moved on: name and the value the next id follows. */
  sequences: Array<{ sequence: string; value: number }>;
  ok: boolean;
}

interface Column {
  name: string;
  /** The PostgreSQL type; decides how a SQLite value is converted and written for the checksum. */
  type: string;
}

interface TableShape {
  name: string;
  columns: Column[];
  primaryKey: string[];
}

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

type TypeClass = 'boolean' | 'integer' | 'float' | 'text';
function classOf(pgType: string): TypeClass {
  if (pgType === 'boolean') return 'boolean';
  if (pgType === 'integer' || pgType === 'bigint' || pgType === 'smallint') return 'integer';
  if (pgType === 'double precision' || pgType === 'real' || pgType === 'numeric') return 'float';
  return 'text';
}

/** A SQLite value (integers as BigInt) as the target column takes it. */
function toPostgres(value: unknown, type: TypeClass): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'boolean':
      return Number(value) !== 0;
    case 'integer':
      // Passed as text: PostgreSQL parses it exactly, and a fraction (which SQLite would allow) fails loudly.
      return typeof value === 'bigint' ? value.toString() : String(value);
    case 'float':
      return Number(value);
    default:
      return Buffer.isBuffer(value) ? value.toString('utf8') : typeof value === 'string' ? value : String(value);
  }
}

/** One value as the checksum reads it, from SQLite (integers as BigInt): the same text PostgreSQL's is normalised to. */
function canonicalFromSqlite(value: unknown, type: TypeClass): string | null {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'boolean':
      return Number(value) !== 0 ? 't' : 'f';
    case 'integer':
      return typeof value === 'bigint' ? value.toString() : String(value);
    case 'float':
      return String(Number(value));
    default:
      return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
  }
}

/** One value as the checksum reads it, from PostgreSQL's text output. */
function canonicalFromPostgres(value: string | null, type: TypeClass): string | null {
  if (value === null) return null;
  // PostgreSQL prints doubles with the fewest digits that read back exactly, as JavaScript does; spelling may differ.
  return type === 'float' ? String(Number(value)) : value;
}

function newChecksum() {
  const hash = createHash('sha256');
  let rows = 0;
  return {
    add(values: Array<string | null>) {
      hash.update(JSON.stringify(values));
      hash.update('\n');
      rows++;
    },
    done: () => ({ rows, checksum: hash.digest('hex') }),
  };
}

// ------------------------------------------------------------------------------------------ the source

function openSource(file: string): SQLite.Database {
  let source: SQLite.Database;
  try {
    source = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new CopyRefused(`Cannot open the SQLite database ${file}: ${(error as Error).message}`);
  }
  source.defaultSafeIntegers(true);
  // One snapshot for the whole copy and its verification (WAL: a server may go on writing meanwhile).
  source.exec('begin');
  source.prepare('select count(*) from sqlite_master').get();
  return source;
}

function sourceMigrations(source: SQLite.Database): string[] {
  const present = source.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
  if (!present) throw new CopyRefused('The source has no migrations table: it is not a database of this product.');
  return (source.prepare('select name from kysely_migration').all() as Array<{ name: string }>).map((r) => r.name);
}

/** The source's base tables and their columns, without SQLite's full-text tables (virtual tables and their shadows). */
function sourceTables(source: SQLite.Database): Map<string, string[]> {
  const all = source.prepare("select name, sql from sqlite_master where type = 'table'").all() as Array<{ name: string; sql: string | null }>;
  const virtual = all.filter((t) => /^\s*create\s+virtual\s+table/i.test(t.sql ?? '')).map((t) => t.name);
  const tables = new Map<string, string[]>();
  for (const { name } of all) {
    if (virtual.some((v) => name === v || name.startsWith(`${v}_`))) continue;
    // table_xinfo, not table_info: generated columns (hidden 2 and 3: the admin's learner columns) are read and
    // copied as values, into the plain columns PostgreSQL's trigger fills (silenced while rows arrive).
    const columns = source.prepare('select name from pragma_table_xinfo(?) where hidden in (0, 2, 3) order by cid').all(name) as Array<{ name: string }>;
    tables.set(name, columns.map((c) => c.name));
  }
  return tables;
}

/** The highest id SQLite's AUTOINCREMENT has given out per table (rows since deleted included). */
function sqliteSequences(source: SQLite.Database): Map<string, bigint> {
  const present = source.prepare("select 1 from sqlite_master where type = 'table' and name = 'sqlite_sequence'").get();
  if (!present) return new Map();
  const rows = source.prepare('select name, seq from sqlite_sequence').all() as Array<{ name: string; seq: bigint }>;
  return new Map(rows.map((r) => [r.name, BigInt(r.seq)]));
}

function sourceSelect(table: TableShape): string {
  return `select ${table.columns.map((c) => quote(c.name)).join(', ')} from ${quote(table.name)} order by ${table.primaryKey.map(quote).join(', ')}`;
}

function sourceChecksum(source: SQLite.Database, table: TableShape): { rows: number; checksum: string } {
  const classes = table.columns.map((c) => classOf(c.type));
  const sum = newChecksum();
  for (const row of source.prepare(sourceSelect(table)).raw(true).iterate() as IterableIterator<unknown[]>) {
    sum.add(row.map((v, i) => canonicalFromSqlite(v, classes[i])));
  }
  return sum.done();
}

// ------------------------------------------------------------------------------------------ the target

async function targetMigrations(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ present: boolean }>("select to_regclass('kysely_migration') is not null as present");
  if (!rows[0].present) return [];
  return (await client.query<{ name: string }>('select name from kysely_migration')).rows.map((r) => r.name);
}

async function targetTables(client: pg.Client): Promise<TableShape[]> {
  const columns = await client.query<{ table_name: string; column_name: string; data_type: string }>(
    `select c.table_name, c.column_name, c.data_type
     from information_schema.columns c
     join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
     order by c.table_name, c.ordinal_position`,
  );
  const keys = await client.query<{ table_name: string; column_name: string }>(
    `select tc.table_name, k.column_name
     from information_schema.table_constraints tc
     join information_schema.key_column_usage k on k.constraint_schema = tc.constraint_schema and k.constraint_name = tc.constraint_name
     where tc.table_schema = current_schema() and tc.constraint_type = 'PRIMARY KEY'
     order by tc.table_name, k.ordinal_position`,
  );
  const tables = new Map<string, TableShape>();
  for (const c of columns.rows) {
    const table = tables.get(c.table_name) ?? { name: c.table_name, columns: [], primaryKey: [] };
    table.columns.push({ name: c.column_name, type: c.data_type });
    tables.set(c.table_name, table);
  }
  for (const k of keys.rows) tables.get(k.table_name)?.primaryKey.push(k.column_name);
  return [...tables.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Tables of the product that hold at least one row. */
async function nonEmptyTables(client: pg.Client, tables: TableShape[]): Promise<string[]> {
  const found: string[] = [];
  for (const t of tables) {
    if (INTERNAL_TABLES.has(t.name)) continue;
    const { rows } = await client.query<{ any: boolean }>(`select exists (select 1 from ${quote(t.name)}) as any`);
    if (rows[0].any) found.push(t.name);
  }
  return found;
}

/** The target's tables, once it is known that none holds a row. */
async function refuseNonEmpty(client: pg.Client): Promise<TableShape[]> {
  const tables = await targetTables(client);
  const filled = await nonEmptyTables(client, tables);
  if (filled.length) {
    throw new CopyRefused(`The target is not empty (rows in ${filled.join(', ')}): copy only into an empty database `
      + '(createdb a new one, or drop and recreate this one).');
  }
  return tables;
}

function targetSelect(table: TableShape): string {
  // Text keys in byte order ("C"), as SQLite's default collation orders them.
  const order = table.primaryKey.map((k) => {
    const type = table.columns.find((c) => c.name === k)?.type ?? 'text';
    return classOf(type) === 'text' ? `${quote(k)} collate "C"` : quote(k);
  });
  return `select ${table.columns.map((c) => quote(c.name)).join(', ')} from ${quote(table.name)} order by ${order.join(', ')}`;
}

/** Every value as PostgreSQL prints it (no parsing into JavaScript numbers on the way). */
const RAW_TEXT = { getTypeParser: () => (value: string) => value };

async function targetChecksum(client: pg.Client, table: TableShape, batchRows: number): Promise<{ rows: number; checksum: string }> {
  const classes = table.columns.map((c) => classOf(c.type));
  const sum = newChecksum();
  await client.query('declare copy_verify no scroll cursor for ' + targetSelect(table));
  for (;;) {
    const { rows } = await client.query<unknown[]>({ text: `fetch ${batchRows} from copy_verify`, rowMode: 'array', types: RAW_TEXT });
    for (const row of rows) sum.add(row.map((v, i) => canonicalFromPostgres(v as string | null, classes[i])));
    if (rows.length < batchRows) break;
  }
  await client.query('close copy_verify');
  return sum.done();
}

async function count(client: pg.Client, table: string): Promise<number> {
  const { rows } = await client.query<{ n: string }>({ text: `select count(*)::text as n from ${quote(table)}`, types: RAW_TEXT });
  return Number(rows[0].n);
}

// ------------------------------------------------------------------------------------------ the copy

/** Checks that source and target fit, and returns the tables to copy (as the target has them). */
function plan(source: SQLite.Database, target: TableShape[]): TableShape[] {
  const inSource = sourceTables(source);
  const rebuilt = new Set<string>(REBUILT_TABLES);
  const copied: TableShape[] = [];
  const problems: string[] = [];
  for (const table of target) {
    if (INTERNAL_TABLES.has(table.name) || rebuilt.has(table.name) || POSTGRES_DERIVED_TABLES.has(table.name)) continue;
    const columns = inSource.get(table.name);
    if (!columns) {
      problems.push(`${table.name}: missing from the source`);
      continue;
    }
    const want = table.columns.map((c) => c.name).sort().join(', ');
    const have = [...columns].sort().join(', ');
    if (want !== have) problems.push(`${table.name}: columns differ (source: ${have}; target: ${want})`);
    if (table.primaryKey.length === 0) problems.push(`${table.name}: no primary key on the target`);
    copied.push(table);
  }
  const targetNames = new Set(target.map((t) => t.name));
  for (const name of inSource.keys()) {
    if (!INTERNAL_TABLES.has(name) && !rebuilt.has(name) && !targetNames.has(name)) problems.push(`${name}: missing from the target`);
  }
  if (problems.length) throw new CopyRefused(`The two schemas differ:\n  ${problems.join('\n  ')}`);
  return copied;
}

async function insertBatch(client: pg.Client, table: TableShape, rows: unknown[][]): Promise<void> {
  const width = table.columns.length;
  const values: unknown[] = [];
  const tuples = rows.map((row, r) => {
    for (const v of row) values.push(v);
    return `(${row.map((_, i) => `$${r * width + i + 1}`).join(', ')})`;
  });
  await client.query(`insert into ${quote(table.name)} (${table.columns.map((c) => quote(c.name)).join(', ')}) values ${tuples.join(', ')}`, values);
}

async function copyTable(source: SQLite.Database, client: pg.Client, table: TableShape, batchRows: number): Promise<number> {
  const classes = table.columns.map((c) => classOf(c.type));
  const perBatch = Math.max(1, Math.min(batchRows, Math.floor(MAX_PARAMETERS / table.columns.length)));
  let batch: unknown[][] = [];
  let copied = 0;
  for (const row of source.prepare(sourceSelect(table)).raw(true).iterate() as IterableIterator<unknown[]>) {
    batch.push(row.map((v, i) => toPostgres(v, classes[i])));
    if (batch.length === perBatch) {
      await insertBatch(client, table, batch);
      copied += batch.length;
      batch = [];
    }
  }
  if (batch.length) await insertBatch(client, table, batch);
  return copied + batch.length;
}

interface ForeignKey { table: string; name: string; deferrable: boolean; deferred: boolean }

/** Moves every serial/identity sequence of the copied tables past the highest id in use (or ever given out). */
async function moveSequences(client: pg.Client, tables: TableShape[], given: Map<string, bigint>): Promise<CopyResult['sequences']> {
  const names = tables.map((t) => t.name);
  const { rows } = await client.query<{ table_name: string; column_name: string; sequence: string | null }>(
    `select table_name, column_name, pg_get_serial_sequence(quote_ident(table_name), column_name) as sequence
     from information_schema.columns
     where table_schema = current_schema() and table_name = any($1) and (column_default like 'nextval(%' or is_identity = 'YES')`,
    [names],
  );
  const moved: CopyResult['sequences'] = [];
  for (const r of rows) {
    if (!r.sequence) continue;
    const max = await client.query<{ max: string | null }>({ text: `select max(${quote(r.column_name)})::text as max from ${quote(r.table_name)}`, types: RAW_TEXT });
    let value = max.rows[0].max === null ? 0n : BigInt(max.rows[0].max);
    const ever = given.get(r.table_name);
    if (ever !== undefined && ever > value) value = ever;
    if (value > 0n) {
      await client.query('select setval($1, $2, true)', [r.sequence, value.toString()]);
      moved.push({ sequence: r.sequence, value: Number(value) });
    }
  }
  return moved;
}

/** The migrations the source ran, refused unless they are exactly this version's. */
function sourceLevel(source: SQLite.Database): Set<string> {
  // The source's migration level: exactly this version's, so the target migrated below has its schema.
  const known = Object.keys(migrations);
  const ran = new Set(sourceMigrations(source));
  const behind = known.filter((m) => !ran.has(m));
  if (behind.length) {
    throw new CopyRefused(`The source is missing migrations ${behind.join(', ')}: start this version on it once (or run `
      + '`DATABASE_URL=<file> npm run db:reindex`, which migrates it), then copy again.');
  }
  const unknown = [...ran].filter((m) => !known.includes(m));
  if (unknown.length) throw new CopyRefused(`The source has migrations this version does not know (${unknown.join(', ')}): copy with the version that wrote it.`);
  return ran;
}

/**
 * Copies every table in one transaction, with the tables' triggers off and the foreign keys checked at the end,
 * then moves the sequences; answers them.
 */
async function copyTables(source: SQLite.Database, client: pg.Client, tables: TableShape[], given: Map<string, bigint>, batchRows: number, log: (line: string) => void): Promise<CopyResult['sequences']> {
  await client.query('begin');
  try {
    const { rows: fks } = await client.query<ForeignKey>(
      `select c.conrelid::regclass::text as table, c.conname as name, c.condeferrable as deferrable, c.condeferred as deferred
       from pg_constraint c where c.contype = 'f' and c.connamespace = current_schema()::regnamespace`,
    );
    for (const t of tables) await client.query(`alter table ${quote(t.name)} disable trigger user`);
    for (const fk of fks.filter((f) => !f.deferrable)) await client.query(`alter table ${fk.table} alter constraint ${quote(fk.name)} deferrable`);
    await client.query('set constraints all deferred');
    for (const t of tables) {
      const started = performance.now();
      const n = await copyTable(source, client, t, batchRows);
      log(`  ${t.name}: ${n} rows (${Math.round(performance.now() - started)} ms)`);
    }
    // The foreign keys are checked here, before anything is committed.
    await client.query('set constraints all immediate');
    for (const fk of fks.filter((f) => !f.deferrable)) await client.query(`alter table ${fk.table} alter constraint ${quote(fk.name)} not deferrable`);
    for (const t of tables) await client.query(`alter table ${quote(t.name)} enable trigger user`);
    const sequences = await moveSequences(client, tables, given);
    await client.query('commit');
    return sequences;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}

/** Compares each copied table's rows and checksum on both sides, and the rebuilt read model's row counts. */
async function verifyCopy(source: SQLite.Database, client: pg.Client, tables: TableShape[], batchRows: number): Promise<TableResult[]> {
  const results: TableResult[] = [];
  await client.query('begin isolation level repeatable read read only');
  try {
    for (const t of tables) {
      const s = sourceChecksum(source, t);
      const g = await targetChecksum(client, t, batchRows);
      results.push({
        table: t.name, kind: 'copied', sourceRows: s.rows, targetRows: g.rows, sourceChecksum: s.checksum, targetChecksum: g.checksum,
        ok: s.rows === g.rows && s.checksum === g.checksum,
      });
    }
    // The read model: one row per course on each side.
    const courses = await count(client, 'courses');
    for (const name of REBUILT_TABLES) {
      const n = await count(client, name);
      const sourceRows = Number((source.prepare(`select count(*) as n from ${quote(name)}`).get() as { n: bigint }).n);
      results.push({ table: name, kind: 'rebuilt', sourceRows, targetRows: n, sourceChecksum: null, targetChecksum: null, ok: n === sourceRows && n === courses });
    }
  } finally {
    await client.query('commit');
  }
  return results;
}

export async function copySqliteToPostgres(options: CopyOptions): Promise<CopyResult> {
  const log = options.log ?? (() => {});
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS;
  const source = openSource(options.from);
  const client = new pg.Client({ connectionString: options.to });
  let clientOpen = false;
  const db = openDb({ url: options.to, poolSize: 2 });
  try {
    const ran = sourceLevel(source);

    await client.connect();
    clientOpen = true;
    const ahead = (await targetMigrations(client)).filter((m) => !ran.has(m));
    if (ahead.length) throw new CopyRefused(`The target is at a later migration level than the source (${ahead.join(', ')}): copy only into an empty database.`);

    // Checked before migrating too, so a database given by mistake (another application's) gets no tables of ours.
    await refuseNonEmpty(client);
    log('Migrating the target…');
    await migrateToLatest(db);
    const target = await refuseNonEmpty(client);
    const tables = plan(source, target);
    const given = sqliteSequences(source);
    const sequences = await copyTables(source, client, tables, given, batchRows, log);

    log('Rebuilding the search read model…');
    await rebuildSearchIndex(db);
    await client.query('analyze');

    log('Verifying…');
    const results = await verifyCopy(source, client, tables, batchRows);
    return { tables: results, sequences, ok: results.every((r) => r.ok) };
  } finally {
    if (source.inTransaction) source.exec('commit');
    source.close();
    if (clientOpen) await client.end();
    await db.destroy();
  }
}

/** The verification as a table for the terminal. */
export function formatResults(tables: readonly TableResult[]): string {
  const header = ['table', 'source rows', 'target rows', 'source sha256', 'target sha256', 'result'];
  const lines = tables.map((t) => [
    t.table, String(t.sourceRows), String(t.targetRows),
    t.sourceChecksum ? t.sourceChecksum.slice(0, 16) : '(rebuilt)',
    t.targetChecksum ? t.targetChecksum.slice(0, 16) : '(rebuilt)',
    t.ok ? 'ok' : 'DIFFERENT',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const row = (cells: string[]) => cells.map((c, i) => (i === 1 || i === 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [row(header), row(widths.map((w) => '-'.repeat(w))), ...lines.map(row)].join('\n');
}

/** How to move the live site with the least downtime (also in docs/operations.md, "From SQLite to PostgreSQL"). */
export function switchOverSteps(from: string, to: string): string {
  const shown = to.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  return `To switch the site over with the least downtime:
  1. Rehearse now (done): this copy shows how long the final one takes. Drop the rehearsal database and create it
     empty again (or copy into a new one).
  2. Stop writes: stop the server (or put it behind a maintenance page); learners cannot book for the length of one copy.
  3. Final copy: npm run db:copy -- --from ${from} --to ${shown}
     It must end with every table "ok"; if not, start the old server again, nothing was lost.
  4. Point DATABASE_URL at ${shown} in the server's environment (every process: server, publisher, mail).
  5. Start the server on PostgreSQL and check /api/health, a course page and a learner's bookings.
  Keep ${from} untouched until the site has run on PostgreSQL for a while: it is the way back.`;
}
