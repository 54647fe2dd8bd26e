/**
 * The audit log and optimistic revisions of the educator admin (migration 0230).
 *
 * Every admin save is one transaction that (1) raises the entity's revision only if it is still the one the admin
 * edited, (2) writes the change, and (3) records it here with each field's value before and after. A save whose
 * revision moved meanwhile is refused (409) with what changed since, read from this log — nothing is overwritten
 * silently.
 */
import type { Transaction } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { authProblems } from '../auth/problems.ts';
import { timeOrderedId } from '../shared/ids.ts';

type Executor = Db | Transaction<Database>;

/** The tables with a revision (migrations 0230, 0240). */
export type RevisionedTable = 'educators' | 'courses' | 'occurrences' | 'forms' | 'locations' | 'vouchers' | 'membership_plans' | 'collections'
  | 'payment_options';

export interface AuditEntry {
  educatorId: string;
  userId: string | null;
  entity: string;
  entityId: string;
  action: string;
  revision?: number | null;
  changes?: Record<string, [unknown, unknown]>;
  at: number;
}

/**
 * An audit entry's id sorts by when it was made (timeOrderedId): the log's order is (created_at, id) and so is its
 * cursor, so entries of the same second are listed in the order they were made and paging skips none.
 */
export function auditId(now = Date.now()): string {
  return timeOrderedId('aud', now);
}

export async function recordChange(db: Executor, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: auditId(), educator_id: entry.educatorId, user_id: entry.userId, entity: entry.entity, entity_id: entry.entityId,
      action: entry.action, revision: entry.revision ?? null, changes: entry.changes ?? {}, created_at: entry.at,
    })
    .execute();
}

/** Each field of `after` whose value differs from `before`, as [before, after] (values compared as JSON). */
export function diffFields<T extends Record<string, unknown>>(before: T, after: Partial<T>): Record<string, [unknown, unknown]> {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined) continue;
    if (JSON.stringify(before[key] ?? null) !== JSON.stringify(value ?? null)) changes[key] = [before[key] ?? null, value ?? null];
  }
  return changes;
}

export interface ChangeView {
  id: string;
  at: number;
  by: { id: string | null; name: string | null };
  entity: string;
  entityId: string;
  action: string;
  revision: number | null;
  fields: string[];
  changes: Record<string, [unknown, unknown]>;
}

/** An educator's changes, newest first (optionally of one entity), with who made them. */
export async function listChanges(
  db: Executor,
  input: {
    educatorId: string; entity?: string; entityId?: string; afterRevision?: number; limit?: number; before?: number;
    /** With `before`: the page after the entry (before, beforeId) — entries of the same second are not skipped. */
    beforeId?: string;
  },
): Promise<ChangeView[]> {
  let q = db
    .selectFrom('audit_log as a')
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.id', 'a.entity', 'a.entity_id', 'a.action', 'a.revision', 'a.changes', 'a.created_at', 'a.user_id', 'u.first_name', 'u.last_name'])
    .where('a.educator_id', '=', input.educatorId);
  if (input.entity) q = q.where('a.entity', '=', input.entity);
  if (input.entityId) q = q.where('a.entity_id', '=', input.entityId);
  if (input.afterRevision !== undefined) q = q.where('a.revision', '>', input.afterRevision);
  if (input.before !== undefined && input.beforeId !== undefined) {
    const { before, beforeId } = input;
    q = q.where((eb) => eb.or([eb('a.created_at', '<', before), eb.and([eb('a.created_at', '=', before), eb('a.id', '<', beforeId)])]));
  } else if (input.before !== undefined) q = q.where('a.created_at', '<', input.before);
  // The same key as the cursor's: several changes in one second list in the order they were made (their ids).
  const rows = await q.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(input.limit ?? 50).execute();
  return rows.map((r) => ({
    id: r.id,
    at: Number(r.created_at),
    by: { id: r.user_id, name: r.user_id ? `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() || null : null },
    entity: r.entity,
    entityId: r.entity_id,
    action: r.action,
    revision: r.revision === null ? null : Number(r.revision),
    fields: Object.keys(r.changes ?? {}),
    changes: r.changes ?? {},
  }));
}

/**
 * Raises a row's revision from `expected` to `expected + 1`, in the caller's transaction; refused with 409 and the
 * changes made since when another save got there first. Returns the new revision.
 */
export async function claimRevision(
  trx: Transaction<Database>,
  input: { table: RevisionedTable; id: string; expected: number; educatorId: string; entity: string },
): Promise<number> {
  const result = await trx
    .updateTable(input.table)
    .set((eb) => ({ revision: eb('revision', '+', 1) }))
    .where('id', '=', input.id)
    .where('revision', '=', input.expected)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) return input.expected + 1;
  const exists = await trx.selectFrom(input.table).select('revision').where('id', '=', input.id).executeTakeFirst();
  if (!exists) throw new ProblemError(problems.notFound('This was deleted by someone else.'));
  const since = await listChanges(trx, { educatorId: input.educatorId, entity: input.entity, entityId: input.id, afterRevision: input.expected });
  throw new ProblemError(staleRevision(since, Number(exists.revision)));
}

/** The 409 of a save made on an old revision: who changed what since, so the admin can redo their edit. */
export function staleRevision(since: ChangeView[], current: number) {
  const fields = [...new Set(since.flatMap((c) => c.fields))];
  const who = [...new Set(since.map((c) => c.by.name).filter((n): n is string => !!n))];
  const detail = `This was changed by ${who.length ? who.join(', ') : 'someone else'} since you opened it${fields.length ? ` (${fields.join(', ')})` : ''}. Reload to see their changes, then make yours again.`;
  return { ...authProblems.conflict('Changed Since You Opened It', detail), currentRevision: current, changes: since };
}
