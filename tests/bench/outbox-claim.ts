/**
 * npm run bench:outbox-claim — the outbox worker draining a burst: BENCH_MESSAGES (5,000) messages queued due at one
 * second, then sent by the worker's own sendDueMail (claim, send, record) through a transport that does nothing, so
 * what is timed is the worker's database work: with the due index as migration 0298 made it (status, next attempt,
 * id) and as it was before (status, next attempt). Prints the mean wall time a message (the database's work
 * included, PostgreSQL's backends too) over the whole burst and over its first 500. Figures only, no assertions on
 * time.
 *
 * Env: BENCH_ENGINES=sqlite,postgres  BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres (an admin
 * connection; a database of its own is created and dropped)  BENCH_MESSAGES=5000
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDb, type Db } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { queueMails } from '../../api/mail/index.ts';
import { sendDueMail } from '../../api/mail/worker.ts';
import { loadConfig } from '../../api/config.ts';
import type { Deps } from '../../api/deps.ts';
import { scratchPostgresDatabase } from './server-process.ts';

const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim()).filter(Boolean);
const PG_ADMIN = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5000);
const NOW = 1_800_000_000;

const INDEXES = {
  'status, next attempt, id (0298)': ['status', 'next_attempt_at', 'id'],
  'status, next attempt (before)': ['status', 'next_attempt_at'],
} as const;

async function measure(db: Db, dialect: 'sqlite' | 'postgres', columns: readonly string[]): Promise<{ all: number; first: number }> {
  await db.deleteFrom('outbox_messages').execute();
  await db.schema.dropIndex('outbox_messages_due').ifExists().execute();
  await db.schema.createIndex('outbox_messages_due').on('outbox_messages').columns([...columns]).execute();
  for (let i = 0; i < MESSAGES; i += 500) {
    const batch = Array.from({ length: Math.min(500, MESSAGES - i) }, (_, k) => ({ to: `burst-${i + k}@example.com`, subject: 'Burst', text: 'x' }));
    await db.transaction().execute((tx) => queueMails(tx, batch, { now: NOW }));
  }
  await sql.raw(dialect === 'postgres' ? 'analyze outbox_messages' : 'analyze').execute(db);
  const config = loadConfig({ LOG_LEVEL: 'error', DATABASE_URL: dialect === 'postgres' ? 'postgres://unused' : 'unused.sqlite' });
  const deps = { db, dialect, config, now: () => NOW } as unknown as Deps;
  const transport = { send: async () => ({ emlFile: null }) };
  const pass = async (messages: number) => {
    const started = performance.now();
    const sent = await sendDueMail(deps, { transport, batch: messages, owner: 'bench' });
    return { sent, ms: performance.now() - started };
  };
  const first = await pass(500);
  const rest = await pass(MESSAGES);
  if (first.sent + rest.sent !== MESSAGES) throw new Error(`sent ${first.sent + rest.sent} of ${MESSAGES}`);
  return { all: (first.ms + rest.ms) / MESSAGES, first: first.ms / first.sent };
}

async function engine(name: string): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'bench-outbox-'));
  let url = join(tmp, 'outbox.sqlite');
  let drop = async () => {};
  if (name === 'postgres') {
    const scratch = await scratchPostgresDatabase(PG_ADMIN, 'bench_outbox');
    url = scratch.url;
    drop = scratch.drop;
  }
  const db = openDb({ url });
  try {
    await migrateToLatest(db);
    for (const [label, columns] of Object.entries(INDEXES)) {
      const { all, first } = await measure(db, name === 'postgres' ? 'postgres' : 'sqlite', columns);
      console.log(`${name.padEnd(9)} ${label.padEnd(32)} ${MESSAGES} due at one second: ${all.toFixed(3)} ms a message (the first 500: ${first.toFixed(3)} ms)`);
    }
  } finally {
    await db.destroy();
    await drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

for (const name of ENGINES) await engine(name);
