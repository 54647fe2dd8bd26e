/**
 * Reading, locking and saving a checkout row, and loading its working context (api/checkout/context.ts Ctx): one
 * statement reads the row with its catalogue's version, its hold and its occurrence; one statement saves it; the
 * follow-up work queued on `ctx.after` runs once the transaction has committed.
 */
import type { Deps } from '../../deps.ts';
import type { SessionUser } from '../../../src/domain/session-user.ts';
import type { BookingRow, CheckoutRow, OrderRow, SpaceHoldRow } from '../../../db/schema/checkout.ts';
import { joinedOccurrenceColumns, splitJoinedOccurrence, type CatalogueStamp, type CheckoutCatalogue, type Q } from '../../../db/queries/checkout.ts';
import type { Occurrence } from '../../../db/schema.ts';
import { compiledOnce } from '../../../db/compiled.ts';
import { ProblemError, problems } from '../../../src/domain/problems.ts';
import { checkoutNotFoundProblem } from '../../../src/domain/checkout/problems.ts';
import { catalogueCache } from '../catalogue-cache.ts';
import type { Ctx } from '../context.ts';
import { flowDefinition } from '../flows/index.ts';
import { currentHold, noteHold } from '../holds.ts';
import { loggerFor } from '../../log.ts';
import { canAccessCourse } from './access.ts';
import { writeLater } from '../../../db/client.ts';

/**
 * A checkout row with the version of its educator's catalogue (api/checkout/catalogue-cache.ts) and, when read
 * together, its occurrence (undefined: not read with it).
 */
export interface StampedRow {
  row: CheckoutRow;
  stamp?: CatalogueStamp;
  occurrence?: Occurrence | null;
  /** The checkout's hold as read with the row (null: none). */
  hold?: SpaceHoldRow | null;
  /** The booking or order the checkout's completing action recorded, as its insert returned it (known.ts). */
  recorded?: BookingRow | OrderRow;
}

/** readCheckout's statement, compiled once (db/compiled.ts): it runs on every checkout request. */
function checkoutRead(q: Q, id: string) {
  return q.selectFrom('checkouts')
    .leftJoin('space_holds', 'space_holds.checkout_id', 'checkouts.id')
    .leftJoin('occurrences', 'occurrences.id', 'checkouts.occurrence_id')
    .selectAll('checkouts')
    .select((eb) => eb.selectFrom('catalogue_versions').select('version').whereRef('catalogue_versions.educator_id', '=', 'checkouts.educator_id').as('catalogue_version'))
    .select([
      'space_holds.id as hold_id', 'space_holds.occurrence_id as hold_occurrence_id', 'space_holds.spaces as hold_spaces',
      'space_holds.voucher_id as hold_voucher_id', 'space_holds.status as hold_status', 'space_holds.expires_at as hold_expires_at',
      'space_holds.created_at as hold_created_at', 'space_holds.updated_at as hold_updated_at',
    ])
    .select(joinedOccurrenceColumns())
    .where('checkouts.id', '=', id);
}
const readCheckoutRow = compiledOnce((q, id: string) => checkoutRead(q, id));
const lockCheckoutRow = compiledOnce((q, id: string) => checkoutRead(q, id).forUpdate(['checkouts']));

/**
 * Reads a checkout (locked, in a transaction on PostgreSQL), its catalogue's version, its hold and its occurrence in
 * one statement: each was a round trip of every checkout action. Only the checkout's row is locked: a hold's row is
 * locked after its occurrence's (api/checkout/holds.ts), and the statements that count spaces change the
 * occurrence's row under its own lock, whatever was read here.
 */
