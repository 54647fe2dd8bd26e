/**
 * Listed occurrences of courses (spec 3 "Occurrence", 4 "Occurrence filtering", 7 get-course-data-ids).
 * Listing follows src/domain/pricing.ts occurrenceIsListed: public, not a child session unless
 * individually bookable, and not every offer ended. An occurrence's offers (and add-ons) are its
 * own, else the course-wide ones.
 */
import type { Db } from '../client.ts';
import type { AddOn as AddOnRow, Occurrence as OccurrenceRow, Offer as OfferRow } from '../schema.ts';
import { isSoldOut, occurrenceIsListed } from '../../src/domain/pricing.ts';
import type { Occurrence as DomainOccurrence, Offer as DomainOffer } from '../../src/domain/entities.ts';
import { zonedIsoDateTime } from '../../src/domain/zone.ts';
import { lapsedHeldSpaces } from './holds.ts';

/** An offer as the dates list shows it. */
export interface OfferView {
  _id: string;
  name: string;
  price: number | null;
  spaces: number | null;
  start_at: number | null;
  end_at: number | null;
}

/** An occurrence in GET /api/get-course-data-ids/{educatorId}/{courseId} (spec 3 "Occurrence"). */
export type OccurrenceView = Omit<OccurrenceJson, 'times' | 'timezone' | 'offers' | 'add_ons'> & {
  times?: { start?: { zoned_datetime?: string }; end?: { zoned_datetime?: string } } | null;
  offers: OfferView[];
  add_ons?: { _id: string; name: string; price: number | null }[];
  /** Present in build-time data. */
  visibility?: string;
  timezone?: string;
};

export interface OfferJson {
  _id: string;
  type: 'offer';
  name: string;
  description: string | null;
  price: number | null;
  spaces: number;
  start_at: number | null;
  end_at: number | null;
}
export interface AddOnJson {
  _id: string;
  name: string;
  description: string | null;
  price: number;
}

/** Spec 3 "Occurrence" as the API answers it. */
export interface OccurrenceJson {
  _id: string;
  start_datetime: number;
  end_datetime: number;
  times: { start: { zoned_datetime: string }; end: { zoned_datetime: string } };
  timezone: string;
  delivery: string;
  address: Record<string, string> | null;
  spaces: number | null;
  available_spaces: number | null;
  parent_ref: string | null;
  individually_bookable: boolean;
  offers: OfferJson[];
  add_ons: AddOnJson[];
}

function offerJson(row: OfferRow): OfferJson {
  return {
    _id: row.id, type: 'offer', name: row.name, description: row.description, price: row.price,
    spaces: row.spaces ?? 1, start_at: row.start_at === null ? null : Number(row.start_at), end_at: row.end_at === null ? null : Number(row.end_at),
  };
}
function addOnJson(row: AddOnRow): AddOnJson {
  return { _id: row.id, name: row.name, description: row.description, price: row.price ?? 0 };
}

/** What the listing rule reads of an offer: its sale end. */
function saleEnds(offers: ReadonlyArray<{ _id?: string; id?: string; end_at: number | null }>): DomainOffer[] {
  return offers.map((o) => ({ _id: (o._id ?? o.id) as string, end_at: o.end_at === null ? null : Number(o.end_at) }));
}

function domainOccurrence(row: Pick<OccurrenceRow, 'id' | 'visibility' | 'parent_ref' | 'individually_bookable'>, offers: DomainOffer[]): DomainOccurrence {
  return {
    _id: row.id,
    visibility: row.visibility,
    parent_ref: row.parent_ref,
    individually_bookable: Boolean(row.individually_bookable),
    offers,
  };
}

