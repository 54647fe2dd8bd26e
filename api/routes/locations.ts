/**
 * POST /api/locations/by-ids {locationIds: string[1..100]} → [{id, _id, city, formatted, name}]
 * (spec 7 "Locations"): in the order asked, each once; unknown ids are simply absent.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseJson } from '../http/parse.ts';

const body = z.object({ locationIds: z.array(z.string().min(1).max(200)).min(1).max(100) });

export function locationsRoutes() {
  const app = new Hono<AppEnv>();
  app.post('/locations/by-ids', async (c) => {
    const { locationIds } = await parseJson(c, body);
    const ids = Array.from(new Set(locationIds));
    const rows = await c.var.deps.db
      .selectFrom('locations')
      .select(['id', 'city', 'formatted', 'name'])
      .where('id', 'in', ids)
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    const locations = ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [{ id: row.id, _id: row.id, city: row.city, formatted: row.formatted, name: row.name }] : [];
    });
    return c.json(locations);
  });
  return app;
}
