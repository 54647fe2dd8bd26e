/**
 * Starts the product: one Node process serving the built site, on-demand pages and the JSON API.
 *   npx tsx api/server.ts            (after `astro build`; see README)
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { loadConfig, type Config } from './config.ts';
import { createApp, type AstroHandler } from './app.ts';
import { openDb, dialectOf } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { loggerFor } from './log.ts';
import { Workers } from './background.ts';
import { describePayments } from './payments/registry.ts';
import { holdSweeperJob } from './checkout/hold-sweeper.ts';
import { paymentReconcilerJob } from './checkout/reconciler.ts';

export async function startServer(config: Config = loadConfig()) {
  const db = openDb({ url: config.DATABASE_URL });
  await migrateToLatest(db);
  const entry = resolve(config.DIST_DIR, 'server/entry.mjs');
  let astro: AstroHandler | undefined;
  if (existsSync(entry)) {
    const mod = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
    astro = mod.handler;
  } else if (config.LOG_LEVEL !== 'silent') {
    console.warn(`No built site at ${entry}: run \`npm run build\` first. Serving the API only.`);
  }
  const deps = { db, dialect: dialectOf(config.DATABASE_URL), config, now: () => Math.floor(Date.now() / 1000) };
  const app = createApp(deps, { astro });
  const log = loggerFor(config);
  // Which payment methods are live, and who takes them: a live site must never find out from a booking.
  log.info('payments', describePayments(config));
  // Background work (DESIGN 11): lapsed holds released, unsettled provider payments reconciled.
  const workers = new Workers(log);
  workers.start(holdSweeperJob(deps));
  workers.start(paymentReconcilerJob(deps));
  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.BIND_HOST, overrideGlobalObjects: false });
  await new Promise<void>((ok) => server.once('listening', () => ok()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  return {
    port,
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
    async close() {
      await workers.stopAll();
      await new Promise<void>((ok) => server.close(() => ok()));
      await db.destroy();
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const config = loadConfig();
  const server = await startServer(config);
  const { port } = server;
  const host = config.PUBLIC_HOST.replace(/:\d+$/, '');
  const origin = (h: string) => `${config.PUBLIC_PROTOCOL}://${h}:${port}`;
  console.log(`Marketplace ready on ${origin(host)}`);
  console.log(`  health:      ${origin(host)}/api/health`);
  const sample = await server.sampleEducatorSlug();
  if (sample) {
    console.log(`  marketplace: ${origin(host)}/${sample}`);
    console.log(`  minisite:    ${origin(`${sample}.${host}`)}/`);
    console.log(`  embed:       ${origin(host)}/embed/${sample}`);
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
}
