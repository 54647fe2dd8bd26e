/**
 * A server process (run with `node --import tsx`) that dies by SIGKILL the instant a transaction that recorded a
 * membership has committed: nothing after the commit runs (no follow-up of the checkout, no background job, no
 * answer to the request). It stands for a machine that loses power between commit and send.
 *
 *   TEST_DB_URL, TEST_DB_SCHEMA (optional, PostgreSQL), PORT
 *
 * Prints `listening` once it answers. Runs no background jobs (the e-mail worker never runs here).
 */
import { sql } from 'kysely';
import type { Deps } from '../../api/deps.ts';
import { createApp } from '../../api/app.ts';
import { listen } from '../../api/http/node-server.ts';
import { loadConfig } from '../../api/config.ts';
import { openDb, dialectOf } from '../../db/client.ts';

const url = process.env.TEST_DB_URL ?? '';
const schema = process.env.TEST_DB_SCHEMA || undefined;
const port = Number(process.env.PORT);
const db = openDb({ url, schema });

const transaction = db.transaction.bind(db);
db.transaction = () => {
  const builder = transaction();
  const execute = builder.execute.bind(builder);
  builder.execute = (async (work: Parameters<typeof execute>[0]) => {
    const result = await execute(work);
    // Committed: if a membership now exists, die before anything else of this process runs.
    const found = await sql<{ n: number }>`select count(*) as n from memberships`.execute(db);
    if (Number(found.rows[0]?.n ?? 0) > 0) process.kill(process.pid, 'SIGKILL');
    return result;
  }) as typeof builder.execute;
  return builder;
};

const config = loadConfig({ LOG_LEVEL: 'silent', PUBLIC_HOST: 'localhost', DIST_DIR: 'dist', DATABASE_URL: url });
const deps: Deps = { db, dialect: dialectOf(url), config, now: () => Math.floor(Date.now() / 1000) };
await listen(createApp(deps), port, '127.0.0.1');
process.stdout.write('listening\n');
