/**
 * Checkouts as this process last left them (PostgreSQL): an action on a checkout this process wrote last runs on
 * that copy instead of reading the row again, so the read that began every action's transaction — a round trip
 * to the database while the learner waits — goes out with the action's first statement instead.
 *
 * The copy is checked in the transaction, under the same row lock the read took: `checkout_unchanged`
 * (migration 0295) raises unless the row is still at the copy's version and the educator's catalogue at the copy's
 * catalogue version (which covers its occurrence's details too). Every write to a checkout row raises its version
 * (api/checkout/engine/persist.ts saveRow, the only writer), whichever process makes it. What the copy cannot vouch
 * for is what other checkouts move: the occurrence's spaces and the hold a sweep released. Both were already
 * decided by guarded statements, never by what was read at the start (api/checkout/holds.ts), and stay so.
 *
 * When the check finds the copy out of date, nothing the action did commits, and the action runs again on the row
 * read under its lock, which decides as it always did. A copy that was current decides as the row would have: its
 * answer stands, a refusal (sold out, a wrong step) included.
 *
 * SQLite keeps no copies: its reads cost no round trip, and another process's writes could not be heard of.
 */
import type { Deps } from '../../deps.ts';
import type { Db } from '../../../db/client.ts';
import { sendAhead } from '../../../db/client.ts';
import type { Q } from '../../../db/queries/checkout.ts';
import type { Ctx } from '../context.ts';
import { noteHold, takeSpacesAtCommit } from '../holds.ts';
import { SPACES_GONE } from '../../../db/migrations/0297_take_spaces_at_commit.ts';
import { lockRow, type StampedRow } from './persist.ts';
import { deepFreeze } from '../../shared/freeze.ts';

/** Copies kept per database handle, least recently used dropped first (a copy is 2–4 KB as JSON, ~7 KB in memory). */
export const KNOWN_CHECKOUTS = 5_000;

class KnownCheckouts {
  private readonly copies = new Map<string, StampedRow>();
  /** The checkout each copy's provider payment belongs to, by provider and payment id. */
  private readonly payments = new Map<string, string>();

  constructor(private readonly size: number) {}

  /** The checkout of a copy waiting for this provider payment (undefined: no copy is; the table knows). */
  paidBy(provider: string, paymentId: string): string | undefined {
    return this.payments.get(paymentKey(provider, paymentId));
  }

  /**
   * The copy, frozen: shared with whoever else reads it, and never changed (an action works on the row loadCtx
   * copies from it, persist.ts; what it writes is a new copy, remember()).
   */
  get(id: string): StampedRow | undefined {
    return this.copies.get(id);
  }

  /**
   * The copy of a completed checkout with the booking or order its completion recorded, for the confirmation asked
   * for right after (the browser's "payment was successful" once the provider's notice has completed the checkout):
   * given once, then kept without it, so any later look reads the booking as it stands (an educator may approve or
   * cancel it). Undefined: no copy, or none with a recorded outcome.
   */
  takeRecorded(id: string): StampedRow | undefined {
    const copy = this.copies.get(id);
    if (!copy?.recorded) return undefined;
    const { recorded: _shown, ...rest } = copy;
    this.copies.set(id, Object.freeze(rest));
    return copy;
  }

  /** The checkout as an action's committed transaction left it; without its catalogue's version it cannot be checked. */
  remember(ctx: Pick<Ctx, 'row' | 'stamp' | 'occ' | 'hold' | 'recorded'>): void {
    const { row, stamp } = ctx;
    if (!stamp || stamp.educatorId !== row.educator_id || ctx.hold === undefined) return this.forget(row.id);
    // An occurrence the row names but the action did not load is read again, as if no copy were kept of it.
    const occurrence = !row.occurrence_id ? null : ctx.occ?.occurrence.id === row.occurrence_id ? ctx.occ.occurrence : undefined;
    this.forget(row.id);
    const recorded = row.status === 'completed' ? ctx.recorded : undefined;
    this.put(deepFreeze(structuredClone({ row, stamp, occurrence, hold: ctx.hold, ...(recorded ? { recorded } : {}) })));
  }

  /** A copy taken back after an action on it was refused: the refusal changed nothing, so it is still current. */
  restore(copy: StampedRow): void {
    if (!this.copies.has(copy.row.id)) this.put(copy);
  }

