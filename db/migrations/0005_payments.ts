/**
 * Payments: the provider account of each educator (Stripe connected account, PayPal merchant)
 * and the provider events (webhooks) already received, so that each is handled once.
 * Dialect-neutral: text ids, bigint epoch seconds, JSON as text (db/codec.ts).
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('educator_payment_accounts')
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull()) // 'stripe' | 'paypal'
    .addColumn('account_id', 'text', (c) => c.notNull()) // e.g. acct_… (Stripe-Account header)
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('educator_payment_accounts_pk', ['educator_id', 'provider'])
    .execute();

  await db.schema
    .createTable('payment_events')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull()) // JSON: the verified event
    .addColumn('checkout_id', 'text')
    .addColumn('claimed_at', 'bigint')
    .addColumn('handled_at', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addPrimaryKeyConstraint('payment_events_pk', ['provider', 'event_id'])
    .execute();
  await db.schema.createIndex('payment_events_checkout').on('payment_events').column('checkout_id').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('payment_events').execute();
  await db.schema.dropTable('educator_payment_accounts').execute();
}
