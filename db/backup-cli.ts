/**
 * Backups by hand (docs/operations.md):
 *   npm run backup                                   a checked backup of DATABASE_URL into BACKUP_DIR (or data/backups)
 *   npm run backup -- --dir <folder> [--keep <n>]    into another folder; --keep removes all but the newest n there
 *   npm run backup -- --verify <backup>              checks a backup against its manifest (sha256, integrity, counts)
 *   npm run restore -- <backup> [--to <file or postgres://…>] [--force]
 *                                                    restores into a new database (default: DATABASE_URL), checked
 * A SQLite backup is taken while the server runs and writes; so is a PostgreSQL one (pg_dump on PATH).
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { nextSteps, pruneBackups, redactUrl, restoreBackup, RestoreRefused, takeBackup, verifyBackup } from './backup.ts';

const DEFAULT_DIR = 'data/backups';

const backupArgs = z.strictObject({
  dir: z.string().min(1).optional(),
  keep: z.coerce.number().int().min(1).optional(),
  verify: z.string().min(1).optional(),
});
const restoreArgs = z.strictObject({
  to: z.string().min(1).optional(),
  force: z.boolean().optional(),
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function parsed<T>(schema: z.ZodType<T>, values: unknown, usage: string): T {
  const result = schema.safeParse(values);
  if (!result.success) fail(`${result.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('\n')}\n${usage}`);
  return result.data;
}

const BACKUP_USAGE = 'usage: npm run backup [-- --dir <folder>] [--keep <n>] | npm run backup -- --verify <backup>';
const RESTORE_USAGE = 'usage: npm run restore -- <backup> [--to <file or postgres://…>] [--force]';

const [command, ...rest] = process.argv.slice(2);
const databaseUrl = process.env.DATABASE_URL || 'data/marketplace.sqlite';
const count = (tables: Record<string, number>) => Object.values(tables).reduce((a, b) => a + b, 0);

try {
  if (command === 'backup') {
    const { values, positionals } = parseArgs({ args: rest, options: { dir: { type: 'string' }, keep: { type: 'string' }, verify: { type: 'string' } }, strict: true, allowPositionals: true });
    if (positionals.length) fail(BACKUP_USAGE);
    const args = parsed(backupArgs, values, BACKUP_USAGE);
    if (args.verify) {
      const { manifest, migrations } = await verifyBackup(args.verify);
      console.log(`${args.verify}: sound (${manifest.engine}, sha256 matches, ${manifest.integrity === 'ok' ? 'integrity ok, row counts match' : 'every table listed'}): `
        + `${Object.keys(manifest.tables).length} tables, ${count(manifest.tables)} rows as of ${manifest.created_at}.`);
      if (migrations.unknown.length) console.log(`It was taken by newer code: migrations ${migrations.unknown.join(', ')} are unknown here.`);
    } else {
      const dir = args.dir ?? (process.env.BACKUP_DIR || DEFAULT_DIR);
      const started = performance.now();
      const { path, manifest } = await takeBackup({ url: databaseUrl, dir });
      console.log(`Backup of ${redactUrl(databaseUrl)} written to ${path} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      console.log(`  snapshot ${manifest.created_at}; ${Object.keys(manifest.tables).length} tables, ${count(manifest.tables)} rows; `
        + `${manifest.integrity === 'ok' ? 'integrity ok and row counts match the source' : 'pg_restore lists every table'}; sha256 ${manifest.sha256}`);
      console.log(`  manifest ${path}.json; restore with: npm run restore -- ${path} --to <new database>`);
      if (args.keep) {
        const removed = await pruneBackups(dir, args.keep);
        if (removed.length) console.log(`Removed ${removed.length} older backup(s), keeping ${args.keep}.`);
      }
    }
  } else if (command === 'restore') {
    const { values, positionals } = parseArgs({ args: rest, options: { to: { type: 'string' }, force: { type: 'boolean' } }, strict: true, allowPositionals: true });
    if (positionals.length !== 1) fail(RESTORE_USAGE);
    const args = parsed(restoreArgs, values, RESTORE_USAGE);
    const report = await restoreBackup(positionals[0], { to: args.to ?? databaseUrl, force: args.force });
    console.log(`Restored ${positionals[0]} into ${report.target}: ${Object.keys(report.manifest.tables).length} tables, ${report.rows} rows, `
      + `as of ${report.manifest.created_at}; sha256, ${report.engine === 'sqlite' ? 'integrity, ' : ''}row counts and migrations checked.`);
    console.log('Next:');
    for (const [i, step] of nextSteps(report).entries()) console.log(`  ${i + 1}. ${step}`);
  } else {
    fail(`${BACKUP_USAGE}\n${RESTORE_USAGE}`);
  }
} catch (error) {
  if (error instanceof RestoreRefused) fail(`Refused: ${error.message}`);
  fail(`Failed: ${(error as Error).message}`);
}
