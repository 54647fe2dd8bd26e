/**
 * PostgreSQL: a search replica, a SQLite file of the server's own holding the rows search reads, so course searches
 * are answered with SQLite's search (FTS5 tables, sort tables, stored cards: db/queries/search/sqlite.ts) on the
 * server's cores instead of PostgreSQL's. Searching on PostgreSQL cost about 1.4 ms of CPU a search between its
 * backends and the server, against 0.5 ms for SQLite's whole search (docs/benchmarks.md), and every server added
 * would have queued on the one database for it.
 *
 * The file is made by this version's SQLite migrations, so its search schema is SQLite's own; only the catalogue
 * tables search reads are copied (FEED_TABLES: courses, educators, categories, locations, offers, occurrences,
 * courses' review aggregates), and SQLite's triggers on them compute the read model as they do on a SQLite site.
 * Every other trigger on those tables (the page feed, catalogue versions, input checks) is dropped: the replica
 * holds what PostgreSQL already accepted, and nothing else reads it.
 *
 * Filling: the tables are read in one REPEATABLE READ snapshot, whose xmin is where the feed is read from after.
 * Following: the feed (migration 0299) names the rows written by each transaction; a look reads the names of every
 * transaction at or above the last look's xmin that its snapshot sees as committed, reads their current rows and
 * writes them over the replica's (or removes them, when gone), in one SQLite transaction. A row read newer than its
 * look is read again at the next one, to the same end.
 *
 * Foreign keys are off in the replica: rows arrive in the feed's order, and a course may come before its educator.
 */
import { rmSync } from 'node:fs';
import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import { sql } from 'kysely';
import { openDb, rawHandlesOf, type Db } from './client.ts';
import { migrateToLatest } from './migrate.ts';
import { FEED_TABLES } from './migrations/0299_search_replica_feed.ts';
import { rebuildSearchIndex } from './queries/search.ts';

export type FeedTable = (typeof FEED_TABLES)[number][0];

/** Triggers of the replica that compute search's read model from the copied tables; the others are dropped. */
const SEARCH_TRIGGER = /^(course_search_|search_cards_)/;

/** Transactions above the horizon remembered as applied (Replica.appliedAbove), at most. */
const MAX_APPLIED_ABOVE = 10_000;

/** Rows read from PostgreSQL per statement while filling. */
const FILL_BATCH_ROWS = 2000;

/** Only the review aggregates of courses are search's. */
function rowsOf(table: FeedTable): string {
  return table === 'review_aggregates' ? "subject_type = 'course'" : 'true';
}

/** A value from pg as better-sqlite3 binds it: booleans as 1/0, JSON as its text. */
function toSqlite(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) return JSON.stringify(value);
  return value;
}

interface TableWriter {
  columns: string[];
  /** The primary key's columns. */
  keys: string[];
  /** Writes a row over the replica's: an UPDATE by key, else an INSERT (see `write`). */
  update: SQLite.Statement;
  insert: SQLite.Statement;
  remove: SQLite.Statement;
}

/**
 * A row written over the replica's as a SQLite site writes it, an UPDATE or an INSERT, so the same triggers run. Not
 * an upsert: SQLite's triggers then take the upsert's conflict handling for their own, and search_cards' `insert or
 * ignore` failed on the row it meant to leave alone.
 */
function write(writer: TableWriter, values: unknown[], key: unknown[]): void {
  if (writer.update.run(...values, ...key).changes === 0) writer.insert.run(...values);
}

export interface Replica {
  /** The replica as a database handle (SQLite), for search and for the cards search computes. */
  db: Db;
  file: string;
  /** Where the feed is read from next: the xmin of the last snapshot read (xid8 as text). */
  horizon: string;
  /**
   * Transactions at or above the horizon whose rows were already applied (committed before a look while an older
   * one was still running): not read again.
   */
  appliedAbove: string[];
  /** The statements that write each table (made once: the schema is this version's until the server restarts). */
  writers: Map<FeedTable, TableWriter>;
  close(): Promise<void>;
  /** Closes it and removes its files: no search reads it any more. */
  discard(): Promise<void>;
}

/** Removes a replica's file with its log and shared memory (a replica is only ever made again, never reopened). */
export function removeReplicaFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}

function writerOf(db: Db): SQLite.Database {
  const writer = rawHandlesOf(db)?.sqliteWriter;
  if (!writer) throw new Error('a search replica is a SQLite file');
  return writer;
}

