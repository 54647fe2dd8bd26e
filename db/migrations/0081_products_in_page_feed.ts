/**
 * Membership plans and gift voucher settings show on public pages (the memberships pages, the Gift Vouchers tab),
 * so the educator admin app's writes to them must reach the publisher like any other catalogue write.
 */
import type { Kysely } from 'kysely';
import { createPageChangeTriggers, dropPageChangeTriggers, type Source } from './0030_page_changes.ts';

type AnyDb = Kysely<any>;

const SOURCES: Source[] = [
  { table: 'membership_plans', educator: 'R.educator_id' },
  { table: 'gift_voucher_settings', educator: 'R.educator_id' },
];

/** On SQLite on the writing connection: a 'drop trigger if exists' counts as read-only there. */
async function inTransaction(db: AnyDb, work: (db: AnyDb) => Promise<void>): Promise<void> {
  if (db.isTransaction) await work(db);
  else await db.transaction().execute(work);
}

export async function up(db: AnyDb): Promise<void> {
  await inTransaction(db, (tx) => createPageChangeTriggers(tx, SOURCES));
}

export async function down(db: AnyDb): Promise<void> {
  await inTransaction(db, (tx) => dropPageChangeTriggers(tx, SOURCES));
}
