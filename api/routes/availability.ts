/**
 * GET /api/courses/{educatorSlug}/{courseSlug}/availability/slots?from={ISO}&to={ISO}&duration={seconds}
 * → [{from, to}] (ISO) (spec 7): future slots of the educator's opening hours (Europe/London) that no
 * booking takes, each `duration` seconds long (default 900, spec 9). At most 62 days per call.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseParams, parseQuery } from '../http/parse.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { availabilitySlots } from '../../src/domain/checkout/slots.ts';
import { DEFAULT_SLOT_SECONDS } from '../../src/domain/checkout/request.ts';
import { educatorBusyIntervals } from '../../db/queries/checkout.ts';

const params = z.object({ educatorSlug: z.string().min(1).max(200), courseSlug: z.string().min(1).max(200) });
const iso = z.string().max(100).refine((v) => Number.isFinite(Date.parse(v)), 'must be an ISO date-time');
const query = z.object({
  from: iso,
  to: iso,
  duration: z.coerce.number().int().min(300).max(7 * 86400).optional(),
});
const MAX_RANGE = 62 * 86400;

export function availabilityRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/courses/:educatorSlug/:courseSlug/availability/slots', async (c) => {
    const { educatorSlug, courseSlug } = parseParams(c, params);
    const q = parseQuery(c, query);
    const from = Math.floor(Date.parse(q.from) / 1000);
    const to = Math.floor(Date.parse(q.to) / 1000);
    if (!(to > from)) throw new ProblemError(problems.validation([{ key: 'to', message: 'must be after from' }]));
    if (to - from > MAX_RANGE) throw new ProblemError(problems.validation([{ key: 'to', message: 'must be at most 62 days after from' }]));
    const { db, now } = c.var.deps;
    const row = await db
      .selectFrom('courses')
      .innerJoin('educators', 'educators.id', 'courses.educator_id')
      .select(['courses.id', 'courses.published', 'educators.id as educator_id', 'educators.working_hours'])
      .where('educators.slug', '=', educatorSlug)
      .where('courses.slug', '=', courseSlug)
      .executeTakeFirst();
    if (!row || !row.published) throw new ProblemError(problems.notFound('No such course'));
    const busy = await educatorBusyIntervals(db, row.educator_id, from, to);
    const slots = availabilitySlots({ workingHours: row.working_hours, from, to, durationSeconds: q.duration ?? DEFAULT_SLOT_SECONDS, busy, now: now() });
    c.header('cache-control', 'no-store');
    return c.json(slots.map((s) => ({ from: new Date(s.from * 1000).toISOString(), to: new Date(s.to * 1000).toISOString() })));
  });
  return app;
}
