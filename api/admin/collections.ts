/**
 * The educator's collections in the admin (docs/admin.md "Collections"), relative to /admin/educators/{educatorId}:
 *
 *   GET    /collections                 → the collections with their courses in order, and the courses to choose from
 *   POST   /collections                 → a new collection {name, imageUrl, published, courseIds[]} (listed last)
 *   PUT    /collections/{id}            → the collection, whole ({revision, …}); its courses in the order given
 *   DELETE /collections/{id}?revision=N
 *
 * Writes reach the public pages through the change feed (migration 0030).
 */
import { Hono, type Context } from 'hono';
import type { Selectable } from 'kysely';
import type { AppEnv } from '../deps.ts';
import type { CollectionsTable } from '../../db/schema.ts';
import { parseJson } from '../http/parse.ts';
import { newId } from '../shared/ids.ts';
import { adminEducatorId } from './access.ts';
import { claimRevision, diffFields } from './audit.ts';
import { audit, created, deleteRevision, educatorCourses, notYours, pathId, removed, requireOwnCourses, type Trx } from './catalogue-saves.ts';
import { collectionInputSchema, collectionUpdateSchema, type CollectionInput } from '../../src/domain/admin/collections.ts';

type Q = Trx | AppEnv['Variables']['deps']['db'];
type CollectionRow = Selectable<CollectionsTable>;

async function coursesOf(q: Q, ids: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (ids.length === 0) return out;
  const rows = await q.selectFrom('collection_courses').select(['collection_id', 'course_id']).where('collection_id', 'in', [...ids]).orderBy('position').orderBy('course_id').execute();
  for (const r of rows) out.set(r.collection_id, [...(out.get(r.collection_id) ?? []), r.course_id]);
  return out;
}

function view(row: CollectionRow, courseIds: string[]) {
  return { id: row.id, name: row.name, imageUrl: row.image_url, published: !!row.published, position: Number(row.position), revision: Number(row.revision), courseIds };
}

function auditShape(row: Pick<CollectionRow, 'name' | 'image_url' | 'published'>, courseIds: string[]) {
  return { name: row.name, image_url: row.image_url, published: !!row.published, course_ids: courseIds };
}

async function ownedCollection(c: Context<AppEnv>, q: Q): Promise<CollectionRow> {
  const id = pathId.safeParse(c.req.param('collectionId'));
  if (!id.success) throw notYours('No collection of yours has this id.');
  const row = await q.selectFrom('collections').selectAll().where('id', '=', id.data).where('educator_id', '=', adminEducatorId(c)).executeTakeFirst();
  if (!row) throw notYours('No collection of yours has this id.');
  return row;
}

async function writeCourses(trx: Trx, collectionId: string, input: CollectionInput, before: string[]): Promise<void> {
  if (JSON.stringify(before) === JSON.stringify(input.courseIds)) return;
  await trx.deleteFrom('collection_courses').where('collection_id', '=', collectionId).execute();
  if (input.courseIds.length) {
    await trx.insertInto('collection_courses').values(input.courseIds.map((course_id, position) => ({ collection_id: collectionId, course_id, position }))).execute();
  }
}

export function collectionsAdminRoutes() {
  const app = new Hono<AppEnv>();

  app.get('/collections', async (c) => {
    const { db } = c.var.deps;
    const educatorId = adminEducatorId(c);
    const [rows, courses] = await Promise.all([
      db.selectFrom('collections').selectAll().where('educator_id', '=', educatorId).orderBy('position').orderBy('name').orderBy('id').execute(),
      educatorCourses(db, educatorId),
    ]);
    const byCollection = await coursesOf(db, rows.map((r) => r.id));
    return c.json({ collections: rows.map((r) => view(r, byCollection.get(r.id) ?? [])), courses });
  });

  app.post('/collections', async (c) => {
    const { db } = c.var.deps;
    const input = await parseJson(c, collectionInputSchema);
    const educatorId = adminEducatorId(c);
    const result = await db.transaction().execute(async (trx) => {
      await requireOwnCourses(trx, educatorId, input.courseIds, 'courseIds');
      const last = await trx.selectFrom('collections').select((eb) => eb.fn.max<number | string | null>('position').as('p')).where('educator_id', '=', educatorId).executeTakeFirst();
      const row: CollectionRow = {
        id: newId('col'), educator_id: educatorId, name: input.name, image_url: input.imageUrl, published: input.published,
        position: last?.p === null || last?.p === undefined ? 0 : Number(last.p) + 1, revision: 1,
      };
      await trx.insertInto('collections').values(row).execute();
      await writeCourses(trx, row.id, input, []);
      await audit(trx, c, { entity: 'collection', entityId: row.id, action: 'create', revision: 1, changes: created(auditShape(row, input.courseIds)) });
      return view(row, input.courseIds);
    });
    return c.json(result, 201);
  });

  app.put('/collections/:collectionId', async (c) => {
    const { db } = c.var.deps;
    const input = await parseJson(c, collectionUpdateSchema);
    const educatorId = adminEducatorId(c);
    const result = await db.transaction().execute(async (trx) => {
      const before = await ownedCollection(c, trx);
      const revision = await claimRevision(trx, { table: 'collections', id: before.id, expected: input.revision, educatorId, entity: 'collection' });
      await requireOwnCourses(trx, educatorId, input.courseIds, 'courseIds');
      const courseIds = (await coursesOf(trx, [before.id])).get(before.id) ?? [];
      const values = { name: input.name, image_url: input.imageUrl, published: input.published };
      await trx.updateTable('collections').set(values).where('id', '=', before.id).execute();
      await writeCourses(trx, before.id, input, courseIds);
      const after = { ...before, ...values, revision };
      await audit(trx, c, { entity: 'collection', entityId: before.id, action: 'update', revision, changes: diffFields(auditShape(before, courseIds), auditShape(after, input.courseIds)) });
      return view(after, input.courseIds);
    });
    return c.json(result);
  });

  app.delete('/collections/:collectionId', async (c) => {
    const { db } = c.var.deps;
    const revision = deleteRevision(c);
    const educatorId = adminEducatorId(c);
    await db.transaction().execute(async (trx) => {
      const row = await ownedCollection(c, trx);
      await claimRevision(trx, { table: 'collections', id: row.id, expected: revision, educatorId, entity: 'collection' });
      const courseIds = (await coursesOf(trx, [row.id])).get(row.id) ?? [];
      // The courses first: the change feed finds their educator through the collection.
      await trx.deleteFrom('collection_courses').where('collection_id', '=', row.id).execute();
      await trx.deleteFrom('collections').where('id', '=', row.id).execute();
      await audit(trx, c, { entity: 'collection', entityId: row.id, action: 'delete', changes: removed(auditShape(row, courseIds)) });
    });
    return c.body(null, 204);
  });

  return app;
}
