/**
 * SQLite: each level text of the FTS5 tables (course_search_l4…l1) also carries the price bands of the course's
 * lowest and highest price, `§f{n}` and `§t{n}`, n being the band among PRICE_BANDS (the lexemes PostgreSQL's
 * level texts have carried since 0110). A search with words and a price filter then asks FTS5 for the words and
 * the bands the filter reaches in one match, as it already did for category, educator and delivery mode.
 *
 * Before, FTS5 handed out every course the words match and each was looked up in course_search to test its
 * price: "course" with "from £250" walked ~20,000 matches of the name level for the 11 it found (3 ms of
 * SQLite's time, about a fifth of the search benchmark's on its own). A band is wider than a bound: the exact
 * test on the price stays in the statement (db/queries/search.ts).
 *
 * The bands are read from course_search's prices, which the offers' triggers keep (0040). The view that every
 * FTS5 row is written from, course_search_text, keeps its name and adds the bands to what it gave (kept as
 * course_search_text_base), so each way a row is written carries them; a price that moves to another band
 * writes the course's FTS5 rows again.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { PRICE_BANDS } from './0110_search_facets.ts';
import { inTransaction } from './0100_checkout_catalogue_versions.ts';

type AnyDb = Kysely<any>;

const LEVEL_TABLES = ['course_search_l4', 'course_search_l3', 'course_search_l2', 'course_search_l1'];

/** SQL for a price's band among PRICE_BANDS (as PostgreSQL's width_bucket gives it): the bounds at or below it. */
export function sqlitePriceBand(price: string): string {
  return `(${PRICE_BANDS.map((bound) => `(${price} >= ${bound})`).join(' + ')})`;
}

/** The band tokens of a course's price range, with a leading space each; '' for a price on enquiry. */
function bandTokens(from: string, to: string): string {
  return `coalesce(' §f' || ${sqlitePriceBand(from)}, '') || coalesce(' §t' || ${sqlitePriceBand(to)}, '')`;
}

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Writes every published course's FTS5 rows again from course_search_text. */
async function rewriteLevelTexts(db: AnyDb): Promise<void> {
  for (const table of LEVEL_TABLES) {
    await sql.raw(`insert into ${table} (${table}) values ('delete-all')`).execute(db);
    await sql.raw(`insert into ${table} (rowid, t) select s.key, v.t${table.slice(-1)}
      from course_search s join course_search_text v on v.course_id = s.course_id where s.published`).execute(db);
    await sql.raw(`insert into ${table} (${table}) values ('optimize')`).execute(db);
  }
}

export function up(db: AnyDb): Promise<void> {
  if (isPostgres(db)) return Promise.resolve();
  return inTransaction(db, async (tx) => {
    const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'view' and name = 'course_search_text'`.execute(tx);
    const definition = rows[0]?.sql;
    if (!definition) throw new Error('view course_search_text is missing');
    await sql`drop view course_search_text`.execute(tx);
    await sql.raw(definition.replace(/^create view course_search_text\b/i, 'create view course_search_text_base')).execute(tx);
    // The FTS5 insert trigger runs after course_search's row is written, so its prices are there to read.
    const bands = bandTokens('cs.from_price', 'cs.to_price');
    await sql.raw(`create view course_search_text as
      select b.course_id, ${['t4', 't3', 't2', 't1'].map((t) => `b.${t} || ${bands} as ${t}`).join(', ')}
      from course_search_text_base b join course_search cs on cs.course_id = b.course_id`).execute(tx);
    const moved = (column: string) => `${sqlitePriceBand(`old.${column}`)} is not ${sqlitePriceBand(`new.${column}`)}`;
    await sql.raw(`create trigger course_search_price_bands after update of from_price, to_price on course_search
      when new.published and (${moved('from_price')} or ${moved('to_price')}) begin
      ${LEVEL_TABLES.map((t) => `delete from ${t} where rowid = new.key;
      insert into ${t} (rowid, t) select new.key, v.t${t.slice(-1)} from course_search_text v where v.course_id = new.course_id;`).join('\n      ')}
    end`).execute(tx);
    await rewriteLevelTexts(tx);
  });
}

export function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) return Promise.resolve();
  return inTransaction(db, async (tx) => {
    await sql`drop trigger course_search_price_bands`.execute(tx);
    const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'view' and name = 'course_search_text_base'`.execute(tx);
    await sql`drop view course_search_text`.execute(tx);
    await sql`drop view course_search_text_base`.execute(tx);
    await sql.raw(rows[0]!.sql.replace(/^create view course_search_text_base\b/i, 'create view course_search_text')).execute(tx);
    await rewriteLevelTexts(tx);
  });
}