/** The replica's statements per table: every column both engines have, written over the replica's row by key. */
function tableWriters(writer: SQLite.Database, pgColumns: Map<FeedTable, Set<string>>): Map<FeedTable, TableWriter> {
  const writers = new Map<FeedTable, TableWriter>();
  for (const [table, key] of FEED_TABLES) {
    const info = writer.prepare('select name, pk from pragma_table_xinfo(?) where hidden = 0 order by cid').all(table) as Array<{ name: string; pk: number }>;
    const columns = info.map((c) => c.name).filter((c) => pgColumns.get(table)?.has(c));
    const keys = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
    writers.set(table, {
      columns,
      keys,
      update: writer.prepare(`update ${table} set ${columns.map((c) => `${c} = ?`).join(', ')} where ${keys.map((k) => `${k} = ?`).join(' and ')}`),
      insert: writer.prepare(`insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`),
      remove: writer.prepare(`delete from ${table} where ${key} = ?${table === 'review_aggregates' ? " and subject_type = 'course'" : ''}`),
    });
  }
  return writers;
}

async function pgColumnsOf(client: pg.PoolClient): Promise<Map<FeedTable, Set<string>>> {
  const { rows } = await client.query<{ table_name: FeedTable; column_name: string }>(
    `select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and table_name = any($1::text[])`,
    [FEED_TABLES.map(([table]) => table)],
  );
  const columns = new Map<FeedTable, Set<string>>();
  for (const row of rows) columns.set(row.table_name, (columns.get(row.table_name) ?? new Set()).add(row.column_name));
  return columns;
}

function bind(row: Record<string, unknown>, columns: readonly string[]): unknown[] {
  return columns.map((c) => toSqlite(row[c]));
}

/**
 * A new replica at `file` (any file there is replaced), filled from PostgreSQL's current rows. Searches may read it
 * once this resolves; until then it is neither complete nor indexed.
 */
