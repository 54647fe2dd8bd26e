/**
 * The figures of the Numbers dashboard: the educator's analytics events of a period grouped by name, context and
 * course (counted by the database), and its checkouts of the period read a page at a time (keyset by id) and
 * folded into the accumulator (src/domain/admin/numbers.ts), so memory stays flat.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { numbersAccumulator, type Numbers } from '../../src/domain/admin/numbers.ts';

const PAGE = 1000;

export async function educatorNumbers(db: Kysely<Database>, educatorId: string, from: number, to: number): Promise<Numbers> {
  const courses = await db.selectFrom('courses').select(['id', 'name']).where('educator_id', '=', educatorId).execute();
  const acc = numbersAccumulator(new Map(courses.map((c) => [c.id, c.name])));
  const events = await db.selectFrom('analytics_events')
    .select(['name', 'context', 'course_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('educator_id', '=', educatorId).where('created_at', '>=', from).where('created_at', '<', to)
    .groupBy(['name', 'context', 'course_id']).execute();
  for (const e of events) acc.addEvents(e.name, e.context, e.course_id, Number(e.n));
  let after: string | null = null;
  for (;;) {
    let q = db.selectFrom('checkouts').select(['id', 'origin', 'course_id', 'step_state', 'completed_at'])
      .where('educator_id', '=', educatorId).where('created_at', '>=', from).where('created_at', '<', to);
    if (after !== null) q = q.where('id', '>', after);
    const rows = await q.orderBy('id').limit(PAGE).execute();
    for (const r of rows) acc.addCheckout({ origin: r.origin, courseId: r.course_id, stepState: r.step_state as Record<string, { status?: string }> | null, completed: r.completed_at !== null });
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.id;
  }
  return acc.result();
}
