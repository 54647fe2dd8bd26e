/**
 * SQLite's WAL checkpoints in a worker thread (db/checkpointer.ts): pages committed to the WAL reach the database
 * file without any commit of the writer doing it, and closing the database stops the worker.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../db/client.ts';
import { CHECKPOINT_INTERVAL_MS } from '../../db/checkpointer.ts';

const dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes ~2 MB in small commits (far below the writer's own backstop) and says how big the database file is then. */
async function fileSizeAfterWrites(file: string, backgroundCheckpoints: boolean): Promise<number> {
  const db = openDb({ url: file, backgroundCheckpoints });
  try {
    await sql`create table blobs (id integer primary key, body text not null)`.execute(db);
    const body = 'x'.repeat(4000);
    for (let i = 0; i < 500; i++) await sql`insert into blobs (body) values (${body})`.execute(db);
    // A few of the worker's turns.
    await new Promise((ok) => setTimeout(ok, CHECKPOINT_INTERVAL_MS * 6));
    return statSync(file).size;
  } finally {
    await db.destroy();
  }
}

// SQLite only: WAL checkpoints are SQLite's; PostgreSQL checkpoints by itself and openDb starts no worker for it.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('background checkpoints (SQLite)', () => {
  it('copy committed pages into the database file without the writer doing it', async () => {
    // The writer alone checkpoints only once the WAL passes 1,000 pages: these ~500 stay in the WAL.
    const alone = await fileSizeAfterWrites(join(dir, 'alone.sqlite'), false);
    const withWorker = await fileSizeAfterWrites(join(dir, 'worker.sqlite'), true);
    expect(withWorker).toBeGreaterThan(2_000_000);
    expect(alone).toBeLessThan(withWorker);
  });
});
