/**
 * Starts the product: one Node process serving the built site, on-demand pages and the JSON API.
 *   npm run serve            node dist-server/server.mjs (compiled by `npm run build`)
 *   npx tsx api/server.ts    the same from the TypeScript sources (development)
 *
 * SIGTERM or SIGINT stops it cleanly: no new connections, requests in flight answered (up to
 * SHUTDOWN_TIMEOUT_SECONDS), background workers stopped after their current pass, the database closed.
 */
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { loadConfig, type Config } from './config.ts';
import { createApp, type AstroHandler } from './app.ts';
import { loggerFor, type Logger } from './log.ts';
import { Workers } from './background.ts';
import { openDb, dialectOf } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { describePayments } from './payments/registry.ts';
import { backgroundJobs } from './jobs.ts';

export async function startServer(config: Config = loadConfig(), options: { log?: Logger } = {}) {
  const log = options.log ?? loggerFor(config);
  const db = openDb({ url: config.DATABASE_URL, busyWaitMs: config.SQLITE_BUSY_WAIT_MS });
  await migrateToLatest(db);
  const entry = resolve(config.DIST_DIR, 'server/entry.mjs');
  let astro: AstroHandler | undefined;
  if (existsSync(entry)) {
    const mod = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
    astro = mod.handler;
  } else {
    log.info(`No built site at ${entry}: run \`npm run build\` first. Serving the API only.`);
  }
  const deps = { db, dialect: dialectOf(config.DATABASE_URL), config, now: () => Math.floor(Date.now() / 1000) };
  const app = createApp(deps, { astro });
  // Which payment methods are live, and who takes them: a live site must never find out from a booking.
  log.info('payments', describePayments(config));
  // Background jobs (outbox, publisher, reconciler…) are started on this and stopped on shutdown.
  const workers = new Workers(log);
  for (const job of backgroundJobs(deps)) workers.start(job);
  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.BIND_HOST, overrideGlobalObjects: false }) as Server;
  await new Promise<void>((ok) => server.once('listening', () => ok()));
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
      await workers.stopAll();
      await db.destroy();
      return inTime;
    })());

  return {
    port,
    workers,
    /** A claimed educator with published courses, for the addresses printed at start-up. */
    async sampleEducatorSlug(): Promise<string | null> {
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
    },
    close,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const config = loadConfig();
  const log = loggerFor(config);
  const server = await startServer(config, { log });
  // Listening from here on, so a signal from now stops it cleanly.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log.info('stopping', { signal });
      // A second signal does not wait.
      process.once(signal, () => process.exit(1));
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
    });
  }
  const { port } = server;
  const host = config.PUBLIC_HOST.replace(/:\d+$/, '');
  const origin = (h: string) => `${config.PUBLIC_PROTOCOL}://${h}:${port}`;
  const sample = await server.sampleEducatorSlug().catch(() => null);
  log.info(`Marketplace ready on ${origin(host)}`, {
    port,
    health: `${origin(host)}/api/health`,
    ...(sample ? { marketplace: `${origin(host)}/${sample}`, minisite: `${origin(`${sample}.${host}`)}/`, embed: `${origin(host)}/embed/${sample}` } : {}),
  });
}
