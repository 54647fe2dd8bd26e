/**
 * The database: SQLite (better-sqlite3) by default, PostgreSQL when a postgres:// URL is given.
 * Both go through the same kysely code; db/codec.ts hides their differences (JSON, booleans).
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { CompiledQuery, Kysely, type Compilable, type Transaction } from 'kysely';
import { RoutingSqliteDialect } from './sqlite-driver.ts';
import { startCheckpointer, WRITER_BACKSTOP_PAGES, type Checkpointer } from './checkpointer.ts';
import { CodecPlugin, CodecPostgresDialect, decodeRow } from './codec.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
export type Dialect = 'sqlite' | 'postgres';

// PostgreSQL returns int8 (epoch seconds, counts) as strings; every one of ours fits a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));

export const DEFAULT_SQLITE_FILE = 'data/marketplace.sqlite';

export function dialectOf(url: string | undefined): Dialect {
  return url && /^postgres(ql)?:\/\//.test(url) ? 'postgres' : 'sqlite';
}

export interface OpenOptions {
  /** postgres://… for PostgreSQL; a file path (or ':memory:') for SQLite. */
  url?: string;
  /** PostgreSQL pool size. */
  poolSize?: number;
  /** PostgreSQL schema to work in (created when missing); lets test files run side by side. */
  schema?: string;
  /** SQLite: how long a statement may wait for another writer's lock before DatabaseBusyError (503). */
  busyWaitMs?: number;
  /** SQLite: the WAL's checkpoints in a worker thread rather than in the writer's commits (db/checkpointer.ts). */
  backgroundCheckpoints?: boolean;
}

/** SQLite: a short wait for a lock, then 503 — never a frozen process. */
export const DEFAULT_SQLITE_BUSY_WAIT_MS = 2000;

