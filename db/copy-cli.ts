/**
 * Copies the SQLite database into an empty PostgreSQL one, verifies it and says how to switch over (db/copy.ts):
 *   npm run db:copy -- --to postgres://user:password@host:5432/marketplace [--from data/marketplace.sqlite] [--batch 500]
 * The source is --from, else DATABASE_URL when it names a SQLite file, else data/marketplace.sqlite.
 * Exit status: 0 copied and verified; 1 refused (nothing written) or a table differs; 2 bad arguments.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { DEFAULT_SQLITE_FILE, dialectOf } from './client.ts';
import { CopyRefused, DEFAULT_BATCH_ROWS, copySqliteToPostgres, formatResults, switchOverSteps } from './copy.ts';

const USAGE = 'Usage: npm run db:copy -- --to postgres://user:password@host:5432/database [--from <sqlite file>] [--batch <rows>]';

const Args = z.strictObject({
  to: z.string({ error: 'is required' }).regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// URL'),
  from: z.string().min(1, 'is required').refine((v) => dialectOf(v) === 'sqlite', 'must be a SQLite file, not a PostgreSQL URL').optional(),
  batch: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_BATCH_ROWS),
});

function parse(argv: string[]): z.output<typeof Args> {
  const { values } = parseArgs({ args: argv, options: { to: { type: 'string' }, from: { type: 'string' }, batch: { type: 'string' } }, strict: true });
  const parsed = Args.safeParse(values);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `--${i.path.join('.')} ${i.message}`).join('\n'));
  return parsed.data;
}

/** The SQLite file to copy when --from is not given. */
function defaultSource(): string {
  const configured = process.env.DATABASE_URL;
  if (configured && dialectOf(configured) === 'postgres') {
    throw new Error('DATABASE_URL names a PostgreSQL database: give the SQLite file to copy with --from.');
  }
  return (configured || DEFAULT_SQLITE_FILE).replace(/^sqlite:(\/\/)?/, '');
}

async function main(): Promise<number> {
  let args: z.output<typeof Args>;
  let from: string;
  try {
    args = parse(process.argv.slice(2));
    from = args.from?.replace(/^sqlite:(\/\/)?/, '') ?? defaultSource();
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const started = performance.now();
  console.log(`Copying ${from} into PostgreSQL…`);
  try {
    const result = await copySqliteToPostgres({ from, to: args.to, batchRows: args.batch, log: (line) => console.log(line) });
    console.log(`\n${formatResults(result.tables)}\n`);
    for (const s of result.sequences) console.log(`Sequence ${s.sequence} continues after ${s.value}.`);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (!result.ok) {
      const bad = result.tables.filter((t) => !t.ok).map((t) => t.table);
      console.error(`\nThe copy differs from the source in ${bad.join(', ')}: do not switch over. Recreate the target empty and copy again.`);
      return 1;
    }
    console.log(`Copied and verified in ${seconds} s: every table has the same rows on both sides.\n`);
    console.log(switchOverSteps(from, args.to));
    return 0;
  } catch (error) {
    if (error instanceof CopyRefused) {
      console.error(`Refused: ${error.message}`);
      return 1;
    }
    console.error(`The copy failed: ${(error as Error).message}\nRecreate the target empty before copying again.`);
    return 1;
  }
}

process.exitCode = await main();
