/**
 * Space holds: spaces are taken off an occurrence, and a voucher use off its voucher, from the
 * moment a learner reaches Payment, with an expiry; released when the hold expires (swept lazily by the
 * transactions that read availability) or the checkout is abandoned; committed once by the outcome.
 *
 * The guard is one conditional statement per resource, run inside the caller's transaction:
 *   update occurrences set available_spaces = available_spaces - n where id = ? and available_spaces >= n
 *   update vouchers set uses = uses + 1 where id = ? and (max_uses is null or uses < max_uses)
 * and the affected-row count decides. On PostgreSQL a concurrent update of the same row waits for the
 * first to commit and then re-checks the WHERE clause against the new value; on SQLite every transaction
 * runs alone (one connection behind kysely's mutex). So no two holds can share the last space. A learner's
 * first hold of spaces alone is taken with the COMMIT on PostgreSQL (takeFirstSpaces), as a statement that fails
 * the transaction when too few are left.
 *
 * Lock order (PostgreSQL, to avoid deadlocks): checkout row → occurrence row → voucher row → hold rows.
 * Every function that touches a hold first locks its occurrence (and voucher), the sweep included. A first hold
 * taken with the COMMIT locks its occurrence after inserting its own hold row, which no other transaction can
 * know of yet, and after the holder's cap, which is taken before the occurrence everywhere.
 */
import { sql } from 'kysely';
import type { Dialect } from '../../db/client.ts';
import type { Q } from '../../db/queries/checkout.ts';
import type { SpaceHoldRow } from '../../db/schema/checkout.ts';
import { newId } from './ids.ts';
import { lapsedVoucherUses } from '../../db/queries/holds.ts';
import { releaseGiftCard } from '../gifts/cards.ts';
import { releaseCredit } from '../memberships/service.ts';
import { sendAhead, writeAtCommit, writeLater } from '../../db/client.ts';

export interface HoldRequest {
  occurrenceId: string | null;
  spaces: number;
  voucherId: string | null;
}

/** `lapsed`: past the cap; `againAt`, when the learner's cap on this date has ended and they must wait until then. */
export type HoldFailure = { kind: 'spaces'; available: number } | { kind: 'voucher' } | { kind: 'lapsed'; againAt?: number };

/**
 * The end of a learner's hold time on one date (`scope`: `occurrence:{id}`, `voucher:{id}`, `gift-card:{id}`),
 * whatever checkout holds it: a new checkout does not start the clock again. The cap's clock starts at the learner's
 * first hold there; once it has run out, that learner may not hold there again for as long again (other learners'
 * turn), then a new cap begins. Answers `{ end }` (hold until then) or `{ end, againAt }` (nothing may be held now).
 * One round trip on PostgreSQL: the upsert that begins a cap (or begins it again after its rest) is sent with the
 * read after it (writeLater). It changes nothing while a cap runs or rests (its WHERE is the condition for a new one).
 */
export async function holderCapEnd(
  q: Q, input: { holder: string; scope: string; now: number; maxSeconds: number },
): Promise<{ end: number; againAt?: number }> {
  await startHolderCap(q, input);
  return readHolderCap(q, input);
}

type CapInput = { holder: string; scope: string; now: number; maxSeconds: number };

/** Begins the holder's cap unless one runs or rests (held: it goes out with the next statement). */
async function startHolderCap(q: Q, { holder, scope, now, maxSeconds }: CapInput): Promise<void> {
  // Concurrent first holds of one learner agree on one start: the later upsert finds the row and leaves it.
  await writeLater(q, q.insertInto('hold_caps').values({ holder, scope, started_at: now })
    .onConflict((oc) => oc.columns(['holder', 'scope']).doUpdateSet({ started_at: now }).where('hold_caps.started_at', '<=', now - 2 * maxSeconds)));
}

async function readHolderCap(q: Q, input: CapInput): Promise<{ end: number; againAt?: number }> {
  return capOf(await capQuery(q, input).executeTakeFirst(), input);
}

const capQuery = (q: Q, { holder, scope }: CapInput) => q.selectFrom('hold_caps').select('started_at').where('holder', '=', holder).where('scope', '=', scope);