export async function readCheckout(q: Q, deps: Deps, id: string, options: { lock?: boolean } = {}): Promise<StampedRow | undefined> {
  const [found] = await (options.lock && deps.dialect === 'postgres' ? lockCheckoutRow : readCheckoutRow)(q, id);
  if (!found) return undefined;
  const {
    catalogue_version: version, hold_id: holdId, hold_occurrence_id: occurrenceId, hold_spaces: spaces, hold_voucher_id: voucherId,
    hold_status: status, hold_expires_at: expiresAt, hold_created_at: createdAt, hold_updated_at: updatedAt, ...rest
  } = found;
  const { rest: row, occurrence } = splitJoinedOccurrence(rest, deps.dialect === 'sqlite');
  const checkout = row as unknown as CheckoutRow;
  const hold: SpaceHoldRow | null = holdId === null ? null : {
    id: holdId, checkout_id: checkout.id, occurrence_id: occurrenceId, spaces: Number(spaces), voucher_id: voucherId, status: status!,
    expires_at: Number(expiresAt), created_at: Number(createdAt), updated_at: Number(updatedAt),
  };
  noteHold(q, checkout.id, hold);
  return { row: checkout, stamp: { educatorId: checkout.educator_id, version: Number(version ?? 0) }, occurrence, hold };
}

export async function lockRow(q: Q, deps: Deps, id: string): Promise<StampedRow | undefined> {
  return readCheckout(q, deps, id, { lock: true });
}

/**
 * The working context of one checkout: its row, its flow's definition, its catalogue and occurrence. `stamp`: the
 * catalogue's version read with the row; `preloaded`: the catalogue a new checkout was just opened with.
 */
export async function loadCtx(deps: Deps, q: Q, { row, stamp, occurrence }: StampedRow, user: SessionUser | null, preloaded?: CheckoutCatalogue): Promise<Ctx> {
  const catalogues = catalogueCache(deps.db);
  const cat = preloaded ?? (row.course_id ? await catalogues.course(q, row.course_id, stamp) : await catalogues.educator(q, row.educator_id, stamp));
  if (!cat) throw new ProblemError(checkoutNotFoundProblem());
  const occ = row.occurrence_id ? await catalogues.occurrence(q, row.occurrence_id, cat, stamp, occurrence) : null;
  return {
    deps, q, dialect: deps.dialect, now: deps.now(), user, row: { ...row, step_state: structuredClone(row.step_state ?? {}) },
    def: flowDefinition(row.flow), cat, occ, stamp, after: [],
  };
}

/** Writes the working copy back (one statement), runs the statements kept for last, and notes the hold it leaves. */
export async function saveRow(ctx: Ctx): Promise<void> {
  const r = ctx.row;
  // Nothing reads its answer: on PostgreSQL it goes out with the next statement, the COMMIT at the latest.
  await writeLater(ctx.q, ctx.q
    .updateTable('checkouts')
    .set({
      occurrence_id: r.occurrence_id,
      user_id: r.user_id,
      student_id: r.student_id,
      current_step: r.current_step,
      step_state: r.step_state,
      status: r.status,
      booking_id: r.booking_id,
      order_id: r.order_id,
      request_id: r.request_id,
      application_id: r.application_id,
      outcome_kind: r.outcome_kind,
      outcome_id: r.outcome_id,
      total_cost: r.total_cost,
      currency: r.currency,
      cost_summary: r.cost_summary,
      payment_provider: r.payment_provider,
      payment_id: r.payment_id,
      version: Number(r.version) + 1,
      updated_at: ctx.now,
      completed_at: r.completed_at,
    })
    .where('id', '=', r.id));
  r.version = Number(r.version) + 1;
  r.updated_at = ctx.now;
  for (const check of ctx.pending?.splice(0) ?? []) await check;
  for (const job of ctx.lastly?.splice(0) ?? []) await job();
  // The hold the answer shows, as this transaction leaves it (known without a statement: api/checkout/holds.ts).
  ctx.hold = (await currentHold(ctx.q, r.id)) ?? null;
}

/** The working context of a checkout the learner may see, or the problem of a restricted course they may not. */
export async function accessibleCtx(deps: Deps, q: Q, read: StampedRow, user: SessionUser | null): Promise<Ctx> {
  const ctx = await loadCtx(deps, q, read, user);
  if (!(await canAccessCourse(q, ctx.cat, user))) throw new ProblemError(problems.unauthorisedCheckout('You do not have access to this course.'));
  return ctx;
}

/** The work queued on `ctx.after`, once the transaction has committed: a failure is logged, never the action's. */
export async function runAfter(ctx: Ctx): Promise<void> {
  for (const job of ctx.after) {
    try {
      await job();
    } catch (error) {
      loggerFor(ctx.deps.config).error('checkout follow-up failed', { error });
    }
  }
}
