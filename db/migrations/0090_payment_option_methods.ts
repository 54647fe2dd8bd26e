/**
 * Payment options as one row per method instead of one column per method: a new method (or a provider's
 * new one) is a new row, not a schema change. payment_options keeps the owner (educator, optionally a
 * course) and the settings of the whole set (the invoice due days); payment_option_methods holds, per
 * method, whether it is enabled and the educator's own label and message (the in-person method's).
 * Existing rows are copied across, then the per-method columns are dropped. Dialect-neutral.
 */
import { sql, type Kysely } from 'kysely';
import { createPageChangeTriggers, dropPageChangeTriggers, type Source } from './0030_page_changes.ts';

type AnyDb = Kysely<any>;

const METHOD_COLUMNS = [
  ['card', 'card_enabled'], ['paypal', 'paypal_enabled'], ['klarna', 'klarna_enabled'],
  ['invoice', 'invoice_enabled'], ['manual', 'manual_enabled'],
] as const;

/** A method's row leads to its educator (and course) through its set, for the public pages' change feed. */
const FEED_SOURCE: Source = {
  table: 'payment_option_methods',
  educator: '(select p.educator_id from payment_options p where p.id = R.payment_options_id)',
  course: '(select p.course_id from payment_options p where p.id = R.payment_options_id)',
};

export async function up(outer: AnyDb): Promise<void> {
  await inTransaction(outer, async (db) => {
    await db.schema
      .createTable('payment_option_methods')
      .addColumn('payment_options_id', 'text', (c) => c.notNull().references('payment_options.id').onDelete('cascade'))
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('label', 'text')
      .addColumn('message', 'text')
      .addPrimaryKeyConstraint('payment_option_methods_pk', ['payment_options_id', 'method'])
      .execute();
    for (const [method, column] of METHOD_COLUMNS) {
      const label = method === 'manual' ? sql.ref('manual_label') : sql`null`;
      const message = method === 'manual' ? sql.ref('manual_message') : sql`null`;
      await sql`insert into payment_option_methods (payment_options_id, method, enabled, label, message)
        select id, ${sql.lit(method)}, ${sql.ref(column)}, ${label}, ${message} from payment_options`.execute(db);
    }
    for (const column of [...METHOD_COLUMNS.map(([, c]) => c), 'manual_label', 'manual_message']) {
      await db.schema.alterTable('payment_options').dropColumn(column).execute();
    }
    // After the copy: moving the same options to new rows changes no page.
    await createPageChangeTriggers(db, [FEED_SOURCE]);
  });
}

export async function down(outer: AnyDb): Promise<void> {
  await inTransaction(outer, async (db) => {
    for (const [method, column] of METHOD_COLUMNS) {
      await db.schema.alterTable('payment_options').addColumn(column, 'boolean', (c) => c.notNull().defaultTo(method === 'card')).execute();
    }
    await db.schema.alterTable('payment_options').addColumn('manual_label', 'text').execute();
    await db.schema.alterTable('payment_options').addColumn('manual_message', 'text').execute();
    for (const [method, column] of METHOD_COLUMNS) {
      await sql`update payment_options set ${sql.ref(column)} = m.enabled from payment_option_methods m
        where m.payment_options_id = payment_options.id and m.method = ${sql.lit(method)}`.execute(db);
    }
    await sql`update payment_options set manual_label = m.label, manual_message = m.message from payment_option_methods m
      where m.payment_options_id = payment_options.id and m.method = 'manual'`.execute(db);
    await dropPageChangeTriggers(db, [FEED_SOURCE]);
    await db.schema.dropTable('payment_option_methods').execute();
  });
}

/**
 * All of it or nothing, and on SQLite on the writing connection: a statement SQLite calls read-only (a
 * 'drop trigger if exists') would otherwise go to the read-only one. PostgreSQL's migrator already gives a
 * transaction.
 */
async function inTransaction(db: AnyDb, work: (db: AnyDb) => Promise<void>): Promise<void> {
  if (db.isTransaction) await work(db);
  else await db.transaction().execute(work);
}
