/**
 * Reads of space holds that lapsed but were not yet released (db/schema/checkout.ts space_holds). A hold takes
 * its spaces off occurrences.available_spaces and its use onto vouchers.uses when it is taken, and gives them
 * back when the sweeper releases it; between its expiry and that release the counters still include it. Readers
 * that must see freed spaces and uses at once (course data, voucher checks) add these back instead of waiting
 * for the sweep, so they never write on a read.
 */
import type { Q } from './checkout.ts';

/** Spaces held by lapsed, unreleased holds, per occurrence (occurrences with none are absent). */
export async function lapsedHeldSpaces(q: Q, occurrenceIds: readonly string[], now: number): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  if (occurrenceIds.length === 0) return result;
  const rows = await q
    .selectFrom('space_holds')
    .select(['occurrence_id', (eb) => eb.fn.sum<number | string>('spaces').as('spaces')])
    .where('status', '=', 'held')
    .where('expires_at', '<=', now)
    .where('occurrence_id', 'in', occurrenceIds)
    .groupBy('occurrence_id')
    .execute();
  for (const row of rows) if (row.occurrence_id) result.set(row.occurrence_id, Number(row.spaces));
  return result;
}

/** Uses of a voucher held by lapsed, unreleased holds. */
export async function lapsedVoucherUses(q: Q, voucherId: string, now: number): Promise<number> {
  const row = await q
    .selectFrom('space_holds')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 'held')
    .where('expires_at', '<=', now)
    .where('voucher_id', '=', voucherId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
