/** Every migration, in order. Kept as an explicit list so bundlers and tsx agree on it. */
import type { Migration, MigrationProvider } from 'kysely/migration';
import * as m0001 from './0001_catalogue.ts';
import * as m0002 from './0002_public.ts';
import * as m0003 from './0003_accounts.ts';
import * as m0004 from './0004_checkout.ts';
import * as m0005 from './0005_payments.ts';
import * as m0006 from './0006_catalogue_indexes.ts';
import * as m0007 from './0007_documents.ts';
import * as m0010 from './0010_mail_outbox.ts';
import * as m0020 from './0020_payment_reconciliation.ts';
import * as m0030 from './0030_page_changes.ts';
import * as m0031 from './0031_published_carousels.ts';
import * as m0040 from './0040_search_read_model.ts';
import * as m0050 from './0050_phone_e164.ts';
import * as m0070 from './0070_checkouts_without_course.ts';
import * as m0080 from './0080_memberships.ts';
import * as m0081 from './0081_products_in_page_feed.ts';
import * as m0090 from './0090_payment_option_methods.ts';
import * as m0071 from './0071_gift_vouchers.ts';
import * as m0041 from './0041_search_cards.ts';
import * as m0042 from './0042_search_walk_indexes.ts';
import * as m0100 from './0100_checkout_catalogue_versions.ts';
import * as m0110 from './0110_search_facets.ts';
import * as m0120 from './0120_catalogue_versions_forms_payment_options.ts';
import * as m0130 from './0130_search_price_facets_sqlite.ts';
import * as m0170 from './0170_one_membership_per_plan.ts';
import * as m0150 from './0150_hold_caps.ts';
import * as m0180 from './0180_membership_credit_holds.ts';
import * as m0160 from './0160_slug_format.ts';
import * as m0250 from './0250_search_sort_tables.ts';
import * as m0161 from './0161_educator_urls.ts';
import * as m0220 from './0220_metrics_indexes.ts';
import * as m0230 from './0230_admin_foundation.ts';
import * as m0245 from './0245_course_admin.ts';
import * as m0260 from './0260_admin_dates.ts';
import * as m0240 from './0240_educator_old_slugs.ts';
import * as m0270 from './0270_admin_bookings.ts';
import * as m0280 from './0280_admin_business.ts';
import * as m0290 from './0290_admin_money_messages.ts';
import * as m0291 from './0291_educator_images.ts';
import * as m0292 from './0292_learner_generated_columns.ts';
import * as m0293 from './0293_learner_message_orders.ts';
import * as m0294 from './0294_session_change_notices.ts';
import * as m0295 from './0295_checkout_known_rows.ts';
import * as m0296 from './0296_search_lexemes.ts';
import * as m0297 from './0297_take_spaces_at_commit.ts';
import * as m0298 from './0298_outbox_due_order.ts';
import * as m0299 from './0299_search_replica_feed.ts';

export const migrations: Record<string, Migration> = {
  '0001_catalogue': m0001,
  '0002_public': m0002,
  '0003_accounts': m0003,
  '0004_checkout': m0004,
  '0005_payments': m0005,
  '0006_catalogue_indexes': m0006,
  '0007_documents': m0007,
  '0010_mail_outbox': m0010,
  '0020_payment_reconciliation': m0020,
  '0030_page_changes': m0030,
  '0031_published_carousels': m0031,
  '0040_search_read_model': m0040,
  '0050_phone_e164': m0050,
  '0070_checkouts_without_course': m0070,
  '0080_memberships': m0080,
  '0081_products_in_page_feed': m0081,
  '0090_payment_option_methods': m0090,
  '0071_gift_vouchers': m0071,
  '0041_search_cards': m0041,
  '0042_search_walk_indexes': m0042,
  '0100_checkout_catalogue_versions': m0100,
  '0110_search_facets': m0110,
  '0120_catalogue_versions_forms_payment_options': m0120,
  '0130_search_price_facets_sqlite': m0130,
  '0170_one_membership_per_plan': m0170,
  '0150_hold_caps': m0150,
  '0180_membership_credit_holds': m0180,
  '0160_slug_format': m0160,
  '0161_educator_urls': m0161,
  '0220_metrics_indexes': m0220,
  '0230_admin_foundation': m0230,
  '0260_admin_dates': m0260,
  '0250_search_sort_tables': m0250,
  '0245_course_admin': m0245,
  '0240_educator_old_slugs': m0240,
  '0270_admin_bookings': m0270,
  '0280_admin_business': m0280,
  '0290_admin_money_messages': m0290,
  '0291_educator_images': m0291,
  '0292_learner_generated_columns': m0292,
  '0293_learner_message_orders': m0293,
  '0294_session_change_notices': m0294,
  '0295_checkout_known_rows': m0295,
  '0296_search_lexemes': m0296,
  '0297_take_spaces_at_commit': m0297,
  '0298_outbox_due_order': m0298,
  '0299_search_replica_feed': m0299,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
