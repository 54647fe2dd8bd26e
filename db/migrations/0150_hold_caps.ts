/**
 * Hold caps per learner: when a learner's hold time on one date (an occurrence's spaces, a voucher's use, a gift
 * card's balance) began. A checkout's own cap started with its first hold, so abandoning and booking again began a
 * new one; the cap is now the learner's, on that date, whatever checkout holds it (api/checkout/holds.ts).
 * `holder` is the learner (`user:{id}`), `scope` what is held (`occurrence:{id}`, `voucher:{id}`, `gift-card:{id}`).
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('hold_caps')
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('hold_caps_pkey', ['holder', 'scope'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('hold_caps').ifExists().execute();
}
