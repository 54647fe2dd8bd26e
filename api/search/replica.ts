/**
 * PostgreSQL: course searches answered from this server's search replica (db/search-replica.ts), on search threads
 * (api/search/threads.ts) reading the replica's SQLite file, as a SQLite site answers them. PostgreSQL then does
 * none of the work of a search; it only keeps the replica current through its feed, read every
 * SEARCH_REPLICA_POLL_MS.
 *
 * A search sees a write once the replica has read it: within a look at the feed (0.2 s by default), as a search
 * index does. Everything else (pages, checkouts, the admin) reads PostgreSQL itself.
 *
 * The replica is made and kept on a thread of its own (api/search/replica-worker.ts, run by replica-maker.ts), so the
 * server's event loop never waits for it: in this process when it serves alone, in the primary of SERVER_PROCESSES
 * for all its serving processes (replica-host.ts), so a machine makes one replica.
 *
 * Until the replica is filled, and whenever it has not read the feed for REPLICA_STALE_MS (PostgreSQL unreachable),
 * searches go to PostgreSQL as before: the answer is never one older than that. A replica that has not read the
 * feed for longer than the feed is kept (half of FEED_KEPT_SECONDS), or finds PostgreSQL's transaction ids below
 * where it stopped (a restored or new database), is made again.
 */
import cluster from 'node:cluster';
import type { Worker as NodeWorker } from 'node:worker_threads';
import type { Logger } from '../log.ts';
import type { BackgroundJob } from '../background.ts';
import type { Db } from '../../db/client.ts';
import { pruneFeed } from '../../db/search-replica.ts';
import type { CourseSearchParams } from '../../db/queries/search.ts';
import { startSearchThreads, type SearchThreads } from './threads.ts';
import { ReplicaMaker } from './replica-maker.ts';
import {
  FEED_KEPT_SECONDS, REPLICA_MESSAGE, REPLICA_STALE_MS, isReplicaEnvelope, type FromReplicaMaker, type ReplicaEnvelope, type ToReplicaMaker,
} from './replica-protocol.ts';

export interface ReplicaSearch extends SearchThreads {
  /** The replica is filled and has read the feed within REPLICA_STALE_MS, and a thread is started: searches go to it. */
  readonly ready: boolean;
  /** Resolves once a look at the feed that began after this call has been applied (a write made before is searchable). */
  caughtUp(): Promise<void>;
  /** Times this server moved to a replica made (1 after the first fill). */
  readonly made: number;
  /** Seconds since the replica last read the feed (null: not made yet). */
  readonly lagSeconds: number | null;
  /** The thread that makes and keeps the replica, when it runs in this process (for tests and diagnostics). */
  readonly thread: NodeWorker | null;
}

/** Search threads that read a replica of PostgreSQL (rather than SQLite's own file). */
export function isReplicaSearch(threads: SearchThreads | undefined): threads is ReplicaSearch {
  return threads !== undefined && 'caughtUp' in threads;
}

interface SearchOptions {
  threads: number;
  busyWaitMs: number;
  log: Logger;
}

export interface ReplicaSearchOptions extends SearchOptions {
  /** PostgreSQL. */
  db: Db;
  /** The folder of the replica's files (made per server; removed on close). */
  dir?: string;
  pollMs: number;
}

/** Where the replica is made, as the searches see it: this process's thread, or the primary's. */
interface ReplicaLink {
  send(message: ToReplicaMaker): void;
  readonly thread: NodeWorker | null;
  close(): Promise<void>;
}

/** A server alone: the replica made on a thread of this process. */
export function startReplicaSearch(options: ReplicaSearchOptions): ReplicaSearch {
  let searcher: ReplicaSearcher | null = null;
  const maker = new ReplicaMaker(options, (message) => searcher?.heard(message));
  searcher = new ReplicaSearcher(maker, options);
  return searcher;
}

/**
 * A serving process of SERVER_PROCESSES: the replica made by the primary (api/search/replica-host.ts), read here on
 * this process's search threads. The primary is told once this process has started listening for its messages.
 */
export function followHostedReplica(options: SearchOptions): ReplicaSearch {
  if (!cluster.isWorker || !process.send) throw new Error('a hosted search replica is followed from a serving process of SERVER_PROCESSES');
  const send = (message: ToReplicaMaker) => {
    // With a callback: a channel closing as the primary stops is no error of this process's.
    if (process.connected) process.send!({ type: REPLICA_MESSAGE, message } satisfies ReplicaEnvelope, undefined, undefined, () => undefined);
  };
  let searcher: ReplicaSearcher | null = null;
  const listener = (value: unknown) => {
    if (isReplicaEnvelope(value)) searcher?.heard(value.message as FromReplicaMaker);
  };
  process.on('message', listener);
  searcher = new ReplicaSearcher({
    send,
    thread: null,
    close: async () => {
      process.off('message', listener);
    },
  }, options);
  // The replica made so far, for a process started after it was made (a replacement).
  send({ type: 'join' });
  return searcher;
}

/** The searches' side: the search threads on the replica's current file, moved to each new one. */
class ReplicaSearcher implements ReplicaSearch {
  readonly #log: Logger;
  #threads: SearchThreads | null = null;
  #file: string | null = null;
  #lastLookMs = 0;
  #made = 0;
  #nextWait = 0;
  readonly #waiting = new Map<number, () => void>();

  constructor(private readonly link: ReplicaLink, private readonly options: SearchOptions) {
    this.#log = options.log.child({ component: 'search-replica' });
  }

  heard(message: FromReplicaMaker): void {
    switch (message.type) {
      case 'made': {
        if (message.file === this.#file) break;
        const old = { file: this.#file, threads: this.#threads };
        const file = message.file;
        this.#file = file;
        this.#threads = startSearchThreads({
          url: file,
          threads: this.options.threads,
          busyWaitMs: this.options.busyWaitMs,
          storeCards: async (cards, now) => this.link.send({ type: 'cards', file, cards, now }),
          onError: (error) => this.#log.error('a search thread stopped; it is started again', { error: error.message }),
        });
        this.#made++;
        this.#lastLookMs = Math.max(this.#lastLookMs, message.atMs);
        this.#log.info('search replica made', { file, ms: message.ms });
        // Searches in flight on the old file finish there; then it is released.
        void old.threads?.close().then(() => {
          if (old.file) this.link.send({ type: 'release', file: old.file });
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
    }
  }

  get ready(): boolean {
    return this.#threads !== null && this.#threads.ready && Date.now() - this.#lastLookMs < REPLICA_STALE_MS;
  }

  get made(): number {
    return this.#made;
  }

  get thread(): NodeWorker | null {
    return this.link.thread;
  }

  get lagSeconds(): number | null {
    return this.#file === null ? null : (Date.now() - this.#lastLookMs) / 1000;
  }

  caughtUp(): Promise<void> {
    const id = ++this.#nextWait;
    return new Promise<void>((done) => {
      this.#waiting.set(id, done);
      this.link.send({ type: 'caughtUp', id });
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
    for (const done of this.#waiting.values()) done();
    this.#waiting.clear();
    await this.#threads?.close();
    await this.link.close();
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