function capOf(row: { started_at?: unknown } | undefined, { now, maxSeconds }: CapInput): { end: number; againAt?: number } {
  const end = Number(row?.started_at ?? now) + maxSeconds;
  return now < end ? { end } : { end, againAt: end + maxSeconds };
}

/**
 * A learner's hold turned into a booking or an order: their time on what it held starts afresh (the cap limits
 * holding without buying, and a learner booking the same date again later is not made to wait).
 */
export async function endHolderCaps(q: Q, holder: string, scopes: string[]): Promise<void> {
  if (scopes.length === 0) return;
  await writeLater(q, q.deleteFrom('hold_caps').where('holder', '=', holder).where('scope', 'in', scopes));
}

/** What a hold of spaces (else a voucher's use) is capped on: the scope of holderCapEnd. */
export function holdScope(hold: { occurrenceId: string | null; spaces: number; voucherId: string | null }): string | null {
  return hold.occurrenceId && hold.spaces > 0 ? `occurrence:${hold.occurrenceId}` : hold.voucherId ? `voucher:${hold.voucherId}` : null;
}

/** Who holds: the learner (every hold is taken at Payment, after login), else the checkout alone. */
export function holderOf(userId: string | null | undefined, checkoutId: string): string {
  return userId ? `user:${userId}` : `checkout:${checkoutId}`;
}

/**
 * Locks the occurrence's row (PostgreSQL; SQLite runs one transaction at a time). Nothing reads the lock's answer:
 * it goes out with the transaction's next statement (writeLater), which PostgreSQL runs after it, lock taken.
 */
export async function lockOccurrence(q: Q, dialect: Dialect, occurrenceId: string): Promise<void> {
  if (dialect !== 'postgres') return;
  await writeLater(q, q.selectFrom('occurrences').select('id').where('id', '=', occurrenceId).forUpdate());
}

export async function lockVoucher(q: Q, dialect: Dialect, voucherId: string): Promise<void> {
  if (dialect !== 'postgres') return;
  await writeLater(q, q.selectFrom('vouchers').select('id').where('id', '=', voucherId).forUpdate());
}

/**
 * Sets available_spaces from the capacity when it was never set (spec 5: spaces, else the course's, else 0): one
 * update that changes nothing once it is set, sent with the next statement (writeLater).
 */
export async function ensureAvailableSpaces(q: Q, occurrenceId: string): Promise<void> {
  await writeLater(q, q
    .updateTable('occurrences')
    .set((eb) => ({
      available_spaces: eb.fn.coalesce('spaces', eb.selectFrom('courses').select('courses.spaces').whereRef('courses.id', '=', 'occurrences.course_id'), sql.lit(0)),
    }))
    .where('id', '=', occurrenceId)
    .where('available_spaces', 'is', null));
}

async function giveBack(q: Q, hold: Pick<SpaceHoldRow, 'occurrence_id' | 'spaces' | 'voucher_id'>): Promise<void> {
  if (hold.occurrence_id && hold.spaces > 0) {
    await q
      .updateTable('occurrences')
      .set({ available_spaces: sql<number>`available_spaces + ${hold.spaces}` })
      .where('id', '=', hold.occurrence_id)
      .where('available_spaces', 'is not', null)
      .execute();
  }
  if (hold.voucher_id) {
    await q
      .updateTable('vouchers')
      .set({ uses: sql<number>`uses - 1` })
      .where('id', '=', hold.voucher_id)
      .where('uses', '>', 0)
      .execute();
  }
}

/**
 * Releases one hold if it is still held; gives back its spaces and voucher use. True when released. A sweep
 * (`expiredOnly`) releases it only if it is still expired when its row is locked: its checkout may have renewed it
 * meanwhile without the occurrence's lock (acquireHold's renewal).
 */
async function releaseRow(q: Q, hold: SpaceHoldRow, now: number, { expiredOnly = false } = {}): Promise<boolean> {
  let update = q
    .updateTable('space_holds')
    .set({ status: 'released', updated_at: now })
    .where('id', '=', hold.id)
    .where('status', '=', 'held');
  if (expiredOnly) update = update.where('expires_at', '<=', now);
  const res = await update.executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) {
    forgetHold(q, hold.checkout_id);
    return false;
  }
  noteHold(q, hold.checkout_id, { ...hold, status: 'released', updated_at: now });
  await giveBack(q, hold);
  return true;
}

