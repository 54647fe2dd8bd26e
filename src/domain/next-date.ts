/**
 * "Next date" on a course card from a stored list (search's stored cards, migration 0041), so a page of cards
 * needs no look at occurrences and offers: the card's upcoming dates are kept as `[start, sale end]` pairs and
 * the next date is chosen at the request's time.
 *
 * Same rule as nextOccurrenceStarts (db/queries/occurrences.ts): the first date, by start, that starts at or
 * after now, is listed (occurrenceIsListed, src/domain/pricing.ts: not all of its offers have ended) and is
 * not sold out. Visibility, child sessions and spaces do not depend on the time and are checked when the list
 * is made; what does is kept in the pair.
 */

/** A course's upcoming dates, soonest first: `[start, when its offers have all ended (null: never)]`. */
export type UpcomingDates = Array<[start: number, salesEnd: number | null]>;

/**
 * When an occurrence's offers have all ended, as occurrenceIsListed reads them: its own offers, else the
 * course-wide ones; no offers, or one without an end, never all end. allOffersEnded holds at `now` exactly
 * when the result is a number ≤ now.
 */
export function salesEndOf(
  own: ReadonlyArray<{ end_at?: number | null }>,
  courseWide: ReadonlyArray<{ end_at?: number | null }> | null | undefined,
): number | null {
  const offers = own.length > 0 ? own : courseWide ?? [];
  if (offers.length === 0) return null;
  let last = -Infinity;
  for (const offer of offers) {
    if (typeof offer.end_at !== 'number') return null;
    last = Math.max(last, offer.end_at);
  }
  return last;
}

/** The next date at `now`: the first pair that starts at or after now and whose offers have not all ended. */
export function nextFromUpcoming(upcoming: UpcomingDates, now: number): number | null {
  for (const [start, salesEnd] of upcoming) {
    if (start >= now && (salesEnd === null || now < salesEnd)) return start;
  }
  return null;
}
