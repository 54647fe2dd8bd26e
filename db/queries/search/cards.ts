/**
 * The cards search answers with, stored (migration 0041): each course's card as the JSON the API answers (next
 * date left null) and its upcoming dates, computed by loadCourseCards the first time a search shows them and kept
 * until a write moves the row's version; the next date is picked at each request's time.
 */
import type SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { rawHandlesOf, type Db } from '../../client.ts';
import { isBusyError } from '../../sqlite-driver.ts';
import { loadCourseCards } from '../course-cards.ts';
import { isSoldOut } from '../../../src/domain/pricing.ts';
import { salesEndOf, type UpcomingDates } from '../../../src/domain/next-date.ts';
import type { StoredCardRow } from './engine.ts';
import { Stmt, isPostgres, readTuples } from './statements.ts';

/** The upcoming dates of courses at `now` (src/domain/next-date.ts; every course given has an entry, maybe empty). */
export async function upcomingDates(db: Db, courseIds: readonly string[], now: number): Promise<Map<string, UpcomingDates>> {
  const result = new Map<string, UpcomingDates>(courseIds.map((id) => [id, []]));
  if (courseIds.length === 0) return result;
  // The same rows nextOccurrenceStarts reads; child sessions that cannot be booked alone never list.
  const occurrences = await db
    .selectFrom('occurrences')
    .select(['id', 'course_id', 'start_datetime', 'parent_ref', 'individually_bookable', 'spaces', 'available_spaces'])
    .where('course_id', 'in', courseIds)
    .where('start_datetime', '>=', now)
    .where('visibility', '=', 'public')
    .orderBy('start_datetime')
    .orderBy('id')
    .execute();
  if (occurrences.length === 0) return result;
  const ids = Array.from(new Set(occurrences.map((o) => o.course_id)));
  const [offers, courses] = await Promise.all([
    db.selectFrom('offers').select(['course_id', 'occurrence_id', 'end_at']).where('course_id', 'in', ids).execute(),
    db.selectFrom('courses').select(['id', 'spaces']).where('id', 'in', ids).execute(),
  ]);
  const courseSpaces = new Map(courses.map((c) => [c.id, c.spaces]));
  const own = new Map<string, Array<{ end_at: number | null }>>();
  const courseWide = new Map<string, Array<{ end_at: number | null }>>();
  for (const o of offers) {
    const [map, key] = o.occurrence_id === null ? [courseWide, o.course_id] : [own, o.occurrence_id];
    const list = map.get(key) ?? [];
    list.push({ end_at: o.end_at === null ? null : Number(o.end_at) });
    map.set(key, list);
  }
  for (const row of occurrences) {
    if (row.parent_ref && !row.individually_bookable) continue;
    if (isSoldOut(row, courseSpaces.get(row.course_id))) continue;
    result.get(row.course_id)?.push([Number(row.start_datetime), salesEndOf(own.get(row.id) ?? [], courseWide.get(row.course_id) ?? [])]);
  }
  return result;
}

export interface PageCard {
  /** The card's JSON with next_occurrence null. */
  card: string;
  upcoming: UpcomingDates;
}

/**
 * The stored card's next date, left null when stored. No string value can hold this text (its quotes would be
 * escaped inside one), so the last occurrence is the card's own key wherever it sits.
 */
const NEXT_NULL = '"next_occurrence":null';

export function withNext(card: string, next: number | null): string {
  const at = next === null ? -1 : card.lastIndexOf(NEXT_NULL);
  if (at < 0) return card;
  return `${card.slice(0, at)}"next_occurrence":${next}${card.slice(at + NEXT_NULL.length)}`;
}

/** A card computed for a search, with the version of its row read before computing it (undefined: no row). */
export type ComputedCard = { id: string; version: number | undefined } & PageCard;

/**
 * What becomes of the cards a search computed: `true` stores them for the next search (storeComputedCards), a
 * function is handed them to store elsewhere (a search thread hands them to the server's writer), `false` drops them.
 */
export type KeepCards = boolean | ((cards: ComputedCard[]) => void);

/**
 * The cards of courses as stored (migration 0041), computing those not stored yet or changed since, and kept for
 * the next search as `keep` says: a card is written only while its row's version is the one read before computing
 * it, so a write that raced the computation leaves the card to be computed again.
 */
