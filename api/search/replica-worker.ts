/**
 * The search replica's own thread (api/search/replica.ts): makes the replica and reads PostgreSQL's feed into it, and
 * stores the cards the search threads computed. It alone writes the replica's files, so neither the making nor a large
 * batch of changes ever holds up the server's event loop: made on the loop, a replica of 100,000 courses took 85 s
 * of reading, decoding and writing 882,801 rows and building the index, in slices that stalled the loop for up to
 * 0.6 s, while the server was already answering.
 *
 * A replica made again goes to a new file: the server moves its search threads to it, then tells this thread to
 * close and remove the old one, so searches never read a file being replaced.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDb, rawHandlesOf } from '../../db/client.ts';
import { createReplica, followFeed, type Replica } from '../../db/search-replica.ts';
import { storeComputedCards } from '../../db/queries/search.ts';
import { startWorker } from '../background.ts';
import { createLogger } from '../log.ts';
import { REPLICA_REMADE_AFTER_MS, type FromReplicaThread, type ReplicaThreadData, type ToReplicaThread } from './replica-protocol.ts';

if (!parentPort) throw new Error('api/search/replica-worker.ts runs as a worker thread (api/search/replica.ts)');
const port = parentPort;
const data = workerData as ReplicaThreadData;
const post = (message: FromReplicaThread): void => port.postMessage(message);
const log = createLogger(data.level, { component: 'search-replica' }, { write: (line, level) => post({ type: 'log', line, level }) });

const db = openDb({ url: data.url, schema: data.schema, poolSize: 2 });
const pool = rawHandlesOf(db)!.pgPool!;
let replica: Replica | null = null;
const retired = new Map<string, Replica>();
let made = 0;
let lastLookMs = 0;
let looksStarted = 0;
let waiting: Array<{ id: number; look: number }> = [];

async function make(): Promise<void> {
  const file = `${data.fileBase}-${++made}.sqlite`;
  const started = Date.now();
  const fresh = await createReplica(pool, file);
  if (replica) retired.set(replica.file, replica);
  replica = fresh;
  post({ type: 'made', file, ms: Date.now() - started, atMs: Date.now() });
}

/** One pass: makes the replica when there is none (or one too far behind), else reads the feed into it. */
async function look(): Promise<number> {
  const current = ++looksStarted;
  const startedMs = Date.now();
  if (!replica || startedMs - lastLookMs > REPLICA_REMADE_AFTER_MS) await make();
  else if ((await followFeed(pool, replica)).behind) {
    log.info('PostgreSQL is another database than the replica was made from: made again');
    await make();
  }
  lastLookMs = startedMs;
  const done = waiting.filter((w) => w.look <= current).map((w) => w.id);
  waiting = waiting.filter((w) => w.look > current);
  post({ type: 'look', atMs: startedMs, caughtUp: done });
  // Never more than 0: a pass that did work would start the next one at once.
  return 0;
}

const worker = startWorker({ name: 'search-replica', idleMs: data.pollMs, busyMs: data.pollMs, maxBackoffMs: 5000, run: look }, log);

async function stop(): Promise<void> {
  await worker.stop();
  for (const r of [replica, ...retired.values()]) await r?.discard();
  await db.destroy();
  // In a worker thread this ends the thread alone (a handle left open by a library would otherwise keep it up).
  process.exit(0);
}

port.on('message', (message: ToReplicaThread) => {
  switch (message.type) {
    case 'caughtUp':
      waiting.push({ id: message.id, look: looksStarted + 1 });
      worker.kick();
      break;
    case 'cards':
      // Cards computed on a replica since replaced are dropped: the new one computes its own.
      if (replica?.file === message.file) void storeComputedCards(replica.db, message.cards, message.now);
      break;
    case 'release': {
      const old = retired.get(message.file);
      retired.delete(message.file);
      void old?.discard();
      break;
    }
    case 'stop':
      void stop();
      break;
  }
});
