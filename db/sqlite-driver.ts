/**
 * SQLite for a server that must keep answering while the database is busy.
 *
 * better-sqlite3 is synchronous: with a busy_timeout, a statement waiting for another process's write lock blocks
 * the whole event loop — health checks, static pages and searches froze for seconds behind one write, which then
 * failed with SQLITE_BUSY anyway. So here:
 *
 * - busy_timeout is 0: SQLite never waits inside a call. A statement that meets a lock (SQLITE_BUSY…) is tried
 *   again after an asynchronous pause (a few ms, doubling), so the process keeps serving meanwhile; after
 *   `busyWaitMs` in all it fails with DatabaseBusyError, which the API answers 503 with Retry-After.
 * - Reads outside a transaction run on the writer while it has no transaction open, and on a second, read-only
 *   connection while it has: in WAL mode a reader never waits for a writer, so searches and pages go on while this
 *   process (or another) writes, and never see a transaction's uncommitted work.
 * - Writes are serialised through one queue in this process: a transaction starts with BEGIN IMMEDIATE (it takes
 *   the write lock up front, so it cannot fail half-way with SQLITE_BUSY_SNAPSHOT after reading), and a single
 *   write statement outside a transaction waits for the running transaction instead of slipping into it.
 *
 * Several processes on one machine may share the file (everything they coordinate is in it): their writes take
 * turns on its one write lock, one at a time across all of them. PostgreSQL is the engine for servers on several
 * machines, or for more writes at once than that lets through.
 */
import type SQLite from 'better-sqlite3';
import {
  CompiledQuery, SelectQueryNode, SqliteAdapter, SqliteIntrospector,
  type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryCompiler, type QueryResult,
} from 'kysely';
import { SqliteCodecQueryCompiler } from './codec.ts';

/** The database stayed locked longer than the server waits: try again shortly (the API answers 503). */
export class DatabaseBusyError extends Error {
  readonly retryAfterSeconds: number;
  constructor(waitedMs: number, cause?: unknown) {
    super(`database busy: still locked after ${waitedMs} ms`, { cause });
    this.name = 'DatabaseBusyError';
    this.retryAfterSeconds = 2;
  }
}

export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

const pause = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

/** Runs `attempt` (synchronous SQLite work) until it does not meet a lock, pausing asynchronously between tries. */
async function retryBusy<T>(busyWaitMs: number, attempt: () => T): Promise<T> {
  const started = Date.now();
  let delay = 2;
  for (;;) {
    try {
      return attempt();
    } catch (error) {
      if (!isBusyError(error)) throw error;
      const waited = Date.now() - started;
      if (waited >= busyWaitMs) throw new DatabaseBusyError(waited, error);
      await pause(Math.min(delay, busyWaitMs - waited));
      delay = Math.min(delay * 2, 100);
    }
  }
}

class Mutex {
  #tail: Promise<void> = Promise.resolve();
  /** Callers waiting for the lock (not counting its holder): how far writes queue in this process. */
  waiting = 0;
  /** Resolves with the release function once every earlier holder has released. */
  lock(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((ok) => (release = ok));
    this.waiting++;
    const ready = this.#tail.then(() => {
      this.waiting--;
      return release;
    });
    this.#tail = this.#tail.then(() => held);
    return ready;
  }
}

function run(db: SQLite.Database, stmt: SQLite.Statement, parameters: readonly unknown[]): QueryResult<unknown> {
  if (stmt.reader) return { rows: stmt.all(parameters) };
  const { changes, lastInsertRowid } = stmt.run(parameters);
  return {
    numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
    insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
    rows: [],
  };
}

export interface SqliteConnections {
  writer: SQLite.Database;
  /** A read-only connection to the same file; null for ':memory:' (everything on the writer). */
  reader: SQLite.Database | null;
  /** Other handles on the same file that close with these (search's own reader, the checkpointer). */
  others?: Array<{ close(): unknown }>;
  /** How long a statement may wait for a lock, in all, before DatabaseBusyError. */
  busyWaitMs: number;
}

