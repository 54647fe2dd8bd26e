/**
 * The educator's locations in the admin (docs/admin.md "Locations"), relative to /admin/educators/{educatorId}:
 *
 *   GET    /locations                 → the locations and the courses that offer each ("I will travel to …")
 *   POST   /locations                 → a new location {name, line1, line2, city, postcode, lat, lng}
 *   PUT    /locations/{id}            → the location, whole ({revision, …})
 *   DELETE /locations/{id}?revision=N → refused while a course offers it or a booking was made for it
 *
 * `formatted` (the checkout's multi-line address) and `address` are derived from the parts
 * (src/domain/admin/locations.ts). Writes reach the public pages through the change feed (migration 0030).
 */
import { Hono, type Context } from 'hono';
import { sql, type Selectable } from 'kysely';
import type { AppEnv } from '../deps.ts';
import type { LocationsTable } from '../../db/schema.ts';
import { parseJson } from '../http/parse.ts';
import { newId } from '../shared/ids.ts';
import { adminEducatorId } from './access.ts';
import { claimRevision, diffFields } from './audit.ts';
import { audit, created, deleteRevision, notYours, pathId, refused, removed, type Trx } from './catalogue-saves.ts';
import { formattedLocation, locationAddress, locationInputSchema, locationUpdateSchema, type LocationInput } from '../../src/domain/admin/locations.ts';

type Q = Trx | AppEnv['Variables']['deps']['db'];
type LocationRow = Selectable<LocationsTable>;

function columns(input: LocationInput) {
  return { name: input.name, city: input.city, formatted: formattedLocation(input), address: locationAddress(input), lat: input.lat, lng: input.lng };
}

function view(row: LocationRow, usedBy: { id: string; name: string }[]) {
  const a = (row.address ?? {}) as Record<string, string>;
  return {
    id: row.id, name: row.name, line1: a.line1 ?? '', line2: a.line2 ?? null, city: row.city, postcode: a.postcode ?? null,
    lat: row.lat === null ? null : Number(row.lat), lng: row.lng === null ? null : Number(row.lng), formatted: row.formatted,
    revision: Number(row.revision), usedBy,
  };
}

function auditShape(row: Pick<LocationRow, 'name' | 'city' | 'formatted' | 'lat' | 'lng'>) {
  return { name: row.name, city: row.city, formatted: row.formatted, lat: row.lat === null ? null : Number(row.lat), lng: row.lng === null ? null : Number(row.lng) };
}

/** The educator's courses that offer each location (student_travel_settings.locations). */
async function coursesByLocation(q: Q, educatorId: string): Promise<Map<string, { id: string; name: string }[]>> {
  const courses = await q.selectFrom('courses').select(['id', 'name', 'student_travel_settings']).where('educator_id', '=', educatorId).orderBy('name').execute();
  const out = new Map<string, { id: string; name: string }[]>();
  for (const course of courses) {
    for (const id of course.student_travel_settings?.locations ?? []) out.set(id, [...(out.get(id) ?? []), { id: course.id, name: course.name }]);
  }
  return out;
}

async function ownedLocation(c: Context<AppEnv>, q: Q): Promise<LocationRow> {
  const id = pathId.safeParse(c.req.param('locationId'));
  if (!id.success) throw notYours('No location of yours has this id.');
  const row = await q.selectFrom('locations').selectAll().where('id', '=', id.data).where('educator_id', '=', adminEducatorId(c)).executeTakeFirst();
  if (!row) throw notYours('No location of yours has this id.');
  return row;
}

export function locationsAdminRoutes() {
  const app = new Hono<AppEnv>();

  app.get('/locations', async (c) => {
    const { db } = c.var.deps;
    const educatorId = adminEducatorId(c);
    const [rows, used] = await Promise.all([
      db.selectFrom('locations').selectAll().where('educator_id', '=', educatorId).orderBy('city').orderBy('name').orderBy('id').execute(),
      coursesByLocation(db, educatorId),
    ]);
    return c.json({ locations: rows.map((r) => view(r, used.get(r.id) ?? [])) });
  });

  app.post('/locations', async (c) => {
    const { db } = c.var.deps;
    const input = await parseJson(c, locationInputSchema);
    const educatorId = adminEducatorId(c);
    const result = await db.transaction().execute(async (trx) => {
      const row: LocationRow = { id: newId('loc'), educator_id: educatorId, ...columns(input), revision: 1 };
      await trx.insertInto('locations').values(row).execute();
      await audit(trx, c, { entity: 'location', entityId: row.id, action: 'create', revision: 1, changes: created(auditShape(row)) });
      return view(row, []);
    });
    return c.json(result, 201);
  });

  app.put('/locations/:locationId', async (c) => {
    const { db } = c.var.deps;
    const input = await parseJson(c, locationUpdateSchema);
    const educatorId = adminEducatorId(c);
    const result = await db.transaction().execute(async (trx) => {
      const before = await ownedLocation(c, trx);
      const revision = await claimRevision(trx, { table: 'locations', id: before.id, expected: input.revision, educatorId, entity: 'location' });
      const values = columns(input);
      await trx.updateTable('locations').set(values).where('id', '=', before.id).execute();
      const after = { ...before, ...values, revision };
      await audit(trx, c, { entity: 'location', entityId: before.id, action: 'update', revision, changes: diffFields(auditShape(before), auditShape(after)) });
      return view(after, (await coursesByLocation(trx, educatorId)).get(before.id) ?? []);
    });
    return c.json(result);
  });

  app.delete('/locations/:locationId', async (c) => {
    const { db } = c.var.deps;
    const revision = deleteRevision(c);
    const educatorId = adminEducatorId(c);
    await db.transaction().execute(async (trx) => {
      const row = await ownedLocation(c, trx);
      await claimRevision(trx, { table: 'locations', id: row.id, expected: revision, educatorId, entity: 'location' });
      const courses = (await coursesByLocation(trx, educatorId)).get(row.id) ?? [];
      if (courses.length) {
        throw refused('Location In Use', `${row.name ?? row.city} is offered by ${courses.map((x) => x.name).join(', ')}. Take it off ${courses.length === 1 ? 'that course' : 'those courses'} first.`);
      }
      // Bookings where the learner travels there show its address (the id is unique, so a text search is exact).
      const booked = await trx.selectFrom('bookings').select('id').where('educator_id', '=', educatorId)
        .where(sql<string>`cast(details as text)`, 'like', `%${row.id}%`).executeTakeFirst();
      if (booked) throw refused('Location In Use', `Learners have booked to come to ${row.name ?? row.city}, and their bookings show its address. Edit it instead of removing it.`);
      await trx.deleteFrom('locations').where('id', '=', row.id).execute();
      await audit(trx, c, { entity: 'location', entityId: row.id, action: 'delete', changes: removed(auditShape(row)) });
    });
    return c.body(null, 204);
  });

  return app;
}
