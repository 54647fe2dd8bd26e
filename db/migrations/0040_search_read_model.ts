/**
 * The course search read model: everything search filters and sorts on, one row per course, kept in step
 * by triggers so every writer (seed, tests, admin, the API) keeps it current without calling anything.
 * It replaces the weighted full-text index of migration 0002, whose ranking (bm25, ts_rank) had to score
 * every match of a query before the first page could be answered (about a second at 100,000 courses).
 *
 * Search (db/queries/search.ts) ranks a query's matches in levels — the course named exactly as the query,
 * then every word in the course name, then in the name, educator name or keyword, then also in the category
 * or city, then anywhere including the description — and within a level by popularity (rating × review
 * count), newest, id. Each level is its own index, so a page only reads the rows it shows.
 *
 * `course_search` (both engines): course_id, published, educator_id, category_id, delivery_mask (bits of
 * SEARCH_DELIVERY_BITS), from_price / to_price (the card's price range in pence, null when unknown),
 * popularity, created_at, name_key (lower(trim(name))).
 *
 * SQLite: `key`, the row id, orders courses by (popularity desc, created_at desc) in groups
 * (see SEARCH_KEY in db/queries/search.ts), and four contentless FTS5 tables `course_search_l1`…`l4` —
 * one per level's text, published courses only — share it as their rowid, so FTS5 returns a level's
 * matches already in popularity order and a page stops after the rows it needs. Their text ends with
 * facet tokens (category, educator, delivery mode; `§` joins them so no typed word can match one), so a
 * filtered query is an FTS5 intersection rather than a walk past non-matching rows. Porter stemming,
 * diacritics folded, prefix indexes up to 8 characters (a typed word matches as a prefix without merging
 * every token that shares it). FTS5 maintenance hangs off course_search inserts and deletes.
 *
 * PostgreSQL: course_search holds the facts and a stripped tsvector per level (`doc_l4`…`doc_l1`, english
 * configuration, GIN-indexed); B-tree indexes give each sort order, and the planner chooses between an
 * ordered walk (common words) and a GIN bitmap (rare words).
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: AnyDb): Promise<void> {
  if (isPostgres(db)) await upPostgres(db);
  else await upSqlite(db);
}

/** Columns both engines compute for a course (in course_search_source). */
const FACT_COLUMNS = 'course_id, published, educator_id, category_id, delivery_mask, from_price, to_price, popularity, created_at, name_key';

/**
 * The facts of a course as SQL select items over `courses c` joined with its review aggregate `a`.
 * The price range is coursePriceRange (db/queries/course-cards.ts) in SQL: free → 0–0; else the course's
 * minimum/maximum, for price-offers courses without them the lowest/highest offer (no price counts as 0).
 */
function factItems(offersMin: string, offersMax: string): string {
  return `c.id as course_id, c.published as published, c.educator_id as educator_id, c.category_id as category_id,
    (case when c.delivery_modes like '%"online"%' then 1 else 0 end) + (case when c.delivery_modes like '%"in-person"%' then 2 else 0 end)
      + (case when c.delivery_modes like '%"hybrid"%' then 4 else 0 end) + (case when c.delivery_modes like '%"on-demand"%' then 8 else 0 end)
      + (case when c.delivery_modes like '%"on-request"%' then 16 else 0 end) as delivery_mask,
    (case when c.pricing_type = 'free' then 0 else coalesce(c.minimum_price, case when c.pricing_type = 'price-offers' then ${offersMin} end, c.maximum_price) end) as from_price,
    (case when c.pricing_type = 'free' then 0 else coalesce(c.maximum_price, case when c.pricing_type = 'price-offers' then ${offersMax} end, c.minimum_price) end) as to_price,
    coalesce(a.rating, 0) * coalesce(a.count, 0) as popularity,
    c.created_at as created_at, lower(trim(c.name)) as name_key`;
}
const OFFERS_MIN = '(select min(coalesce(o.price, 0)) from offers o where o.course_id = c.id)';
const OFFERS_MAX = '(select max(coalesce(o.price, 0)) from offers o where o.course_id = c.id)';
const AGGREGATE_JOIN = `left join review_aggregates a on a.subject_type = 'course' and a.subject_id = c.id`;

