/**
 * The course card (spec 2.12, 3 "Course"): the shape search answers and pages render.
 * `loadCourseCards(db, ids, {now})` builds cards for given course ids (in that order);
 * `toCourseCard(row, extra)` turns one joined row into a card.
 */
import { sql } from 'kysely';
import type { Db } from '../client.ts';
import type { AddressParts, FeatureFlags, StudentTravelSettings } from '../schema.ts';
import { clampRating } from '../../src/domain/ratings.ts';
import { nextOccurrenceStarts } from './occurrences.ts';
import { safeImageUrl, safeUrlList } from '../../src/domain/urls.ts';

export interface CourseCard {
  _id: string;
  slug: string;
  name: string;
  educator_ref: string;
  educator: { name: string; slug: string };
  educator_slug: string;
  /** The first image, else the automatic image, else null. */
  img_url: string | null;
  type: string;
  delivery: string[];
  keyword: string | null;
  level: string | null;
  pricing_option: { type: string; minimumPrice: number | null; maximumPrice: number | null };
  currency: string;
  reviews: { rating: number; count: number };
  /** City of the course's address, else of its first location; null when neither has one. */
  location: string | null;
  /**
   * Every city where the course takes place, without repeats: its address's city, then the cities
   * learners can travel to (student travel); the card shows '{first} & {n} more' (spec 5).
   */
  locations: string[];
  /** Start (epoch seconds) of the next listed occurrence, or null. */
  next_occurrence: number | null;
  /** The educator's feature flag: the card shows no price. */
  hide_pricing: boolean;
  /** Pre-rendered pages only, never in the API's JSON: the collections the course belongs to (courses page ?list= filter). */
  collections?: string[];
}

/** The joined row a card is built from (see selectCardRows). */
export interface CourseCardRow {
  id: string;
  slug: string;
  name: string;
  educator_id: string;
  educator_name: string;
  educator_slug: string;
  img_urls: string[] | null;
  autoimg: { url: string; author: string } | null;
  type: string;
  delivery_modes: string[] | null;
  keyword: string | null;
  level: string | null;
  pricing_type: string;
  minimum_price: number | null;
  maximum_price: number | null;
  currency: string;
  address: AddressParts | null;
  student_travel_settings: StudentTravelSettings | null;
  feature_flags: FeatureFlags | null;
  review_count: number | null;
  review_rating: number | null;
  /** Lowest and highest price among the course's offers (course-wide and per occurrence). */
  offers_min_price?: number | null;
  offers_max_price?: number | null;
}

/**
 * A course's price range in pence: free → 0–0; otherwise the course's minimum/maximum price, and for
 * price-offers courses without them, the lowest/highest offer price (missing price counts as 0);
 * null where unknown (price on enquiry).
 */
export function coursePriceRange(row: Pick<CourseCardRow, 'pricing_type' | 'minimum_price' | 'maximum_price' | 'offers_min_price' | 'offers_max_price'>): {
  minimumPrice: number | null;
  maximumPrice: number | null;
} {
  if (row.pricing_type === 'free') return { minimumPrice: 0, maximumPrice: 0 };
  const num = (v: number | null | undefined) => (v === null || v === undefined ? null : Number(v));
  const offers = row.pricing_type === 'price-offers';
  return {
    minimumPrice: num(row.minimum_price) ?? (offers ? num(row.offers_min_price) : null) ?? num(row.maximum_price),
    maximumPrice: num(row.maximum_price) ?? (offers ? num(row.offers_max_price) : null) ?? num(row.minimum_price),
  };
}

function cityOf(address: AddressParts | null | undefined): string | null {
  const city = address && typeof address === 'object' ? address.city : undefined;
  return typeof city === 'string' && city.trim() !== '' ? city.trim() : null;
}

/** The location ids learners travel to, when student travel is on. */
export function studentTravelLocationIds(settings: StudentTravelSettings | null | undefined): string[] {
  return settings?.enabled ? (settings.locations ?? []).filter((id): id is string => typeof id === 'string') : [];
}

