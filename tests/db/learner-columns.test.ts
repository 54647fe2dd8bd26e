/**
 * The admin's learner columns on bookings and orders (learner_email, learner_name, learner_last): what a search
 * and the learner sort read, derived from the booker's answers in contact_details whatever writes the row. On
 * SQLite they are virtual generated columns (migration 0292), so a booking is written once: the trigger they
 * replaced wrote every booking a second time, a third of a booking's insert in the checkout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { seedBookings, type SeedTarget } from '../helpers/admin-bookings-seed.ts';
import { loadCatalogue } from '../../db/seed/load.ts';
import { down, up } from '../../db/migrations/0292_learner_generated_columns.ts';

let t: TestDb;
let target: SeedTarget;

const learner = (id: string) => t.db.selectFrom('bookings').select(['learner_email', 'learner_name', 'learner_last']).where('id', '=', id).executeTakeFirstOrThrow();
const contact = (first: string, last: string, email: string) => JSON.stringify({ booker: { formResponse: { system_first_name: first, system_last_name: last, system_email: email } }, attendees: [] });

beforeAll(async () => {
  t = await createTestDb();
  await loadCatalogue(t.db, { seed: 1, educators: 1, now: 1_800_000_000 });
  const course = await t.db.selectFrom('courses').select(['id', 'educator_id']).orderBy('id').executeTakeFirstOrThrow();
  target = { educatorId: course.educator_id, courses: [{ id: course.id, occurrences: [] }] };
});

afterAll(async () => {
  await t?.close();
});

describe('learner columns', () => {
  it('follow the booker\'s answers when the row is written and when its contact details change', async () => {
    const [b] = await seedBookings(t.db, target, 1, { prefix: 'BKG-LC', now: 1_800_000_000 });
    expect(await learner(b!.id)).toEqual({ learner_email: b!.email, learner_name: `${b!.first} ${b!.last}`.toLowerCase(), learner_last: b!.last.toLowerCase() });
    await t.db.updateTable('bookings').set({ contact_details: contact('  Émile ', 'ØSTER', ' Emile@Example.COM ') } as never).where('id', '=', b!.id).execute();
    expect(await learner(b!.id)).toEqual({ learner_email: 'emile@example.com', learner_name: 'Émile Øster', learner_last: 'Øster' });
    await t.db.updateTable('bookings').set({ contact_details: contact('', '', '') } as never).where('id', '=', b!.id).execute();
    expect(await learner(b!.id)).toEqual({ learner_email: null, learner_name: null, learner_last: null });
  });

  it.skipIf(!!process.env.TEST_DATABASE_URL)('SQLite: computed, not written — no trigger writes a booking or an order a second time', async () => {
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'trigger' and tbl_name in ('bookings', 'orders')`.execute(t.db);
    expect(rows).toEqual([]);
    const { rows: columns } = await sql<{ name: string; hidden: number }>`select name, hidden from pragma_table_xinfo('bookings') where name like 'learner%'`.execute(t.db);
    // hidden = 2: a virtual generated column.
    expect(columns).toEqual([{ name: 'learner_email', hidden: 2 }, { name: 'learner_name', hidden: 2 }, { name: 'learner_last', hidden: 2 }]);
  });

  it('migration 0292 keeps every booking\'s learner columns and every admin index, down and up again', async () => {
    const seeded = await seedBookings(t.db, target, 30, { prefix: 'BKG-LM', seed: 3, now: 1_800_000_000 });
    const indexes = async () => (await sql<{ name: string }>`${sql.raw(t.dialect === 'postgres'
      ? "select indexname as name from pg_indexes where tablename in ('bookings', 'orders') and schemaname = current_schema()"
      : "select name from sqlite_master where type = 'index' and tbl_name in ('bookings', 'orders')")} order by 1`.execute(t.db)).rows.map((r) => r.name);
    const before = await indexes();
    const all = () => t.db.selectFrom('bookings').select(['id', 'learner_email', 'learner_name', 'learner_last']).orderBy('id').execute();
    const rows = await all();
    await t.changeSchema(async () => {
      await down(t.db as never);
      expect(await all()).toEqual(rows);
      await up(t.db as never);
    });
    expect(await all()).toEqual(rows);
    expect(await indexes()).toEqual(before);
    expect(rows.filter((r) => seeded.some((s) => s.id === r.id)).every((r) => r.learner_email !== null)).toBe(true);
  });
});
