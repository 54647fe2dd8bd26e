/**
 * writeLater (db/client.ts): a write whose answer nobody reads. On PostgreSQL, inside a transaction, it is held and
 * sent with the transaction's next statement; whatever the engine, the transaction must see it, commit it, and never
 * commit without it. And sendAhead: a statement whose answer is awaited later, sent at once so the next statement
 * goes out behind it. And writeAtCommit: a write held to the COMMIT, whose failure fails it. Runs on both engines
 * (TEST_DATABASE_URL for PostgreSQL).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDb, sendAhead, writeAtCommit, writeLater, type Tx } from '../../db/client.ts';
import { countRoundTrips } from '../helpers/pg-round-trips.ts';
import { createTestDb, educatorName, type TestDb } from '../helpers/db.ts';
import { educatorRow } from '../api/public-fixtures.ts';

let t: TestDb;

const educator = (id: string, name: string) => educatorRow({ id, slug: `later-${id.replaceAll('_', '-')}`, name });
const nameOf = (id: string) => educatorName(t.db, id);

beforeAll(async () => {
  t = await createTestDb();
});

afterAll(async () => {
  await t?.close();
});

it('a held write is seen by the transaction\'s next statement and committed with it', async () => {
  await t.db.insertInto('educators').values(educator('edu_later_a', 'Before') as never).execute();
  const seen = await t.db.transaction().execute(async (tx) => {
    await writeLater(tx, tx.updateTable('educators').set({ name: 'After' }).where('id', '=', 'edu_later_a'));
    await writeLater(tx, tx.insertInto('educators').values(educator('edu_later_b', 'Second') as never));
    return tx.selectFrom('educators').select('name').where('id', 'in', ['edu_later_a', 'edu_later_b']).orderBy('id').execute();
  });
  expect(seen).toEqual([{ name: 'After' }, { name: 'Second' }]);
  expect(await nameOf('edu_later_a')).toBe('After');
  expect(await nameOf('edu_later_b')).toBe('Second');
});

it('a held write as the transaction\'s last statement is committed', async () => {
  await t.db.insertInto('educators').values(educator('edu_later_c', 'Before') as never).execute();
  await t.db.transaction().execute(async (tx) => {
    await tx.selectFrom('educators').select('id').where('id', '=', 'edu_later_c').execute();
    await writeLater(tx, tx.updateTable('educators').set({ name: 'Last' }).where('id', '=', 'edu_later_c'));
  });
  expect(await nameOf('edu_later_c')).toBe('Last');
});

it('a held write that fails fails the transaction (at the COMMIT at the latest) and nothing of it is committed', async () => {
  await t.db.insertInto('educators').values(educator('edu_later_d', 'Kept') as never).execute();
  const attempt = t.db.transaction().execute(async (tx) => {
    await tx.updateTable('educators').set({ name: 'Changed' }).where('id', '=', 'edu_later_d').execute();
    // The same primary key again: a unique violation, which must not be lost with the answer nobody reads.
    await writeLater(tx, tx.insertInto('educators').values(educator('edu_later_d', 'Duplicate') as never));
  });
  await expect(attempt).rejects.toThrow(/unique|duplicate/i);
  expect(await nameOf('edu_later_d')).toBe('Kept');
});

it('a held write followed by a read that fails: the write\'s own failure is the one reported', async () => {
  await t.db.insertInto('educators').values(educator('edu_later_e', 'Kept') as never).execute();
  const attempt = t.db.transaction().execute(async (tx) => {
    await writeLater(tx, tx.insertInto('educators').values(educator('edu_later_e', 'Duplicate') as never));
    await tx.selectFrom('educators').select('name').where('id', '=', 'edu_later_e').execute();
  });
  await expect(attempt).rejects.toThrow(/unique|duplicate/i);
  expect(await nameOf('edu_later_e')).toBe('Kept');
});

it('a transaction rolled back after a held write leaves nothing of it', async () => {
  await t.db.insertInto('educators').values(educator('edu_later_f', 'Kept') as never).execute();
  const attempt = t.db.transaction().execute(async (tx) => {
    await tx.selectFrom('educators').select('id').where('id', '=', 'edu_later_f').execute();
    await writeLater(tx, tx.updateTable('educators').set({ name: 'Dropped' }).where('id', '=', 'edu_later_f'));
    throw new Error('changed my mind');
  });
  await expect(attempt).rejects.toThrow('changed my mind');
  expect(await nameOf('edu_later_f')).toBe('Kept');
  // The connection is clean for the next transaction.
  await t.db.transaction().execute(async (tx) => {
    await writeLater(tx, tx.updateTable('educators').set({ name: 'Next' }).where('id', '=', 'edu_later_f'));
  });
  expect(await nameOf('edu_later_f')).toBe('Next');
});

it('outside a transaction a write runs at once', async () => {
  await t.db.insertInto('educators').values(educator('edu_later_g', 'Before') as never).execute();
  await writeLater(t.db, t.db.updateTable('educators').set({ name: 'Now' }).where('id', '=', 'edu_later_g'));
  expect(await nameOf('edu_later_g')).toBe('Now');
});

it.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL: a held write is not sent until the transaction\'s next statement (no round trip of its own)', async () => {
  await t.db.insertInto('educators').values(educator('edu_later_h', 'Before') as never).execute();
  // Another connection locking the row without waiting: it can while the update has not been sent, not after.
  const lockable = () => t.db.transaction().execute(async (other) => {
    await other.selectFrom('educators').select('id').where('id', '=', 'edu_later_h').forUpdate().noWait().execute();
  }).then(() => true, () => false);
  await t.db.transaction().execute(async (tx) => {
    await tx.selectFrom('educators').select('id').where('id', '=', 'edu_later_h').execute();
    await writeLater(tx, tx.updateTable('educators').set({ name: 'Held' }).where('id', '=', 'edu_later_h'));
    expect(await lockable()).toBe(true);
    await tx.selectFrom('educators').select('id').where('id', '=', 'edu_later_g').execute();
    expect(await lockable()).toBe(false);
  });
  expect(await nameOf('edu_later_h')).toBe('Held');
});

it('a statement sent ahead answers when awaited, and the statements after it see what it did', async () => {
  await t.db.insertInto('educators').values(educator('edu_ahead_a', 'Before') as never).execute();
  const [answer, seen] = await t.db.transaction().execute(async (tx) => {
    const sent = await sendAhead(tx, t.dialect, tx.updateTable('educators').set({ name: 'Ahead' }).where('id', '=', 'edu_ahead_a'));
    const read = await tx.selectFrom('educators').select('name').where('id', '=', 'edu_ahead_a').executeTakeFirstOrThrow();
    return [await sent.answer, read.name];
  });
  expect(answer.changed).toBe(1);
  expect(seen).toBe('Ahead');
  expect(await nameOf('edu_ahead_a')).toBe('Ahead');
  // A read sent ahead answers its rows, decoded as every read's are (JSON columns parsed).
  const rows = await t.db.transaction().execute(async (tx) => {
    const sent = await sendAhead(tx, t.dialect, tx.selectFrom('educators').select(['name', 'links']).where('id', '=', 'edu_ahead_a'));
    return (await sent.answer).rows;
  });
  expect(rows).toEqual([{ name: 'Ahead', links: expect.anything() }]);
  expect(typeof rows[0]!.links).not.toBe('string');
});

it('a statement sent ahead that fails fails the transaction, and nothing of it is committed', async () => {
  await t.db.insertInto('educators').values(educator('edu_ahead_b', 'Kept') as never).execute();
  const attempt = t.db.transaction().execute(async (tx) => {
    await tx.updateTable('educators').set({ name: 'Changed' }).where('id', '=', 'edu_ahead_b').execute();
    const sent = await sendAhead(tx, t.dialect, tx.insertInto('educators').values(educator('edu_ahead_b', 'Duplicate') as never));
    await tx.selectFrom('educators').select('name').where('id', '=', 'edu_ahead_b').execute().catch(() => undefined);
    await sent.answer;
  });
  await expect(attempt).rejects.toThrow(/unique|duplicate/i);
  expect(await nameOf('edu_ahead_b')).toBe('Kept');
});

it.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL: a statement sent ahead and the statement after it come back in one round trip', async () => {
  const trips = countRoundTrips();
  // Connections opened while counting: a handle of its own on this file's database.
  const counted = openDb({ url: t.url, schema: t.schema, poolSize: 1 });
  try {
    await counted.insertInto('educators').values(educator('edu_ahead_c', 'Before') as never).execute();
    const tripsOf = async (work: (tx: Tx) => Promise<unknown>) => {
      const before = trips.count();
      await counted.transaction().execute(work);
      return trips.count() - before;
    };
    const update = (tx: Tx) => tx.updateTable('educators').set({ name: 'Ahead' }).where('id', '=', 'edu_ahead_c');
    const read = (tx: Tx) => tx.selectFrom('educators').select('name').where('id', '=', 'edu_ahead_c').executeTakeFirstOrThrow();
    // BEGIN goes with the first statement, COMMIT alone: one after the other, three round trips; sent ahead, two.
    expect(await tripsOf(async (tx) => [await update(tx).execute(), await read(tx)])).toBe(3);
    expect(await tripsOf(async (tx) => {
      const sent = await sendAhead(tx, 'postgres', update(tx));
      const name = (await read(tx)).name;
      expect((await sent.answer).changed).toBe(1);
      expect(name).toBe('Ahead');
    })).toBe(2);
  } finally {
    trips.uninstall();
    await counted.destroy();
  }
});

it('a write held to the COMMIT is committed with it, after the held writes; its failure fails the COMMIT and nothing commits', async () => {
  await t.db.insertInto('educators').values([educator('edu_commit_a', 'Before'), educator('edu_commit_b', 'Kept')] as never).execute();
  await t.db.transaction().execute(async (tx) => {
    await writeLater(tx, tx.updateTable('educators').set({ name: 'Held' }).where('id', '=', 'edu_commit_a'));
    await writeAtCommit(tx, tx.updateTable('educators').set({ name: 'At commit' }).where('id', '=', 'edu_commit_a').where('name', '=', 'Held'));
  });
  // Written after the held write (on PostgreSQL both wait for the COMMIT), which its WHERE needs.
  expect(await nameOf('edu_commit_a')).toBe('At commit');
  const attempt = t.db.transaction().execute(async (tx) => {
    await tx.updateTable('educators').set({ name: 'Changed' }).where('id', '=', 'edu_commit_b').execute();
    await writeAtCommit(tx, tx.insertInto('educators').values(educator('edu_commit_a', 'Duplicate') as never));
  });
  await expect(attempt).rejects.toThrow(/unique|duplicate/i);
  expect(await nameOf('edu_commit_b')).toBe('Kept');
});

it('a transaction rolled back after a write held to the COMMIT leaves nothing of it', async () => {
  await t.db.insertInto('educators').values(educator('edu_commit_c', 'Kept') as never).execute();
  const attempt = t.db.transaction().execute(async (tx) => {
    await writeAtCommit(tx, tx.updateTable('educators').set({ name: 'Dropped' }).where('id', '=', 'edu_commit_c'));
    throw new Error('changed my mind');
  });
  await expect(attempt).rejects.toThrow('changed my mind');
  expect(await nameOf('edu_commit_c')).toBe('Kept');
});

it.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL: a write held to the COMMIT takes its row lock only there, not with the next statements', async () => {
  await t.db.insertInto('educators').values(educator('edu_commit_d', 'Before') as never).execute();
  const lockable = () => t.db.transaction().execute(async (other) => {
    await other.selectFrom('educators').select('id').where('id', '=', 'edu_commit_d').forUpdate().noWait().execute();
  }).then(() => true, () => false);
  await t.db.transaction().execute(async (tx) => {
    await writeAtCommit(tx, tx.updateTable('educators').set({ name: 'At commit' }).where('id', '=', 'edu_commit_d'));
    await writeLater(tx, tx.updateTable('educators').set({ name: 'Other' }).where('id', '=', 'edu_later_g'));
    await tx.selectFrom('educators').select('id').where('id', '=', 'edu_later_g').execute();
    expect(await lockable()).toBe(true);
  });
  expect(await nameOf('edu_commit_d')).toBe('At commit');
});

it.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL: a COMMIT failed by a write held to it costs one round trip, with no ROLLBACK after it', async () => {
  const trips = countRoundTrips();
  const counted = openDb({ url: t.url, schema: t.schema, poolSize: 1 });
  try {
    await counted.insertInto('educators').values(educator('edu_commit_e', 'Kept') as never).execute();
    const before = trips.count();
    const attempt = counted.transaction().execute(async (tx) => {
      await writeLater(tx, tx.updateTable('educators').set({ name: 'Changed' }).where('id', '=', 'edu_commit_e'));
      await writeAtCommit(tx, tx.insertInto('educators').values(educator('edu_commit_e', 'Duplicate') as never));
    });
    await expect(attempt).rejects.toThrow(/unique|duplicate/i);
    // BEGIN, the held write, the failing one and COMMIT in one write; the server ended the transaction there.
    expect(trips.count() - before).toBe(1);
    expect(await counted.selectFrom('educators').select('name').where('id', '=', 'edu_commit_e').executeTakeFirstOrThrow()).toEqual({ name: 'Kept' });
  } finally {
    trips.uninstall();
    await counted.destroy();
  }
});
