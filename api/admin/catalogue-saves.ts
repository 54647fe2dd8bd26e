/**
 * What the catalogue areas of the admin API share (dates, forms, locations, collections, promo codes, gift vouchers,
 * memberships): the refusals they answer with, the revision of a DELETE (`?revision=`), and the audit entry of a save.
 * Every save is one transaction: claimRevision → write → recordChange (api/admin/audit.ts).
 */
import type { Context } from 'hono';
import type { Transaction } from 'kysely';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import type { Database } from '../../db/schema.ts';
import { parseQuery } from '../http/parse.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { authProblems } from '../auth/problems.ts';
import { adminEducatorId } from './access.ts';
import { recordChange } from './audit.ts';

export type Trx = Transaction<Database>;

/** 404: the id is not one of this educator's (whether it exists elsewhere or not). */
export function notYours(detail: string): ProblemError {
  return new ProblemError(problems.notFound(detail));
}

/** 409 with the reason a change is refused (booked dates, a form in use, a plan with members…). */
export function refused(title: string, detail: string): ProblemError {
  return new ProblemError(authProblems.conflict(title, detail));
}

/** 400: one field's problem, shown beside it. */
export function invalid(key: string, message: string): ProblemError {
  return new ProblemError(problems.validation([{ key, message }]));
}

/** 400: several fields' problems at once. */
export function invalidFields(properties: { key: string; message: string }[]): ProblemError {
  return new ProblemError(problems.validation(properties));
}

/** The revision a DELETE was made on: `?revision=N`. */
export function deleteRevision(c: Context<AppEnv>): number {
  return parseQuery(c, z.object({ revision: z.coerce.number({ error: 'is required' }).int('must be a whole number').min(1, 'must be at least 1') })).revision;
}

/** Records an admin's change of one thing, in the save's transaction. */
export async function audit(
  trx: Trx,
  c: Context<AppEnv>,
  entry: { entity: string; entityId: string; action: string; revision?: number | null; changes?: Record<string, [unknown, unknown]> },
): Promise<void> {
  await recordChange(trx, {
    educatorId: adminEducatorId(c), userId: c.var.user?.id ?? null, entity: entry.entity, entityId: entry.entityId, action: entry.action,
    revision: entry.revision ?? null, changes: entry.changes ?? {}, at: c.var.deps.now(),
  });
}

/** Each field of a thing as created (for the audit log of a create): [null, value]. */
export function created(after: Record<string, unknown>): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const [k, v] of Object.entries(after)) if (v !== undefined && v !== null) out[k] = [null, v];
  return out;
}

/** Each field of a thing as it was when deleted: [value, null]. */
export function removed(before: Record<string, unknown>): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const [k, v] of Object.entries(before)) if (v !== undefined && v !== null) out[k] = [v, null];
  return out;
}

/** An id from the URL (404 for anything that is not an id: nothing to look up). */
export const pathId = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);

/** The educator's courses for a picker (promo codes, collections, plans): id, name, published; by name. */
export async function educatorCourses(q: Trx | AppEnv['Variables']['deps']['db'], educatorId: string): Promise<{ id: string; name: string; published: boolean }[]> {
  const rows = await q.selectFrom('courses').select(['id', 'name', 'published']).where('educator_id', '=', educatorId).orderBy('name').orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, name: r.name, published: !!r.published }));
}

/** Refuses ids that are not the educator's courses (key: `{path}.{index}`, or `path` for one id). */
export async function requireOwnCourses(q: Trx | AppEnv['Variables']['deps']['db'], educatorId: string, ids: readonly string[], path: string, single = false): Promise<void> {
  if (ids.length === 0) return;
  const found = new Set((await q.selectFrom('courses').select('id').where('educator_id', '=', educatorId).where('id', 'in', [...new Set(ids)]).execute()).map((r) => r.id));
  const problems = ids.map((id, i) => (found.has(id) ? null : { key: single ? path : `${path}.${i}`, message: 'is not one of your courses' })).filter((p) => p !== null);
  if (problems.length) throw invalidFields(problems);
}
