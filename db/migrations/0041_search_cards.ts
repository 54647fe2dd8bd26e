/**
 * Stored course cards for search: `search_cards`, one row per course, holding the card JSON the search API
 * answers (db/queries/course-cards.ts toCourseCard, with next_occurrence null) and the course's upcoming
 * listed occurrences as `[start, sale end | null]` pairs, so a page of results is ids → stored strings,
 * and "next date" is picked in JavaScript from the stored list at the request's time.
 *
 * The cards are computed by the application (the one definition of a card stays in JavaScript), lazily:
 * a row with `card` null is computed on the next search that shows it and stored only if its `version`
 * has not moved meanwhile. Triggers on everything a card reads (courses, educators, review aggregates,
 * offers, occurrences, locations) set `card` null and bump `version` in the writer's own transaction, so
 * a card computed from rows older than a write can never be stored over it, whoever writes (this app, the
 * educator admin app, the seed).
 *
 * Occurrences change at every booking (available_spaces); only a change that can move "next date" (a date
 * selling out or reopening, or a change of date, visibility or series) touches the card, so bookings do not
 * queue on the card row.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** On SQLite on the writing connection: DDL and trigger statements go there inside a transaction. */
async function inTransaction(db: AnyDb, work: (db: AnyDb) => Promise<void>): Promise<void> {
  if (db.isTransaction) await work(db);
  else await db.transaction().execute(work);
}

const stale = (courseIds: string) => `update search_cards set version = version + 1, card = null where course_id in (${courseIds})`;
const staleOne = (courseId: string) => `update search_cards set version = version + 1, card = null where course_id = ${courseId}`;

/** An occurrence change that can move a card's "next date"; a booking that leaves spaces on both sides cannot. */
export const OCCURRENCE_MOVED = `(old.course_id IS_DISTINCT new.course_id or old.start_datetime IS_DISTINCT new.start_datetime
  or old.visibility IS_DISTINCT new.visibility or old.parent_ref IS_DISTINCT new.parent_ref
  or old.individually_bookable IS_DISTINCT new.individually_bookable or old.spaces IS_DISTINCT new.spaces
  or (old.available_spaces IS_DISTINCT new.available_spaces and not (coalesce(old.available_spaces, 0) > 0 and coalesce(new.available_spaces, 0) > 0)))`;
const OFFER_MOVED = `(old.course_id IS_DISTINCT new.course_id or old.occurrence_id IS_DISTINCT new.occurrence_id
  or old.end_at IS_DISTINCT new.end_at or old.price IS_DISTINCT new.price)`;
/** Courses whose student travel lists a location (ids are matched as text; a false hit only recomputes a card). */
const coursesOfLocation = (row: string) =>
  `select c.id from courses c where c.student_travel_settings like '%' || ${row}.id || '%'`;

export async function up(db: AnyDb): Promise<void> {
  if (isPostgres(db)) await upPostgres(db);
  else await inTransaction(db, upSqlite);
}

async function upSqlite(db: AnyDb): Promise<void> {
  const distinct = (s: string) => s.replaceAll('IS_DISTINCT', 'is not');
  await sql`create table search_cards (
    course_id text primary key references courses(id) on delete cascade on update cascade,
    version integer not null default 0,
    card text,
    upcoming text,
    computed_at integer
  )`.execute(db);
  await sql`insert into search_cards (course_id) select id from courses`.execute(db);
  const triggers = [
    `create trigger search_cards_course_insert after insert on courses begin
      insert or ignore into search_cards (course_id) values (new.id);
    end`,
    `create trigger search_cards_course_update after update on courses begin
      insert or ignore into search_cards (course_id) values (new.id);
      ${staleOne('new.id')};
    end`,
    `create trigger search_cards_educator_update after update of name, slug, feature_flags on educators begin
      ${stale('select id from courses where educator_id = new.id')};
    end`,
    `create trigger search_cards_location_update after update of id, city on locations begin
      ${stale(coursesOfLocation('old'))};
    end`,
    `create trigger search_cards_location_delete after delete on locations begin
      ${stale(coursesOfLocation('old'))};
    end`,
    ...(['insert', 'delete'] as const).flatMap((event) => {
      const row = event === 'insert' ? 'new' : 'old';
      return [
        `create trigger search_cards_occurrence_${event} after ${event} on occurrences begin ${staleOne(`${row}.course_id`)}; end`,
        `create trigger search_cards_offer_${event} after ${event} on offers begin ${staleOne(`${row}.course_id`)}; end`,
        `create trigger search_cards_reviews_${event} after ${event} on review_aggregates when ${row}.subject_type = 'course' begin
          ${staleOne(`${row}.subject_id`)};
        end`,
      ];
    }),
    `create trigger search_cards_occurrence_update after update on occurrences when ${distinct(OCCURRENCE_MOVED)} begin
      ${staleOne('old.course_id')}; ${staleOne('new.course_id')};
    end`,
    `create trigger search_cards_offer_update after update on offers when ${distinct(OFFER_MOVED)} begin
      ${staleOne('old.course_id')}; ${staleOne('new.course_id')};
    end`,
    `create trigger search_cards_reviews_update after update on review_aggregates
      when old.subject_type = 'course' or new.subject_type = 'course' begin
      ${staleOne('old.subject_id')}; ${staleOne('new.subject_id')};
    end`,
  ];
  for (const trigger of triggers) await sql.raw(trigger).execute(db);
}