/**
 * Indexes for each sort order and the filters that narrow before sorting (both engines). Each also carries
 * the filter columns, so a page and its count read the index alone (SQLite: trailing key columns;
 * PostgreSQL: INCLUDE, for index-only scans once the table is vacuumed).
 */
async function createSortIndexes(db: AnyDb, postgres: boolean): Promise<void> {
  const id = `course_id${postgres ? ' collate "C"' : ''}`;
  const popular = `popularity desc, created_at desc, ${id}`;
  // [name, key columns, filter columns carried along]
  const all = 'category_id, educator_id, delivery_mask, from_price, to_price';
  const indexes: Array<[string, string, string]> = [
    ['course_search_popular', popular, all],
    ['course_search_newest', `created_at desc, ${id}`, all],
    ['course_search_price_asc', `(from_price is null), from_price, ${popular}`, 'category_id, educator_id, delivery_mask, to_price'],
    ['course_search_price_desc', `(to_price is null), to_price desc, ${popular}`, 'category_id, educator_id, delivery_mask, from_price'],
    ['course_search_category', `category_id, ${popular}`, 'educator_id, delivery_mask, from_price, to_price'],
    ['course_search_educator', `educator_id, ${popular}`, 'category_id, delivery_mask, from_price, to_price'],
  ];
  for (const [name, keys, carried] of indexes) {
    const columns = postgres ? `(${keys}) include (${carried})` : `(${keys}, ${carried})`;
    await sql.raw(`create index ${name} on course_search ${columns} where published`).execute(db);
  }
  await sql.raw('create index course_search_name on course_search (name_key) where published').execute(db);
  // The next listed occurrence of each card and the offers' sale ends, read from indexes alone.
  await sql.raw(`create index occurrences_course_listing on occurrences
    (course_id, start_datetime, visibility, parent_ref, individually_bookable, id)`).execute(db);
  await sql.raw('create index offers_course_sale_end on offers (course_id, occurrence_id, end_at, id)').execute(db);
}

const LEVEL_TABLES = ['course_search_l4', 'course_search_l3', 'course_search_l2', 'course_search_l1'] as const;

