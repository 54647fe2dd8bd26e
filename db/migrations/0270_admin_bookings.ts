/**
 * The business half of the educator admin (docs/admin.md "Bookings", "Approvals and requests", "Refunds"):
 *
 * - bookings (and orders) get the learner's e-mail and name as plain, lower-case columns (learner_email, learner_name "first
 *   last", learner_last), filled by triggers from the booker's form answers whatever writes the booking (the checkout
 *   engine knows nothing of them), so the admin's search is a prefix range on an index, not a scan of JSON; and
 *   `refunded_total` (pence given back by any means, pending refunds included), kept by the refund service;
 * - the indexes that keep every filter and sort of the bookings list on an index at 100,000 bookings per educator;
 * - `refunds`: one row per refund, written (with its idempotency keys) before the provider is called, so a button
 *   pressed twice or a request repeated makes one refund, and a refund whose answer was lost is finished by the
 *   reconciler with the same provider key;
 * - `test_refunds`: the built-in test provider's refunds (it stands in for a provider's servers);
 * - `booking_quotes`: an educator's answer to a booking request (a date and a price) and the checkout it prepared.
 *
 * PostgreSQL: the learner columns use the "C" collation, so a prefix is a plain byte range whatever the database's
 * default collation.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export const LEARNER_COLUMNS = ['learner_email', 'learner_name', 'learner_last'] as const;
/** The outcomes the admin lists: bookings, and orders of on-demand courses. */
export const LEARNER_TABLES = ['bookings', 'orders'] as const;

/**
 * The bookings list's indexes: [name, columns, partial condition?]. Every one starts with the educator, and a filter's
 * index carries every sort column after its own, so "this filter, that sort" is read from the index alone (the rows
 * themselves are read only for the page's 25). The search's, the date's and the course's also carry the other
 * filters' columns: a search, a date range or a course combined with any filter and any sort is read from them alone.
 */
const SORT_COLUMNS = ['created_at', 'id', 'start_datetime', 'total_cost', 'learner_name'];
const FILTER_COLUMNS = ['status', 'payment_state', 'payment_method', 'origin', 'course_id', 'occurrence_id', 'refunded_total'];
const INDEXES: [string, string[], string?][] = [
  ['bookings_admin_created', ['educator_id', 'created_at', 'id']],
  ['bookings_admin_start', ['educator_id', 'start_datetime', 'id', 'created_at', 'total_cost', 'learner_name', ...FILTER_COLUMNS]],
  ['bookings_admin_total', ['educator_id', 'total_cost', 'id']],
  ['bookings_admin_name', ['educator_id', 'learner_name', 'id', 'created_at', 'start_datetime', 'total_cost', ...FILTER_COLUMNS]],
  ['bookings_admin_email', ['educator_id', 'learner_email', ...SORT_COLUMNS, ...FILTER_COLUMNS]],
  ['bookings_admin_last', ['educator_id', 'learner_last', ...SORT_COLUMNS, ...FILTER_COLUMNS]],
  ['bookings_admin_course', ['educator_id', 'course_id', ...SORT_COLUMNS, ...FILTER_COLUMNS.filter((c) => c !== 'course_id')]],
  ['bookings_admin_occurrence', ['educator_id', 'occurrence_id', ...SORT_COLUMNS, ...FILTER_COLUMNS.filter((c) => c !== 'occurrence_id' && c !== 'course_id')]],
  ['bookings_admin_status', ['educator_id', 'status', ...SORT_COLUMNS]],
  ['bookings_admin_payment_state', ['educator_id', 'payment_state', ...SORT_COLUMNS]],
  ['bookings_admin_method', ['educator_id', 'payment_method', ...SORT_COLUMNS]],
  ['bookings_admin_origin', ['educator_id', 'origin', ...SORT_COLUMNS]],
  ['bookings_admin_refunded', ['educator_id', ...SORT_COLUMNS], 'refunded_total > 0'],
];

/** Orders have no date, status or refunds: their sorts are created, total and learner; their filters course, payment, origin. */
const ORDER_SORT_COLUMNS = ['created_at', 'id', 'total_cost', 'learner_name'];
const ORDER_FILTER_COLUMNS = ['payment_state', 'payment_method', 'origin', 'course_id'];
const ORDER_INDEXES: [string, string[]][] = [
  ['orders_admin_created', ['educator_id', 'created_at', 'id']],
  ['orders_admin_total', ['educator_id', 'total_cost', 'id']],
  ['orders_admin_name', ['educator_id', 'learner_name', 'id', 'created_at', 'total_cost', ...ORDER_FILTER_COLUMNS]],
  ['orders_admin_email', ['educator_id', 'learner_email', ...ORDER_SORT_COLUMNS, ...ORDER_FILTER_COLUMNS]],
  ['orders_admin_last', ['educator_id', 'learner_last', ...ORDER_SORT_COLUMNS, ...ORDER_FILTER_COLUMNS]],
  ['orders_admin_course', ['educator_id', 'course_id', ...ORDER_SORT_COLUMNS, 'payment_state', 'payment_method', 'origin']],
  ['orders_admin_payment_state', ['educator_id', 'payment_state', ...ORDER_SORT_COLUMNS]],
  ['orders_admin_method', ['educator_id', 'payment_method', ...ORDER_SORT_COLUMNS]],
  ['orders_admin_origin', ['educator_id', 'origin', ...ORDER_SORT_COLUMNS]],
];

