/**
 * PostgreSQL: an idle pooled connection the server ends (a restart, a failover, an administrator's
 * pg_terminate_backend, a database dropped with force) must cost that connection only. pg's pool re-emits the
 * connection's error on itself, and an EventEmitter with no listener for 'error' throws it: the whole process
 * would go down with every checkout in flight. PostgreSQL-only (set TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb, type Db } from '../../db/client.ts';
import { dropTestSchema } from '../helpers/db.ts';

const pgUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!pgUrl)('a pooled connection ended by the server (set TEST_DATABASE_URL to run)', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let db: Db;
  beforeAll(async () => {
    db = openDb({ url: pgUrl, schema, poolSize: 1 });
  });
  afterAll(async () => {
    await dropTestSchema(db, pgUrl!, schema);
    await db.destroy();
  });

  it('drops that connection, keeps the process, and answers the next statement on a new one', async () => {
    const before = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.prependListener('uncaughtException', onUncaught);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      try {
        await admin.query('select pg_terminate_backend($1)', [before]);
      } finally {
        await admin.end();
      }
      // The pool hears of it when the server's message arrives on the idle socket.
      await new Promise((done) => setTimeout(done, 200));
      expect(uncaught).toEqual([]);
      expect(warnings.some((w) => w.includes('terminating connection'))).toBe(true);
      const after = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
      expect(after).not.toBe(before);
    } finally {
      process.off('uncaughtException', onUncaught);
      process.off('warning', onWarning);
    }
  });
});
