/**
 * The primary of SERVER_PROCESSES on PostgreSQL: makes the machine's one search replica (api/search/replica-maker.ts)
 * and tells every serving process about it over the cluster's channel; each reads it on its own search threads
 * (followHostedReplica, api/search/replica.ts). One replica a machine, not one a process: one copy of PostgreSQL's
 * search tables read at start, one file on the disk and in the page cache, one reader of the feed.
 *
 * What it relays (ReplicaRelay keeps the account):
 * - a replica made goes to every process that has joined; the file it replaces is released once every process that
 *   was reading it has moved off it, or has exited;
 * - each look at the feed goes to every process, with the caughtUp questions of that process it answered;
 * - the cards a process computed go to the thread, which stores them in the replica they were computed on;
 * - a process that starts (a replacement too) asks with `join` and is told the replica made so far.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '../log.ts';
import type { Db } from '../../db/client.ts';
import { ReplicaMaker } from './replica-maker.ts';
import { isReplicaEnvelope, REPLICA_MESSAGE, type FromReplicaMaker, type ReplicaEnvelope, type ToReplicaMaker } from './replica-protocol.ts';

type Made = Extract<FromReplicaMaker, { type: 'made' }>;

/**
 * Who reads which replica file and who asked what: the host's account, without the channel (processes are their
 * cluster ids). Each method says what to do next.
 */
export class ReplicaRelay {
  #made: Made | null = null;
  /** The processes that have joined, and the file each was last told of (null: none made yet). */
  readonly #told = new Map<number, string | null>();
  /** Files replaced, and the processes still reading them. */
  readonly #readers = new Map<string, Set<number>>();
  /** The caughtUp questions passed to the thread: the id sent there → the process and its own id. */
  readonly #asked = new Map<number, { worker: number; id: number }>();
  #nextId = 0;

  /** A process has started listening: the replica made so far, to tell it (null: none yet). */
  joined(worker: number): Made | null {
    this.#told.set(worker, this.#made?.file ?? null);
    return this.#made;
  }

  /** A replica made: the processes to tell, and the files nobody reads any more. */
  made(message: Made): { tell: number[]; release: string[] } {
    const replaced = this.#made?.file;
    this.#made = message;
    if (replaced) this.#readers.set(replaced, new Set([...this.#told].filter(([, file]) => file === replaced).map(([worker]) => worker)));
    const tell = [...this.#told.keys()];
    for (const worker of tell) this.#told.set(worker, message.file);
    return { tell, release: this.#unread() };
  }

  /** A look at the feed: for each process that has joined, the ids of its questions the look answered. */
  looked(message: Extract<FromReplicaMaker, { type: 'look' }>): Map<number, number[]> {
    if (this.#made) this.#made = { ...this.#made, atMs: Math.max(this.#made.atMs, message.atMs) };
    const answered = new Map<number, number[]>([...this.#told.keys()].map((worker) => [worker, []]));
    for (const id of message.caughtUp) {
      const question = this.#asked.get(id);
      this.#asked.delete(id);
      if (question) answered.get(question.worker)?.push(question.id);
    }
    return answered;
  }

  /** A process's caughtUp question: the id to ask the thread with. */
  asked(worker: number, id: number): number {
    const sent = ++this.#nextId;
    this.#asked.set(sent, { worker, id });
    return sent;
  }

  /** A process no longer reads `file`: the files nobody reads any more. */
  released(worker: number, file: string): string[] {
    this.#readers.get(file)?.delete(worker);
    return this.#unread();
  }

  /** A process has exited: the files nobody reads any more. */
  exited(worker: number): string[] {
    this.#told.delete(worker);
    for (const still of this.#readers.values()) still.delete(worker);
    for (const [id, question] of this.#asked) if (question.worker === worker) this.#asked.delete(id);
    return this.#unread();
  }

  #unread(): string[] {
    const files = [...this.#readers].filter(([, still]) => still.size === 0).map(([file]) => file);
    for (const file of files) this.#readers.delete(file);
    return files;
  }
}

export interface ReplicaHost {
  close(): Promise<void>;
}

export function hostReplica(options: { db: Db; dir?: string; pollMs: number; log: Logger }): ReplicaHost {
  const relay = new ReplicaRelay();
  const tell = (id: number, message: FromReplicaMaker) => {
    const worker = cluster.workers?.[id];
    // With a callback, a process whose channel closes meanwhile (it is exiting: its 'exit' is handled) is no error
    // of the primary's; without one, the failed send would be an 'error' event nobody listens to.
    if (worker?.isConnected()) worker.send({ type: REPLICA_MESSAGE, message } satisfies ReplicaEnvelope, () => undefined);
  };
  const release = (files: string[]) => {
    for (const file of files) maker.send({ type: 'release', file });
  };

  const maker = new ReplicaMaker(options, (message) => {
    if (message.type === 'made') {
      const next = relay.made(message);
      for (const id of next.tell) tell(id, message);
      release(next.release);
      return;
    }
    for (const [id, caughtUp] of relay.looked(message)) tell(id, { type: 'look', atMs: message.atMs, caughtUp });
  });

  const heard = (worker: Worker, value: unknown) => {
    if (!isReplicaEnvelope(value)) return;
    const message = value.message as ToReplicaMaker;
    switch (message.type) {
      case 'join': {
        const made = relay.joined(worker.id);
        if (made) tell(worker.id, made);
        break;
      }
      case 'caughtUp':
        maker.send({ type: 'caughtUp', id: relay.asked(worker.id, message.id) });
        break;
      case 'cards':
        maker.send(message);
        break;
      case 'release':
        release(relay.released(worker.id, message.file));
        break;
    }
  };
  const exited = (worker: Worker) => release(relay.exited(worker.id));
  cluster.on('message', heard);
  cluster.on('exit', exited);

  return {
    async close() {
      cluster.off('message', heard);
      cluster.off('exit', exited);
      await maker.close();
    },
  };
}