// eslint-disable-next-line max-lines-per-function -- a migration reads top to bottom as the schema it creates
async function upSqlite(db: AnyDb): Promise<void> {
  for (const t of [
    'course_search_course_insert', 'course_search_course_update', 'course_search_course_delete',
    'course_search_educator_name', 'course_search_category_name',
  ]) {
    await sql.raw(`drop trigger if exists ${t}`).execute(db);
  }
  await sql`drop view if exists course_search_source`.execute(db);
  await sql`drop table if exists course_search`.execute(db);

  await sql`create table course_search (
    key integer primary key,
    course_id text not null unique,
    published integer not null,
    educator_id text not null,
    category_id text,
    delivery_mask integer not null,
    from_price integer,
    to_price integer,
    popularity real not null,
    created_at integer not null,
    name_key text not null
  )`.execute(db);
  await createSortIndexes(db, false);

  // g: the key's group (SEARCH_KEY in db/queries/search.ts): whole popularity descending, then creation
  // hour descending; the very popular (≥ 32767) share the first group, negative popularity the last.
  await sql.raw(`create view course_search_source as
    select f.*, (case
        when f.popularity >= 32767 then 0
        when f.popularity < 0 then 68719476735
        else (32767 - cast(f.popularity as integer)) * 2097152 + (2097151 - min(max(f.created_at / 3600, 0), 2097151))
      end) as g
    from (select ${factItems(OFFERS_MIN, OFFERS_MAX)} from courses c ${AGGREGATE_JOIN}) f`).execute(db);

  // The text of each level, with the facet tokens. Tags of HTML descriptions are indexed as words
  // (SQLite has no regular expressions), as before.
  // Ids are written in hex (plus a final 0, which no stemming rule touches) so any id makes one token.
  const facets = `' §e' || hex(c.educator_id) || '0'
      || coalesce(' §c' || hex(c.category_id) || '0', '')
      || (case when c.delivery_modes like '%"online"%' then ' §d1' else '' end)
      || (case when c.delivery_modes like '%"in-person"%' then ' §d2' else '' end)
      || (case when c.delivery_modes like '%"hybrid"%' then ' §d4' else '' end)
      || (case when c.delivery_modes like '%"on-demand"%' then ' §d8' else '' end)
      || (case when c.delivery_modes like '%"on-request"%' then ' §d16' else '' end)`;
  const strong = `c.name || ' ' || e.name || ' ' || coalesce(c.keyword, '')`;
  const place = `${strong} || ' ' || coalesce(cat.name, '') || ' ' || coalesce(case when json_valid(c.address) then json_extract(c.address, '$.city') end, '')`;
  await sql.raw(`create view course_search_text as
    select c.id as course_id,
      c.name || ${facets} as t4,
      ${strong} || ${facets} as t3,
      ${place} || ${facets} as t2,
      ${place} || ' ' || coalesce(c.description, '') || ' ' || coalesce(c.meta_description, '') || ${facets} as t1
    from courses c join educators e on e.id = c.educator_id left join categories cat on cat.id = c.category_id`).execute(db);

  for (const table of LEVEL_TABLES) {
    await sql.raw(`create virtual table ${table} using fts5(
      t, content = '', contentless_delete = 1, detail = none,
      tokenize = "porter unicode61 remove_diacritics 2 tokenchars '§'", prefix = '1 2 3 4 5 6 7 8'
    )`).execute(db);
  }
  await sql.raw(`create trigger course_search_fts_insert after insert on course_search when new.published begin
    ${LEVEL_TABLES.map((t) => `insert into ${t} (rowid, t) select new.key, v.t${t.slice(-1)} from course_search_text v where v.course_id = new.course_id;`).join('\n    ')}
  end`).execute(db);
  await sql.raw(`create trigger course_search_fts_delete after delete on course_search when old.published begin
    ${LEVEL_TABLES.map((t) => `delete from ${t} where rowid = old.key;`).join('\n    ')}
  end`).execute(db);

  // A course enters with a free slot of its group: above the highest taken, else below the lowest (one
  // course per statement, so slots never clash). A group holds 131,072 slots: courses of one whole
  // popularity created in one hour.
  const insertOne = (courseId: string) => `insert into course_search (key, ${FACT_COLUMNS})
    select s.g * 131072 + (select case
        when max(x.key) is null then 0
        when max(x.key) < s.g * 131072 + 131071 then max(x.key) + 1 - s.g * 131072
        else min(x.key) - 1 - s.g * 131072 end
      from course_search x where x.key between s.g * 131072 and s.g * 131072 + 131071),
      ${FACT_COLUMNS.split(', ').map((c) => `s.${c}`).join(', ')}
    from course_search_source s where s.course_id = ${courseId};`;
  const rewrite = (courseId: string) => `delete from course_search where course_id = ${courseId};\n    ${insertOne(courseId)}`;
  // Renamed educators and categories change only the text: the FTS5 rows of their courses are rewritten.
  const retext = (courseIds: string) => LEVEL_TABLES.map((t) => `delete from ${t} where rowid in (select key from course_search where course_id in (${courseIds}));
    insert into ${t} (rowid, t) select s.key, v.t${t.slice(-1)} from course_search s join course_search_text v on v.course_id = s.course_id
      where s.published and s.course_id in (${courseIds});`).join('\n    ');

  await sql.raw(`create trigger course_search_course_insert after insert on courses begin
    ${insertOne('new.id')}
  end`).execute(db);
  await sql.raw(`create trigger course_search_course_update after update of
      id, educator_id, name, created_at, description, meta_description, keyword, category_id, delivery_modes,
      pricing_type, minimum_price, maximum_price, address, published
    on courses begin
    delete from course_search where course_id = old.id;
    ${insertOne('new.id')}
  end`).execute(db);
  await sql.raw(`create trigger course_search_course_delete after delete on courses begin
    delete from course_search where course_id = old.id;
  end`).execute(db);
  await sql.raw(`create trigger course_search_educator_name after update of name on educators begin
    ${retext('select id from courses where educator_id = new.id')}
  end`).execute(db);
  await sql.raw(`create trigger course_search_category_name after update of name on categories begin
    ${retext('select id from courses where category_id = new.id')}
  end`).execute(db);
  // Popularity is part of the key: a course whose aggregate changes is written again.
  for (const [event, row] of [['insert', 'new'], ['update', 'new'], ['delete', 'old']] as const) {
    await sql.raw(`create trigger course_search_reviews_${event} after ${event} on review_aggregates
      when ${row}.subject_type = 'course' begin
      ${rewrite(`${row}.subject_id`)}
    end`).execute(db);
  }
  await sql.raw(`create trigger course_search_reviews_moved after update on review_aggregates
    when old.subject_type = 'course' and (old.subject_id <> new.subject_id or new.subject_type <> 'course') begin
    ${rewrite('old.subject_id')}
  end`).execute(db);
  // Offer prices only move the price range, which is not part of the key or the text.
  const prices = (courseId: string) => `update course_search set (from_price, to_price) =
      (select s.from_price, s.to_price from course_search_source s where s.course_id = ${courseId})
    where course_id = ${courseId};`;
  await sql.raw(`create trigger course_search_offers_insert after insert on offers begin ${prices('new.course_id')} end`).execute(db);
  await sql.raw(`create trigger course_search_offers_update after update of course_id, price on offers begin
    ${prices('old.course_id')}
    ${prices('new.course_id')}
  end`).execute(db);
  await sql.raw(`create trigger course_search_offers_delete after delete on offers begin ${prices('old.course_id')} end`).execute(db);

  // Courses already in the database are indexed now (the table is empty: slots count from 0 per group).
  await sql.raw(`insert into course_search (key, ${FACT_COLUMNS})
    select g * 131072 + row_number() over (partition by g order by course_id) - 1, ${FACT_COLUMNS}
    from course_search_source`).execute(db);
}

