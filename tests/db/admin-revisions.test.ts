/** Optimistic revisions (api/admin/audit.ts): a save on an old revision is refused with what changed since. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { auditId, claimRevision, recordChange } from '../../api/admin/audit.ts';
import { ProblemError } from '../../src/domain/problems.ts';
import { educatorRow } from '../api/public-fixtures.ts';

let tdb: TestDb;
beforeAll(async () => {
  tdb = await createTestDb();
  await tdb.db.insertInto('educators').values(educatorRow({ id: 'edu_rev', slug: 'rev', name: 'Rev' })).execute();
});
afterAll(() => tdb?.close());

describe('claimRevision', () => {
  it('raises the revision the admin opened, once', async () => {
    const next = await tdb.db.transaction().execute((trx) => claimRevision(trx, { table: 'educators', id: 'edu_rev', expected: 1, educatorId: 'edu_rev', entity: 'educator' }));
    expect(next).toBe(2);
    await recordChange(tdb.db, { educatorId: 'edu_rev', userId: null, entity: 'educator', entityId: 'edu_rev', action: 'update', revision: 2, changes: { bio: ['', 'Hello'] }, at: 100 });
  });

  it('refuses the second save of revision 1 with 409 and the fields changed since', async () => {
    const attempt = tdb.db.transaction().execute((trx) => claimRevision(trx, { table: 'educators', id: 'edu_rev', expected: 1, educatorId: 'edu_rev', entity: 'educator' }));
    const error = await attempt.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProblemError);
    const problem = (error as ProblemError).problem;
    expect(problem.status).toBe(409);
    expect(problem.currentRevision).toBe(2);
    expect(problem.detail).toContain('(bio)');
    const row = await tdb.db.selectFrom('educators').select('revision').where('id', '=', 'edu_rev').executeTakeFirstOrThrow();
    expect(Number(row.revision)).toBe(2);
  });

  it('answers 404 for a row deleted meanwhile', async () => {
    const error = await tdb.db.transaction().execute((trx) => claimRevision(trx, { table: 'courses', id: 'crs_gone', expected: 1, educatorId: 'edu_rev', entity: 'course' })).catch((e: unknown) => e);
    expect((error as ProblemError).problem.status).toBe(404);
  });
});

describe('audit ids', () => {
  it('increase strictly within one millisecond and when the clock steps back, so the log pages in the order entries were made', () => {
    const ids = [auditId(1_800_000_000_000), auditId(1_800_000_000_000), auditId(1_800_000_000_000), auditId(1_799_999_999_999), auditId(1_800_000_000_001)];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
