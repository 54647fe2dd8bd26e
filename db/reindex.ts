/**
 * Rebuilds the course search index from the catalogue, for when it has drifted (rows written with the
 * triggers disabled, a restore of some tables only); the triggers keep it current otherwise:
 *   npm run db:reindex
 * Uses DATABASE_URL (PostgreSQL) or the SQLite file data/marketplace.sqlite.
 */
import { openDb } from './client.ts';
import { migrateToLatest } from './migrate.ts';
import { rebuildSearchIndex } from './queries/search.ts';

const db = openDb({ url: process.env.DATABASE_URL || undefined });
try {
  await migrateToLatest(db);
  const started = performance.now();
  await rebuildSearchIndex(db);
  console.log(`Search index rebuilt in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await db.destroy();
}
