/**
 * Brings the database up to date and loads the demo catalogue when it is empty.
 * Uses DATABASE_URL (PostgreSQL) or the SQLite file data/marketplace.sqlite.
 */
import { openDb } from './client.ts';
import { migrateToLatest } from './migrate.ts';
import { isCatalogueEmpty, loadCatalogue } from './seed/load.ts';

const db = openDb({ url: process.env.DATABASE_URL || undefined });
try {
  const applied = await migrateToLatest(db);
  if (applied.length) console.log(`Migrations applied: ${applied.join(', ')}`);
  if (await isCatalogueEmpty(db)) {
    const started = performance.now();
    const now = Math.floor(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) / 1000);
    await loadCatalogue(db, { seed: 1, educators: 30, now });
    console.log(`Demo catalogue loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } else {
    console.log('Catalogue present: kept as it is (npm run seed -- --reset to regenerate).');
  }
} finally {
  await db.destroy();
}
