/**
 * Runs the payment reconciler once, until it finds nothing more to settle (the server runs it continuously):
 *   npm run reconcile
 */
import { loadConfig } from './config.ts';
import { openDb, dialectOf } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { loggerFor } from './log.ts';
import { drain } from './background.ts';
import { paymentReconcilerJob } from './checkout/reconciler.ts';

const config = loadConfig();
const db = openDb({ url: config.DATABASE_URL });
await migrateToLatest(db);
const deps = { db, dialect: dialectOf(config.DATABASE_URL), config, now: () => Math.floor(Date.now() / 1000) };
const checked = await drain(paymentReconcilerJob(deps));
loggerFor(config).info('payments reconciled', { checked });
await db.destroy();