// eslint-disable-next-line max-lines-per-function -- a migration reads top to bottom as the schema it creates
export async function up(db: AnyDb): Promise<void> {
  const postgres = isPostgres(db);
  for (const table of LEARNER_TABLES) {
    for (const column of LEARNER_COLUMNS) {
      await sql.raw(`alter table ${table} add column ${column} text${postgres ? ' collate "C"' : ''}`).execute(db);
    }
    if (postgres) await learnerTriggerPostgres(db, table);
    else await learnerTriggerSqlite(db, table);
  }
  await sql`alter table bookings add column refunded_total integer not null default 0`.execute(db);
  for (const [name, columns, where] of INDEXES) {
    let index = db.schema.createIndex(name).on('bookings').columns(columns);
    if (where) index = index.where(sql.raw<boolean>(where));
    await index.execute();
  }
  for (const [name, columns] of ORDER_INDEXES) await db.schema.createIndex(name).on('orders').columns(columns).execute();

  await db.schema.createIndex('booking_requests_admin').on('booking_requests').columns(['educator_id', 'status', 'created_at']).execute();
  await db.schema.createIndex('booking_applications_admin').on('booking_applications').columns(['educator_id', 'status', 'created_at']).execute();
  // A booking's e-mails (its page lists them): messages to the learner's address, newest last.
  await db.schema.createIndex('outbox_messages_to').on('outbox_messages').columns(['to_address', 'created_at']).execute();

  await db.schema
    .createTable('refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull())
    .addColumn('booking_id', 'text', (c) => c.notNull())
    /** 1, 2, … per booking: the refund the admin made on the booking as they saw it (see the unique index). */
    .addColumn('seq', 'integer', (c) => c.notNull())
    /** The admin app's key for one press of the button (a repeat with the same key is the same refund). */
    .addColumn('request_key', 'text', (c) => c.notNull())
    /** refund | cancellation | decline | date-cancellation | learner-cancellation */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** Pence back to the payment method (through its provider). */
    .addColumn('amount', 'integer', (c) => c.notNull())
    /** Pence back on the gift card that paid part of the booking (given back in the refund's own transaction). */
    .addColumn('gift_card_amount', 'integer', (c) => c.notNull().defaultTo(0))
    /** Membership credits given back (a cancellation of a booking one paid for). */
    .addColumn('credits_returned', 'integer', (c) => c.notNull().defaultTo(0))
    /** The platform's fee refunded with it (spec 1: the platform refunds its fees on cancellations or refunds). */
    .addColumn('platform_fee_refunded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('GBP'))
    .addColumn('provider', 'text')
    .addColumn('provider_payment_id', 'text')
    /** The idempotency key the provider is sent, every time (refund_{id}). */
    .addColumn('provider_key', 'text', (c) => c.notNull())
    .addColumn('provider_refund_id', 'text')
    /** pending (the provider has not answered) | succeeded | failed */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('reason', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    /** When the reconciler last claimed it (null: never). */
    .addColumn('checked_at', 'bigint')
    .addColumn('completed_at', 'bigint')
    .execute();
  await db.schema.createIndex('refunds_request_key').on('refunds').columns(['educator_id', 'request_key']).unique().execute();
  await db.schema.createIndex('refunds_booking_seq').on('refunds').columns(['booking_id', 'seq']).unique().execute();
  await db.schema.createIndex('refunds_pending').on('refunds').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('test_refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('test_refunds_payment').on('test_refunds').column('payment_id').execute();

  await db.schema
    .createTable('booking_quotes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull())
    .addColumn('course_id', 'text', (c) => c.notNull())
    /** The request it answers (booking_requests.id): one answer per request. */
    .addColumn('request_id', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull())
    /** The private occurrence made for it, its offer, and the checkout prepared for the learner. */
    .addColumn('occurrence_id', 'text', (c) => c.notNull())
    .addColumn('offer_id', 'text', (c) => c.notNull())
    .addColumn('checkout_id', 'text', (c) => c.notNull())
    .addColumn('price', 'integer', (c) => c.notNull())
    .addColumn('spaces', 'integer', (c) => c.notNull())
    .addColumn('start_datetime', 'bigint', (c) => c.notNull())
    .addColumn('end_datetime', 'bigint', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    /** sent | withdrawn */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('booking_quotes_educator').on('booking_quotes').columns(['educator_id', 'created_at']).execute();
}

/**
 * SQLite: each learner column's value, as an expression over a row's contact_details (`row` is a prefix such as
 * "NEW."). Migration 0292 makes the same expressions generated columns.
 */
export function learnerExpressionsSqlite(row = ''): Record<(typeof LEARNER_COLUMNS)[number], string> {
  const path = (field: string) => `json_extract(${row}contact_details, '$.booker.formResponse.${field}')`;
  const email = `lower(trim(coalesce(${path('system_email')}, '')))`;
  const first = `trim(coalesce(${path('system_first_name')}, ''))`;
  const last = `trim(coalesce(${path('system_last_name')}, ''))`;
  const valid = `json_valid(${row}contact_details)`;
  return {
    learner_email: `case when ${valid} then nullif(${email}, '') end`,
    learner_name: `case when ${valid} then nullif(lower(trim(${first} || ' ' || ${last})), '') end`,
    learner_last: `case when ${valid} then nullif(lower(${last}), '') end`,
  };
}

/** SQLite: the columns are set from the booker's answers right after the row is written (and when they change). */
export async function learnerTriggerSqlite(db: AnyDb, table: string): Promise<void> {
  const columns = (row: string) => Object.entries(learnerExpressionsSqlite(row)).map(([column, value]) => `${column} = ${value}`).join(',\n      ');
  const set = `set ${columns('NEW.')} where id = NEW.id`;
  await sql.raw(`create trigger ${table}_learner_insert after insert on ${table} begin update ${table} ${set}; end`).execute(db);
  await sql.raw(`create trigger ${table}_learner_update after update of contact_details on ${table} begin update ${table} ${set}; end`).execute(db);
  await sql.raw(`update ${table} set ${columns('')}`).execute(db);
}

/**
 * Lower case of A–Z only, as SQLite's lower() does (without ICU): both databases store the same text, so a copy
 * between them checks out and a search finds the same bookings. Letters beyond ASCII keep their case.
 */
const ASCII_LOWER_PG = (expr: string) => `translate(${expr}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;

/** PostgreSQL: a BEFORE trigger sets them on the row being written (contact_details is JSON text). */
async function learnerTriggerPostgres(db: AnyDb, table: string): Promise<void> {
  await sql.raw(`create or replace function admin_learner_columns() returns trigger language plpgsql as $$
    declare form jsonb;
    begin
      begin
        form := (new.contact_details::jsonb) #> '{booker,formResponse}';
      exception when others then
        form := null;
      end;
      new.learner_email := nullif(${ASCII_LOWER_PG('trim(coalesce(form ->> \'system_email\', \'\'))')}, '');
      new.learner_name := nullif(${ASCII_LOWER_PG('trim(trim(coalesce(form ->> \'system_first_name\', \'\')) || \' \' || trim(coalesce(form ->> \'system_last_name\', \'\')))')}, '');
      new.learner_last := nullif(${ASCII_LOWER_PG('trim(coalesce(form ->> \'system_last_name\', \'\'))')}, '');
      return new;
    end $$`).execute(db);
  await sql.raw(`create trigger ${table}_learner before insert or update of contact_details on ${table}
    for each row execute function admin_learner_columns()`).execute(db);
  // Fire it once for the rows already there.
  await sql.raw(`update ${table} set contact_details = contact_details`).execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema.dropTable('booking_quotes').ifExists().execute();
  await db.schema.dropTable('test_refunds').ifExists().execute();
  await db.schema.dropTable('refunds').ifExists().execute();
  await db.schema.dropIndex('outbox_messages_to').ifExists().execute();
  await db.schema.dropIndex('booking_applications_admin').ifExists().execute();
  await db.schema.dropIndex('booking_requests_admin').ifExists().execute();
  for (const [name] of [...INDEXES, ...ORDER_INDEXES]) await db.schema.dropIndex(name).ifExists().execute();
  for (const table of LEARNER_TABLES) {
    if (postgres) await sql.raw(`drop trigger if exists ${table}_learner on ${table}`).execute(db);
    else for (const event of ['insert', 'update']) await sql.raw(`drop trigger if exists ${table}_learner_${event}`).execute(db);
    for (const column of LEARNER_COLUMNS) await sql.raw(`alter table ${table} drop column ${column}`).execute(db);
  }
  if (postgres) await sql`drop function if exists admin_learner_columns()`.execute(db);
  await sql`alter table bookings drop column refunded_total`.execute(db);
}
