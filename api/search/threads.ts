/**
 * SQLite: course searches answered on threads of their own (`SEARCH_THREADS`, api/search/worker.ts).
 *
 * better-sqlite3 runs a statement on the thread that calls it, so on the event loop a search held up every other
 * request for as long as SQLite took (0.1 ms for a first page, a few ms for a word sorted by price or a deep page),
 * and a server whose loop was busy with searches answered checkouts late. On threads, SQLite's work for searches
 * runs beside the loop, on another core where the machine has one; the loop only parses the request and writes
 * the answer the thread made. PostgreSQL's searches already run in its own processes: no threads there.
 *
 * A search no thread can take (one starting, or gone after a crash until it is started again) is left to the
 * caller, which runs it on the loop as before: a thread failing costs speed, never an answer. The same goes for a
 * search a thread answered with an error: the caller runs it again, so an error is raised, logged and answered
 * the one way every other request's is.
 */
import { Worker } from 'node:worker_threads';
import type { ComputedCard, CourseSearchParams } from '../../db/queries/search.ts';

/** What a thread is started with. */
export interface SearchThreadData {
  url: string;
  busyWaitMs: number;
}

export interface SearchRequest {
  id: number;
  params: CourseSearchParams;
  now: number;
}

/** An answer, with the cards the thread computed for it (the server stores them), or an error's message. */
export type SearchReply = { id: number; body: string; computed?: ComputedCard[] } | { id: number; error: string };

export interface SearchThreads {
  /** The search API's answer (searchCoursesJson's JSON), or undefined when no thread gave one: search it yourself. */
  search(params: CourseSearchParams, now: number): Promise<string | undefined>;
  /** Searches a thread answered. */
  readonly answered: number;
  /** A thread is started and can take a search. */
  readonly ready: boolean;
  /** The threads running now (for tests and diagnostics). */
  readonly workers: readonly Worker[];
  /** Stops the threads; searches in flight are left to their callers. */
  close(): Promise<void>;
}

/** The most threads a process starts unless told: each holds its own connections and about 37 MB. */
const DEFAULT_THREADS_MAX = 4;

/**
 * Threads per process when SEARCH_THREADS is unset: one per core the process has to itself (the cores shared among
 * SERVER_PROCESSES), at least one, at most DEFAULT_THREADS_MAX. A search is SQLite's CPU work alone, so a thread
 * beyond the cores only waits for one: on two cores, two threads answered a fifth more searches a second than one,
 * and three no more than two (docs/benchmarks.md).
 */
export function defaultSearchThreads(cores: number, processes: number): number {
  return Math.max(1, Math.min(DEFAULT_THREADS_MAX, Math.floor(cores / Math.max(1, processes))));
}

/** A thread that stopped is started again after this long (doubling while it keeps stopping, up to a minute). */
const RESTART_DELAY_MS = 1000;
const RESTART_DELAY_MAX_MS = 60_000;
/** A thread that served this long before it stopped is started again after the first delay. */
const STEADY_MS = 60_000;

interface Thread {
  worker: Worker;
  ready: boolean;
  startedAt: number;
  pending: Map<number, (reply: SearchReply | undefined) => void>;
}

/**
 * A thread's entry: the compiled server (dist-server/server.mjs) starts dist-server/search-worker.mjs (or another
 * compiled entry beside it); from the sources (tsx, tests) the worker's TypeScript through tsx, as the server itself
 * runs then.
 */
export function workerEntry(compiled = 'search-worker.mjs', source = 'worker.ts'): { file: URL; execArgv: string[] } {
  return import.meta.url.endsWith('.mjs')
    ? { file: new URL(`./${compiled}`, import.meta.url), execArgv: [] }
    : { file: new URL(`./${source}`, import.meta.url), execArgv: ['--import', 'tsx'] };
}

/** The ready thread with the fewest searches in flight (undefined: none is ready). */
function leastBusy(threads: ReadonlyArray<Thread | null>): Thread | undefined {
  let chosen: Thread | undefined;
  for (const thread of threads) {
    if (thread?.ready && (!chosen || thread.pending.size < chosen.pending.size)) chosen = thread;
  }
  return chosen;
}

/** What threads are started with, and what becomes of the cards they compute. */
export interface SearchThreadOptions {
  url: string;
  threads: number;
  busyWaitMs: number;
  /** Keeps the cards a thread computed, before its answer is given (as a search on the loop stores them). */
  storeCards: (cards: ComputedCard[], now: number) => Promise<void>;
  /** A thread's crash (it is started again). */
  onError?: (error: Error) => void;
}

export function startSearchThreads(options: SearchThreadOptions): SearchThreads {
  const entry = workerEntry();
  const threads: Array<Thread | null> = Array.from({ length: options.threads }, () => null);
  const delays = threads.map(() => RESTART_DELAY_MS);
  const timers = new Set<NodeJS.Timeout>();
  let nextId = 0;
  let answered = 0;
  let closed = false;

  const start = (slot: number): void => {
    const worker = new Worker(entry.file, {
      execArgv: entry.execArgv,
      workerData: { url: options.url, busyWaitMs: options.busyWaitMs } satisfies SearchThreadData,
    });
    // The server's own handles keep the process up; a thread must never be why it does not exit.
    worker.unref();
    const thread: Thread = { worker, ready: false, startedAt: Date.now(), pending: new Map() };
    threads[slot] = thread;
    worker.on('message', (message: SearchReply | { ready: true }) => {
      if ('ready' in message) {
        thread.ready = true;
        return;
      }
      const done = thread.pending.get(message.id);
      thread.pending.delete(message.id);
      if ('body' in message) answered++;
      done?.(message);
    });
    worker.on('error', (error) => options.onError?.(error));
    worker.once('exit', () => {
      thread.ready = false;
      for (const done of thread.pending.values()) done(undefined);
      thread.pending.clear();
      if (threads[slot] === thread) threads[slot] = null;
      if (closed) return;
      if (Date.now() - thread.startedAt >= STEADY_MS) delays[slot] = RESTART_DELAY_MS;
      const delay = delays[slot]!;
      delays[slot] = Math.min(delay * 2, RESTART_DELAY_MAX_MS);
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!closed) start(slot);
      }, delay);
      timer.unref();
      timers.add(timer);
    });
  };
  threads.forEach((_, slot) => start(slot));

  return {
    search(params, now) {
      const thread = leastBusy(threads);
      if (!thread) return Promise.resolve(undefined);
      const id = ++nextId;
      return new Promise<SearchReply | undefined>((done) => {
        thread.pending.set(id, done);
        thread.worker.postMessage({ id, params, now } satisfies SearchRequest);
      }).then(async (reply) => {
        if (!reply || !('body' in reply)) return undefined;
        if (reply.computed) await options.storeCards(reply.computed, now);
        return reply.body;
      });
    },
    get answered() {
      return answered;
    },
    get ready() {
      return leastBusy(threads) !== undefined;
    },
    get workers() {
      return threads.flatMap((thread) => (thread ? [thread.worker] : []));
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      await Promise.all(threads.map((thread) => thread?.worker.terminate()));
    },
  };
}
