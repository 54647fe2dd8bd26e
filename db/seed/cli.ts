/**
 * Demo catalogue loader.
 *
 *   npx tsx db/seed/cli.ts [--educators N] [--seed S] [--reset]
 *
 * Uses DATABASE_URL (postgres://…) or the SQLite file data/marketplace.sqlite. Migrates first.
 * Dates are relative to the start of the current UTC day, so reruns on one day give the same data.
 * Without --reset it refuses to load into a catalogue that already has educators.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_SQLITE_FILE, openDb } from '../client.ts';
import { migrateToLatest } from '../migrate.ts';
import { DEFAULT_EDUCATORS, DEFAULT_SEED, todayAnchor } from './generate.ts';
import { isCatalogueEmpty, loadCatalogue, resetCatalogue } from './load.ts';

function integer(name: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) {
    console.error(`--${name} must be a whole number of at least ${min}, got "${text}"`);
    process.exit(2);
  }
  return value;
}

const { values } = parseArgs({
  options: {
    educators: { type: 'string' },
    seed: { type: 'string' },
    reset: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log('Usage: npx tsx db/seed/cli.ts [--educators N] [--seed S] [--reset]');
  process.exit(0);
}
const educators = integer('educators', values.educators, DEFAULT_EDUCATORS, 0);
const seed = integer('seed', values.seed, DEFAULT_SEED, Number.MIN_SAFE_INTEGER);
const url = process.env.DATABASE_URL || DEFAULT_SQLITE_FILE;
const where = /^postgres(ql)?:\/\//.test(url) ? 'PostgreSQL' : `SQLite ${url}`;

const db = openDb({ url });
let exitCode = 0;
try {
  const applied = await migrateToLatest(db);
  if (applied.length) console.log(`Migrations applied: ${applied.join(', ')}`);
  if (values.reset) {
    const t = performance.now();
    await resetCatalogue(db);
    console.log(`Catalogue emptied in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  } else if (!(await isCatalogueEmpty(db))) {
    console.error('The catalogue already has educators: run again with --reset to replace it.');
    exitCode = 1;
  }
  if (exitCode === 0) {
    const now = todayAnchor();
    console.log(`Loading ${educators} educators (seed ${seed}, now ${new Date(now * 1000).toISOString()}) into ${where}…`);
    const tty = process.stderr.isTTY;
    const result = await loadCatalogue(db, {
      seed,
      educators,
      now,
      onProgress: (p) => {
        const line = `  ${p.educators}/${p.total} educators, ${p.rows} rows, ${p.seconds.toFixed(1)} s`;
        if (tty) process.stderr.write(`\r${line}`);
        else if (p.educators === p.total || p.educators % 2000 === 0) console.error(line);
      },
    });
    if (tty) process.stderr.write('\n');
    const width = Math.max(...Object.keys(result.counts).map((k) => k.length));
    for (const [table, count] of Object.entries(result.counts)) console.log(`  ${table.padEnd(width)}  ${count}`);
    console.log(`Loaded ${result.rows} rows in ${result.seconds.toFixed(1)} s`);
  }
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await db.destroy();
}
process.exit(exitCode);
