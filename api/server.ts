/**
 * Starts the product: one Node process serving the built site, on-demand pages and the JSON API.
 *   npm run serve            node dist-server/server.mjs (compiled by `npm run build`)
 *   npx tsx api/server.ts    the same from the TypeScript sources (development)
 *
 * SIGTERM or SIGINT stops it cleanly: no new connections, requests in flight answered (up to
 * SHUTDOWN_TIMEOUT_SECONDS), background workers stopped after their current pass, the database closed.
 *
 * SERVER_PROCESSES=n (opt-in, default 1) serves from n processes on one port (node:cluster), to use every
 * core: the server keeps no state of its own (sessions, rate limits, holds and job leases live in the
 * database). The first process migrates the database and forks the others; only one of them runs the
 * background jobs; a process that dies is replaced; SIGTERM or SIGINT drains every one of them, then exits.
 */
import cluster, { type Worker } from 'node:cluster';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { loadConfig, type Config } from './config.ts';
import type { AstroHandler } from './deps.ts';
import { createApp } from './app.ts';
import { listen } from './http/node-server.ts';
import { loggerFor, type Logger } from './log.ts';
import { Workers } from './background.ts';
import { openDb, dialectOf, type Db } from '../db/client.ts';
import { defaultSearchThreads, startSearchThreads, type SearchThreads } from './search/threads.ts';
import { followHostedReplica, startReplicaSearch } from './search/replica.ts';
import { hostReplica, type ReplicaHost } from './search/replica-host.ts';
import { storeComputedCards } from '../db/queries/search.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { importUploadsDir } from './admin/uploads.ts';
import { describePayments } from './payments/registry.ts';
import { backgroundJobs } from './jobs.ts';
import { listeningSessionCache } from './auth/session-cache.ts';
import type { SessionRows } from './auth/sessions.ts';
import { createFeedSignal } from './publish/feed-signal.ts';
import { createMetrics } from './ops/metrics.ts';
import { clusterReader, offerToCluster, registryReader, serveMetrics } from './ops/metrics-server.ts';

/** A claimed educator with published courses, for the addresses printed at start-up. */
async function sampleEducatorSlug(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom('educators as e')
    .innerJoin('courses as c', 'c.educator_id', 'e.id')
    .select('e.slug')
    .where('e.claimed', '=', true)
    .where('c.published', '=', true)
    .orderBy('e.id')
    .limit(1)
    .executeTakeFirst();
  return row?.slug ?? null;
}

/**
 * The threads that answer searches beside the event loop (SEARCH_THREADS): on SQLite reading its file, on PostgreSQL
 * reading this server's search replica (SEARCH_REPLICA).
 */
export function searchThreadsFor(config: Config, db: Db, log: Logger): SearchThreads | undefined {
  const url = config.DATABASE_URL;
  const threads = config.SEARCH_THREADS ?? defaultSearchThreads(availableParallelism(), serverProcesses());
  if (threads === 0) return undefined;
  if (dialectOf(url) === 'postgres') {
    if (config.SEARCH_REPLICA === 'off') return undefined;
    // A serving process of SERVER_PROCESSES reads the replica its primary makes for the machine (runPrimary).
    if (cluster.isWorker && process.env.SEARCH_REPLICA_HOSTED === '1') return followHostedReplica({ threads, busyWaitMs: config.SQLITE_BUSY_WAIT_MS, log });
    return startReplicaSearch({
      db, dir: config.SEARCH_REPLICA_DIR, threads, pollMs: config.SEARCH_REPLICA_POLL_MS, busyWaitMs: config.SQLITE_BUSY_WAIT_MS, log,
    });
  }
  if (url.endsWith(':memory:')) return undefined;
  return startSearchThreads({
    url, threads, busyWaitMs: config.SQLITE_BUSY_WAIT_MS,
    storeCards: (cards, now) => storeComputedCards(db, cards, now),
    onError: (error) => log.error('a search thread stopped; it is started again', { error: error.message }),
  });
}

