/**
 * PostgreSQL: the SQL kysely sends is run as named prepared statements (db/client.ts), so each pooled connection
 * parses and plans it once. PostgreSQL-only (set TEST_DATABASE_URL): SQLite's statement cache is tested with the
 * rest of db/client.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { openDb, type Db } from '../../db/client.ts';
import { dropTestSchema } from '../helpers/db.ts';

const pgUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!pgUrl)('named statements on PostgreSQL (set TEST_DATABASE_URL to run)', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let db: Db;
  beforeAll(async () => {
    // One connection, so the statements it has prepared can be listed on it.
    db = openDb({ url: pgUrl, schema, poolSize: 1 });
    await sql`create table things (id integer primary key, name text not null)`.execute(db);
    await sql`insert into things values (1, 'kiln'), (2, 'wheel')`.execute(db);
  });
  afterAll(async () => {
    await dropTestSchema(db, pgUrl!, schema);
    await db.destroy();
  });

  const prepared = async () => (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)).rows.map((r) => r.statement);

  it('prepares a statement once per connection and answers every value through it', async () => {
    const byId = async (id: number) => (await sql<{ name: string }>`select name from things where id = ${id}`.execute(db)).rows[0];
    expect(await byId(1)).toEqual({ name: 'kiln' });
    expect(await byId(2)).toEqual({ name: 'wheel' });
    expect((await prepared()).filter((s) => s.startsWith('select name from things'))).toEqual(['select name from things where id = $1']);
  });

  it('still answers a `select *` prepared before its table changed (run unnamed, the change visible)', async () => {
    const all = () => sql<Record<string, unknown>>`select * from things where id = ${1}`.execute(db);
    expect((await all()).rows).toEqual([{ id: 1, name: 'kiln' }]);
    await sql`alter table things add column colour text default 'grey'`.execute(db);
    expect((await all()).rows).toEqual([{ id: 1, name: 'kiln', colour: 'grey' }]);
  });

  it('leaves transaction control and schema statements unnamed', async () => {
    await db.transaction().execute(async (tx) => {
      await sql`update things set name = 'big kiln' where id = ${1}`.execute(tx);
    });
    const statements = await prepared();
    expect(statements.some((s) => /^(begin|commit|create|alter)/i.test(s.trim()))).toBe(false);
    expect(statements).toContain("update things set name = 'big kiln' where id = $1");
  });
});