/**
 * Releases expired holds on an occurrence (or, with only a voucher, the voucher-only holds of that voucher).
 * Call after locking the occurrence / voucher. Returns how many were released.
 */
export async function sweepExpired(q: Q, dialect: Dialect, now: number, scope: { occurrenceId?: string | null; voucherId?: string | null }): Promise<number> {
  let query = q.selectFrom('space_holds').selectAll().where('status', '=', 'held').where('expires_at', '<=', now);
  if (scope.occurrenceId) query = query.where('occurrence_id', '=', scope.occurrenceId);
  else if (scope.voucherId) query = query.where('occurrence_id', 'is', null).where('voucher_id', '=', scope.voucherId);
  else return 0;
  const expired = await query.orderBy('id').limit(500).execute();
  if (expired.length === 0) return 0;
  const vouchers = [...new Set(expired.map((h) => h.voucher_id).filter((v): v is string => !!v))].sort();
  for (const v of vouchers) if (v !== scope.voucherId) await lockVoucher(q, dialect, v);
  let released = 0;
  for (const hold of expired) if (await releaseRow(q, hold, now, { expiredOnly: true })) released++;
  return released;
}

/**
 * Every expired hold, occurrence by occurrence, each in its own short transaction (for a periodic job or
 * a test); the checkout itself only sweeps lazily.
 */
export async function sweepAllExpiredHolds(db: Q, dialect: Dialect, now: number): Promise<number> {
  const scopes = await db
    .selectFrom('space_holds')
    .select(['occurrence_id', 'voucher_id'])
    .where('status', '=', 'held')
    .where('expires_at', '<=', now)
    .groupBy(['occurrence_id', 'voucher_id'])
    .execute();
  let released = 0;
  for (const scope of scopes) {
    released += await db.transaction().execute(async (tx) => {
      if (scope.occurrence_id) await lockOccurrence(tx, dialect, scope.occurrence_id);
      else if (scope.voucher_id) await lockVoucher(tx, dialect, scope.voucher_id);
      return sweepExpired(tx, dialect, now, { occurrenceId: scope.occurrence_id, voucherId: scope.voucher_id });
    });
  }
  return released;
}

/**
 * What a transaction knows of a checkout's hold (a checkout has at most one), as its own writes left it; null: none.
 * The engine reads the hold with the locked checkout row, and every write to a hold goes through this module, so a
 * checkout action reads its hold once and answers with the hold it leaves without reading it again. What another
 * transaction does meanwhile (a sweep releasing a lapsed hold) is caught by the guarded updates, as it was when the
 * hold was read a few statements later; the reads that must see it — under the occurrence's lock, before replacing
 * a hold or counting the spaces a learner may take — go to the table (readHold). Only transactions are memoised:
 * between two reads outside one, any request may have changed the hold.
 */
const knownHolds = new WeakMap<Q, Map<string, SpaceHoldRow | null>>();

/** Records what the transaction `q` knows of the checkout's hold (read with its row, or as written). */
export function noteHold(q: Q, checkoutId: string, hold: SpaceHoldRow | null | undefined): void {
  if (!q.isTransaction) return;
  let known = knownHolds.get(q);
  if (!known) knownHolds.set(q, (known = new Map()));
  known.set(checkoutId, hold ?? null);
}

function forgetHold(q: Q, checkoutId: string): void {
  knownHolds.get(q)?.delete(checkoutId);
}

/** The checkout's hold as the table has it now (noted for the rest of the transaction). */
export async function readHold(q: Q, checkoutId: string): Promise<SpaceHoldRow | undefined> {
  const hold = await q.selectFrom('space_holds').selectAll().where('checkout_id', '=', checkoutId).executeTakeFirst();
  noteHold(q, checkoutId, hold);
  return hold;
}

/** The checkout's hold: as this transaction knows it, else read. */
export async function currentHold(q: Q, checkoutId: string): Promise<SpaceHoldRow | undefined> {
  const known = knownHolds.get(q);
  if (known?.has(checkoutId)) return known.get(checkoutId) ?? undefined;
  return readHold(q, checkoutId);
}

