/**
 * SQLite: the WAL's checkpoints, run by a worker thread on a connection of its own instead of by the server's
 * writer.
 *
 * In WAL mode every commit appends the pages it changed to the WAL, and by default the connection whose commit
 * takes the WAL past 1,000 pages then copies them into the database file and syncs it, inside that commit. On
 * the checkout that was the server's main thread waiting for the disk several times a second (at ~1,000
 * commits a second, ~10 pages each): the checkout benchmark made ~10 % more checkouts a second with the
 * checkpoints out of the commits (docs/benchmarks.md). Here a worker runs a PASSIVE checkpoint every
 * CHECKPOINT_INTERVAL_MS, which waits for no reader or writer and copies what no reader still needs; the
 * writer keeps checkpointing by itself past WRITER_BACKSTOP_PAGES, should the worker fall behind or stop.
 *
 * The worker is plain JavaScript evaluated from a string, so it runs the same under tsx, vitest and the
 * compiled server, and loads better-sqlite3 from where this module resolves it.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the worker checkpoints. */
export const CHECKPOINT_INTERVAL_MS = 250;
/** The writer's own automatic checkpoint, a backstop: 10,000 pages (40 MB of WAL). */
export const WRITER_BACKSTOP_PAGES = 10_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
db.pragma('synchronous = NORMAL');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy (another checkpoint running, or a writer changing the schema): the next turn tries again.
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Stops the worker after its current checkpoint and closes its connection. */
  close(): Promise<void>;
}

/** Starts checkpointing `file` in a worker thread. The worker never keeps the process alive. */
export function startCheckpointer(file: string, intervalMs = CHECKPOINT_INTERVAL_MS): Checkpointer {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, file, intervalMs } });
  worker.unref();
  const exited = new Promise<void>((ok) => worker.once('exit', () => ok()));
  // A worker that fails (it cannot open the file) leaves checkpoints to the writer's backstop; said on stderr.
  worker.on('error', (error) => process.emitWarning(`SQLite checkpoints fall back to the writer: ${error.message}`, 'CheckpointerWarning'));
  return {
    close() {
      // Held while it stops: an unreferenced worker alone would let the process end before the caller goes on.
      worker.ref();
      worker.postMessage('stop');
      return exited;
    },
  };
}
