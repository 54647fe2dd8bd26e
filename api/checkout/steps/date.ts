/** The Date step (spec 2.14 "Select Date"): a public, bookable occurrence of the course. */
import type { Selectable } from 'kysely';
import type { OccurrencesTable } from '../../../db/schema.ts';
import { occurrenceIsListed } from '../../../src/domain/pricing.ts';
import { ACTION_PAYLOADS } from '../actions.ts';
import { ADVANCE, action, defineStep } from '../definition.ts';
import { domainOffers, entry, setEntry, type Ctx } from '../context.ts';
import { invalid } from './lines.ts';
import { catalogueCache } from '../catalogue-cache.ts';

type OccurrenceRow = Selectable<OccurrencesTable>;

function occurrenceBookable(ctx: Ctx, occurrence: OccurrenceRow, offers: ReturnType<typeof domainOffers>): boolean {
  const listed = occurrenceIsListed(
    { _id: occurrence.id, visibility: occurrence.visibility, parent_ref: occurrence.parent_ref, individually_bookable: occurrence.individually_bookable, offers },
    ctx.now,
  );
  return listed && Number(occurrence.start_datetime) > ctx.now;
}

/**
 * Picks an occurrence (the step's action, or the occurrence a course page sent at initialise). `read`: its row as the
 * caller has just read it (null: the course has none of that id; undefined: not read, read here).
 */
export async function pickOccurrence(ctx: Ctx, occurrenceId: string, key = 'payload.occurrence_id', read?: OccurrenceRow | null): Promise<void> {
  const occ = await catalogueCache(ctx.deps.db).occurrence(ctx.q, occurrenceId, ctx.cat, ctx.stamp, read);
  if (!occ || !occurrenceBookable(ctx, occ.occurrence, domainOffers(occ.offers))) {
    invalid([{ key, name: 'Date', message: 'is not available for booking' }]);
  }
  if (ctx.row.occurrence_id !== occurrenceId) {
    // A different date: the spaces chosen for the previous one no longer apply.
    delete ctx.row.step_state.price;
  }
  ctx.occ = occ;
  ctx.row.occurrence_id = occurrenceId;
  setEntry(ctx, 'date', {
    selectedDate: { _id: occ.occurrence.id, start_datetime: Number(occ.occurrence.start_datetime), end_datetime: Number(occ.occurrence.end_datetime) },
  });
}

export const dateStep = defineStep({
  id: 'date',
  isComplete: (ctx) => entry(ctx, 'date') !== null,
  actions: {
    'occurrence picked': action({
      payload: ACTION_PAYLOADS['occurrence picked'],
      handle: async (ctx, payload) => {
        await pickOccurrence(ctx, payload.occurrence_id);
        return ADVANCE;
      },
    }),
  },
});
