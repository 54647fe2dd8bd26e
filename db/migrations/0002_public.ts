/**
 * The public area (spec 3 "Enquiry payload", 1 "Analytics", 7 "Public pages"):
 * enquiries, analytics events, redeemed captcha signatures and the course search index.
 *
 * The search index has one row per course (name, educator name, category, description text,
 * keyword, city) and is kept in step by triggers on courses, educators and categories, so every
 * writer (seed, tests, admin) keeps it current without calling anything:
 * - SQLite: an FTS5 virtual table `course_search` (porter stemming, diacritics folded), ranked by bm25;
 * - PostgreSQL: a table `course_search` with a generated, weighted tsvector column `document`
 *   and a GIN index on it, ranked by ts_rank.
 * - both: a view `course_search_source` computes each course's row; the triggers copy from it.
 * `rebuildSearchIndex(db)` (db/queries/search.ts) rebuilds it from scratch should it ever drift.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('enquiries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull()) // 'message' | 'waitlist'
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.references('courses.id').onDelete('set null'))
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull()) // normalised, e.g. +447700900123
    .addColumn('message', 'text')
    .addColumn('enquiry_type', 'text') // one of the educator's enquiry type labels
    .addColumn('occurrence_ref', 'text')
    .addColumn('course_slug', 'text')
    .addColumn('course_name', 'text')
    .addColumn('embedded', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('context', 'text', (c) => c.notNull()) // marketplace | minisite | embed
    .addColumn('site', 'text') // host name of the sending page
    .addColumn('user_id', 'text') // signed-in user, if any
    .addColumn('ip_hash', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('enquiries_educator_created').on('enquiries').columns(['educator_id', 'created_at']).execute();

  await db.schema
    .createTable('analytics_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('educator_id', 'text', (c) => c.notNull().references('educators.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.references('courses.id').onDelete('set null'))
    .addColumn('properties', 'text', (c) => c.notNull()) // JSON
    .addColumn('context', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('analytics_events_educator_name_created')
    .on('analytics_events')
    .columns(['educator_id', 'name', 'created_at'])
    .execute();

  await db.schema
    .createTable('captcha_solutions')
    .addColumn('signature', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('captcha_solutions_expires').on('captcha_solutions').column('expires_at').execute();

  if (isPostgres(db)) await createPostgresSearch(db);
  else await createSqliteSearch(db);
  // Courses already in the database (a catalogue loaded before this migration) are indexed now.
  await sql.raw(`insert into course_search (${SOURCE_COLUMNS}) select ${SOURCE_COLUMNS} from course_search_source`).execute(db);
}

/**
 * `course_search_source`: a view giving each course's index row (HTML tags of the description are
 * dropped on PostgreSQL; SQLite has no regular expressions, so its tags are indexed as words).
 * Triggers and rebuildSearchIndex (db/queries/search.ts) copy from it.
 */
const SOURCE_COLUMNS = 'course_id, name, educator_name, category, description, keyword, city';