class RoutingConnection implements DatabaseConnection {
  /** The release of the write queue while this connection runs a transaction. */
  release: (() => void) | null = null;
  constructor(private readonly driver: RoutingDriver) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { writer, reader, busyWaitMs } = this.driver.connections;
    const { sql, parameters } = compiled;
    let prepared: SQLite.Statement | null = null;
    if (this.release) {
      // Inside our transaction: the write lock is ours, nothing to wait for (a lock met here is a real failure).
      try {
        return run(writer, writer.prepare(sql), parameters) as QueryResult<R>;
      } catch (error) {
        if (isBusyError(error)) throw new DatabaseBusyError(0, error);
        throw error;
      }
    }
    if (!writer.inTransaction) {
      // No transaction is open on the writer, and this work is synchronous: a read here cannot see half of one. The
      // writer is the cheaper connection to read on: it keeps its page cache across its own writes, while the
      // read-only connection drops its cache whenever the file has changed since its last read, which under a
      // steady stream of checkouts is every read (under that load a session lookup took 44 µs there, 30 µs here).
      const stmt = await retryBusy(busyWaitMs, () => writer.prepare(sql));
      if (stmt.readonly) return (await retryBusy(busyWaitMs, () => run(writer, stmt, parameters))) as QueryResult<R>;
      // A write, prepared already on the connection that runs it (SQLite prepares it again should the schema change).
      prepared = stmt;
    } else if (reader) {
      // A statement the reader cannot even prepare goes to the writer, which gives the real answer or error.
      const stmt = await retryBusy(busyWaitMs, () => {
        try {
          return reader.prepare(sql);
        } catch (error) {
          if (isBusyError(error)) throw error;
          return null;
        }
      });
      if (stmt?.readonly) return (await retryBusy(busyWaitMs, () => run(reader, stmt, parameters))) as QueryResult<R>;
    }
    const release = await this.driver.writeQueue.lock();
    try {
      return (await retryBusy(busyWaitMs, () => run(writer, prepared ?? writer.prepare(sql), parameters))) as QueryResult<R>;
    } finally {
      release();
    }
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiled.query)) throw new Error('Sqlite driver only supports streaming of select queries');
    const { rows } = await this.executeQuery<R>(compiled);
    for (const row of rows) yield { rows: [row] };
  }
}

class RoutingDriver implements Driver {
  readonly writeQueue = new Mutex();
  constructor(readonly connections: SqliteConnections) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutingConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const conn = connection as RoutingConnection;
    const release = await this.writeQueue.lock();
    try {
      const { writer, busyWaitMs } = this.connections;
      await retryBusy(busyWaitMs, () => writer.prepare('begin immediate').run());
    } catch (error) {
      release();
      throw error;
    }
    conn.release = release;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const conn = connection as RoutingConnection;
    const { writer, busyWaitMs } = this.connections;
    try {
      // A commit that meets a lock (a checkpoint elsewhere) is tried again: the transaction is still open.
      await retryBusy(busyWaitMs, () => writer.prepare('commit').run());
    } catch (error) {
      // Never leave the shared connection inside a failed transaction for the next holder of the queue.
      if (writer.inTransaction) writer.prepare('rollback').run();
      throw error;
    } finally {
      this.#end(conn);
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const conn = connection as RoutingConnection;
    try {
      // Only the holder of the queue may roll back: the writer may be inside someone else's transaction.
      if (conn.release && this.connections.writer.inTransaction) this.connections.writer.prepare('rollback').run();
    } finally {
      this.#end(conn);
    }
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to "${name}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release "${name}"`));
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    await Promise.all((this.connections.others ?? []).map((other) => other.close()));
    this.connections.reader?.close();
    this.connections.writer.close();
  }

  #end(conn: RoutingConnection): void {
    const release = conn.release;
    conn.release = null;
    release?.();
  }
}

/**
 * kysely's SQLite adapter declares a single connection, and kysely then queues every query behind any open
 * transaction. This driver has two (reads outside a transaction run while one is open, on the read-only
 * connection) and queues writes itself (writeQueue), so that queue would only make reads wait for writers.
 */
class RoutingSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

export class RoutingSqliteDialect implements Dialect {
  #driver: RoutingDriver | null = null;
  constructor(private readonly connections: SqliteConnections) {}
  createDriver(): Driver {
    return (this.#driver = new RoutingDriver(this.connections));
  }
  /** Writes of this process waiting for the writer (for the metrics). */
  writeQueueWaiting(): number {
    return this.#driver?.writeQueue.waiting ?? 0;
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteCodecQueryCompiler();
  }
  createAdapter() {
    return new RoutingSqliteAdapter();
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}
