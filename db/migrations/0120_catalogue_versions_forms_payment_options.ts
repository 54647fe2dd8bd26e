/**
 * The checkout's forms and payment options join its catalogue cache (api/checkout/catalogue-cache.ts): writes to
 * them raise their educator's catalogue version too (migration 0100), so Contact Info and Payment no longer read
 * them on every action (one to four statements each, each a round trip on PostgreSQL).
 *
 * A system form (educator_id null) leads to no educator: it changes only with a migration, that is with a deploy,
 * which starts processes with empty caches.
 */
import type { Kysely } from 'kysely';
import { createVersionTriggers, dropVersionTriggers, inTransaction, type CATALOGUE_VERSION_SOURCES } from './0100_checkout_catalogue_versions.ts';

type AnyDb = Kysely<any>;

const viaForm = '(select f.educator_id from forms f where f.id = R.form_id)';
export const FORM_AND_PAYMENT_OPTION_SOURCES: typeof CATALOGUE_VERSION_SOURCES = [
  { table: 'forms', educator: 'R.educator_id' },
  { table: 'form_fields', educator: viaForm },
  { table: 'form_validations', educator: viaForm },
  { table: 'payment_options', educator: 'R.educator_id' },
  { table: 'payment_option_methods', educator: '(select p.educator_id from payment_options p where p.id = R.payment_options_id)' },
];

export function up(db: AnyDb): Promise<void> {
  return inTransaction(db, (tx) => createVersionTriggers(tx, FORM_AND_PAYMENT_OPTION_SOURCES));
}

export function down(db: AnyDb): Promise<void> {
  return inTransaction(db, (tx) => dropVersionTriggers(tx, FORM_AND_PAYMENT_OPTION_SOURCES));
}
