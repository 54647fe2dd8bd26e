/**
 * What the server and its search replica's thread (api/search/replica.ts, api/search/replica-worker.ts) say to each
 * other, and the times both go by.
 */
import type { LogLevel } from '../log.ts';
import type { ComputedCard } from '../../db/queries/search.ts';

/** Seconds the feed's rows are kept (pruneFeed, by feedPruneJob). */
export const FEED_KEPT_SECONDS = 3600;
/** A replica that has not read the feed for this long stops answering: searches go to PostgreSQL. */
export const REPLICA_STALE_MS = 30_000;
/** A replica that has not read the feed for this long is made again: the feed may have been pruned past it. */
export const REPLICA_REMADE_AFTER_MS = (FEED_KEPT_SECONDS * 1000) / 2;

/** What the thread is started with. */
export interface ReplicaThreadData {
  /** PostgreSQL, and the schema to use there (tests). */
  url: string;
  schema?: string;
  /** The replica's files are this plus `-n.sqlite`, n counting the replicas made. */
  fileBase: string;
  pollMs: number;
  level: LogLevel;
}

export type ToReplicaThread =
  /** Answer with the id once a look at the feed that began after this message has been applied. */
  | { type: 'caughtUp'; id: number }
  /** Cards a search thread computed on the replica in `file`. */
  | { type: 'cards'; file: string; cards: ComputedCard[]; now: number }
  /** The server no longer searches this replica's file: close and remove it. */
  | { type: 'release'; file: string }
  | { type: 'stop' };

export type FromReplicaThread =
  /** A replica made in `ms`, current as of `atMs`. */
  | { type: 'made'; file: string; ms: number; atMs: number }
  /** A look at the feed applied (begun at `atMs`), and the caughtUp ids it satisfied. */
  | { type: 'look'; atMs: number; caughtUp: number[] }
  | { type: 'log'; line: string; level: Exclude<LogLevel, 'silent'> };

/** What a server's searches say to where the replica is made: this process, or the primary of SERVER_PROCESSES. */
export type ToReplicaMaker = Extract<ToReplicaThread, { type: 'caughtUp' | 'cards' | 'release' }>
  /** A serving process of SERVER_PROCESSES that has started: it is told the replica made so far. */
  | { type: 'join' };
/** What they hear from it (the thread's log lines are written where it runs). */
export type FromReplicaMaker = Exclude<FromReplicaThread, { type: 'log' }>;

/** The cluster channel's message that carries them between a serving process and the primary (api/search/replica-host.ts). */
export const REPLICA_MESSAGE = 'search-replica';
export interface ReplicaEnvelope { type: typeof REPLICA_MESSAGE; message: ToReplicaMaker | FromReplicaMaker }

export function isReplicaEnvelope(value: unknown): value is ReplicaEnvelope {
  return (value as { type?: unknown } | null)?.type === REPLICA_MESSAGE;
}