export function toCourseCard(
  row: CourseCardRow,
  extra: { nextOccurrence?: number | null; locationCity?: string | null; travelCities?: ReadonlyArray<string> } = {},
): CourseCard {
  const own = cityOf(row.address);
  const locations = Array.from(new Set([...(own ? [own] : []), ...(extra.travelCities ?? []).map((c) => c.trim()).filter(Boolean)]));
  return {
    _id: row.id,
    slug: row.slug,
    name: row.name,
    educator_ref: row.educator_id,
    educator: { name: row.educator_name, slug: row.educator_slug },
    educator_slug: row.educator_slug,
    img_url: safeUrlList(row.img_urls)[0] ?? safeImageUrl(row.autoimg?.url, null),
    type: row.type,
    delivery: Array.isArray(row.delivery_modes) ? row.delivery_modes : [],
    keyword: row.keyword,
    level: row.level,
    pricing_option: { type: row.pricing_type, ...coursePriceRange(row) },
    currency: row.currency || 'GBP',
    reviews: { rating: clampRating(row.review_rating === null ? 0 : Number(row.review_rating)), count: Number(row.review_count ?? 0) },
    location: own ?? extra.locationCity ?? null,
    locations,
    next_occurrence: extra.nextOccurrence ?? null,
    hide_pricing: Boolean(row.feature_flags?.hide_pricing),
  };
}

/**
 * The rows of the given courses (any order). One statement with only the columns a card reads; offer prices
 * come from one grouped pass over the courses' offers. (Search answers cards on every request, so this is
 * kept lean: the query builder and correlated subqueries cost more than the rows themselves.)
 */
export async function selectCardRows(db: Db, courseIds: readonly string[]): Promise<CourseCardRow[]> {
  if (courseIds.length === 0) return [];
  const ids = sql.join(courseIds.map((id) => sql`${id}`));
  const { rows } = await sql<CourseCardRow>`select c.id, c.slug, c.name, c.educator_id, e.name as educator_name, e.slug as educator_slug,
      c.img_urls, c.autoimg, c.type, c.delivery_modes, c.keyword, c.level, c.pricing_type, c.minimum_price, c.maximum_price,
      c.currency, c.address, c.student_travel_settings, e.feature_flags, a.count as review_count, a.rating as review_rating,
      o.offers_min_price, o.offers_max_price
    from courses c
    join educators e on e.id = c.educator_id
    left join review_aggregates a on a.subject_type = 'course' and a.subject_id = c.id
    left join (
      select course_id, min(coalesce(price, 0)) as offers_min_price, max(coalesce(price, 0)) as offers_max_price
      from offers where course_id in (${ids}) group by course_id
    ) o on o.course_id = c.id
    where c.id in (${ids})`.execute(db);
  return rows;
}

/** Cards for the given course ids, in the order given; ids that do not exist are skipped. */
export async function loadCourseCards(db: Db, courseIds: readonly string[], options: { now: number }): Promise<CourseCard[]> {
  const ids = Array.from(new Set(courseIds));
  const rows = await selectCardRows(db, ids);
  // Courses without a city in their address show the city of their first location; cards list every
  // city learners can travel to.
  const firstLocation = new Map<string, string>();
  const wanted = new Set<string>();
  for (const row of rows) {
    const first = row.student_travel_settings?.locations?.[0];
    if (!cityOf(row.address) && typeof first === 'string') {
      firstLocation.set(row.id, first);
      wanted.add(first);
    }
    for (const id of studentTravelLocationIds(row.student_travel_settings)) wanted.add(id);
  }
  const [next, locationCities] = await Promise.all([
    nextOccurrenceStarts(db, ids, options.now),
    wanted.size === 0
      ? Promise.resolve(new Map<string, string>())
      : db
          .selectFrom('locations')
          .select(['id', 'city'])
          .where('id', 'in', Array.from(wanted))
          .execute()
          .then((list) => new Map(list.map((l) => [l.id, l.city]))),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const locationId = firstLocation.get(id);
    const travelCities = studentTravelLocationIds(row.student_travel_settings).flatMap((l) => locationCities.get(l) ?? []);
    return [toCourseCard(row, { nextOccurrence: next.get(id) ?? null, locationCity: locationId ? locationCities.get(locationId) ?? null : null, travelCities })];
  });
}
