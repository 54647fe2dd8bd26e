/**
 * Migration 0140 (SQLite): search_cards is stored by course id (WITHOUT ROWID). Rebuilding the table keeps every
 * stored card, the triggers of 0041 that write it keep working, and the migration goes down and up again.
 * SQLite only: on PostgreSQL the migration does nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { insertPublicFixtures, NOW } from '../api/public-fixtures.ts';
import { searchCoursesJson } from '../../db/queries/search.ts';
import * as m0140 from '../../db/migrations/0140_search_cards_clustered_sqlite.ts';

const onPostgres = !!process.env.TEST_DATABASE_URL;
let t: TestDb;

beforeAll(async () => {
  if (onPostgres) return;
  t = await createTestDb();
  await insertPublicFixtures(t.db);
});
afterAll(async () => {
  await t?.close();
});

const tableSql = async () =>
  (await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'search_cards'`.execute(t.db)).rows[0]!.sql;
const cards = async () =>
  (await sql<{ course_id: string; version: number; card: string | null }>`select course_id, version, card from search_cards order by course_id`.execute(t.db)).rows;

describe.skipIf(onPostgres)('search_cards stored by course id (SQLite only: PostgreSQL is unchanged)', () => {
  it('keeps every card through the migration down and up, and the triggers still write it', async () => {
    expect(await tableSql()).toMatch(/\)\s*without rowid$/i);
    // Cards computed and stored by a search.
    const answer = await searchCoursesJson(t.db, { query: '', size: 50 }, { now: NOW, storeCards: true });
    const before = await cards();
    expect(before.filter((c) => c.card !== null).length).toBeGreaterThan(3);

    await t.changeSchema(() => m0140.down(t.db));
    expect(await tableSql()).not.toMatch(/without rowid/i);
    expect(await cards()).toEqual(before);
    await t.changeSchema(() => m0140.up(t.db));
    expect(await tableSql()).toMatch(/\)\s*without rowid$/i);
    expect(await cards()).toEqual(before);

    // The same answer from the stored cards, and a course's write still makes its card stale (0041's trigger).
    expect(await searchCoursesJson(t.db, { query: '', size: 50 }, { now: NOW, storeCards: true })).toBe(answer);
    const wheel = before.find((c) => c.course_id === 'crs_wheel')!;
    expect(wheel.card).not.toBeNull();
    await t.db.updateTable('courses').set({ name: 'Pottery Wheel Basics II' }).where('id', '=', 'crs_wheel').execute();
    expect((await cards()).find((c) => c.course_id === 'crs_wheel')).toEqual({ course_id: 'crs_wheel', version: Number(wheel.version) + 1, card: null });
    // The primary key still allows one row per course.
    await expect(sql`insert into search_cards (course_id) values ('crs_wheel')`.execute(t.db)).rejects.toThrow(/UNIQUE|PRIMARY KEY/i);
  });
});
