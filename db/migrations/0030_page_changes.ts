/**
 * The change feed of the public pages: one `page_changes` row per written catalogue or public row, saying
 * which educator (and course, and category) the write touches, inserted by triggers in the writer's own
 * transaction. Triggers rather than inserts in this app's code because the educator admin app is a separate
 * program writing the same tables: whatever writes, the feed hears of it, and a rolled-back write leaves no
 * row. The publisher (api/publish/) claims rows, re-renders the pages of those educators and deletes the
 * rows only once the pages are written, so a crash loses nothing.
 *
 * The educator's slug is copied into the row because a removed educator (or a changed slug) leaves no other
 * trace of where its pages lived. An update records the row before and after (a course moved to another
 * educator or category touches both).
 *
 * Bulk loads (the demo seed, which is followed by a full build) set catalogue_meta 'page_changes_paused'
 * so the triggers stay silent instead of writing one feed row per catalogue row.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

 
type AnyDb = Kysely<any>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** How a row of each table leads to an educator, a course and a category; `R` stands for new or old. */
interface Source {
  table: string;
  educator: string;
  course?: string;
  category?: string;
}

const viaCourse = (column: string) => `(select c.educator_id from courses c where c.id = R.${column})`;
export const PAGE_CHANGE_SOURCES: Source[] = [
  { table: 'educators', educator: 'R.id' },
  { table: 'courses', educator: 'R.educator_id', course: 'R.id', category: 'R.category_id' },
  { table: 'occurrences', educator: viaCourse('course_id'), course: 'R.course_id' },
  { table: 'offers', educator: viaCourse('course_id'), course: 'R.course_id' },
  { table: 'add_ons', educator: viaCourse('course_id'), course: 'R.course_id' },
  { table: 'reviews', educator: 'R.educator_id', course: 'R.course_id' },
  {
    table: 'review_aggregates',
    educator: `(case when R.subject_type = 'educator' then R.subject_id else ${viaCourse('subject_id')} end)`,
    course: `(case when R.subject_type = 'course' then R.subject_id end)`,
  },
  { table: 'locations', educator: 'R.educator_id' },
  { table: 'faqs', educator: 'R.educator_id' },
  { table: 'lessons', educator: 'R.educator_id' },
  { table: 'forms', educator: 'R.educator_id' },
  { table: 'form_fields', educator: '(select f.educator_id from forms f where f.id = R.form_id)' },
  { table: 'form_validations', educator: '(select f.educator_id from forms f where f.id = R.form_id)' },
  { table: 'collections', educator: 'R.educator_id' },
  { table: 'collection_courses', educator: '(select k.educator_id from collections k where k.id = R.collection_id)', course: 'R.course_id' },
  { table: 'payment_options', educator: 'R.educator_id', course: 'R.course_id' },
  { table: 'educator_claims', educator: 'R.educator_id' },
  { table: 'categories', educator: 'null', category: 'R.id' },
];

function values(source: Source, row: string, now: string): string {
  const r = (expr: string) => expr.replace(/\bR\./g, `${row}.`);
  const educator = r(source.educator);
  const slug = source.table === 'educators' ? `${row}.slug` : `(select e.slug from educators e where e.id = ${educator})`;
  return `${educator}, ${slug}, ${source.course ? r(source.course) : 'null'}, ${source.category ? r(source.category) : 'null'}, ${now}`;
}

const COLUMNS = 'educator_id, educator_slug, course_id, category_id, created_at';

/** The educator's pages last changed now (their sitemap lastmod; read by the full build and the publisher alike). */
function touch(source: Source, row: string, now: string): string {
  const educator = source.educator.replace(/\bR\./g, `${row}.`);
  return `insert into educator_lastmod (educator_id, modified_at) select x.id, ${now} from (select ${educator} as id) x where x.id is not null
    on conflict (educator_id) do update set modified_at = excluded.modified_at;`;
}
const PAUSED = `exists (select 1 from catalogue_meta where key = 'page_changes_paused')`;

export async function up(db: AnyDb): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .createTable('page_changes')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('educator_id', 'text')
    .addColumn('educator_slug', 'text')
    .addColumn('course_id', 'text')
    .addColumn('category_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // A publisher's lease: rows claimed by one process are invisible to the others until it runs out.
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_until', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('educator_lastmod')
    .addColumn('educator_id', 'text', (c) => c.primaryKey())
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('page_changes_claimable').on('page_changes').columns(['claimed_until', 'id']).execute();

  if (postgres) {
    const now = `(extract(epoch from clock_timestamp()))::bigint`;
    for (const source of PAGE_CHANGE_SOURCES) {
      await sql.raw(`create or replace function page_changes_${source.table}() returns trigger language plpgsql as $$
        begin
          if ${PAUSED} then return null; end if;
          if tg_op in ('UPDATE', 'DELETE') then
            insert into page_changes (${COLUMNS}) values (${values(source, 'old', now)});
            ${touch(source, 'old', now)}
          end if;
          if tg_op in ('INSERT', 'UPDATE') then
            insert into page_changes (${COLUMNS}) values (${values(source, 'new', now)});
            ${touch(source, 'new', now)}
          end if;
          return null;
        end $$`).execute(db);
      await sql.raw(`create trigger page_changes_${source.table} after insert or update or delete on ${source.table}
        for each row execute function page_changes_${source.table}()`).execute(db);
    }
    return;
  }
  const now = `cast(strftime('%s', 'now') as integer)`;
  for (const source of PAGE_CHANGE_SOURCES) {
    await sql.raw(`create trigger page_changes_${source.table}_insert after insert on ${source.table} when not ${PAUSED} begin
      insert into page_changes (${COLUMNS}) values (${values(source, 'new', now)});
      ${touch(source, 'new', now)}
    end`).execute(db);
    await sql.raw(`create trigger page_changes_${source.table}_update after update on ${source.table} when not ${PAUSED} begin
      insert into page_changes (${COLUMNS}) values (${values(source, 'old', now)});
      insert into page_changes (${COLUMNS}) values (${values(source, 'new', now)});
      ${touch(source, 'new', now)}
    end`).execute(db);
    await sql.raw(`create trigger page_changes_${source.table}_delete after delete on ${source.table} when not ${PAUSED} begin
      insert into page_changes (${COLUMNS}) values (${values(source, 'old', now)});
      ${touch(source, 'old', now)}
    end`).execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  const postgres = isPostgres(db);
  for (const source of PAGE_CHANGE_SOURCES) {
    if (postgres) {
      await sql.raw(`drop trigger if exists page_changes_${source.table} on ${source.table}`).execute(db);
      await sql.raw(`drop function if exists page_changes_${source.table}()`).execute(db);
    } else {
      for (const event of ['insert', 'update', 'delete']) await sql.raw(`drop trigger if exists page_changes_${source.table}_${event}`).execute(db);
    }
  }
  await db.schema.dropTable('page_changes').ifExists().execute();
  await db.schema.dropTable('educator_lastmod').ifExists().execute();
}