// ------------------------------------------------------------------------------------------ PostgreSQL

// eslint-disable-next-line max-lines-per-function -- a migration reads top to bottom as the schema it creates
async function upPostgres(db: AnyDb): Promise<void> {
  // The table of 0002 held the text and one weighted tsvector; the new one holds facts and a stripped
  // tsvector per level, computed by the view. It stays narrow (the description's tsvector lives in TOAST)
  // so that walking it in popularity order touches few pages.
  await sql`drop view course_search_source`.execute(db);
  await sql`drop table course_search`.execute(db);
  await sql`create table course_search (
    course_id text primary key references courses(id) on delete cascade,
    published boolean not null,
    educator_id text not null,
    category_id text,
    delivery_mask integer not null,
    from_price integer,
    to_price integer,
    popularity double precision not null,
    created_at bigint not null,
    name_key text not null,
    doc_l4 tsvector not null,
    doc_l3 tsvector not null,
    doc_l2 tsvector not null,
    doc_l1 tsvector not null
  ) with (toast_tuple_target = 128)`.execute(db);
  for (const level of ['l4', 'l3', 'l2']) await sql.raw(`alter table course_search alter column doc_${level} set storage plain`).execute(db);
  await sql`alter table course_search alter column doc_l1 set storage external`.execute(db);

  const strong = `c.name || ' ' || e.name || ' ' || coalesce(c.keyword, '')`;
  const place = `${strong} || ' ' || coalesce(cat.name, '') || ' ' || coalesce(c.address::jsonb ->> 'city', '')`;
  await sql.raw(`create view course_search_source as
    select ${factItems(OFFERS_MIN, OFFERS_MAX)},
      strip(to_tsvector('english', c.name)) as doc_l4,
      strip(to_tsvector('english', ${strong})) as doc_l3,
      strip(to_tsvector('english', ${place})) as doc_l2,
      strip(to_tsvector('english', ${place} || ' '
        || regexp_replace(coalesce(c.description, '') || ' ' || coalesce(c.meta_description, ''), '<[^>]*>', ' ', 'g'))) as doc_l1
    from courses c join educators e on e.id = c.educator_id left join categories cat on cat.id = c.category_id
    ${AGGREGATE_JOIN}`).execute(db);
  const all = `${FACT_COLUMNS}, doc_l4, doc_l3, doc_l2, doc_l1`;
  await sql.raw(`insert into course_search (${all}) select ${all} from course_search_source`).execute(db);

  // GIN indexes with a small pending list: every search scans the pending list whole (the default 4 MB
  // costs milliseconds), while writing each course's lexemes straight into the index makes bulk loads slow.
  for (const level of ['l4', 'l3', 'l2', 'l1']) {
    await sql.raw(`create index course_search_doc_${level} on course_search using gin (doc_${level})
      with (gin_pending_list_limit = 64) where published`).execute(db);
  }
  await createSortIndexes(db, true);

  // The trigger functions of 0002 copy every column from the view; renamed educators and categories
  // rewrite their courses' rows. Unqualified names resolve through search_path at run time.
  const rewrite = (idsQuery: string) => `delete from course_search where course_id in (${idsQuery});
    insert into course_search (${all}) select ${all} from course_search_source where course_id in (${idsQuery});`;
  await sql.raw(`create or replace function course_search_courses_inserted() returns trigger language plpgsql as $$
  begin
    insert into course_search (${all}) select ${all.split(', ').map((c) => `s.${c}`).join(', ')}
      from course_search_source s join inserted_courses n on n.id = s.course_id;
    return null;
  end $$`).execute(db);
  await sql.raw(`create or replace function course_search_courses_updated() returns trigger language plpgsql as $$
  begin
    delete from course_search where course_id in (select id from old_courses);
    insert into course_search (${all}) select ${all.split(', ').map((c) => `s.${c}`).join(', ')}
      from course_search_source s join new_courses n on n.id = s.course_id;
    return null;
  end $$`).execute(db);
  for (const [table, alias, fk] of [['educators', 'educators', 'educator_id'], ['categories', 'categories', 'category_id']] as const) {
    await sql.raw(`drop trigger course_search_${table}_update on ${table}`).execute(db);
    await sql.raw(`create or replace function course_search_${table}_updated() returns trigger language plpgsql as $$
    begin
      ${rewrite(`select c.id from courses c join new_${alias} n on n.id = c.${fk} join old_${alias} o on o.id = n.id where o.name is distinct from n.name`)}
      return null;
    end $$`).execute(db);
    await sql.raw(`create trigger course_search_${table}_update after update on ${table}
      referencing old table as old_${alias} new table as new_${alias} for each statement execute function course_search_${table}_updated()`).execute(db);
  }
  // Offers move a course's price range; review aggregates its popularity. One set-based update per statement.
  const refresh = (columns: string[], idsQuery: string) => `update course_search t set ${columns.map((c) => `${c} = s.${c}`).join(', ')}
    from course_search_source s
    where s.course_id = t.course_id and t.course_id in (${idsQuery})
      and (${columns.map((c) => `t.${c} is distinct from s.${c}`).join(' or ')});`;
  await sql.raw(`create function course_search_offers_changed() returns trigger language plpgsql as $$
  begin
    if tg_op in ('INSERT', 'UPDATE') then
      ${refresh(['from_price', 'to_price'], 'select course_id from new_offers')}
    end if;
    if tg_op in ('DELETE', 'UPDATE') then
      ${refresh(['from_price', 'to_price'], 'select course_id from old_offers')}
    end if;
    return null;
  end $$`).execute(db);
  await sql.raw(`create function course_search_reviews_changed() returns trigger language plpgsql as $$
  begin
    if tg_op in ('INSERT', 'UPDATE') then
      ${refresh(['popularity'], "select subject_id from new_aggregates where subject_type = 'course'")}
    end if;
    if tg_op in ('DELETE', 'UPDATE') then
      ${refresh(['popularity'], "select subject_id from old_aggregates where subject_type = 'course'")}
    end if;
    return null;
  end $$`).execute(db);
  for (const [table, fn, alias] of [['offers', 'course_search_offers_changed', 'offers'], ['review_aggregates', 'course_search_reviews_changed', 'aggregates']] as const) {
    await sql.raw(`create trigger ${fn}_insert after insert on ${table}
      referencing new table as new_${alias} for each statement execute function ${fn}()`).execute(db);
    await sql.raw(`create trigger ${fn}_update after update on ${table}
      referencing old table as old_${alias} new table as new_${alias} for each statement execute function ${fn}()`).execute(db);
    await sql.raw(`create trigger ${fn}_delete after delete on ${table}
      referencing old table as old_${alias} for each statement execute function ${fn}()`).execute(db);
  }
}

/** Not reversible in place: the index of 0002 is gone. Restore a backup, or recreate the database and migrate. */
export async function down(_db: AnyDb): Promise<void> {
  throw new Error('0040_search_read_model cannot be undone: restore a backup or recreate the database');
}
