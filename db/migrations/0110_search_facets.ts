/**
 * PostgreSQL: each level text of course_search (doc_l4…doc_l1) also carries facet lexemes for the filters a
 * search with words may add, so the level's GIN index answers the words and the filters in one condition:
 *
 * - delivery modes: `§d1` online, `§d2` in person, `§d4` hybrid, `§d8` on demand, `§d16` on request (the bits
 *   of delivery_mask, the tokens SQLite's FTS5 tables have carried since 0040);
 * - price bands: `§f{n}` for the band of from_price and `§t{n}` for the band of to_price, n being
 *   width_bucket(price, PRICE_BANDS). A price filter asks for the bands it reaches (a superset: the band
 *   holding the bound itself is partly in) and the exact test on the price stays in the statement.
 *
 * Search writes a filter's tsquery from the same PRICE_BANDS (db/queries/search.ts, facetQuery). Before, the
 * GIN index found every course the words match and the filters were tested on each row it fetched (about one
 * page per course), or the planner walked the popularity index testing thousands of rows: "course" in names
 * with "on demand" passed 29,000 rows for a page of 368 matches (7 ms at 100,000 courses, a fifth of the
 * database's time in the search benchmark); with "from £250" it fetched 2,154 pages for 11 courses. No typed
 * word can match a facet: search terms are letters and digits only.
 *
 * The view course_search_source, which every trigger of 0040 copies course_search's rows from, keeps its
 * name and now adds the facets to what it gave (kept as course_search_source_base), so every way a row is
 * written carries them.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

const LEVELS = ['doc_l4', 'doc_l3', 'doc_l2', 'doc_l1'];
const FACTS = 'course_id, published, educator_id, category_id, delivery_mask, from_price, to_price, popularity, created_at, name_key';
/**
 * Lower bounds of the price bands, in pence: a price is in band width_bucket(price, PRICE_BANDS), the number of
 * bounds at or below it (band 0 is below the first: free courses). Search reads them from here; changing them
 * needs a migration that recomputes the level texts.
 */
export const PRICE_BANDS: readonly number[] = [1, 1000, 2000, 3000, 4000, 5000, 7500, 10000, 15000, 20000, 25000, 30000, 40000, 50000, 75000, 100000];
const BANDS_SQL = `array[${PRICE_BANDS.join(', ')}]`;
const DELIVERY_BITS = 'array[1, 2, 4, 8, 16]';

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: AnyDb): Promise<void> {
  if (!isPostgres(db)) return;
  await sql.raw(`create function course_search_facets(mask integer, from_price integer, to_price integer) returns tsvector
    language sql immutable parallel safe as $$
    select array_to_tsvector(array(
      select '§d' || bit from unnest(${DELIVERY_BITS}) bit where mask & bit <> 0
      union all select '§f' || width_bucket(from_price, ${BANDS_SQL}) where from_price is not null
      union all select '§t' || width_bucket(to_price, ${BANDS_SQL}) where to_price is not null))
  $$`).execute(db);
  await sql`alter view course_search_source rename to course_search_source_base`.execute(db);
  const withFacets = (doc: string) => `${doc} || course_search_facets(delivery_mask, from_price, to_price)`;
  await sql.raw(`create view course_search_source as
    select ${FACTS}, ${LEVELS.map((doc) => `${withFacets(doc)} as ${doc}`).join(', ')}
    from course_search_source_base`).execute(db);
  // Lexemes of a stripped tsvector are a set: adding the facets to what a row holds is what the view gives.
  await sql.raw(`update course_search set ${LEVELS.map((doc) => `${doc} = ${withFacets(doc)}`).join(', ')}`).execute(db);

  // Offers move a course's price range, which the 0040 trigger copies alone: the bands go with it.
  await replaceOffersTrigger(db, ['from_price', 'to_price', ...LEVELS]);
}

/**
 * The trigger function on offers: copies `columns` of the courses whose offers changed from the view, where their
 * price range moved (0040 copied the prices alone).
 */
async function replaceOffersTrigger(db: AnyDb, columns: string[]): Promise<void> {
  const refresh = (idsQuery: string) => `update course_search t set ${columns.map((c) => `${c} = s.${c}`).join(', ')}
    from course_search_source s
    where s.course_id = t.course_id and t.course_id in (${idsQuery})
      and (t.from_price is distinct from s.from_price or t.to_price is distinct from s.to_price);`;
  await sql.raw(`create or replace function course_search_offers_changed() returns trigger language plpgsql as $$
  begin
    if tg_op in ('INSERT', 'UPDATE') then
      ${refresh('select course_id from new_offers')}
    end if;
    if tg_op in ('DELETE', 'UPDATE') then
      ${refresh('select course_id from old_offers')}
    end if;
    return null;
  end $$`).execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop view course_search_source`.execute(db);
  await sql`alter view course_search_source_base rename to course_search_source`.execute(db);
  await sql.raw(`update course_search s set ${LEVELS.map((doc) => `${doc} = b.${doc}`).join(', ')}
    from course_search_source b where b.course_id = s.course_id`).execute(db);
  await replaceOffersTrigger(db, ['from_price', 'to_price']);
  await sql`drop function course_search_facets(integer, integer, integer)`.execute(db);
}