export async function createReplica(pool: pg.Pool, file: string): Promise<Replica> {
  removeReplicaFiles(file);
  const db = openDb({ url: file });
  try {
    await migrateToLatest(db);
    const writer = writerOf(db);
    writer.pragma('foreign_keys = OFF');
    // A replica is made again from PostgreSQL after any crash: nothing in it is worth a wait for the disk.
    writer.pragma('synchronous = OFF');
    const tables = FEED_TABLES.map(([table]) => table) as string[];
    const triggers = writer
      .prepare(`select name, tbl_name, sql from sqlite_master where type = 'trigger' and tbl_name in (${tables.map(() => '?').join(', ')})`)
      .all(...tables) as Array<{ name: string; tbl_name: string; sql: string }>;
    // All off while the rows arrive (the read model is then computed once, below); search's own come back after.
    for (const t of triggers) writer.prepare(`drop trigger ${t.name}`).run();
    const { horizon, writers } = await copyTables(pool, writer);
    for (const t of triggers) if (SEARCH_TRIGGER.test(t.name)) writer.prepare(t.sql).run();
    await rebuildSearchIndex(db);
    const close = () => db.destroy();
    return { db, file, horizon, appliedAbove: [], writers, close, discard: () => close().then(() => removeReplicaFiles(file)) };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/** Copies the feed's tables in one snapshot; returns the snapshot's xmin, where the feed is read from after. */
async function copyTables(pool: pg.Pool, writer: SQLite.Database): Promise<{ horizon: string; writers: Map<FeedTable, TableWriter> }> {
  const client = await pool.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ horizon: string }>('select pg_snapshot_xmin(pg_current_snapshot())::text as horizon');
    const writers = tableWriters(writer, await pgColumnsOf(client));
    for (const [table, key] of FEED_TABLES) {
      const { columns, insert } = writers.get(table)!;
      let last: string | null = null;
      for (;;) {
        const after: string = last === null ? '' : ` and ${key} > $1`;
        const batch: pg.QueryResult<Record<string, unknown>> = await client.query<Record<string, unknown>>({
          text: `select ${columns.join(', ')} from ${table} where ${rowsOf(table)}${after} order by ${key} limit ${FILL_BATCH_ROWS}`,
          values: last === null ? [] : [last],
        });
        writer.transaction(() => {
          // The replica starts empty: every row is new.
          for (const row of batch.rows) insert.run(bind(row, columns));
        })();
        if (batch.rows.length < FILL_BATCH_ROWS) break;
        last = String(batch.rows[batch.rows.length - 1]![key]);
      }
    }
    await client.query('commit');
    return { horizon: rows[0]!.horizon, writers };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** What one look at the feed did. */
export interface FeedApplied {
  /** Rows written over the replica's or removed. */
  rows: number;
  /**
   * PostgreSQL's transaction ids are below the replica's horizon: the database is another one (restored from a
   * backup, a new cluster). Nothing was applied; the replica must be made again.
   */
  behind?: true;
}

/**
 * Reads the feed from the replica's horizon: every transaction this look's snapshot sees as committed, the ones
 * committed after a transaction still running included, so a write is searchable after the first look that follows
 * its commit, however long another transaction (in this database or another of the server's) runs. Writes the rows
 * the feed names over the replica's, in one SQLite transaction, and moves the horizon on to the snapshot's xmin.
 */
export async function followFeed(pool: pg.Pool, replica: Replica): Promise<FeedApplied> {
  const client = await pool.connect();
  try {
    // One statement, so the snapshot, its xmin and the rows read come from one moment.
    const feed = await client.query<{ horizon: string; xid: string | null; table_name: FeedTable | null; row_key: string | null; behind: boolean }>({
      name: 'search_replica_feed',
      text: `select h.horizon::text as horizon, h.horizon < $1::xid8 as behind, c.xid::text as xid, c.table_name, c.row_key
        from (select pg_current_snapshot() as snapshot, pg_snapshot_xmin(pg_current_snapshot()) as horizon) h
        left join lateral (select distinct xid, table_name, row_key from search_replica_changes
          where xid >= $1::xid8 and pg_visible_in_snapshot(xid, h.snapshot) and xid <> all($2::xid8[])) c on true`,
      values: [replica.horizon, replica.appliedAbove],
    });
    const first = feed.rows[0]!;
    if (first.behind) return { rows: 0, behind: true };
    const keys = new Map<FeedTable, Set<string>>();
    const transactions = new Set(replica.appliedAbove);
    for (const row of feed.rows) {
      if (row.table_name === null || row.row_key === null || row.xid === null) continue;
      keys.set(row.table_name, (keys.get(row.table_name) ?? new Set()).add(row.row_key));
      transactions.add(row.xid);
    }
    // Those below the new horizon are below every later look's reach anyway.
    const moveOn = () => {
      replica.horizon = first.horizon;
      const above = [...transactions].filter((xid) => BigInt(xid) >= BigInt(first.horizon));
      // Behind a transaction that runs for hours, the list is forgotten rather than sent ever longer: its rows are
      // then read and written again, to the same end.
      replica.appliedAbove = above.length <= MAX_APPLIED_ABOVE ? above : [];
    };
    if (keys.size === 0) {
      moveOn();
      return { rows: 0 };
    }
    const writer = writerOf(replica.db);
    const writers = replica.writers;
    const current = new Map<FeedTable, Array<Record<string, unknown>>>();
    for (const [table, key] of FEED_TABLES) {
      const wanted = keys.get(table);
      if (!wanted) continue;
      const { rows } = await client.query<Record<string, unknown>>(
        `select ${writers.get(table)!.columns.join(', ')} from ${table} where ${rowsOf(table)} and ${key} = any($1::text[])`,
        [[...wanted]],
      );
      current.set(table, rows);
    }
    let applied = 0;
    writer.transaction(() => {
      // Gone rows first, children before parents; then current rows, parents before children, so each trigger reads
      // the rows it joins as they are now.
      for (const [table, key] of [...FEED_TABLES].reverse()) {
        const present = new Set((current.get(table) ?? []).map((row) => String(row[key])));
        for (const gone of [...(keys.get(table) ?? [])].filter((k) => !present.has(k))) {
          applied += writers.get(table)!.remove.run(gone).changes;
          // Foreign keys are off here, so the cascade a SQLite site has is written out.
          if (table === 'courses') writer.prepare('delete from search_cards where course_id = ?').run(gone);
        }
      }
      for (const [table] of FEED_TABLES) {
        const tableWriter = writers.get(table)!;
        for (const row of current.get(table) ?? []) {
          write(tableWriter, bind(row, tableWriter.columns), bind(row, tableWriter.keys));
          applied++;
        }
      }
    })();
    moveOn();
    return { rows: applied };
  } finally {
    client.release();
  }
}

/** Removes the feed's rows older than `seconds` (every replica has read them, or is made again: api/search/replica.ts). */
export async function pruneFeed(db: Db, olderThan: number): Promise<number> {
  const result = await sql`delete from search_replica_changes where changed_at < ${olderThan}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
