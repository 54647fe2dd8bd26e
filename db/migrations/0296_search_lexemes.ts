/**
 * PostgreSQL: the words search's read model holds (`search_lexemes`, every lexeme of course_search.doc_l1, the
 * widest level, which holds every other), so that a typed word's prefix can be read as the few whole words it
 * stands for.
 *
 * Every word of a query is a prefix ("pott" finds "pottery"), and a GIN index answers a prefix by collecting the
 * posting lists of every lexeme it begins into a bitmap before anything else: "yoga:*" cost 3.4 ms of a
 * bitmap index scan at 100,000 courses where "yoga", the one lexeme it begins, cost 1.2 ms, and the price bands
 * joined to it (migration 0110) 5.3 against 3.2 ms. `search_expand(query)` rewrites each prefix of a tsquery's
 * text that begins at most eight lexemes into those lexemes (`'yoga':*` → `( 'yoga' )`, `'first':*` →
 * `( 'first' | 'first-tim' )`), and leaves a prefix of more (or of none) as it was: the same courses match.
 * Search calls it once per statement, in a subquery, where a level text is read through its GIN index
 * (db/queries/search/postgres.ts).
 *
 * The words are only ever added: a lexeme no course holds any more matches nothing, so a superset answers the
 * same. Triggers add a row's words when it is written with new ones (a bulk insert, as rebuildSearchIndex makes,
 * once per statement); this migration adds those of the rows already there. Facet lexemes (`§…`) are left out: no
 * typed word can begin one.
 *
 * The widest level text also carries the reach of the course's price (`§fl{n}` for every band n at or above the band of
 * from_price, `§tg{n}` for every band at or below that of to_price): "from at most band n" and "to at least band n",
 * each one lexeme. A price filter or the price bands at a sort's end (db/queries/search/postgres.ts) asked the
 * GIN index for an OR of up to sixteen band lexemes (0110), whose posting lists, each of thousands of courses, it
 * read through: "yoga" with a price up to £50, sorted by price down, cost 11.3 ms of a bitmap index scan for 367
 * courses. One lexeme per bound is one list, which the index steps through beside the words'. Only the widest
 * level carries them: the narrower ones are copied into the popularity-ordered indexes (0042), where 18 more
 * lexemes a course each would cost some 140 MB at 100,000 courses; they keep the bands of 0110.
 *
 * SQLite: nothing (FTS5 reads prefixes from its own index of terms, and its facet tokens are its own, 0130).
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { PRICE_BANDS } from './0110_search_facets.ts';

type AnyDb = Kysely<any>;

/** A prefix that begins more lexemes than this is left a prefix (an OR of many posting lists costs more). */
export const SEARCH_EXPAND_MAX_LEXEMES = 8;

const WORDS_OF = (rows: string) => `insert into search_lexemes (lexeme)
    select distinct l from ${rows}, unnest(tsvector_to_array(doc_l1)) l where left(l, 1) <> '§'
    on conflict do nothing`;

const FACTS = 'course_id, published, educator_id, category_id, delivery_mask, from_price, to_price, popularity, created_at, name_key';
const BANDS_SQL = `array[${PRICE_BANDS.join(', ')}]`;
const REACH = 'course_search_price_reach(from_price, to_price)';

export async function up(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql.raw(`create function course_search_price_reach(from_price integer, to_price integer) returns tsvector
    language sql immutable parallel safe as $$
    select array_to_tsvector(array(
      select '§fl' || band from generate_series(width_bucket(from_price, ${BANDS_SQL}), ${PRICE_BANDS.length}) band
        where from_price is not null
      union all select '§tg' || band from generate_series(0, width_bucket(to_price, ${BANDS_SQL})) band
        where to_price is not null))
  $$`).execute(db);
  // Every trigger copies course_search's rows from the view (0040, 0110), so the view gives the reach.
  await sql`alter view course_search_source rename to course_search_source_banded`.execute(db);
  await sql.raw(`create view course_search_source as
    select ${FACTS}, doc_l4, doc_l3, doc_l2, doc_l1 || ${REACH} as doc_l1 from course_search_source_banded`).execute(db);
  await sql.raw(`update course_search set doc_l1 = doc_l1 || ${REACH} where from_price is not null or to_price is not null`).execute(db);

  await sql.raw(`create table search_lexemes (lexeme text collate "C" primary key)`).execute(db);
  await sql.raw(WORDS_OF('course_search')).execute(db);
  await sql.raw(`
create function search_lexemes_inserted() returns trigger language plpgsql as $$
begin
  ${WORDS_OF('new_rows')};
  return null;
end $$`).execute(db);
  await sql.raw(`create trigger search_lexemes_inserted after insert on course_search
    referencing new table as new_rows for each statement execute function search_lexemes_inserted()`).execute(db);
  await sql.raw(`
create function search_lexemes_updated() returns trigger language plpgsql as $$
begin
  ${WORDS_OF('(select new.doc_l1) as r (doc_l1)')};
  return null;
end $$`).execute(db);
  await sql.raw(`create trigger search_lexemes_updated after update of doc_l1 on course_search for each row
    when (old.doc_l1 is distinct from new.doc_l1) execute function search_lexemes_updated()`).execute(db);
  // The prefixes of a tsquery's text as to_tsquery writes them ('word':*); their lexemes are letters and digits
  // (db/queries/search/engine.ts queryTerms), so none holds a quote. chr(1114111) sorts after every character
  // that can follow a prefix in byte order (the column's collation "C").
  await sql.raw(`
create function search_expand(query text) returns tsquery language plpgsql stable parallel safe as $$
declare
  prefix text;
  words text[];
  expanded text := query;
begin
  for prefix in select (regexp_matches(query, '''([^'']+)'':\\*', 'g'))[1] loop
    select array_agg(quote_literal(w.lexeme) order by w.lexeme) into words from (
      select lexeme from search_lexemes where lexeme >= prefix and lexeme < prefix || chr(1114111)
      order by lexeme limit ${SEARCH_EXPAND_MAX_LEXEMES + 1}) w;
    if cardinality(words) between 1 and ${SEARCH_EXPAND_MAX_LEXEMES} then
      expanded := replace(expanded, quote_literal(prefix) || ':*', '( ' || array_to_string(words, ' | ') || ' )');
    end if;
  end loop;
  return expanded::tsquery;
end $$`).execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql.raw('drop function if exists search_expand(text)').execute(db);
  await sql.raw('drop trigger if exists search_lexemes_updated on course_search').execute(db);
  await sql.raw('drop trigger if exists search_lexemes_inserted on course_search').execute(db);
  await sql.raw('drop function if exists search_lexemes_updated()').execute(db);
  await sql.raw('drop function if exists search_lexemes_inserted()').execute(db);
  await sql.raw('drop table if exists search_lexemes').execute(db);
  await sql`drop view course_search_source`.execute(db);
  await sql`alter view course_search_source_banded rename to course_search_source`.execute(db);
  await sql.raw(`update course_search t set doc_l1 = s.doc_l1 from course_search_source s
    where s.course_id = t.course_id and t.doc_l1 is distinct from s.doc_l1`).execute(db);
  await sql.raw('drop function if exists course_search_price_reach(integer, integer)').execute(db);
}
