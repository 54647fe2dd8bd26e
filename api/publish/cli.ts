/**
 * The publisher as its own process (the server runs one too unless PUBLISH_ENABLED=false):
 *   npm run publish              keeps publishing until SIGINT/SIGTERM
 *   npm run publish -- --once    publishes what the feed holds now, then exits
 * Several may run side by side (and beside servers): feed rows are claimed under a lease, never twice.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDb, dialectOf } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { loggerFor } from '../log.ts';
import { drain, startWorker } from '../background.ts';
import { publisherJob } from './publisher.ts';
import { publisherOf } from './job.ts';

const { values } = parseArgs({ options: { once: { type: 'boolean', default: false } } });
const config = loadConfig();
const log = loggerFor(config);
const db = openDb({ url: config.DATABASE_URL });
await migrateToLatest(db);
const deps = { db, dialect: dialectOf(config.DATABASE_URL), config, now: () => Math.floor(Date.now() / 1000) };
const publisher = publisherOf(deps);
if (values.once) {
  const rows = await drain(publisherJob(publisher));
  log.info('publish done', { rows });
  await publisher.close();
  await db.destroy();
} else {
  const worker = startWorker(publisherJob(publisher), log);
  log.info('publisher running', { dist: config.DIST_DIR, target: config.PUBLISH_TARGET || 'dist/client' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void worker.stop().then(async () => {
        await publisher.close();
        await db.destroy();
        process.exit(0);
      });
    });
  }
}
