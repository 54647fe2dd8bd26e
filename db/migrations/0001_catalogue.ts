/**
 * The catalogue (spec section 3): educators and everything they publish.
 * Dialect-neutral: text ids, bigint epoch seconds, integer pence, JSON as text (db/codec.ts).
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<any>;

// eslint-disable-next-line max-lines-per-function -- a migration reads top to bottom as the schema it creates
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('educators')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cover_url', 'text')
    .addColumn('logo_url', 'text')
    .addColumn('address', 'text') // JSON {line1, city, postcode, country}
    .addColumn('phone_number', 'text')
    .addColumn('email', 'text')
    .addColumn('tos', 'text') // HTML
    .addColumn('cancellation_allowed', 'integer') // days, null when not offered
    .addColumn('can_be_contacted', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('claimed', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('feature_flags', 'text', (c) => c.notNull()) // JSON FeatureFlags
    .addColumn('third_party_codes', 'text', (c) => c.notNull()) // JSON {ga4_id, facebook_pixel_id}
    .addColumn('vat_settings', 'text', (c) => c.notNull()) // JSON {enabled, is_vat_absorbed, tax_label, rate_bp}
    .addColumn('color_brand', 'text')
    .addColumn('on_color_brand', 'text')
    .addColumn('whitelabelling_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('links', 'text', (c) => c.notNull()) // JSON {web, facebook, …}
    .addColumn('working_hours', 'text', (c) => c.notNull()) // JSON {monday: null|[]|[{from, until}]}
    .addColumn('enquiry_types', 'text', (c) => c.notNull()) // JSON [{label}]
    .addColumn('form_ref', 'text') // the educator's default booker form
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('categories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('locations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('formatted', 'text', (c) => c.notNull()) // multi-line address
    .addColumn('address', 'text') // JSON parts
    .addColumn('lat', 'double precision')
    .addColumn('lng', 'double precision')
    .execute();
  await db.schema.createIndex('locations_educator').on('locations').column('educator_id').execute();

  await db.schema
    .createTable('faqs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull()) // HTML
    .execute();

  await db.schema
    .createTable('lessons')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('forms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.references('educators.id').onDelete('cascade')) // null: system form
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('form_fields')
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('data_type', 'text', (c) => c.notNull())
    .addColumn('items', 'text') // JSON [string] options for dropdown/radio/checkbox
    .addColumn('educator_ref', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('form_fields_pk', ['form_id', 'id'])
    .execute();

  await db.schema
    .createTable('form_validations')
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('field_ref', 'text', (c) => c.notNull())
    .addColumn('condition', 'text', (c) => c.notNull()) // "required"
    .addColumn('value_json', 'text', (c) => c.notNull()) // JSON value, e.g. true
    .addPrimaryKeyConstraint('form_validations_pk', ['form_id', 'field_ref', 'condition'])
    .execute();

  await db.schema
    .createTable('courses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('level', 'text')
    .addColumn('description', 'text', (c) => c.notNull().defaultTo('')) // HTML
    .addColumn('meta_description', 'text')
    .addColumn('keyword', 'text')
    .addColumn('category_id', 'text', (c) => c.references('categories.id'))
    .addColumn('type', 'text', (c) => c.notNull()) // on-demand | blended | on-request | class
    .addColumn('delivery_modes', 'text', (c) => c.notNull()) // JSON ["online", "in-person", …]
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('GBP'))
    .addColumn('spaces', 'integer')
    .addColumn('pricing_type', 'text', (c) => c.notNull()) // price-offers | free | price-on-enquiry | price-range
    .addColumn('minimum_price', 'integer')
    .addColumn('maximum_price', 'integer')
    .addColumn('form_ref', 'text', (c) => c.notNull().defaultTo('system_default'))
    .addColumn('guest_form_ref', 'text')
    .addColumn('capture_guests', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('approval_required', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('restricted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('img_urls', 'text', (c) => c.notNull()) // JSON [url]
    .addColumn('autoimg', 'text') // JSON {url, author}
    .addColumn('address', 'text') // JSON parts
    .addColumn('lat', 'double precision')
    .addColumn('lng', 'double precision')
    .addColumn('faq_ids', 'text', (c) => c.notNull()) // JSON [faqId]
    .addColumn('sections', 'text', (c) => c.notNull()) // JSON [{name, contents: [{type: 'lesson', ref}]}]
    .addColumn('course_duration', 'integer') // minutes
    .addColumn('duration_pricing', 'text', (c) => c.notNull()) // JSON [{_id, duration, label, description, extra_cost}]
    .addColumn('date_requests', 'text') // "calendar_based" or null
    .addColumn('available_for_online_delivery', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('available_for_in_person_delivery', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('educator_travel_settings', 'text', (c) => c.notNull()) // JSON {enabled, type}
    .addColumn('student_travel_settings', 'text', (c) => c.notNull()) // JSON {enabled, locations: [id]}
    .addColumn('published', 'boolean', (c) => c.notNull().defaultTo(true))
    .addUniqueConstraint('courses_educator_slug', ['educator_id', 'slug'])
    .execute();
  await db.schema.createIndex('courses_category').on('courses').column('category_id').execute();

  await db.schema
    .createTable('collections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text')
    .addColumn('published', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('collections_educator').on('collections').column('educator_id').execute();

  await db.schema
    .createTable('collection_courses')
    .addColumn('collection_id', 'text', (c) => c.notNull().references('collections.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('collection_courses_pk', ['collection_id', 'course_id'])
    .execute();

  await db.schema
    .createTable('occurrences')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('public')) // public | private
    .addColumn('start_datetime', 'bigint', (c) => c.notNull())
    .addColumn('end_datetime', 'bigint', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull().defaultTo('Europe/London')) // times.*.zoned_datetime derive from it
    .addColumn('delivery', 'text', (c) => c.notNull()) // online | in-person | hybrid
    .addColumn('address', 'text') // JSON parts
    .addColumn('spaces', 'integer') // capacity; null falls back to the course's spaces
    .addColumn('available_spaces', 'integer') // capacity left; kept by the checkout in the same transaction as each hold
    .addColumn('parent_ref', 'text', (c) => c.references('occurrences.id').onDelete('cascade'))
    .addColumn('individually_bookable', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await db.schema.createIndex('occurrences_course_start').on('occurrences').columns(['course_id', 'start_datetime']).execute();

  await db.schema
    .createTable('offers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('occurrence_id', 'text', (c) => c.references('occurrences.id').onDelete('cascade')) // null: course-wide
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('price', 'integer') // pence; 0 or null is Free
    .addColumn('spaces', 'integer', (c) => c.notNull().defaultTo(1)) // spaces consumed per unit
    .addColumn('start_at', 'bigint') // sale window
    .addColumn('end_at', 'bigint')
    .execute();
  await db.schema.createIndex('offers_course').on('offers').columns(['course_id', 'occurrence_id']).execute();

  await db.schema
    .createTable('add_ons')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('occurrence_id', 'text', (c) => c.references('occurrences.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('price', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('add_ons_course').on('add_ons').columns(['course_id', 'occurrence_id']).execute();

  await db.schema
    .createTable('reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.references('courses.id').onDelete('set null'))
    .addColumn('entity', 'text', (c) => c.notNull()) // 'course' | 'educator'
    .addColumn('rating', 'double precision', (c) => c.notNull())
    .addColumn('breakdown', 'text') // JSON {material, facilitator, organiser, resources, delivery, communication}
    .addColumn('verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('source_key', 'text', (c) => c.notNull()) // marketplace | facebook | googlemaps | …
    .addColumn('source_label', 'text', (c) => c.notNull())
    .addColumn('external_url', 'text')
    .addColumn('reviewer_id', 'text') // the learner's student id, when written here
    .addColumn('reviewer_name', 'text', (c) => c.notNull())
    .addColumn('public_message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('response_message', 'text')
    .addColumn('response_created_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('archived_at', 'bigint')
    .execute();
  await db.schema.createIndex('reviews_educator_created').on('reviews').columns(['educator_id', 'created_at']).execute();
  await db.schema.createIndex('reviews_course_created').on('reviews').columns(['course_id', 'created_at']).execute();

  // Derived from reviews (kept in step by the code that writes reviews; rebuildable any time).
  await db.schema
    .createTable('review_aggregates')
    .addColumn('subject_type', 'text', (c) => c.notNull()) // 'educator' | 'course'
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('rating', 'double precision', (c) => c.notNull())
    .addColumn('material', 'double precision')
    .addColumn('facilitator', 'double precision')
    .addColumn('organiser', 'double precision')
    .addColumn('resources', 'double precision')
    .addColumn('delivery', 'double precision')
    .addColumn('communication', 'double precision')
    .addPrimaryKeyConstraint('review_aggregates_pk', ['subject_type', 'subject_id'])
    .execute();

  await db.schema
    .createTable('payment_options')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.references('courses.id').onDelete('cascade')) // null: educator-wide
    .addColumn('card_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('paypal_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('klarna_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('invoice_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('manual_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('manual_label', 'text')
    .addColumn('manual_message', 'text')
    .addColumn('invoice_due_days', 'integer', (c) => c.notNull().defaultTo(14))
    .execute();
  await db.schema.createIndex('payment_options_owner').on('payment_options').columns(['educator_id', 'course_id']).unique().execute();

  await db.schema
    .createTable('vouchers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.references('courses.id').onDelete('cascade')) // null: any course of the educator
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull()) // 'percent' | 'fixed'
    .addColumn('amount', 'integer', (c) => c.notNull()) // percent: whole percent; fixed: pence
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('GBP'))
    .addColumn('expires_at', 'bigint')
    .addColumn('max_uses', 'integer')
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('vouchers_educator_code', ['educator_id', 'code'])
    .execute();

  // Catalogue-wide key/value facts (e.g. the seed that built the demo catalogue).
  await db.schema
    .createTable('catalogue_meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

}

export async function down(db: AnyDb): Promise<void> {
  for (const t of [
    'catalogue_meta', 'vouchers', 'payment_options', 'review_aggregates', 'reviews', 'add_ons', 'offers',
    'occurrences', 'collection_courses', 'collections', 'courses', 'form_validations', 'form_fields', 'forms',
    'lessons', 'faqs', 'locations', 'categories', 'educators',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