/** A hold renewed less than this long ago is not renewed again (acquireHold). */
export const HOLD_RENEWED_RECENTLY_SECONDS = 60;

/**
 * Takes (or renews) the checkout's hold: locks, sweeps expired holds, gives back the checkout's own previous
 * hold, then takes the spaces and the voucher use with the guarded updates. Throws nothing: returns the
 * failure so the caller can answer with the right problem (and the transaction rolls back).
 */
export async function acquireHold(
  q: Q,
  dialect: Dialect,
  input: { checkoutId: string; now: number; ttlSeconds: number; maxSeconds?: number; holder?: string } & HoldRequest,
): Promise<{ ok: true; hold: SpaceHoldRow } | { ok: false; failure: HoldFailure }> {
  const { checkoutId, now } = input;
  const existing = await currentHold(q, checkoutId);
  // The cap runs from the checkout's first hold (the row is kept across release and renewal), so neither
  // renewing nor going back and forth keeps spaces from other learners longer than maxSeconds; and from the
  // holder's first hold on the date, so neither does abandoning and booking again.
  let capEnd = input.maxSeconds === undefined ? Infinity : Number(existing?.created_at ?? now) + input.maxSeconds;
  if (now >= capEnd) return { ok: false, failure: { kind: 'lapsed' } };
  const scope = holdScope(input);
  const cap = input.maxSeconds !== undefined && input.holder && scope ? { holder: input.holder, scope, now, maxSeconds: input.maxSeconds } : null;
  const wanted = { occurrence_id: input.spaces > 0 ? input.occurrenceId : null, spaces: input.occurrenceId ? input.spaces : 0, voucher_id: input.voucherId };
  const sameAs = (hold: SpaceHoldRow) => (hold.occurrence_id ?? null) === wanted.occurrence_id && Number(hold.spaces) === wanted.spaces
    && (hold.voucher_id ?? null) === wanted.voucher_id;

  const renewable = !!existing && existing.status === 'held' && Number(existing.expires_at) > now && sameAs(existing);
  // A live hold taken or renewed within the last minute (at Contact a moment ago, or by the action before this one
  // on Payment) is kept as it is, with no statement: its expiry is then at most a minute short of a renewal's. It is
  // within its caps (its expiry is never past them) and no sweep releases a hold before its expiry.
  if (renewable && Number(existing.updated_at) > now - HOLD_RENEWED_RECENTLY_SECONDS) return { ok: true, hold: existing };
  // The common cases take one guarded statement, sent right behind the read of the holder's cap (which goes ahead,
  // db/client.ts sendAhead: one round trip for both on PostgreSQL): renewing a live hold for the same selection only
  // moves its expiry, without the occurrence's lock (a sweep racing it re-checks the expiry under the row lock); a
  // first hold of spaces alone takes them (and the occurrence's row lock) at once. When the cap has run out, what
  // that statement did is rolled back with the transaction: the caller answers the failure by throwing. The cap's
  // upsert goes out first, so the locks are taken in the order of the module's comment.
  const firstSpaces = !existing && !!input.occurrenceId && input.spaces > 0 && !input.voucherId;
  const uncapped = Math.min(now + input.ttlSeconds, capEnd);
  if (cap) await startHolderCap(q, cap);
  const capRead = cap ? await sendAhead(q, dialect, capQuery(q, cap)) : null;
  const done = renewable ? await renew(q, existing, uncapped, now) : firstSpaces ? await takeFirstSpaces(q, dialect, input.occurrenceId!, input.spaces) : false;
  const holderCap = cap && capRead ? capOf((await capRead.answer).rows[0], cap) : null;
  if (holderCap?.againAt !== undefined) return { ok: false, failure: { kind: 'lapsed', againAt: holderCap.againAt } };
  if (holderCap) capEnd = Math.min(capEnd, holderCap.end);
  const expiresAt = Math.min(now + input.ttlSeconds, capEnd);
  if (done && renewable) {
    // The holder's cap ends before the checkout's own: the expiry it allows (sent with the next statement).
    if (expiresAt !== uncapped) await writeLater(q, q.updateTable('space_holds').set({ expires_at: expiresAt }).where('id', '=', existing.id));
    return { ok: true, hold: noted(q, { ...existing, expires_at: expiresAt, updated_at: now }) };
  }
  // Only when too few spaces were left are the lapsed holds swept first and the spaces asked for again, below.
  if (done) return { ok: true, hold: await insertHold(q, checkoutId, now, { ...wanted, expires_at: expiresAt }) };

  const occurrences = [input.occurrenceId, existing?.occurrence_id].filter((v): v is string => !!v);
  for (const o of [...new Set(occurrences)].sort()) await lockOccurrence(q, dialect, o);
  const vouchers = [input.voucherId, existing?.voucher_id].filter((v): v is string => !!v);
  for (const v of [...new Set(vouchers)].sort()) await lockVoucher(q, dialect, v);
  if (input.occurrenceId) await sweepExpired(q, dialect, now, { occurrenceId: input.occurrenceId });
  else if (input.voucherId) await sweepExpired(q, dialect, now, { voucherId: input.voucherId });
  // Read again now that the occurrence is locked: a sweep may have released the hold since it was first read.
  const fresh = existing ? await readHold(q, checkoutId) : undefined;
  if (fresh && fresh.status === 'held') {
    if (sameAs(fresh)) {
      // Renewing the same hold only moves its expiry.
      await q.updateTable('space_holds').set({ expires_at: expiresAt, updated_at: now }).where('id', '=', fresh.id).execute();
      return { ok: true, hold: noted(q, { ...fresh, expires_at: expiresAt, updated_at: now }) };
    }
    await releaseRow(q, fresh, now);
  }

  if (input.occurrenceId && input.spaces > 0) {
    await ensureAvailableSpaces(q, input.occurrenceId);
    // What is left, read right behind the taking (one round trip for both): the answer when too few were.
    const taking = await sendAhead(q, dialect, takeSpacesQuery(q, input.occurrenceId, input.spaces));
    const row = await q.selectFrom('occurrences').select('available_spaces').where('id', '=', input.occurrenceId).executeTakeFirst();
    if ((await taking.answer).changed !== 1) {
      return { ok: false, failure: { kind: 'spaces', available: Math.max(0, Number(row?.available_spaces ?? 0)) } };
    }
  }
  if (input.voucherId) {
    // Uses still counted for lapsed holds on other occurrences are free: this transaction holds the voucher's
    // lock, so the count is current; the sweeper gives the counter back later.
    const lapsed = await lapsedVoucherUses(q, input.voucherId, now);
    const res = await q
      .updateTable('vouchers')
      .set({ uses: sql<number>`uses + 1` })
      .where('id', '=', input.voucherId)
      .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', sql<number>`max_uses + ${lapsed}`)]))
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return { ok: false, failure: { kind: 'voucher' } };
  }
  if (existing) {
    const values = { occurrence_id: input.occurrenceId, spaces: wanted.spaces, voucher_id: input.voucherId, status: 'held' as const, expires_at: expiresAt, updated_at: now };
    await writeLater(q, q.updateTable('space_holds').set(values).where('id', '=', existing.id));
    return { ok: true, hold: noted(q, { ...existing, ...values }) };
  }
  return { ok: true, hold: await insertHold(q, checkoutId, now, { occurrence_id: input.occurrenceId, spaces: wanted.spaces, voucher_id: input.voucherId, expires_at: expiresAt }) };
}

