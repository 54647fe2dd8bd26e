/**
 * The checkout: checkouts, space holds, the outcomes (bookings, orders, requests, applications),
 * checkout payments, the built-in test payment provider, learners' saved form answers, platform-fee
 * settings and restricted-course access.
 * Dialect-neutral: text ids, bigint epoch seconds, integer pence, JSON as text (db/codec.ts).
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<any>;

// eslint-disable-next-line max-lines-per-function -- a migration reads top to bottom as the schema it creates
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('checkouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('flow', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('occurrence_id', 'text', (c) => c.references('occurrences.id').onDelete('set null'))
    .addColumn('user_id', 'text')
    .addColumn('student_id', 'text')
    .addColumn('current_step', 'text', (c) => c.notNull())
    .addColumn('step_state', 'text', (c) => c.notNull()) // JSON {key: {status, state}}
    .addColumn('utms', 'text') // JSON
    .addColumn('booked_on_url', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open')) // open | completed | abandoned
    .addColumn('booking_id', 'text')
    .addColumn('order_id', 'text')
    .addColumn('request_id', 'text')
    .addColumn('application_id', 'text')
    .addColumn('total_cost', 'integer') // pence: the total shown when Payment was reached
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('GBP'))
    .addColumn('cost_summary', 'text') // JSON
    .addColumn('payment_provider', 'text')
    .addColumn('payment_id', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();
  await db.schema.createIndex('checkouts_user').on('checkouts').column('user_id').execute();

  await db.schema
    .createTable('space_holds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('checkout_id', 'text', (c) => c.notNull().unique().references('checkouts.id').onDelete('cascade'))
    .addColumn('occurrence_id', 'text', (c) => c.references('occurrences.id').onDelete('cascade'))
    .addColumn('spaces', 'integer', (c) => c.notNull())
    .addColumn('voucher_id', 'text', (c) => c.references('vouchers.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull()) // held | committed | released
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('space_holds_status_expiry').on('space_holds').columns(['status', 'expires_at']).execute();
  await db.schema.createIndex('space_holds_occurrence').on('space_holds').columns(['occurrence_id', 'status']).execute();

  // The four outcomes. checkout_id is unique in each: one checkout can never record two outcomes.
  const outcome = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('checkout_id', 'text', (c) => c.notNull().unique())
      .addColumn('flow', 'text', (c) => c.notNull())
      .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
      .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('student_id', 'text', (c) => c.notNull())
      .addColumn('origin', 'text', (c) => c.notNull())
      .addColumn('lines', 'text', (c) => c.notNull()) // JSON {offers, addOns}
      .addColumn('contact_details', 'text', (c) => c.notNull()) // JSON
      .addColumn('details', 'text', (c) => c.notNull()) // JSON
      .addColumn('total_cost', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull().defaultTo('GBP'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull());

  await outcome('bookings')
    .addColumn('occurrence_id', 'text', (c) => c.references('occurrences.id').onDelete('set null'))
    .addColumn('spaces', 'integer', (c) => c.notNull())
    .addColumn('start_datetime', 'bigint')
    .addColumn('end_datetime', 'bigint')
    .addColumn('payment_method', 'text')
    .addColumn('payment_state', 'text', (c) => c.notNull()) // paid | unpaid | free
    .addColumn('payment_id', 'text')
    .addColumn('invoice_details', 'text') // JSON
    .addColumn('due_date', 'bigint')
    .addColumn('manual_note', 'text')
    .execute();
  await db.schema.createIndex('bookings_student').on('bookings').columns(['student_id', 'created_at']).execute();
  await db.schema.createIndex('bookings_occurrence').on('bookings').column('occurrence_id').execute();
  await db.schema.createIndex('bookings_educator_start').on('bookings').columns(['educator_id', 'start_datetime']).execute();

  await outcome('orders')
    .addColumn('payment_method', 'text')
    .addColumn('payment_state', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text')
    .addColumn('invoice_details', 'text')
    .addColumn('due_date', 'bigint')
    .addColumn('manual_note', 'text')
    .execute();
  await db.schema.createIndex('orders_student').on('orders').columns(['student_id', 'created_at']).execute();

  await outcome('booking_requests').execute();
  await db.schema.createIndex('booking_requests_student').on('booking_requests').columns(['student_id', 'created_at']).execute();

  await outcome('booking_applications')
    .addColumn('occurrence_id', 'text', (c) => c.references('occurrences.id').onDelete('set null'))
    .addColumn('spaces', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('booking_applications_student').on('booking_applications').columns(['student_id', 'created_at']).execute();

  await db.schema
    .createTable('checkout_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('checkout_id', 'text', (c) => c.notNull().references('checkouts.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_payment_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('checkout_payments_provider_id', ['provider', 'provider_payment_id'])
    .execute();
  await db.schema.createIndex('checkout_payments_checkout').on('checkout_payments').column('checkout_id').execute();

  await db.schema
    .createTable('test_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull()) // JSON
    .addColumn('payment_error', 'text') // JSON
    .addColumn('return_url', 'text')
    .addColumn('card_last4', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('student_form_responses')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull())
    .addColumn('form_response', 'text', (c) => c.notNull()) // JSON
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('student_form_responses_pk', ['user_id', 'form_id'])
    .execute();

  await db.schema
    .createTable('educator_fee_settings')
    .addColumn('educator_id', 'text', (c) => c.primaryKey().references('educators.id').onDelete('cascade'))
    .addColumn('fees_absorbed', 'boolean', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('restricted_course_access')
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('restricted_course_access_pk', ['course_id', 'email'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const t of [
    'restricted_course_access', 'educator_fee_settings', 'student_form_responses', 'test_payments',
    'checkout_payments', 'booking_applications', 'booking_requests', 'orders', 'bookings', 'space_holds', 'checkouts',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