export async function startServer(config: Config = loadConfig(), options: { log?: Logger; backgroundJobs?: boolean } = {}) {
  const log = options.log ?? loggerFor(config);
  const db = openDb({ url: config.DATABASE_URL, busyWaitMs: config.SQLITE_BUSY_WAIT_MS, backgroundCheckpoints: true });
  await migrateToLatest(db);
  const entry = resolve(config.DIST_DIR, 'server/entry.mjs');
  let astro: AstroHandler | undefined;
  if (existsSync(entry)) {
    const mod = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
    astro = mod.handler;
  } else {
    log.info(`No built site at ${entry}: run \`npm run build\` first. Serving the API only.`);
  }
  const base = {
    db,
    dialect: dialectOf(config.DATABASE_URL),
    config,
    now: () => Math.floor(Date.now() / 1000),
    feedSignal: createFeedSignal(),
    // PostgreSQL: sessions resolved without a round trip, kept right by the database's notices.
    sessionCache: config.SESSION_CACHE ? listeningSessionCache<SessionRows>(db) : undefined,
    searchThreads: searchThreadsFor(config, db, log),
  };
  const deps = { ...base, metrics: createMetrics(base) };
  // Logos and covers an earlier version kept in a folder: into the database, before the first request asks for one.
  const imported = await importUploadsDir(deps, config.UPLOADS_DIR);
  if (imported > 0) log.info('uploaded images read into the database', { images: imported, from: config.UPLOADS_DIR });
  const app = createApp(deps, { astro });
  // METRICS_PORT: this process's metrics on a port of their own; in a cluster the primary serves them all.
  const metricsServer = config.METRICS_PORT && !cluster.isWorker
    ? await serveMetrics(config.METRICS_PORT, config.METRICS_BIND_HOST, registryReader(deps.metrics.registry))
    : null;
  if (cluster.isWorker) offerToCluster(deps.metrics.registry);
  // Which payment methods are live, and who takes them: a live site must never find out from a booking.
  log.info('payments', describePayments(config));
  // Background jobs (outbox, publisher, reconciler…) are started on this and stopped on shutdown.
  const workers = new Workers(log);
  if (options.backgroundJobs ?? true) {
    const jobs = backgroundJobs(deps);
    for (const job of jobs) workers.start(job);
    log.info('background jobs started', { jobs: jobs.map((job) => job.name) });
  }
  const server = await listen(app, config.PORT, config.BIND_HOST);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;

  // Requests not yet answered, so shutdown can wait for them.
  let inFlight = 0;
  let drained: (() => void) | null = null;
  let closing: Promise<boolean> | null = null;
  server.on('request', (_req, res) => {
    inFlight++;
    res.once('close', () => {
      // While stopping, a keep-alive connection is closed as soon as its answer is out.
      if (closing) server.closeIdleConnections();
      if (--inFlight === 0) drained?.();
    });
  });

  /** Stops accepting, answers what is in flight, stops the workers, closes the database. True when all drained in time. */
  const close = (timeoutMs = config.SHUTDOWN_TIMEOUT_SECONDS * 1000): Promise<boolean> =>
    (closing ??= (async () => {
      const stopped = new Promise<void>((ok) => server.close(() => ok()));
      // Keep-alive connections with nothing in flight go now; the others once their answer is sent.
      server.closeIdleConnections();
      const allAnswered = inFlight === 0 ? Promise.resolve() : new Promise<void>((ok) => (drained = ok));
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<boolean>((ok) => (timer = setTimeout(() => ok(false), timeoutMs)));
      const inTime = await Promise.race([allAnswered.then(() => true), timedOut]);
      clearTimeout(timer);
      if (!inTime) log.error('shutdown: requests still in flight after the timeout, closing their connections', { inFlight, timeoutMs });
      server.closeAllConnections();
      await stopped;
      if (metricsServer) await new Promise<void>((ok) => metricsServer.close(() => ok()));
      await workers.stopAll();
      await deps.searchThreads?.close();
      await deps.sessionCache?.close();
      await db.destroy();
      return inTime;
    })());

  return {
    port,
    workers,
    /** A claimed educator with published courses, for the addresses printed at start-up. */
    sampleEducatorSlug(): Promise<string | null> {
      return sampleEducatorSlug(db);
    },
    close,
  };
}

/** SERVER_PROCESSES: how many processes serve (1: this one alone). */
export function serverProcesses(env: NodeJS.ProcessEnv = process.env): number {
  const parsed = z.coerce.number().int().min(1).max(64).default(1).safeParse(env.SERVER_PROCESSES || undefined);
  if (!parsed.success) throw new Error(`SERVER_PROCESSES must be a whole number from 1 to 64 (got ${env.SERVER_PROCESSES})`);
  return parsed.data;
}

/** Where the marketplace answers, with a sample educator's pages, for the start-up line. */
async function readyFields(config: Config, port: number, sampleEducatorSlug: () => Promise<string | null>) {
  const host = config.PUBLIC_HOST.replace(/:\d+$/, '');
  const origin = (h: string) => `${config.PUBLIC_PROTOCOL}://${h}:${port}`;
  const sample = await sampleEducatorSlug().catch(() => null);
  return {
    msg: `Marketplace ready on ${origin(host)}`,
    fields: {
      port,
      // Which Node serves: the project brings its own (npm's node package), and a deployer checks it here.
      node: process.version,
      health: `${origin(host)}/api/health`,
      ...(sample ? { marketplace: `${origin(host)}/${sample}`, minisite: `${origin(`${sample}.${host}`)}/`, embed: `${origin(host)}/embed/${sample}` } : {}),
    },
  };
}