function groupBy<T>(items: T[], key: (item: T) => string | null): Map<string | null, T[]> {
  const map = new Map<string | null, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

/**
 * A course's listed occurrences with their offers and add-ons: the ones not yet started first,
 * then those already started; each group sorted by start (then id).
 */
export async function listCourseOccurrences(db: Db, courseId: string, now: number): Promise<OccurrenceJson[]> {
  const [occurrences, offers, addOns] = await Promise.all([
    db.selectFrom('occurrences').selectAll().where('course_id', '=', courseId).execute(),
    db.selectFrom('offers').selectAll().where('course_id', '=', courseId).orderBy('position').orderBy('id').execute(),
    db.selectFrom('add_ons').selectAll().where('course_id', '=', courseId).orderBy('position').orderBy('id').execute(),
  ]);
  const offersBy = groupBy(offers.map((o) => ({ row: o, json: offerJson(o) })), (o) => o.row.occurrence_id);
  const addOnsBy = groupBy(addOns.map((a) => ({ row: a, json: addOnJson(a) })), (a) => a.row.occurrence_id);
  const courseOffers = (offersBy.get(null) ?? []).map((o) => o.json);
  const courseAddOns = (addOnsBy.get(null) ?? []).map((a) => a.json);

  // Spaces of holds that lapsed are free again at once, not only after the sweeper has released them.
  const lapsed = await lapsedHeldSpaces(db, occurrences.filter((o) => o.available_spaces !== null).map((o) => o.id), now);
  const listed: OccurrenceJson[] = [];
  for (const row of occurrences) {
    const own = (offersBy.get(row.id) ?? []).map((o) => o.json);
    if (!occurrenceIsListed(domainOccurrence(row, saleEnds(own)), now, saleEnds(courseOffers))) continue;
    const ownAddOns = (addOnsBy.get(row.id) ?? []).map((a) => a.json);
    const start = Number(row.start_datetime);
    const end = Number(row.end_datetime);
    listed.push({
      _id: row.id,
      start_datetime: start,
      end_datetime: end,
      times: { start: { zoned_datetime: zonedIsoDateTime(start, row.timezone) }, end: { zoned_datetime: zonedIsoDateTime(end, row.timezone) } },
      timezone: row.timezone,
      delivery: row.delivery,
      address: row.address,
      spaces: row.spaces,
      available_spaces: row.available_spaces === null ? null : Number(row.available_spaces) + (lapsed.get(row.id) ?? 0),
      parent_ref: row.parent_ref,
      individually_bookable: Boolean(row.individually_bookable),
      offers: own.length > 0 ? own : courseOffers,
      add_ons: ownAddOns.length > 0 ? ownAddOns : courseAddOns,
    });
  }
  listed.sort((a, b) => {
    const fa = a.start_datetime >= now ? 0 : 1;
    const fb = b.start_datetime >= now ? 0 : 1;
    return fa - fb || a.start_datetime - b.start_datetime || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
  });
  return listed;
}

/** For each course, the start of its next listed occurrence that is not sold out (start at or after now); absent when none. */
export async function nextOccurrenceStarts(db: Db, courseIds: readonly string[], now: number): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  if (courseIds.length === 0) return result;
  // Only what the listing rule reads: search answers these with every page of cards.
  const occurrences = await db
    .selectFrom('occurrences')
    .select(['id', 'course_id', 'start_datetime', 'visibility', 'parent_ref', 'individually_bookable', 'spaces', 'available_spaces'])
    .where('course_id', 'in', courseIds)
    .where('start_datetime', '>=', now)
    .where('visibility', '=', 'public')
    .orderBy('start_datetime')
    .execute();
  if (occurrences.length === 0) return result;
  // Offers decide whether an occurrence is still on sale: its own, else the course-wide ones.
  const ids = Array.from(new Set(occurrences.map((o) => o.course_id)));
  const [offers, courses] = await Promise.all([
    db.selectFrom('offers').select(['id', 'course_id', 'occurrence_id', 'end_at']).where('course_id', 'in', ids).execute(),
    db.selectFrom('courses').select(['id', 'spaces']).where('id', 'in', ids).execute(),
  ]);
  const courseSpaces = new Map(courses.map((c) => [c.id, c.spaces]));
  const own = groupBy(offers.filter((o) => o.occurrence_id !== null), (o) => o.occurrence_id);
  const courseWide = groupBy(offers.filter((o) => o.occurrence_id === null), (o) => o.course_id);
  for (const row of occurrences) {
    if (result.has(row.course_id)) continue;
    if (isSoldOut(row, courseSpaces.get(row.course_id))) continue;
    const listed = occurrenceIsListed(domainOccurrence(row, saleEnds(own.get(row.id) ?? [])), now, saleEnds(courseWide.get(row.course_id) ?? []));
    if (listed) result.set(row.course_id, Number(row.start_datetime));
  }
  return result;
}
