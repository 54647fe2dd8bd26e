/**
 * PostgreSQL: course searches answered from this server's search replica (db/search-replica.ts), on search threads
 * (api/search/threads.ts) reading the replica's SQLite file, as a SQLite site answers them. PostgreSQL then does
 * none of the work of a search; it only keeps the replica current through its feed, read every
 * SEARCH_REPLICA_POLL_MS.
 *
 * A search sees a write once the replica has read it: within a look at the feed (0.2 s by default), as a search
 * index does. Everything else (pages, checkouts, the admin) reads PostgreSQL itself.
 *
 * The replica is made and kept on a thread of its own (api/search/replica-worker.ts), so the server's event loop never
 * waits for it.
 *
 * Until the replica is filled, and whenever it has not read the feed for REPLICA_STALE_MS (PostgreSQL unreachable),
 * searches go to PostgreSQL as before: the answer is never one older than that. A replica that has not read the
 * feed for longer than the feed is kept (half of FEED_KEPT_SECONDS), or finds PostgreSQL's transaction ids below
 * where it stopped (a restored or new database), is made again.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker as NodeWorker } from 'node:worker_threads';
import type { Logger } from '../log.ts';
import type { BackgroundJob } from '../background.ts';
import { rawHandlesOf, schemaOfDb, type Db } from '../../db/client.ts';
import { pruneFeed } from '../../db/search-replica.ts';
import type { CourseSearchParams } from '../../db/queries/search.ts';
import { startSearchThreads, workerEntry, type SearchThreads } from './threads.ts';
import { FEED_KEPT_SECONDS, REPLICA_STALE_MS, type FromReplicaThread, type ReplicaThreadData, type ToReplicaThread } from './replica-protocol.ts';

export interface ReplicaSearch extends SearchThreads {
  /** The replica is filled and has read the feed within REPLICA_STALE_MS, and a thread is started: searches go to it. */
  readonly ready: boolean;
  /** Resolves once a look at the feed that began after this call has been applied (a write made before is searchable). */
  caughtUp(): Promise<void>;
  /** Times the replica was made (1 after the first fill). */
  readonly made: number;
  /** Seconds since the replica last read the feed (null: not made yet). */
  readonly lagSeconds: number | null;
  /** The thread that makes and keeps the replica (for tests and diagnostics). */
  readonly thread: NodeWorker | null;
}

/** Search threads that read a replica of PostgreSQL (rather than SQLite's own file). */
export function isReplicaSearch(threads: SearchThreads | undefined): threads is ReplicaSearch {
  return threads !== undefined && 'caughtUp' in threads;
}

export interface ReplicaSearchOptions {
  /** PostgreSQL. */
  db: Db;
  /** The folder of the replica's file (made per server; removed on close). */
  dir?: string;
  threads: number;
  pollMs: number;
  busyWaitMs: number;
  log: Logger;
}

export function startReplicaSearch(options: ReplicaSearchOptions): ReplicaSearch {
  return new ReplicaSearcher(options);
}

/** A thread that stopped is started again after this long. */
const RESTART_DELAY_MS = 5000;

/**
 * The server's side: the replica's thread (api/search/replica-worker.ts), which makes the replica and keeps it, and
 * the search threads on the replica's current file.
 */
class ReplicaSearcher implements ReplicaSearch {
  readonly #log: Logger;
  readonly #dir: string;
  readonly #data: Omit<ReplicaThreadData, 'fileBase'>;
  #thread: NodeWorker | null = null;
  #threads: SearchThreads | null = null;
  #file: string | null = null;
  /** The thread that made the current file (it alone may remove it). */
  #fileMaker: NodeWorker | null = null;
  #lastLookMs = 0;
  #made = 0;
  #nextWait = 0;
  readonly #waiting = new Map<number, () => void>();
  #restart: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(private readonly options: ReplicaSearchOptions) {
    const pool = rawHandlesOf(options.db)?.pgPool;
    if (!pool?.options.connectionString) throw new Error('a search replica follows a PostgreSQL database');
    this.#dir = options.dir || tmpdir();
    removeOrphans(this.#dir);
    this.#log = options.log.child({ component: 'search-replica' });
    this.#data = { url: pool.options.connectionString, schema: schemaOfDb(options.db), pollMs: options.pollMs, level: options.log.level };
    this.#start();
  }

