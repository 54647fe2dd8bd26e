/**
 * Row locks for the conditional updates of held amounts (gift card balances, membership credits): on PostgreSQL a
 * `select … for update` of the parent row serialises the writers of its holds for the rest of the transaction; on
 * SQLite the one writer lock already does, so nothing is taken.
 */
import type { Dialect } from '../client.ts';
import type { Q } from './checkout.ts';

/** The tables whose rows are locked this way (each has a text `id`). */
export type LockedTable = 'gift_cards' | 'memberships';

export async function lockRow(q: Q, dialect: Dialect, table: LockedTable, id: string): Promise<void> {
  if (dialect !== 'postgres') return;
  await q.selectFrom(table).select('id').where('id', '=', id).forUpdate().execute();
}

/**
 * A sweeper's pass: each parent row in a transaction of its own, locked before `sweep` gives back its lapsed holds,
 * so one busy card or membership never holds up the others. Returns how many were swept.
 */
export async function sweepEachLocked(db: Q, dialect: Dialect, table: LockedTable, ids: readonly string[], sweep: (tx: Q, id: string) => Promise<void>): Promise<number> {
  for (const id of ids) {
    await db.transaction().execute(async (tx) => {
      await lockRow(tx, dialect, table, id);
      await sweep(tx, id);
    });
  }
  return ids.length;
}
