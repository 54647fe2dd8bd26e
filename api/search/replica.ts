/**
 * PostgreSQL: course searches answered from this server's search replica (db/search-replica.ts), on search threads
 * (api/search/threads.ts) reading the replica's SQLite file, as a SQLite site answers them. PostgreSQL then does
 * none of the work of a search; it only keeps the replica current through its feed, read every
 * SEARCH_REPLICA_POLL_MS.
 *
 * A search sees a write once the replica has read it: within a look at the feed (0.2 s by default), as a search
 * index does. Everything else (pages, checkouts, the admin) reads PostgreSQL itself.
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
import type { Logger } from '../log.ts';
import type pg from 'pg';
import type { Worker as NodeWorker } from 'node:worker_threads';
import { startWorker, type BackgroundJob, type Worker } from '../background.ts';
import { rawHandlesOf, type Db } from '../../db/client.ts';
import { createReplica, followFeed, pruneFeed, type Replica } from '../../db/search-replica.ts';
import { storeComputedCards, type CourseSearchParams } from '../../db/queries/search.ts';
import { startSearchThreads, type SearchThreads } from './threads.ts';

/** Seconds the feed's rows are kept (pruneFeed, by feedPruneJob). */
export const FEED_KEPT_SECONDS = 3600;
/** A replica that has not read the feed for this long stops answering: searches go to PostgreSQL. */
export const REPLICA_STALE_MS = 30_000;
/** A replica that has not read the feed for this long is made again: the feed may have been pruned past it. */
const REPLICA_REMADE_AFTER_MS = (FEED_KEPT_SECONDS * 1000) / 2;

export interface ReplicaSearch extends SearchThreads {
  /** The replica is filled and has read the feed within REPLICA_STALE_MS, and a thread is started: searches go to it. */
  readonly ready: boolean;
  /** Resolves once a look at the feed that began after this call has been applied (a write made before is searchable). */
  caughtUp(): Promise<void>;
  /** Times the replica was made (1 after the first fill). */
  readonly made: number;
  /** Seconds since the replica last read the feed (null: not made yet). */
  readonly lagSeconds: number | null;
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

/** The replica, its threads, and the background job that makes it and then reads the feed. */
class ReplicaSearcher implements ReplicaSearch {
  readonly #pool: pg.Pool;
  readonly #file: string;
  readonly #log: Logger;
  readonly #worker: Worker;
  #replica: Replica | null = null;
  #threads: SearchThreads | null = null;
  #lastLookMs = 0;
  #made = 0;
  #looksStarted = 0;
  #waiting: Array<{ look: number; done: () => void }> = [];

  constructor(private readonly options: ReplicaSearchOptions) {
    const pool = rawHandlesOf(options.db)?.pgPool;
    if (!pool) throw new Error('a search replica follows a PostgreSQL database');
    this.#pool = pool;
    const dir = options.dir || tmpdir();
    removeOrphans(dir);
    this.#file = join(dir, `search-replica-${process.pid}-${randomUUID().slice(0, 8)}.sqlite`);
    this.#log = options.log.child({ component: 'search-replica' });
    this.#worker = startWorker({
      name: 'search-replica',
      idleMs: options.pollMs,
      busyMs: options.pollMs,
      maxBackoffMs: 5000,
      run: () => this.#look(),
    }, this.#log);
  }

  /** One pass: makes the replica when it has none (or one too far behind), else reads the feed into it. */
  async #look(): Promise<number> {
    const look = ++this.#looksStarted;
    const startedMs = Date.now();
    if (!this.#replica || startedMs - this.#lastLookMs > REPLICA_REMADE_AFTER_MS) await this.#make();
    else if ((await followFeed(this.#pool, this.#replica)).behind) {
      this.#log.info('PostgreSQL is another database than the replica was made from: made again');
      await this.#make();
    }
    this.#lastLookMs = startedMs;
    for (const w of this.#waiting.splice(0)) {
      if (w.look <= look) w.done();
      else this.#waiting.push(w);
    }
    // Never more than 0: a pass that did work would start the next one at once.
    return 0;
  }

  async #make(): Promise<void> {
    const old = { replica: this.#replica, threads: this.#threads };
    this.#replica = null;
    this.#threads = null;
    await old.threads?.close();
    await old.replica?.close();
    const started = Date.now();
    const fresh = await createReplica(this.#pool, this.#file);
    this.#replica = fresh;
    this.#threads = startSearchThreads({
      url: this.#file,
      threads: this.options.threads,
      busyWaitMs: this.options.busyWaitMs,
      storeCards: (cards, now) => storeComputedCards(fresh.db, cards, now),
      onError: (error) => this.#log.error('a search thread stopped; it is started again', { error: error.message }),
    });
    this.#made++;
    this.#log.info('search replica made', { file: this.#file, ms: Date.now() - started });
  }

  get ready(): boolean {
    return this.#replica !== null && this.#threads !== null && this.#threads.ready && Date.now() - this.#lastLookMs < REPLICA_STALE_MS;
  }

  get made(): number {
    return this.#made;
  }

  get lagSeconds(): number | null {
    return this.#replica === null ? null : (Date.now() - this.#lastLookMs) / 1000;
  }

  caughtUp(): Promise<void> {
    const look = this.#looksStarted + 1;
    this.#worker.kick();
    return new Promise<void>((done) => this.#waiting.push({ look, done }));
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
    await this.#worker.stop();
    for (const w of this.#waiting.splice(0)) w.done();
    await this.#threads?.close();
    await this.#replica?.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${this.#file}${suffix}`, { force: true });
  }
}

const REPLICA_FILE = /^search-replica-(\d+)-[0-9a-f]{8}\.sqlite(-wal|-shm)?$/;

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