  #start(): void {
    const entry = workerEntry('search-replica-worker.mjs', 'replica-worker.ts');
    // Files of their own for each thread started, so one started after a crash never writes where searches read.
    const fileBase = join(this.#dir, `search-replica-${process.pid}-${randomUUID().slice(0, 8)}`);
    const thread = new NodeWorker(entry.file, { execArgv: entry.execArgv, workerData: { ...this.#data, fileBase } satisfies ReplicaThreadData });
    // The server's own handles keep the process up; this thread must never be why it does not exit.
    thread.unref();
    this.#thread = thread;
    thread.on('message', (message: FromReplicaThread) => this.#heard(message, thread));
    thread.on('error', (error) => this.#log.error('the search replica\'s thread stopped; it is started again', { error: error.message }));
    thread.once('exit', () => {
      if (this.#thread === thread) this.#thread = null;
      if (this.#closed) return;
      this.#restart = setTimeout(() => {
        this.#restart = null;
        if (!this.#closed) this.#start();
      }, RESTART_DELAY_MS);
      this.#restart.unref();
    });
  }

  #heard(message: FromReplicaThread, from: NodeWorker): void {
    switch (message.type) {
      case 'made': {
        const old = { file: this.#file, threads: this.#threads, maker: this.#fileMaker };
        const file = message.file;
        this.#file = file;
        this.#fileMaker = from;
        this.#threads = startSearchThreads({
          url: file,
          threads: this.options.threads,
          busyWaitMs: this.options.busyWaitMs,
          storeCards: async (cards, now) => this.#thread?.postMessage({ type: 'cards', file, cards, now } satisfies ToReplicaThread),
          onError: (error) => this.#log.error('a search thread stopped; it is started again', { error: error.message }),
        });
        this.#made++;
        this.#lastLookMs = Date.now();
        this.#log.info('search replica made', { file, ms: message.ms });
        // Searches in flight on the old file finish there; then it goes: removed by the thread that made it, or here
        // when that thread is gone.
        void old.threads?.close().then(() => {
          if (!old.file) return;
          if (old.maker === from) from.postMessage({ type: 'release', file: old.file } satisfies ToReplicaThread);
          else for (const suffix of ['', '-wal', '-shm']) rmSync(`${old.file}${suffix}`, { force: true });
        });
        break;
      }
      case 'look':
        this.#lastLookMs = Math.max(this.#lastLookMs, message.atMs);
        for (const id of message.caughtUp) {
          this.#waiting.get(id)?.();
          this.#waiting.delete(id);
        }
        break;
      case 'log':
        (message.level === 'error' ? process.stderr : process.stdout).write(`${message.line}\n`);
        break;
    }
  }

  get ready(): boolean {
    return this.#threads !== null && this.#threads.ready && Date.now() - this.#lastLookMs < REPLICA_STALE_MS;
  }

  get made(): number {
    return this.#made;
  }

  get thread(): NodeWorker | null {
    return this.#thread;
  }

  get lagSeconds(): number | null {
    return this.#file === null ? null : (Date.now() - this.#lastLookMs) / 1000;
  }

  caughtUp(): Promise<void> {
    const id = ++this.#nextWait;
    return new Promise<void>((done) => {
      this.#waiting.set(id, done);
      this.#thread?.postMessage({ type: 'caughtUp', id } satisfies ToReplicaThread);
    });
  }

  search(params: CourseSearchParams, now: number): Promise<string | undefined> {
    if (!this.ready || !this.#threads) return Promise.resolve(undefined);
    return this.#threads.search(params, now);
  }

  get answered(): number {
    return this.#threads?.answered ?? 0;
  }

  get workers(): readonly NodeWorker[] {
    return this.#threads?.workers ?? [];
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#restart) clearTimeout(this.#restart);
    for (const done of this.#waiting.values()) done();
    this.#waiting.clear();
    await this.#threads?.close();
    const thread = this.#thread;
    if (thread) {
      const exited = new Promise<void>((ok) => thread.once('exit', () => ok()));
      thread.postMessage({ type: 'stop' } satisfies ToReplicaThread);
      // The thread closes and removes its files; one that does not end in time is ended.
      const timer = setTimeout(() => void thread.terminate(), 10_000);
      await exited;
      clearTimeout(timer);
    }
  }
}

const REPLICA_FILE = /^search-replica-(\d+)-[0-9a-f]{8}-\d+\.sqlite(-wal|-shm)?$/;

/**
 * Removes the replica files of processes that are gone (a process killed before it could remove its own), so a
 * folder of crashed servers' replicas does not fill the disk. A file whose process id is in use again is left.
 */
function removeOrphans(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(REPLICA_FILE.exec(name)?.[1]);
    if (!pid || pid === process.pid || isRunning(pid)) continue;
    rmSync(join(dir, name), { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: running, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** PostgreSQL: removes the search feed's rows every replica has read (FEED_KEPT_SECONDS). */
export function feedPruneJob(db: Db, now: () => number): BackgroundJob {
  return {
    name: 'search-feed-prune',
    idleMs: 600_000,
    run: async () => {
      await pruneFeed(db, now() - FEED_KEPT_SECONDS);
      return 0;
    },
  };
}