async function upPostgres(db: AnyDb): Promise<void> {
  const distinct = (s: string) => s.replaceAll('IS_DISTINCT', 'is distinct from');
  await sql`create table search_cards (
    course_id text primary key references courses(id) on delete cascade on update cascade,
    version bigint not null default 0,
    card text,
    upcoming text,
    computed_at bigint
  )`.execute(db);
  await sql`insert into search_cards (course_id) select id from courses`.execute(db);
  const fn = async (name: string, body: string) =>
    sql.raw(`create function ${name}() returns trigger language plpgsql as $$
    begin
      ${body}
      return null;
    end $$`).execute(db);
  await fn('search_cards_course_changed', `
      if tg_op = 'INSERT' then
        insert into search_cards (course_id) values (new.id) on conflict do nothing;
      else
        insert into search_cards (course_id) values (new.id) on conflict do nothing;
        ${staleOne('new.id')};
      end if;`);
  await fn('search_cards_educator_changed', `${stale('select id from courses where educator_id = new.id')};`);
  await fn('search_cards_location_changed', `${stale(coursesOfLocation('old'))};`);
  // Occurrences and offers both carry course_id.
  await fn('search_cards_course_rows_changed', `
      if tg_op in ('UPDATE', 'DELETE') then ${staleOne('old.course_id')}; end if;
      if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.course_id <> old.course_id) then ${staleOne('new.course_id')}; end if;`);
  await fn('search_cards_reviews_changed', `
      if tg_op in ('UPDATE', 'DELETE') and old.subject_type = 'course' then ${staleOne('old.subject_id')}; end if;
      if tg_op in ('INSERT', 'UPDATE') and new.subject_type = 'course' then ${staleOne('new.subject_id')}; end if;`);
  const triggers = [
    'create trigger search_cards_course_insert after insert on courses for each row execute function search_cards_course_changed()',
    'create trigger search_cards_course_update after update on courses for each row execute function search_cards_course_changed()',
    `create trigger search_cards_educator_update after update of name, slug, feature_flags on educators
      for each row execute function search_cards_educator_changed()`,
    `create trigger search_cards_location_update after update of id, city on locations
      for each row execute function search_cards_location_changed()`,
    'create trigger search_cards_location_delete after delete on locations for each row execute function search_cards_location_changed()',
    'create trigger search_cards_occurrence_insert_delete after insert or delete on occurrences for each row execute function search_cards_course_rows_changed()',
    `create trigger search_cards_occurrence_update after update on occurrences for each row
      when ${distinct(OCCURRENCE_MOVED)} execute function search_cards_course_rows_changed()`,
    'create trigger search_cards_offer_insert_delete after insert or delete on offers for each row execute function search_cards_course_rows_changed()',
    `create trigger search_cards_offer_update after update on offers for each row
      when ${distinct(OFFER_MOVED)} execute function search_cards_course_rows_changed()`,
    `create trigger search_cards_reviews_changed after insert or update or delete on review_aggregates
      for each row execute function search_cards_reviews_changed()`,
  ];
  for (const trigger of triggers) await sql.raw(trigger).execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop table if exists search_cards cascade`.execute(db);
    for (const f of ['course_changed', 'educator_changed', 'location_changed', 'course_rows_changed', 'reviews_changed']) {
      await sql.raw(`drop function if exists search_cards_${f}() cascade`).execute(db);
    }
    return;
  }
  await inTransaction(db, async (tx) => {
    for (const t of [
      'course_insert', 'course_update', 'educator_update', 'location_update', 'location_delete',
      'occurrence_insert', 'occurrence_delete', 'offer_insert', 'offer_delete', 'reviews_insert', 'reviews_delete',
      'occurrence_update', 'offer_update', 'reviews_update',
    ]) {
      await sql.raw(`drop trigger if exists search_cards_${t}`).execute(tx);
    }
    await sql`drop table if exists search_cards`.execute(tx);
  });
}