/** Moves a live hold's expiry; false when it is no longer live (a sweep released it meanwhile). */
async function renew(q: Q, hold: SpaceHoldRow, expiresAt: number, now: number): Promise<boolean> {
  const renewed = await q.updateTable('space_holds').set({ expires_at: expiresAt, updated_at: now })
    .where('id', '=', hold.id).where('status', '=', 'held').where('expires_at', '>', now).executeTakeFirst();
  return Number(renewed.numUpdatedRows) === 1;
}

/** The guard of spec 5's capacity: takes `spaces` off the occurrence only if that many are left. */
async function takeSpaces(q: Q, occurrenceId: string, spaces: number): Promise<boolean> {
  const res = await takeSpacesQuery(q, occurrenceId, spaces).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Transactions whose first hold of spaces may be taken with their COMMIT (see takeFirstSpaces). */
const takingAtCommit = new WeakSet<object>();

/**
 * In this transaction a first hold of spaces may be taken with the COMMIT: only where a COMMIT that fails with
 * SPACES_GONE runs the action again without it (api/checkout/engine/known.ts inCheckoutTransaction).
 */
export function takeSpacesAtCommit(q: Q): void {
  takingAtCommit.add(q);
}

/**
 * A learner's first hold of spaces. On PostgreSQL, in a transaction that allows it (takeSpacesAtCommit), it is taken
 * with the transaction's COMMIT (db/client.ts writeAtCommit; migration 0297's take_spaces), so the occurrence's row
 * lock, which every learner booking the date waits for, is held for the COMMIT alone; true, as the COMMIT will
 * tell: when too few spaces are left it fails with SPACES_GONE, the transaction rolls back, and the action runs
 * again taking them at once, which answers the sold-out problem the usual way. Until the COMMIT the occurrence's
 * spaces do not show the taking: no statement of an action reads them after its hold (the spaces step's pool is
 * read before it).
 */
async function takeFirstSpaces(q: Q, dialect: Dialect, occurrenceId: string, spaces: number): Promise<boolean> {
  if (dialect !== 'postgres' || !takingAtCommit.has(q)) return takeSpaces(q, occurrenceId, spaces);
  await writeAtCommit(q, q.selectNoFrom(sql<null>`take_spaces(${occurrenceId}, ${spaces})`.as('taken')));
  return true;
}

const takeSpacesQuery = (q: Q, occurrenceId: string, spaces: number) => q
  .updateTable('occurrences')
  .set({ available_spaces: sql<number>`available_spaces - ${spaces}` })
  .where('id', '=', occurrenceId)
  .where('available_spaces', '>=', spaces);

async function insertHold(
  q: Q, checkoutId: string, now: number, values: Pick<SpaceHoldRow, 'occurrence_id' | 'spaces' | 'voucher_id' | 'expires_at'>,
): Promise<SpaceHoldRow> {
  const hold: SpaceHoldRow = { id: newId('hold'), checkout_id: checkoutId, created_at: now, status: 'held', updated_at: now, ...values };
  await writeLater(q, q.insertInto('space_holds').values(hold));
  return noted(q, hold);
}

function noted(q: Q, hold: SpaceHoldRow): SpaceHoldRow {
  noteHold(q, hold.checkout_id, hold);
  return hold;
}

/** Gives back the checkout's hold if it is still held (go back, abandon). */
export async function releaseHold(q: Q, dialect: Dialect, checkoutId: string, now: number): Promise<boolean> {
  // What a gift card or a membership credit holds for this checkout goes back with the spaces.
  await releaseGiftCard(q, dialect, checkoutId, now);
  await releaseCredit(q, dialect, checkoutId, now);
  const hold = await currentHold(q, checkoutId);
  if (!hold || hold.status !== 'held') return false;
  if (hold.occurrence_id) await lockOccurrence(q, dialect, hold.occurrence_id);
  if (hold.voucher_id) await lockVoucher(q, dialect, hold.voucher_id);
  return releaseRow(q, hold, now);
}

/** Makes the hold permanent (the outcome was recorded). True when this call committed it. */
export async function commitHold(q: Q, dialect: Dialect, hold: SpaceHoldRow, now: number): Promise<boolean> {
  return (await commitHoldAhead(q, dialect, hold, now)).committed;
}

/**
 * commitHold sent ahead (db/client.ts sendAhead): the statements after it go out without waiting for its answer,
 * `committed`, which its caller awaits before the transaction commits (a hold not committed must roll it back).
 */
export async function commitHoldAhead(q: Q, dialect: Dialect, hold: SpaceHoldRow, now: number): Promise<{ committed: Promise<boolean> }> {
  const sent = await sendAhead(q, dialect, q
    .updateTable('space_holds')
    .set({ status: 'committed', updated_at: now })
    .where('id', '=', hold.id)
    .where('status', '=', 'held'));
  // Until it answers, the transaction knows the hold as it was; no statement of the outcome reads it.
  const committed = sent.answer.then(({ changed }) => {
    if (changed === 1) noteHold(q, hold.checkout_id, { ...hold, status: 'committed', updated_at: now });
    else forgetHold(q, hold.checkout_id);
    return changed === 1;
  });
  committed.catch(() => undefined);
  return { committed };
}