async function createSqliteSearch(db: AnyDb): Promise<void> {
  await sql`create virtual table course_search using fts5(
    course_id unindexed, name, educator_name, category, description, keyword, city,
    tokenize = 'porter unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`create view course_search_source as
    select c.id as course_id, c.name as name, e.name as educator_name, coalesce(cat.name, '') as category,
      coalesce(c.description, '') || ' ' || coalesce(c.meta_description, '') as description,
      coalesce(c.keyword, '') as keyword,
      coalesce(case when json_valid(c.address) then json_extract(c.address, '$.city') end, '') as city
    from courses c join educators e on e.id = c.educator_id left join categories cat on cat.id = c.category_id`.execute(db);
  const insertNew = `insert into course_search (${SOURCE_COLUMNS}) select ${SOURCE_COLUMNS} from course_search_source where course_id = new.id;`;
  await sql.raw(`create trigger course_search_course_insert after insert on courses begin ${insertNew} end`).execute(db);
  await sql.raw(`create trigger course_search_course_update after update on courses begin
      delete from course_search where course_id = old.id;
      ${insertNew}
    end`).execute(db);
  await sql.raw(`create trigger course_search_course_delete after delete on courses begin
      delete from course_search where course_id = old.id;
    end`).execute(db);
  await sql.raw(`create trigger course_search_educator_name after update of name on educators begin
      update course_search set educator_name = new.name where course_id in (select id from courses where educator_id = new.id);
    end`).execute(db);
  await sql.raw(`create trigger course_search_category_name after update of name on categories begin
      update course_search set category = new.name where course_id in (select id from courses where category_id = new.id);
    end`).execute(db);
}

async function createPostgresSearch(db: AnyDb): Promise<void> {
  await sql`create table course_search (
    course_id text primary key references courses(id) on delete cascade,
    name text not null,
    educator_name text not null,
    category text not null,
    description text not null,
    keyword text not null,
    city text not null,
    document tsvector generated always as (
      setweight(to_tsvector('english', name), 'A') ||
      setweight(to_tsvector('english', educator_name), 'B') ||
      setweight(to_tsvector('english', keyword), 'B') ||
      setweight(to_tsvector('english', category), 'C') ||
      setweight(to_tsvector('english', city), 'C') ||
      setweight(to_tsvector('english', description), 'D')
    ) stored
  )`.execute(db);
  await sql`create index course_search_document on course_search using gin (document)`.execute(db);
  await sql`create view course_search_source as
    select c.id as course_id, c.name as name, e.name as educator_name, coalesce(cat.name, '') as category,
      regexp_replace(coalesce(c.description, '') || ' ' || coalesce(c.meta_description, ''), '<[^>]*>', ' ', 'g') as description,
      coalesce(c.keyword, '') as keyword,
      coalesce(c.address::jsonb ->> 'city', '') as city
    from courses c join educators e on e.id = c.educator_id left join categories cat on cat.id = c.category_id`.execute(db);
  // Statement-level triggers with transition tables: one set-based write per statement, so bulk
  // loads of the catalogue stay fast. Unqualified names resolve through search_path at run time.
  await sql`create function course_search_courses_inserted() returns trigger language plpgsql as $$
  begin
    insert into course_search (course_id, name, educator_name, category, description, keyword, city)
    select s.course_id, s.name, s.educator_name, s.category, s.description, s.keyword, s.city
    from course_search_source s join inserted_courses n on n.id = s.course_id;
    return null;
  end $$`.execute(db);
  await sql`create trigger course_search_courses_insert after insert on courses
    referencing new table as inserted_courses for each statement execute function course_search_courses_inserted()`.execute(db);
  await sql`create function course_search_courses_updated() returns trigger language plpgsql as $$
  begin
    delete from course_search where course_id in (select id from old_courses);
    insert into course_search (course_id, name, educator_name, category, description, keyword, city)
    select s.course_id, s.name, s.educator_name, s.category, s.description, s.keyword, s.city
    from course_search_source s join new_courses n on n.id = s.course_id;
    return null;
  end $$`.execute(db);
  await sql`create trigger course_search_courses_update after update on courses
    referencing old table as old_courses new table as new_courses for each statement execute function course_search_courses_updated()`.execute(db);
  // Deleted courses leave through the foreign key (on delete cascade).
  await sql`create function course_search_educators_updated() returns trigger language plpgsql as $$
  begin
    update course_search s set educator_name = n.name
    from new_educators n join courses c on c.educator_id = n.id
    where s.course_id = c.id and s.educator_name is distinct from n.name;
    return null;
  end $$`.execute(db);
  await sql`create trigger course_search_educators_update after update on educators
    referencing new table as new_educators for each statement execute function course_search_educators_updated()`.execute(db);
  await sql`create function course_search_categories_updated() returns trigger language plpgsql as $$
  begin
    update course_search s set category = n.name
    from new_categories n join courses c on c.category_id = n.id
    where s.course_id = c.id and s.category is distinct from n.name;
    return null;
  end $$`.execute(db);
  await sql`create trigger course_search_categories_update after update on categories
    referencing new table as new_categories for each statement execute function course_search_categories_updated()`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists course_search_courses_insert on courses`.execute(db);
    await sql`drop trigger if exists course_search_courses_update on courses`.execute(db);
    await sql`drop trigger if exists course_search_educators_update on educators`.execute(db);
    await sql`drop trigger if exists course_search_categories_update on categories`.execute(db);
    for (const f of ['course_search_courses_inserted', 'course_search_courses_updated', 'course_search_educators_updated', 'course_search_categories_updated']) {
      await sql.raw(`drop function if exists ${f}()`).execute(db);
    }
  } else {
    for (const t of [
      'course_search_course_insert', 'course_search_course_update', 'course_search_course_delete',
      'course_search_educator_name', 'course_search_category_name',
    ]) {
      await sql.raw(`drop trigger if exists ${t}`).execute(db);
    }
  }
  await sql`drop view if exists course_search_source`.execute(db);
  for (const t of ['course_search', 'captcha_solutions', 'analytics_events', 'enquiries']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
