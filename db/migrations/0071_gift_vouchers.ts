/**
 * Gift vouchers: the educator's settings (the spec's `vouchers_app_installed`, amounts, expiry, design colour), the
 * gift cards sold (code, balance, buyer, recipient, scheduled send) and their redemptions (a hold on the balance
 * while a learner pays, committed with the outcome, returned on release or cancellation).
 * The balance can never go below zero or above the amount bought: a check constraint backs the guarded updates.
 */
import { sql, type Kysely } from 'kysely';

 
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('gift_voucher_settings')
    .addColumn('educator_id', 'text', (c) => c.primaryKey().references('educators.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('fixed_amounts', 'text', (c) => c.notNull().defaultTo('')) // pence, comma-separated
    .addColumn('custom_min', 'integer')
    .addColumn('custom_max', 'integer')
    .addColumn('expiry_months', 'integer', (c) => c.notNull().defaultTo(12))
    .addColumn('design_colour', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('gift_cards')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('balance', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('GBP'))
    .addColumn('checkout_id', 'text', (c) => c.unique())
    .addColumn('buyer_user_id', 'text')
    .addColumn('buyer_name', 'text', (c) => c.notNull())
    .addColumn('buyer_email', 'text', (c) => c.notNull())
    .addColumn('recipient_name', 'text', (c) => c.notNull())
    .addColumn('recipient_email', 'text', (c) => c.notNull()) // lower case
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('send_at', 'bigint', (c) => c.notNull())
    .addColumn('recipient_sent_at', 'bigint')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('design_colour', 'text')
    .addColumn('payment_method', 'text')
    .addColumn('payment_id', 'text')
    .addColumn('total_paid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('gift_cards_balance', sql`balance >= 0 and balance <= amount`)
    .execute();
  await db.schema.createIndex('gift_cards_buyer').on('gift_cards').column('buyer_user_id').execute();
  await db.schema.createIndex('gift_cards_recipient').on('gift_cards').column('recipient_email').execute();
  await db.schema.createIndex('gift_cards_unsent').on('gift_cards').columns(['recipient_sent_at', 'send_at']).execute();

  await db.schema
    .createTable('gift_card_redemptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('gift_card_id', 'text', (c) => c.notNull().references('gift_cards.id').onDelete('cascade'))
    .addColumn('checkout_id', 'text', (c) => c.notNull().unique())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull()) // held | committed | released | returned
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('outcome_kind', 'text')
    .addColumn('outcome_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('gift_card_redemptions_amount', sql`amount > 0`)
    .execute();
  await db.schema.createIndex('gift_card_redemptions_card').on('gift_card_redemptions').columns(['gift_card_id', 'status']).execute();
  await db.schema.createIndex('gift_card_redemptions_outcome').on('gift_card_redemptions').columns(['outcome_kind', 'outcome_id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('gift_card_redemptions').execute();
  await db.schema.dropTable('gift_cards').execute();
  await db.schema.dropTable('gift_voucher_settings').execute();
}
