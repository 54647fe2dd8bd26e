/**
 * Prometheus metrics (prom-client), one registry per app (docs/operations.md "Metrics and readiness"):
 * - request latency per route pattern (never the raw path, which would make a series per course or checkout),
 *   observed by the request log middleware (api/http/request-log.ts);
 * - what lives in the database (checkouts by status, refunds, the e-mail outbox, the publisher's change feed,
 *   holds, failed renewals) read once per scrape (`collect()`), never on a request;
 * - the database pool (PostgreSQL) or the write queue and the search threads (SQLite), and the process itself (CPU,
 *   memory, event loop).
 * The database figures are the same whichever process reports them, so across processes they are aggregated by
 * max, not summed (api/server.ts, SERVER_PROCESSES).
 */
import { timingSafeEqual } from 'node:crypto';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { sql } from 'kysely';
import { rawHandlesOf, type Db, type Dialect } from '../../db/client.ts';
import type { SearchThreads } from '../search/threads.ts';
import { isReplicaSearch } from '../search/replica.ts';

export const METRICS_PREFIX = 'marketplace_';

/** The checkouts gauge counts those changed this recently (an index range, however many checkouts there are). */
export const CHECKOUT_WINDOW_SECONDS = 3600;
const CHECKOUT_STATUSES = ['open', 'completed', 'abandoned'] as const;

/** Seconds: from a 5 ms page to a 10 s request (a slow provider call). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface Metrics {
  registry: Registry;
  /** One answered request: its route pattern (bounded), method, status and duration. */
  observeRequest(labels: { method: string; route: string; status: number }, seconds: number): void;
}

/** What the database holds that an operator watches, as of one moment. */
export interface DatabaseSnapshot {
  /** Checkouts by status (open, completed, abandoned) among those changed in the last CHECKOUT_WINDOW_SECONDS. */
  checkouts: Record<string, number>;
  /** Provider payments given back (no checkout could take them), ever. */
  refundedPayments: number;
  outbox: Record<string, number>;
  outboxDue: number;
  /** Seconds the longest-waiting due e-mail has waited for a worker (0: none waiting). */
  outboxOldestDueSeconds: number;
  pageChanges: number;
  /** Seconds since the oldest change the publisher has not yet finished was written (0: none). */
  publishLagSeconds: number;
  /** Seconds the longest-waiting free change has waited for a publisher to take it (0: none waiting). */
  publishOldestWaitingSeconds: number;
  spaceHolds: number;
  membershipCreditHolds: number;
  membershipsPastDue: number;
  renewalsFailed: number;
}

/** What the figures are read from (a part of the server's Deps). */
type SnapshotDeps = { db: Db; now(): number };