export async function pageCards(
  db: Db, ids: readonly string[], now: number, keep: KeepCards, prefetched?: StoredCardRow[],
): Promise<Map<string, PageCard>> {
  const cards = new Map<string, PageCard>();
  if (ids.length === 0) return cards;
  // Cards read along with the page's ids; the others (or all) read here.
  const rows = [...(prefetched ?? [])];
  const known = new Set(rows.map((r) => r.course_id));
  const toRead = ids.filter((id) => !known.has(id));
  if (toRead.length > 0) {
    const postgres = isPostgres(db);
    const st = new Stmt(postgres).s('select course_id, version, card, upcoming, computed_at from search_cards where course_id ');
    if (postgres) st.s('= any(').v(toRead).s('::text[])');
    else {
      // A list of parameters (one statement per page size, all cached) reads faster than json_each.
      st.s('in (');
      toRead.forEach((id, i) => (i > 0 ? st.s(', ') : st).v(id));
      st.s(')');
    }
    const tuples = await readTuples<[string, number | string, string | null, string | null, number | string | null]>(db, st);
    for (const [course_id, version, card, upcoming, computed_at] of tuples) rows.push({ course_id, version, card, upcoming, computed_at });
  }
  const versions = new Map<string, number>();
  for (const row of rows) {
    // A card stored at a later time than this request's (a test's clock, a server behind) may lack dates
    // that are upcoming now: computed again.
    if (row.card !== null && row.upcoming !== null && Number(row.computed_at) <= now) {
      cards.set(row.course_id, { card: row.card, upcoming: JSON.parse(row.upcoming) as UpcomingDates });
    } else {
      versions.set(row.course_id, Number(row.version));
    }
  }
  const missing = ids.filter((id) => !cards.has(id));
  if (missing.length === 0) return cards;
  const [computed, upcoming] = await Promise.all([loadCourseCards(db, missing, { now }), upcomingDates(db, missing, now)]);
  const fresh: ComputedCard[] = computed.map((card) => ({
    id: card._id,
    version: versions.get(card._id),
    card: JSON.stringify({ ...card, next_occurrence: null }),
    upcoming: upcoming.get(card._id) ?? [],
  }));
  for (const f of fresh) cards.set(f.id, f);
  if (keep === true) await storeComputedCards(db, fresh, now);
  else if (keep) keep(fresh);
  return cards;
}

/**
 * Keeps computed cards for later searches. Only a saving, so on SQLite it never waits for a lock: a search must not
 * wait behind a writer (a checkout, another process's write transaction) to answer what it already has. The
 * cards are written at once on the writer, in one synchronous transaction, when nothing holds the write lock; when
 * this process has a transaction open, or another process holds the lock, they are left for a later search.
 */
export async function storeComputedCards(db: Db, fresh: readonly ComputedCard[], now: number): Promise<void> {
  const writer = rawHandlesOf(db)?.sqliteWriter;
  if (writer) {
    storeCardsNow(writer, fresh, now);
    return;
  }
  try {
    await db.transaction().execute(async (tx) => {
      for (const f of fresh) {
        if (f.version === undefined) {
          // No row (rows loaded with triggers off): one to fill next time.
          await sql`insert into search_cards (course_id) values (${f.id}) on conflict do nothing`.execute(tx);
          continue;
        }
        await sql`update search_cards set card = ${f.card}, upcoming = ${JSON.stringify(f.upcoming)}, computed_at = ${now}
          where course_id = ${f.id} and version = ${f.version}`.execute(tx);
      }
    });
  } catch {
    // Storing is only a saving: a busy or read-only database answers the search all the same.
  }
}

function storeCardsNow(writer: SQLite.Database, fresh: readonly ComputedCard[], now: number): void {
  if (writer.inTransaction) return;
  try {
    // busy_timeout is 0 on this connection: a lock held elsewhere answers SQLITE_BUSY at once instead of waiting.
    writer.prepare('begin immediate').run();
  } catch (error) {
    if (isBusyError(error)) return;
    throw error;
  }
  try {
    for (const f of fresh) {
      if (f.version === undefined) writer.prepare('insert into search_cards (course_id) values (?) on conflict do nothing').run(f.id);
      else {
        writer.prepare('update search_cards set card = ?, upcoming = ?, computed_at = ? where course_id = ? and version = ?')
          .run(f.card, JSON.stringify(f.upcoming), now, f.id, f.version);
      }
    }
    writer.prepare('commit').run();
  } catch {
    if (writer.inTransaction) writer.prepare('rollback').run();
  }
}
