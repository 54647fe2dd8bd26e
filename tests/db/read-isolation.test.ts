/**
 * Reads outside a transaction never see a transaction's uncommitted work, and see it once committed. On SQLite the
 * same process's reads run on the writer's connection while it has no transaction open (its page cache survives its
 * own writes) and on the read-only connection while it has one (db/sqlite-driver.ts): this holds the line between the
 * two. On PostgreSQL it is the engine's own isolation.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDb, educatorName, type TestDb } from '../helpers/db.ts';
import { educatorRow } from '../api/public-fixtures.ts';

let t: TestDb;

const educator = (id: string, name: string) => educatorRow({ id, slug: `isolation-${id.replaceAll('_', '-')}`, name });
const nameOf = (id: string) => educatorName(t.db, id);

beforeAll(async () => {
  t = await createTestDb();
});

afterAll(async () => {
  await t?.close();
});

it('a read outside a transaction that is open (and awaiting) sees the last committed state, then the commit', async () => {
  await t.db.insertInto('educators').values(educator('edu_iso_a', 'Before') as never).execute();
  let inside!: () => void;
  const reachedAwait = new Promise<void>((ok) => (inside = ok));
  let carryOn!: () => void;
  const resume = new Promise<void>((ok) => (carryOn = ok));

  const transaction = t.db.transaction().execute(async (tx) => {
    await tx.updateTable('educators').set({ name: 'During' }).where('id', '=', 'edu_iso_a').execute();
    await tx.insertInto('educators').values(educator('edu_iso_b', 'New') as never).execute();
    // Inside the transaction its own work is visible.
    expect(await tx.selectFrom('educators').select('name').where('id', '=', 'edu_iso_a').executeTakeFirst()).toEqual({ name: 'During' });
    inside();
    await resume;
  });

  await reachedAwait;
  // The transaction is open and waiting: reads from outside it see neither its update nor its insert.
  expect(await nameOf('edu_iso_a')).toBe('Before');
  expect(await nameOf('edu_iso_b')).toBeNull();
  carryOn();
  await transaction;
  // Committed: every read sees it, on whichever connection.
  expect(await nameOf('edu_iso_a')).toBe('During');
  expect(await nameOf('edu_iso_b')).toBe('New');
});

it('a rolled-back transaction leaves nothing for later reads', async () => {
  await expect(t.db.transaction().execute(async (tx) => {
    await tx.updateTable('educators').set({ name: 'Rolled back' }).where('id', '=', 'edu_iso_a').execute();
    throw new Error('give up');
  })).rejects.toThrow('give up');
  expect(await nameOf('edu_iso_a')).toBe('During');
});