function byStatus(rows: Array<{ status: string; n: number | string | bigint }>): Record<string, number> {
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

const age = (now: number, since: number | string | null | undefined) => (since === null || since === undefined ? 0 : Math.max(0, now - Number(since)));

/**
 * The oldest e-mail due and not held by a live worker, and how long it has waited: since it fell due or since
 * the last lease on it ran out, whichever is later. A message retried later (its mail server refused it) is not
 * due meanwhile, so this measures a worker that does not run, not a mail server that fails.
 */
export async function outboxOldestDue(deps: SnapshotDeps, now: number): Promise<number> {
  const row = await deps.db.selectFrom('outbox_messages')
    .select(sql<number | null>`min(case when lease_until is not null and lease_until > next_attempt_at then lease_until else next_attempt_at end)`.as('since'))
    .where('status', '=', 'pending').where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  return age(now, row?.since);
}

/**
 * The oldest change of the publisher's feed that no publisher holds, and how long it has waited: since it was
 * written or since the last claim on it ran out (a failed render is retried after a back-off, held meanwhile).
 */
export async function publishOldestWaiting(deps: SnapshotDeps, now: number): Promise<number> {
  const row = await deps.db.selectFrom('page_changes')
    .select(sql<number | null>`min(case when claimed_until is not null and claimed_until > created_at then claimed_until else created_at end)`.as('since'))
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .executeTakeFirst();
  return age(now, row?.since);
}

export async function readSnapshot(deps: SnapshotDeps): Promise<DatabaseSnapshot> {
  const now = deps.now();
  const { db } = deps;
  const count = sql<number>`count(*)`.as('n');
  const [checkouts, refunded, outbox, outboxDue, outboxOldest, feed, publishWaiting, spaceHolds, creditHolds, pastDue, failed] = await Promise.all([
    db.selectFrom('checkouts').select(['status', count]).where('status', 'in', [...CHECKOUT_STATUSES]).where('updated_at', '>=', now - CHECKOUT_WINDOW_SECONDS)
      .groupBy('status').execute(),
    db.selectFrom('checkout_payments').select(count).where('status', '=', 'refunded').executeTakeFirst(),
    // 'sent' is every message ever sent: counting it would read the whole table on every scrape.
    db.selectFrom('outbox_messages').select(['status', count]).where('status', 'in', ['pending', 'dead']).groupBy('status').execute(),
    db.selectFrom('outbox_messages').select(count).where('status', '=', 'pending').where('next_attempt_at', '<=', now).executeTakeFirst(),
    outboxOldestDue(deps, now),
    db.selectFrom('page_changes').select([count, sql<number | null>`min(created_at)`.as('oldest')]).executeTakeFirst(),
    publishOldestWaiting(deps, now),
    db.selectFrom('space_holds').select(count).where('status', '=', 'held').where('expires_at', '>', now).executeTakeFirst(),
    db.selectFrom('membership_credit_holds').select(count).where('status', '=', 'held').where('expires_at', '>', now).executeTakeFirst(),
    db.selectFrom('memberships').select(count).where('status', '=', 'past_due').executeTakeFirst(),
    db.selectFrom('membership_payments').select(count).where('status', '=', 'failed').where('kind', '=', 'renewal').executeTakeFirst(),
  ]);
  return {
    checkouts: byStatus(checkouts),
    refundedPayments: Number(refunded?.n ?? 0),
    outbox: { pending: 0, dead: 0, ...byStatus(outbox) },
    outboxDue: Number(outboxDue?.n ?? 0),
    outboxOldestDueSeconds: outboxOldest,
    pageChanges: Number(feed?.n ?? 0),
    publishLagSeconds: age(now, feed?.oldest),
    publishOldestWaitingSeconds: publishWaiting,
    spaceHolds: Number(spaceHolds?.n ?? 0),
    membershipCreditHolds: Number(creditHolds?.n ?? 0),
    membershipsPastDue: Number(pastDue?.n ?? 0),
    renewalsFailed: Number(failed?.n ?? 0),
  };
}

/**
 * One read of the database per scrape, shared by every gauge: a scrape starts every metric's collect() at once, so
 * they all find the read in flight; the next scrape reads afresh.
 */
function sharedSnapshot(deps: SnapshotDeps): () => Promise<DatabaseSnapshot | null> {
  let inFlight: Promise<DatabaseSnapshot | null> | null = null;
  return (): Promise<DatabaseSnapshot | null> => {
    inFlight ??= readSnapshot(deps).catch(() => null).finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}

/** The gauges read from the database at scrape time, and whether it could be read. */
function registerDatabaseGauges(registry: Registry, snapshot: () => Promise<DatabaseSnapshot | null>): void {
  new Gauge({
    name: `${METRICS_PREFIX}metrics_database_up`,
    help: '1 when the last scrape could read the database\u2019s figures, 0 when it could not (the gauges below are then absent).',
    aggregator: 'min',
    registers: [registry],
    async collect() {
      this.set((await snapshot()) ? 1 : 0);
    },
  });

  /** A gauge set from the snapshot at scrape time; absent when the database could not be read. */
  const fromSnapshot = <L extends string>(name: string, help: string, labelNames: readonly L[], set: (g: Gauge<L>, s: DatabaseSnapshot) => void) =>
    new Gauge<L>({
      name: `${METRICS_PREFIX}${name}`,
      help,
      labelNames,
      aggregator: 'max',
      registers: [registry],
      async collect() {
        const s = await snapshot();
        this.reset();
        if (s) set(this, s);
      },
    });

  fromSnapshot('checkouts_last_hour', 'Checkouts changed in the last hour by where they stand: open (learners still in them), completed, abandoned.', ['status'], (g, s) => {
    for (const status of CHECKOUT_STATUSES) g.set({ status }, s.checkouts[status] ?? 0);
  });
  fromSnapshot('checkout_payments_refunded', 'Provider payments given back because no checkout could take them (sold out meanwhile, a late or duplicate payment), ever: increase() gives a period\u2019s.', [], (g, s) => g.set(s.refundedPayments));
  fromSnapshot('outbox_messages', 'E-mails in the outbox waiting to be sent (pending) or given up on (dead).', ['status'], (g, s) => {
    for (const [status, n] of Object.entries(s.outbox)) g.set({ status }, n);
  });
  fromSnapshot('outbox_due_messages', 'E-mails due to be sent now.', [], (g, s) => g.set(s.outboxDue));
  fromSnapshot('outbox_oldest_due_age_seconds', 'How long the longest-waiting due e-mail has waited for a worker (0: none).', [], (g, s) => g.set(s.outboxOldestDueSeconds));
  fromSnapshot('publish_pending_changes', 'Rows of the pages\u2019 change feed not yet published.', [], (g, s) => g.set(s.pageChanges));
  fromSnapshot('publish_lag_seconds', 'Age of the oldest change not yet published: how stale a page may be (0: none).', [], (g, s) => g.set(s.publishLagSeconds));
  fromSnapshot('publish_oldest_waiting_seconds', 'How long the longest-waiting free change has waited for a publisher to take it (0: none).', [], (g, s) => g.set(s.publishOldestWaitingSeconds));
  fromSnapshot('holds_active', 'Holds in force: spaces held while learners pay, membership credits held likewise.', ['kind'], (g, s) => {
    g.set({ kind: 'spaces' }, s.spaceHolds);
    g.set({ kind: 'membership_credit' }, s.membershipCreditHolds);
  });
  fromSnapshot('memberships_past_due', 'Memberships whose renewal failed and will be tried again (benefits paused).', [], (g, s) => g.set(s.membershipsPastDue));
  fromSnapshot('membership_renewals_failed', 'Failed renewal attempts ever recorded: increase() gives a period\u2019s failures.', [], (g, s) => g.set(s.renewalsFailed));
}

/** The database's connections, read from the pool (or the write queue) at scrape time. */
function registerConnectionGauges(registry: Registry, deps: SnapshotDeps & { dialect: Dialect }): void {
  const handles = rawHandlesOf(deps.db);
  if (deps.dialect === 'postgres' && handles?.pgPool) {
    const pool = handles.pgPool;
    new Gauge({
      name: `${METRICS_PREFIX}db_pool_connections`,
      help: 'PostgreSQL pool: connections open (total), idle, and requests waiting for one (waiting).',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }
  if (deps.dialect === 'sqlite' && handles?.sqliteWriteQueue) {
    const queue = handles.sqliteWriteQueue;
    new Gauge({
      name: `${METRICS_PREFIX}db_write_queue_waiting`,
      help: 'SQLite: writes of this process waiting for its single writer (a transaction or statement in progress holds it).',
      registers: [registry],
      collect() {
        this.set(queue.waiting());
      },
    });
  }
}

/** The search threads (api/search/threads.ts): how many run, how many searches they answered, and PostgreSQL's replica. */
function registerSearchThreadGauges(registry: Registry, threads: SearchThreads): void {
  new Gauge({
    name: `${METRICS_PREFIX}search_threads`,
    help: 'Search threads running in this process (fewer than SEARCH_THREADS while one is being started again).',
    registers: [registry],
    collect() {
      this.set(threads.workers.length);
    },
  });
  if (isReplicaSearch(threads)) {
    new Gauge({
      name: `${METRICS_PREFIX}search_replica_ready`,
      help: 'PostgreSQL: 1 while the search replica answers searches; 0 while it is being made or is behind (PostgreSQL answers them).',
      registers: [registry],
      collect() {
        this.set(threads.ready ? 1 : 0);
      },
    });
    new Gauge({
      name: `${METRICS_PREFIX}search_replica_lag_seconds`,
      help: 'PostgreSQL: seconds since the search replica last read the feed (a write waits at most this long to be searchable).',
      registers: [registry],
      // SERVER_PROCESSES: the process furthest behind (a sum of lags means nothing).
      aggregator: 'max',
      collect() {
        const lag = threads.lagSeconds;
        if (lag !== null) this.set(lag);
      },
    });
  }
  new Gauge({
    name: `${METRICS_PREFIX}search_thread_answers`,
    help: 'Searches a search thread answered since the process started (the others ran on the event loop, or on PostgreSQL): rate() gives the pace.',
    registers: [registry],
    collect() {
      this.set(threads.answered);
    },
  });
}

export function createMetrics(deps: SnapshotDeps & { dialect: Dialect; searchThreads?: SearchThreads }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: METRICS_PREFIX });

  const requests = new Histogram({
    name: `${METRICS_PREFIX}http_request_duration_seconds`,
    help: 'Time from a request\u2019s arrival to its answer, by route pattern, method and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  // The pool is read before the scrape's own queries ask it for connections (a registry collects in the order its
  // metrics were registered): otherwise the scrape would count its own reads as requests waiting.
  registerConnectionGauges(registry, deps);
  registerDatabaseGauges(registry, sharedSnapshot(deps));
  if (deps.searchThreads) registerSearchThreadGauges(registry, deps.searchThreads);

  return {
    registry,
    observeRequest({ method, route, status }, seconds) {
      requests.observe({ method, route, status: String(status) }, seconds);
    },
  };
}

/** The bearer token of a metrics request matches METRICS_TOKEN (in constant time). */
export function metricsTokenMatches(header: string | undefined, token: string): boolean {
  if (!token || !header) return false;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
