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
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../log.ts';
import { startWorker, type BackgroundJob } from '../background.ts';
import { rawHandlesOf, type Db } from '../../db/client.ts';
import { createReplica, followFeed, pruneFeed, type Replica } from '../../db/search-replica.ts';
import { storeComputedCards } from '../../db/queries/search.ts';
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

export function startReplicaSearch(options: {
  /** PostgreSQL. */
  db: Db;
  /** The folder of the replica's file (made per server; removed on close). */
  dir?: string;
  threads: number;
  pollMs: number;
  busyWaitMs: number;
  log: Logger;
}): ReplicaSearch {
  const pool = rawHandlesOf(options.db)?.pgPool;
  if (!pool) throw new Error('a search replica follows a PostgreSQL database');
  const file = join(options.dir || tmpdir(), `search-replica-${process.pid}-${randomUUID().slice(0, 8)}.sqlite`);
  const log = options.log.child({ component: 'search-replica' });
  let replica: Replica | null = null;
  let threads: SearchThreads | null = null;
  let lastLookMs = 0;
  let made = 0;
  let looksStarted = 0;
  let looksDone = 0;
  const waiting: Array<{ look: number; done: () => void }> = [];

  const make = async (): Promise<void> => {
    const old = { replica, threads };
    replica = null;
    threads = null;
    await old.threads?.close();
    await old.replica?.close();
    const started = Date.now();
    const fresh = await createReplica(pool, file);
    replica = fresh;
    threads = startSearchThreads({
      url: file,
      threads: options.threads,
      busyWaitMs: options.busyWaitMs,
      storeCards: (cards, now) => storeComputedCards(fresh.db, cards, now),
      onError: (error) => log.error('a search thread stopped; it is started again', { error: error.message }),
    });
    made++;
    log.info('search replica made', { file, ms: Date.now() - started });
  };

  const job: BackgroundJob = {
    name: 'search-replica',
    idleMs: options.pollMs,
    busyMs: options.pollMs,
    maxBackoffMs: 5000,
    async run() {
      const look = ++looksStarted;
      const startedMs = Date.now();
      if (!replica || startedMs - lastLookMs > REPLICA_REMADE_AFTER_MS) await make();
      else if ((await followFeed(pool, replica)).behind) {
        log.info('PostgreSQL is another database than the replica was made from: made again');
        await make();
      }
      lastLookMs = startedMs;
      looksDone = look;
      for (const w of waiting.splice(0)) {
        if (w.look <= looksDone) w.done();
        else waiting.push(w);
      }
      // Never 0: a pass that did work would otherwise start the next one at once.
      return 0;
    },
  };
  const worker = startWorker(job, log);

  const ready = (): boolean => replica !== null && threads !== null && threads.ready && Date.now() - lastLookMs < REPLICA_STALE_MS;
  return {
    get ready() {
      return ready();
    },
    get made() {
      return made;
    },
    get lagSeconds() {
      return replica === null ? null : (Date.now() - lastLookMs) / 1000;
    },
    caughtUp() {
      const look = looksStarted + 1;
      worker.kick();
      return new Promise<void>((done) => waiting.push({ look, done }));
    },
    search(params, now) {
      if (!ready() || !threads) return Promise.resolve(undefined);
      return threads.search(params, now);
    },
    get answered() {
      return threads?.answered ?? 0;
    },
    get workers() {
      return threads?.workers ?? [];
    },
    async close() {
      await worker.stop();
      for (const w of waiting.splice(0)) w.done();
      await threads?.close();
      await replica?.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    },
  };
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
