/**
 * The search replica's thread (api/search/replica-worker.ts), run and started again when it stops: it makes the
 * replica of PostgreSQL and keeps it current. One process runs it: the server itself, or the primary of
 * SERVER_PROCESSES for all its serving processes (api/search/replica-host.ts), so a machine makes one replica, not
 * one a process.
 *
 * Files of their own for each thread started, so one started after a crash never writes where searches read. A
 * file no search reads any more is removed by the thread that made it, or here when that thread is gone.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker as NodeWorker } from 'node:worker_threads';
import type { Logger } from '../log.ts';
import { rawHandlesOf, schemaOfDb, type Db } from '../../db/client.ts';
import { removeReplicaFiles } from '../../db/search-replica.ts';
import { workerEntry } from './threads.ts';
import type { FromReplicaMaker, FromReplicaThread, ReplicaThreadData, ToReplicaMaker, ToReplicaThread } from './replica-protocol.ts';

export interface ReplicaMakerOptions {
  /** PostgreSQL. */
  db: Db;
  /** The folder of the replica's files (default: the system's temporary folder). */
  dir?: string;
  pollMs: number;
  log: Logger;
}

/** A thread that stopped is started again after this long. */
const RESTART_DELAY_MS = 5000;

export class ReplicaMaker {
  readonly #log: Logger;
  readonly #dir: string;
  readonly #data: Omit<ReplicaThreadData, 'fileBase'>;
  readonly #heard: (message: FromReplicaMaker) => void;
  #thread: NodeWorker | null = null;
  /** Which thread made each file still in use (it alone may remove it while it runs). */
  readonly #makers = new Map<string, NodeWorker>();
  #restart: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(options: ReplicaMakerOptions, heard: (message: FromReplicaMaker) => void) {
    const pool = rawHandlesOf(options.db)?.pgPool;
    if (!pool?.options.connectionString) throw new Error('a search replica follows a PostgreSQL database');
    this.#dir = options.dir || tmpdir();
    removeOrphans(this.#dir);
    this.#log = options.log.child({ component: 'search-replica' });
    this.#data = { url: pool.options.connectionString, schema: schemaOfDb(options.db), pollMs: options.pollMs, level: options.log.level };
    this.#heard = heard;
    this.#start();
  }

  #start(): void {
    const entry = workerEntry('search-replica-worker.mjs', 'replica-worker.ts');
    const fileBase = join(this.#dir, `search-replica-${process.pid}-${randomUUID().slice(0, 8)}`);
    const thread = new NodeWorker(entry.file, { execArgv: entry.execArgv, workerData: { ...this.#data, fileBase } satisfies ReplicaThreadData });
    // The server's own handles keep the process up; this thread must never be why it does not exit.
    thread.unref();
    this.#thread = thread;
    thread.on('message', (message: FromReplicaThread) => {
      if (message.type === 'log') (message.level === 'error' ? process.stderr : process.stdout).write(`${message.line}\n`);
      else {
        if (message.type === 'made') this.#makers.set(message.file, thread);
        this.#heard(message);
      }
    });
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

  /** The thread running now (null while it is started again). */
  get thread(): NodeWorker | null {
    return this.#thread;
  }

  /**
   * A question or cards for the thread (dropped while it is started again: its next replica computes its own), or
   * a file no search reads any more.
   */
  send(message: ToReplicaMaker): void {
    if (message.type === 'release') this.#release(message.file);
    else if (message.type !== 'join') this.#thread?.postMessage(message);
  }

  /** Closed and removed by the thread that made the file, or here when that thread is gone. */
  #release(file: string): void {
    const maker = this.#makers.get(file);
    this.#makers.delete(file);
    if (maker && maker === this.#thread) maker.postMessage({ type: 'release', file } satisfies ToReplicaThread);
    else removeReplicaFiles(file);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#restart) clearTimeout(this.#restart);
    const thread = this.#thread;
    if (!thread) return;
    const exited = new Promise<void>((ok) => thread.once('exit', () => ok()));
    thread.postMessage({ type: 'stop' } satisfies ToReplicaThread);
    // The thread closes and removes its files; one that does not end in time is ended.
    const timer = setTimeout(() => void thread.terminate(), 10_000);
    await exited;
    clearTimeout(timer);
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