/** One process serving (alone, or as a cluster worker told by its primary whether it runs the background jobs). */
async function runServer(config: Config, log: Logger): Promise<void> {
  const worker = cluster.isWorker;
  // A worker may be asked to stop while it is still starting (the primary stopping as a replacement comes
  // up): the request is heard from the start and honoured once the server runs.
  let asked: Record<string, unknown> | null = null;
  let stop = (reason: Record<string, unknown>) => {
    asked ??= reason;
  };
  if (worker) {
    // The primary asks by message, not by signal: a signal sent to the whole process group as well would
    // otherwise count as a second one and cut the drain short.
    process.on('message', (message: unknown) => {
      if ((message as { type?: unknown } | null)?.type === 'shutdown') stop({ by: 'primary' });
    });
  }
  const server = await startServer(config, { log, backgroundJobs: !worker || process.env.SERVER_WORKER_JOBS === '1' });
  let stopping = false;
  stop = (reason: Record<string, unknown>) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping', reason);
    server.close().then(
      (inTime) => {
        log.info('stopped', { drained: inTime });
        process.exit(inTime ? 0 : 1);
      },
      (error) => {
        log.error('shutdown failed', { error });
        process.exit(1);
      },
    );
  };
  // Listening from here on, so a signal from now stops it cleanly.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      // A second signal does not wait.
      process.once(signal, () => process.exit(1));
      stop({ signal });
    });
  }
  if (asked) stop(asked);
  if (worker) return;
  const { msg, fields } = await readyFields(config, server.port, () => server.sampleEducatorSlug());
  log.info(msg, fields);
}

/**
 * The primary of SERVER_PROCESSES: migrates, forks the serving processes (the first one runs the background
 * jobs), replaces any that dies, and on SIGTERM/SIGINT asks every one to drain and exits when all have.
 */
async function runPrimary(config: Config, log: Logger, processes: number): Promise<void> {
  const db = openDb({ url: config.DATABASE_URL, busyWaitMs: config.SQLITE_BUSY_WAIT_MS });
  let sampleSlug: string | null = null;
  let host: ReplicaHost | null = null;
  try {
    await migrateToLatest(db);
    sampleSlug = await sampleEducatorSlug(db).catch(() => null);
    // PostgreSQL: one search replica for the machine, made here and read by every serving process.
    const threads = config.SEARCH_THREADS ?? defaultSearchThreads(availableParallelism(), processes);
    if (dialectOf(config.DATABASE_URL) === 'postgres' && config.SEARCH_REPLICA !== 'off' && threads > 0) {
      host = hostReplica({ db, dir: config.SEARCH_REPLICA_DIR, pollMs: config.SEARCH_REPLICA_POLL_MS, log });
    }
  } finally {
    // The replica's thread has its own connections; this one is no longer needed.
    await db.destroy();
  }
  let stopping = false;
  let failed = false;
  const live = new Set<Worker>();
  const exit = (code: number) => void (host?.close() ?? Promise.resolve()).finally(() => process.exit(code));
  const fork = (jobs: boolean) => {
    const worker = cluster.fork({ SERVER_WORKER_JOBS: jobs ? '1' : '0', SEARCH_REPLICA_HOSTED: host ? '1' : '0' });
    let listening = false;
    worker.once('listening', () => (listening = true));
    live.add(worker);
    worker.once('exit', (code, signal) => {
      live.delete(worker);
      // Only the drain decides the exit status: a process that died earlier was replaced.
      if (stopping && code !== 0) failed = true;
      if (stopping) {
        if (live.size === 0) exit(failed ? 1 : 0);
        return;
      }
      log.error('server process exited', { pid: worker.process.pid, code, signal, backgroundJobs: jobs });
      // One that never came up (bad configuration, port taken) would only fail again: stop everything.
      if (!listening) {
        failed = true;
        return shutdown({ reason: 'a server process failed to start' });
      }
      fork(jobs);
    });
  };
  const shutdown = (reason: Record<string, unknown>) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping', { ...reason, processes: live.size });
    if (live.size === 0) exit(1);
    for (const worker of live) worker.send({ type: 'shutdown' });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.once(signal, () => {
        for (const worker of live) worker.process.kill('SIGKILL');
        process.exit(1);
      });
      shutdown({ signal });
    });
  }
  let ready = 0;
  cluster.on('listening', (_worker, address) => {
    if (++ready !== processes) return;
    void readyFields(config, address.port, async () => sampleSlug).then(({ msg, fields }) => log.info(msg, { ...fields, processes }));
  });
  for (let i = 0; i < processes; i++) fork(i === 0);
  if (config.METRICS_PORT) {
    await serveMetrics(config.METRICS_PORT, config.METRICS_BIND_HOST, clusterReader());
    log.info('metrics', { url: `http://${config.METRICS_BIND_HOST}:${config.METRICS_PORT}/metrics`, processes });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const config = loadConfig();
  const log = loggerFor(config);
  const processes = serverProcesses();
  if (processes > 1 && cluster.isPrimary) await runPrimary(config, log, processes);
  else await runServer(config, log);
}