export function openDb(options: OpenOptions = {}): Db {
  const url = options.url ?? DEFAULT_SQLITE_FILE;
  if (dialectOf(url) === 'postgres') {
    const schema = options.schema;
    if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name ${schema}`);
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      // Lets a transaction's BEGIN go out with its first statement (see preparingStatements); kysely itself
      // awaits every statement, so nothing else is ever in flight on a connection.
      pipeline: true,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    if (schema) {
      // Every pooled connection sets search_path itself; the schema must exist before first use.
      const ready = pool.query(`create schema if not exists ${schema}`);
      const connect = pool.connect.bind(pool);
      pool.connect = (async () => {
        await ready;
        return connect();
      }) as typeof pool.connect;
    }
    pool.on('connect', preparingStatements);
    // The server ending an idle connection (a restart, a failover, pg_terminate_backend) costs that connection
    // only: the pool has already dropped it and opens another on next use. Without a listener the pool's 'error'
    // event would be thrown, and take the process and every checkout in flight with it.
    pool.on('error', (error) => process.emitWarning(`PostgreSQL ended an idle connection: ${error.message}`, 'DatabaseWarning'));
    const db = new Kysely<Database>({
      dialect: new CodecPostgresDialect({ pool }),
      plugins: [new CodecPlugin(false)],
    });
    if (schema) schemas.set(db, schema);
    rawHandles.set(db, { pgPool: pool });
    return tag(db, 'postgres');
  }
  const file = url.replace(/^sqlite:(\/\/)?/, '');
  if (file !== ':memory:') mkdirSync(dirname(resolve(file)), { recursive: true });
  const writer = new SQLite(file);
  writer.pragma('journal_mode = WAL');
  // Never wait inside SQLite: a wait there blocks the event loop (db/sqlite-driver.ts waits asynchronously).
  writer.pragma('busy_timeout = 0');
  writer.pragma('foreign_keys = ON');
  writer.pragma('synchronous = NORMAL');
  tuneReads(writer, { mapped: true });
  // Read-only connections: in WAL mode they never wait for a writer. Search has one of its own, memory-mapped
  // (below); the query builder's reads use the other while the writer has a transaction open (db/sqlite-driver.ts).
  const reader = file === ':memory:' ? null : readOnly(file, { mapped: false });
  const searchReader = file === ':memory:' ? null : readOnly(file, { mapped: true });
  let checkpointer: Checkpointer | null = null;
  if (options.backgroundCheckpoints && file !== ':memory:') {
    writer.pragma(`wal_autocheckpoint = ${WRITER_BACKSTOP_PAGES}`);
    checkpointer = startCheckpointer(file);
  }
  const dialect = new RoutingSqliteDialect({
    writer: reusingStatements(writer),
    reader: reader && reusingStatements(reader),
    others: [...(searchReader ? [searchReader] : []), ...(checkpointer ? [checkpointer] : [])],
    busyWaitMs: options.busyWaitMs ?? DEFAULT_SQLITE_BUSY_WAIT_MS,
  });
  const db = new Kysely<Database>({ dialect, plugins: [new CodecPlugin(true)] });
  const sqliteWriteQueue = { waiting: () => dialect.writeQueueWaiting() };
  rawHandles.set(db, searchReader ? { sqliteReader: reusingStatements(searchReader), sqliteWriter: writer, sqliteWriteQueue } : { sqliteWriteQueue });
  return tag(db, 'sqlite');
}

function readOnly(file: string, options: { mapped: boolean }): SQLite.Database {
  const sqlite = new SQLite(file, { readonly: true });
  sqlite.pragma('busy_timeout = 0');
  tuneReads(sqlite, options);
  return sqlite;
}

/**
 * PostgreSQL parses and plans every unnamed statement anew, and kysely sends every query unnamed: in a checkout
 * that was as much of the database's CPU as running them. This names each SQL text kysely sends (a process-wide
 * name per text, up to a bound), so each pooled connection parses and plans it once and then only binds and
 * executes it. PostgreSQL still plans the first executions for their values and keeps a generic plan only when
 * it costs no more. Statements sent as objects (search's, which choose for themselves) are left alone. A plan
 * made before a schema change that alters a `select *`'s columns is refused by PostgreSQL; that statement is then
 * run unnamed.
 */
const PG_STATEMENT_NAMES = new Map<string, string>();
export const PG_MAX_NAMED_STATEMENTS = 1000;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
const BEGIN = /^\s*begin\s*$/i;
/** What kysely reads of the answer to BEGIN (db/client.ts answers it before sending it). */
const BEGUN = { command: 'BEGIN', rowCount: null, rows: [], fields: [] };

/**
 * Marks a write whose answer nobody reads (writeLater): in a PostgreSQL transaction it is held back and sent with the
 * transaction's next statement, COMMIT at the latest. A comment, so SQLite runs the same text as it comes.
 */
export const SENT_LATER = '/* sent with the next statement */ ';
const COMMIT = /^\s*commit\s*$/i;
const ROLLBACK = /^\s*rollback\s*$/i;
/** What kysely reads of the answer to a held write: no rows, no count (writeLater promises no more). */
const HELD = { command: 'HELD', rowCount: null, rows: [], fields: [] };
/** Marks a statement held to the COMMIT (writeAtCommit). */
const SENT_AT_COMMIT = '/* sent with the commit */ ';

/**
 * A write that needs no answer, run on `q`. Inside a PostgreSQL transaction it costs no round trip of its own: it
 * goes out in one write with the transaction's next statement (see preparingStatements), and a failure of it fails
 * that statement (COMMIT included), so the transaction never commits without it. Outside a transaction, and on
 * SQLite, it runs at once. Only for writes whose failure no caller handles by itself (a conflict caught and answered
 * would surface at the next statement instead).
 */
export async function writeLater(q: Pick<Db, 'executeQuery'>, query: Compilable): Promise<void> {
  const compiled = query.compile();
  await q.executeQuery({ ...compiled, sql: SENT_LATER + compiled.sql });
}

/**
 * A statement that must hold for the transaction to commit, sent as late as it can be: inside a PostgreSQL
 * transaction it is held back to the COMMIT and written with it (after the held writes), so a row lock it takes is
 * held for the COMMIT alone, not for the rest of the transaction's round trips and the event loop's turns between
 * them. When it fails, PostgreSQL rolls the transaction back and the COMMIT fails with its error. SQLite, and
 * PostgreSQL outside a transaction: run at once, failing as any statement does.
 */
export async function writeAtCommit(q: Pick<Db, 'executeQuery'>, query: Compilable): Promise<void> {
  const compiled = query.compile();
  await q.executeQuery({ ...compiled, sql: SENT_AT_COMMIT + compiled.sql });
}

/**
 * Lets the transaction on `q` commit without waiting for its WAL to reach the disk (PostgreSQL's
 * `synchronous_commit = off`, for this transaction alone), held to the COMMIT and written with it, so it costs no
 * round trip. The COMMIT then answers in the time of a memory write, and a row lock it releases (a date's spaces) is
 * not held through a disk flush; the WAL writer flushes it within 3 × `wal_writer_delay` (0.6 s by default).
 * What that risks: a crash of PostgreSQL or of its machine in that time loses the transaction, as a whole. So only
 * for work whose loss the product recovers from by itself and that nothing outside the database has acted on yet: a
 * new checkout and its steps before payment (the learner finds the checkout a step back, or starts again), an
 * e-mail's "sent" mark (the e-mail is sent again, which delivery at least once allows). Every COMMIT that waits for
 * the disk flushes all the WAL before its own, so a transaction committed this way is durable once any later one
 * that waits is: a payment row never outlives the hold it was taken for. SQLite: nothing (its commits follow
 * `synchronous = NORMAL` anyway).
 */
export async function commitWithoutWaitingForDisk(q: Pick<Db, 'executeQuery'>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await q.executeQuery(CompiledQuery.raw(SENT_AT_COMMIT + 'set local synchronous_commit = off'));
}

/**
 * One write committed without waiting for the disk (commitWithoutWaitingForDisk): on PostgreSQL in a transaction of
 * its own whose BEGIN, write, setting and COMMIT go out together, one round trip as the write alone would be;
 * SQLite runs it as it comes. A failure of the write fails it, as it would alone.
 */
export async function writeWithoutWaitingForDisk(db: Db, dialect: Dialect, query: Compilable): Promise<void> {
  if (dialect !== 'postgres') {
    await db.executeQuery(query.compile());
    return;
  }
  await db.transaction().execute(async (tx) => {
    await writeAtCommit(tx, query);
    await commitWithoutWaitingForDisk(tx, dialect);
  });
}

/**
 * Marks a statement sent ahead (sendAhead): a leading comment `ahead N`, N naming the answer it will give. Only
 * inside a PostgreSQL transaction; the marker is taken off before the statement is named and sent.
 */
const AHEAD = '/* ahead ';
const AHEAD_END = ' */ ';
let aheadCount = 0;
/** Answers of statements sent ahead, from the moment they are sent to the moment sendAhead takes them (microseconds). */
const aheadAnswers = new Map<number, Promise<AheadAnswer>>();
/** What kysely reads of the answer to a statement sent ahead: nothing (the caller awaits the real answer). */
const SENT_AHEAD = { command: 'AHEAD', rowCount: null, rows: [], fields: [] };

/** The answer of a statement sent ahead: its rows (decoded as every read's are) and how many rows it changed. */
export interface AheadAnswer {
  rows: Record<string, unknown>[];
  changed: number;
}

/**
 * A statement whose answer its caller needs, but not before the transaction's next statement: inside a PostgreSQL
 * transaction it goes out at once and returns, so the next statement follows it without waiting for its answer
 * (the connection is in pipeline mode) and both answers come back in one round trip. kysely runs a transaction's
 * statements one at a time, which is why this goes below it. A failure of the statement fails every statement
 * after it in the transaction, and PostgreSQL then answers COMMIT by rolling back — without an error when no
 * statement followed it: so `answer` must be awaited, before the COMMIT or after it, to know the transaction
 * committed. SQLite, and PostgreSQL outside a transaction: run at once, as any statement.
 */
export async function sendAhead(q: Pick<Db, 'executeQuery'>, dialect: Dialect, query: Compilable): Promise<{ answer: Promise<AheadAnswer> }> {
  const compiled = query.compile();
  const id = dialect === 'postgres' ? ++aheadCount : 0;
  const result = await q.executeQuery(id ? { ...compiled, sql: `${AHEAD}${id}${AHEAD_END}${compiled.sql}` } : compiled);
  const sent = aheadAnswers.get(id);
  aheadAnswers.delete(id);
  return { answer: sent ?? Promise.resolve({ rows: result.rows as Record<string, unknown>[], changed: Number(result.numAffectedRows ?? 0) }) };
}

/**
 * Every round trip to PostgreSQL costs both processes a wake-up, which on this kind of machine costs more than
 * most of our statements: so a transaction's BEGIN is held back and written with its first statement, and its held
 * writes (writeLater) with the statement after them, in one write (the connection is in pg's pipeline mode, so each
 * is sent without waiting for the one before's answer). The statement's answer waits for theirs, and fails with the
 * first of them that failed: PostgreSQL then runs nothing more of the transaction, and answers COMMIT by rolling it
 * back, so that failure is what the caller sees. Statements held to the COMMIT (writeAtCommit) are written with it,
 * after the held writes. ROLLBACK drops the held writes unsent. BEGIN on a live connection
 * fails only when the connection does, and then the statement never runs either.
 */
function preparingStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  let beginHeld = false;
  let inTransaction = false;
  // Writes held to the next statement (writeLater), and to the COMMIT (writeAtCommit): text and values.
  let held: Array<[string, unknown[]]> = [];
  let atCommit: Array<[string, unknown[]]> = [];
  const named = (config: string, values: unknown[] | undefined): Promise<unknown> => {
    let name = PG_STATEMENT_NAMES.get(config);
    if (name === undefined) {
      if (PG_STATEMENT_NAMES.size >= PG_MAX_NAMED_STATEMENTS) return query(config, values);
      PG_STATEMENT_NAMES.set(config, (name = `k${PG_STATEMENT_NAMES.size}`));
    }
    return query({ name, text: config, values }).catch((error: { code?: string }) => {
      // 0A000 "cached plan must not change result type": the table changed under a prepared `select *`.
      if (error?.code !== '0A000') throw error;
      return query(config, values);
    });
  };
  const send = (sendOne: () => Promise<unknown>): Promise<unknown> => {
    if (!beginHeld && held.length === 0) return sendOne();
    const [writes, begin] = [held, beginHeld];
    [held, beginHeld] = [[], false];
    const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
    stream.cork();
    try {
      const before = [...(begin ? [query('begin')] : []), ...writes.map(([text, values]) => named(text, values))];
      const answer = sendOne();
      return Promise.allSettled([...before, answer]).then((settled) => {
        const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
        if (failed) throw failed.reason;
        return (settled[settled.length - 1] as PromiseFulfilledResult<unknown>).value;
      });
    } finally {
      stream.uncork();
    }
  };
  client.query = ((...args: unknown[]) => {
    const [config, values] = args;
    const plain = args.length <= 2 && typeof config === 'string' && (values === undefined || Array.isArray(values));
    if (plain && BEGIN.test(config) && (values === undefined || values.length === 0)) {
      beginHeld = true;
      inTransaction = true;
      return Promise.resolve(BEGUN);
    }
    if (plain && config.startsWith(AHEAD)) {
      const end = config.indexOf(AHEAD_END);
      const id = Number(config.slice(AHEAD.length, end));
      const text = config.slice(end + AHEAD_END.length);
      if (!inTransaction) return named(text, values);
      const answer = (send(() => named(text, values)) as Promise<pg.QueryResult>).then((res) => ({
        rows: (res.rows ?? []).map((row) => decodeRow(row, false)), changed: res.rowCount ?? 0,
      }));
      // Awaited by its caller; until then a failure is not an unhandled one (the transaction fails with it anyway).
      answer.catch(() => undefined);
      aheadAnswers.set(id, answer);
      return Promise.resolve(SENT_AHEAD);
    }
    const marker = plain ? [SENT_LATER, SENT_AT_COMMIT].find((m) => config.startsWith(m)) : undefined;
    if (plain && marker) {
      const text = config.slice(marker.length);
      if (!inTransaction) return named(text, values);
      (marker === SENT_LATER ? held : atCommit).push([text, values ?? []]);
      return Promise.resolve(HELD);
    }
    // After its COMMIT the server has ended the transaction, whatever the COMMIT answered (one that failed rolled it
    // back): the ROLLBACK kysely sends after a failed COMMIT has nothing to do, and no round trip to spend.
    if (plain && ROLLBACK.test(config) && !inTransaction) return Promise.resolve({ ...BEGUN, command: 'ROLLBACK' });
    if (plain && (COMMIT.test(config) || ROLLBACK.test(config))) {
      inTransaction = false;
      // Written with the COMMIT, after the held writes: a failure of one fails the COMMIT (see send).
      if (COMMIT.test(config)) held.push(...atCommit);
      atCommit = [];
      if (ROLLBACK.test(config)) {
        held = [];
        // A transaction whose BEGIN never went out has nothing to roll back on the server.
        if (beginHeld) {
          beginHeld = false;
          return Promise.resolve({ ...BEGUN, command: 'ROLLBACK' });
        }
      }
    }
    // kysely calls query(text, values); anything else (a config object, a callback) goes through as it came.
    if (!plain || !PREPARABLE.test(config)) return send(() => query(...args));
    return send(() => named(config, values as unknown[] | undefined));
  }) as typeof client.query;
}

/**
 * A 32 MB page cache instead of the default 2 MB: search and pages jump about indexes far larger than that.
 * `mapped`: reads through a memory map instead of a read() per page, which search's long index walks gain from.
 * A mapped read-only connection pays whenever another connection has written since its last read: SQLite drops
 * its cache and its map of the file at the start of that read and maps it again, which on this kind of machine (a
 * VM with two cores, where unmapping means flushing the other core's TLB) costs more than the read itself
 * (measured: a three-table lookup after a write, 128 µs mapped, 45 µs not; 23 µs on the writer, which never
 * remaps for its own writes). So only search's reader and the writer are mapped; the query builder's reads, which
 * follow writes all through a checkout, are not.
 */
function tuneReads(sqlite: SQLite.Database, { mapped }: { mapped: boolean }): void {
  if (mapped) sqlite.pragma('mmap_size = 268435456');
  sqlite.pragma('cache_size = -32768');
}

/** Statements kept per connection, least recently used dropped first. */
export const SQLITE_STATEMENT_CACHE_SIZE = 500;

/**
 * kysely prepares every query anew, and preparing costs about as much as running most of ours. This keeps
 * each SQL text's prepared statement (better-sqlite3 statements are reusable, and SQLite prepares them
 * again by itself after a schema change). A statement still being iterated is not handed out twice.
 */
export function reusingStatements(sqlite: SQLite.Database, size = SQLITE_STATEMENT_CACHE_SIZE): SQLite.Database {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, SQLite.Statement>();
  sqlite.prepare = ((source: string) => {
    const cached = cache.get(source);
    cache.delete(source);
    const statement = cached && !cached.busy ? cached : prepare(source);
    cache.set(source, statement);
    if (cache.size > size) cache.delete(cache.keys().next().value as string);
    return statement;
  }) as SQLite.Database['prepare'];
  return sqlite;
}

/**
 * The driver handles under a handle openDb made, for the few hot read paths (search) that skip the query
 * builder: SQLite's read-only connection (statements cached as above; a lock met there is for the caller
 * to handle) and PostgreSQL's pool (for named prepared statements). Undefined for transactions and
 * in-memory SQLite.
 */
export interface RawHandles {
  sqliteReader?: SQLite.Database;
  /**
   * SQLite's writer, for a write that is only a saving and must never wait (search storing the cards it computed):
   * used only synchronously and only while no transaction is open on it (`inTransaction`), so it never slips into,
   * or waits behind, the query builder's writes (db/sqlite-driver.ts).
   */
  sqliteWriter?: SQLite.Database;
  pgPool?: pg.Pool;
  /** SQLite: this process's queue for the single writer (api/ops/metrics.ts). */
  sqliteWriteQueue?: { waiting(): number };
}
const rawHandles = new WeakMap<object, RawHandles>();
export function rawHandlesOf(db: Db): RawHandles | undefined {
  return rawHandles.get(db);
}

const dialects = new WeakMap<object, Dialect>();
const schemas = new WeakMap<object, string>();

/** The PostgreSQL schema a handle was opened on, when one was given. */
export function schemaOfDb(db: Db): string | undefined {
  return schemas.get(db);
}
function tag(db: Db, dialect: Dialect): Db {
  dialects.set(db, dialect);
  return db;
}

/** Which engine a handle talks to (for the few places SQL differs, such as full-text search). */
export function dialectOfDb(db: Db): Dialect {
  return dialects.get(db) ?? 'sqlite';
}