  private put(copy: StampedRow): void {
    const { row } = copy;
    this.copies.set(row.id, copy);
    if (row.payment_provider && row.payment_id) this.payments.set(paymentKey(row.payment_provider, row.payment_id), row.id);
    if (this.copies.size > this.size) this.forget(this.copies.keys().next().value as string);
  }

  forget(id: string): void {
    const row = this.copies.get(id)?.row;
    if (row?.payment_provider && row.payment_id) this.payments.delete(paymentKey(row.payment_provider, row.payment_id));
    this.copies.delete(id);
  }
}

const paymentKey = (provider: string, paymentId: string) => `${provider}\u0000${paymentId}`;

const kept = new WeakMap<Db, KnownCheckouts>();

/** This process's copies for the database of `deps` (none on SQLite). */
export function knownCheckouts(deps: Pick<Deps, 'db' | 'dialect'>): KnownCheckouts | undefined {
  if (deps.dialect !== 'postgres') return undefined;
  let known = kept.get(deps.db);
  if (!known) kept.set(deps.db, (known = new KnownCheckouts(KNOWN_CHECKOUTS)));
  return known;
}

/**
 * Sends the check of the copy in the transaction `tx` (db/client.ts sendAhead): it locks the row and goes out at
 * once, the action's first statement right behind it. Its answer: whether the copy was current. When it was not,
 * PostgreSQL runs nothing more of the transaction, so nothing of the action can commit. The hold is noted as the
 * transaction's own.
 */
async function check(tx: Q, copy: StampedRow): Promise<{ current: Promise<boolean> }> {
  const { row, stamp } = copy;
  const sent = await sendAhead(tx, 'postgres', tx.selectNoFrom((eb) => eb.fn<boolean>('checkout_unchanged', [
    eb.val(row.id), eb.val(Number(row.version)), eb.val(stamp!.educatorId), eb.val(stamp!.version),
  ]).as('unchanged')));
  noteHold(tx, row.id, copy.hold);
  return { current: sent.answer.then(() => true, () => false) };
}

/**
 * Runs `work` in one transaction on the checkout's row, locked: on this process's copy when it has one (checked in
 * the transaction), else — or when the copy was out of date — on the row as read under its lock (undefined: no
 * such checkout). A failure on a copy that was current is the action's own, as it would have been on the row.
 * `left`: the checkout as the committed work left it, kept for the next action (null: keep none).
 */
export async function inCheckoutTransaction<T>(
  deps: Deps, id: string, work: (tx: Q, read: StampedRow | undefined) => Promise<T>, left: (out: T) => Ctx | null,
): Promise<T> {
  try {
    return await runInTransaction(deps, id, (tx, read) => {
      takeSpacesAtCommit(tx);
      return work(tx, read);
    }, left);
  } catch (error) {
    if ((error as { code?: string } | null)?.code !== SPACES_GONE) throw error;
    // A first hold of spaces taken with the COMMIT found too few left (api/checkout/holds.ts takeFirstSpaces): nothing
    // of the action committed. Run again taking the spaces at once, which answers the sold-out problem (after sweeping
    // lapsed holds that may give spaces back) or holds them after all; on the copy, which a current copy's failure
    // kept, else on the row read under its lock.
    return runInTransaction(deps, id, work, left);
  }
}

async function runInTransaction<T>(
  deps: Deps, id: string, work: (tx: Q, read: StampedRow | undefined) => Promise<T>, left: (out: T) => Ctx | null,
): Promise<T> {
  const known = knownCheckouts(deps);
  const copy = known?.get(id);
  if (known && copy) {
    known.forget(id);
    let current: Promise<boolean> | undefined;
    try {
      const out = await deps.db.transaction().execute(async (tx) => {
        ({ current } = await check(tx, copy));
        return work(tx, copy);
      });
      // A check that failed rolled the transaction back, even when nothing after it was written (COMMIT answers
      // ROLLBACK then, not an error): only a current copy's outcome stands.
      if (await current) {
        keep(known, id, left(out));
        return out;
      }
    } catch (error) {
      if (current && (await current)) {
        known.restore(copy);
        throw error;
      }
    }
  }
  known?.forget(id);
  const out = await deps.db.transaction().execute(async (tx) => work(tx, await lockRow(tx, deps, id)));
  if (known) keep(known, id, left(out));
  return out;
}

function keep(known: KnownCheckouts, id: string, ctx: Ctx | null): void {
  if (ctx && ctx.row.id === id) known.remember(ctx);
  else known.forget(id);
}
