/**
 * Memberships: an educator's plans (a price per month, per year or a one-off pass, with a percentage off
 * and/or credits per period), the learners' memberships of them, every payment taken for one (the first and
 * each renewal, with its receipt number), and each credit spent on a booking. Dialect-neutral: text ids,
 * bigint epoch seconds, integer pence; course_ids is JSON text (db/codec.ts).
 */
import type { Kysely } from 'kysely';

 
type AnyDb = Kysely<any>;

// eslint-disable-next-line max-lines-per-function -- a migration reads top to bottom as the schema it creates
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('membership_plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('interval', 'text', (c) => c.notNull()) // month | year | pass
    .addColumn('pass_months', 'integer') // a pass: how many months it lasts
    .addColumn('price', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('GBP'))
    .addColumn('discount_percent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_per_period', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('course_ids', 'text') // null: every course of the educator
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('listed', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('membership_plans_educator').on('membership_plans').columns(['educator_id', 'position']).execute();

  await db.schema
    .createTable('memberships')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('plan_id', 'text', (c) => c.notNull().references('membership_plans.id').onDelete('cascade'))
    .addColumn('educator_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('checkout_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull()) // active | past_due | ended
    .addColumn('payment_method', 'text')
    .addColumn('provider', 'text')
    .addColumn('provider_customer_id', 'text')
    .addColumn('provider_subscription_id', 'text')
    .addColumn('price', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('anchor_at', 'bigint', (c) => c.notNull())
    .addColumn('period_index', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('current_period_start', 'bigint', (c) => c.notNull())
    .addColumn('current_period_end', 'bigint', (c) => c.notNull())
    .addColumn('credits_left', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cancel_at_period_end', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('cancel_requested_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .addColumn('end_reason', 'text')
    .addColumn('renewal_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('claimed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('memberships_user').on('memberships').columns(['user_id', 'educator_id']).execute();
  await db.schema.createIndex('memberships_due').on('memberships').columns(['status', 'next_attempt_at']).execute();

  await db.schema
    .createTable('membership_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('membership_id', 'text', (c) => c.notNull().references('memberships.id').onDelete('cascade'))
    .addColumn('educator_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull()) // join | renewal
    .addColumn('period_index', 'integer', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('period_start', 'bigint', (c) => c.notNull())
    .addColumn('period_end', 'bigint', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull()) // paid | failed
    .addColumn('provider', 'text')
    .addColumn('provider_payment_id', 'text')
    .addColumn('receipt_number', 'text')
    .addColumn('failure', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // One attempt of one period is recorded once, whoever reports it (job, webhook, browser).
    .addUniqueConstraint('membership_payments_attempt', ['membership_id', 'period_index', 'attempt'])
    .execute();

  await db.schema
    .createTable('membership_credit_uses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('membership_id', 'text', (c) => c.notNull().references('memberships.id').onDelete('cascade'))
    .addColumn('period_index', 'integer', (c) => c.notNull())
    .addColumn('checkout_id', 'text', (c) => c.notNull())
    .addColumn('booking_id', 'text')
    .addColumn('value', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('membership_credit_uses_checkout', ['checkout_id'])
    .execute();


  // The test recurring provider's clock (PAYMENTS_MODE=test only): how far tests have moved it, in seconds.
  await db.schema
    .createTable('test_clocks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('offset_seconds', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('test_clocks').ifExists().execute();
  await db.schema.dropTable('membership_credit_uses').ifExists().execute();
  await db.schema.dropTable('membership_payments').ifExists().execute();
  await db.schema.dropTable('memberships').ifExists().execute();
  await db.schema.dropTable('membership_plans').ifExists().execute();
}
