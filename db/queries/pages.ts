/**
 * Read models of the pre-rendered public pages (educator, course, review, enquiry, waitlist,
 * category pages in every context).
 *
 * A static build renders thousands of pages from the same rows, so the catalogue is read once per
 * build in a handful of bulk queries (loadPublicCatalogue, memoised per database handle) and every
 * page model is assembled from memory. Only published courses are shown; archived reviews never.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../client.ts';
import { educatorsSellingGifts } from './gifts.ts';
import type {
  Course, Educator, ReviewBreakdown, CourseSection, DurationPricing, EducatorTravelSettings, StudentTravelSettings,
} from '../schema.ts';
import type { OccurrenceView, OfferView } from './occurrences.ts';
import type { ReviewJson as Review } from './reviews.ts';
import { listedOccurrences, nextBookableOccurrence } from '../../src/domain/pricing.ts';
import type { Occurrence as DomainOccurrence } from '../../src/domain/entities.ts';
import { COURSE_CAROUSEL_SIZE } from '../../src/domain/carousel.ts';
import type { PlanTerms } from '../../src/domain/memberships.ts';
import { studentTravelLocationIds, toCourseCard, type CourseCard, type CourseCardRow } from './course-cards.ts';
import { listCategoriesWithCounts, listHomeEducators } from './home.ts';
import { safeImageUrl, withSafeCourseUrls, withSafeEducatorUrls } from '../../src/domain/urls.ts';

/** Reviews kept per educator for the first page of the reviews page (plus one to know if more exist). */
export const EDUCATOR_REVIEWS_FIRST_PAGE = 10;
/** Reviews kept per course (spec 9: up to 5 inline). */
export const COURSE_REVIEWS_INLINE = 5;

export interface Aggregate {
  count: number;
  rating: number;
  breakdown: ReviewBreakdown | null;
}

export interface CollectionModel {
  id: string;
  name: string;
  image_url: string | null;
  courseIds: string[];
}

export interface FaqModel { id: string; question: string; answer: string }
export interface LessonModel { id: string; name: string }
export interface SectionModel { name: string; lessons: LessonModel[] }
export interface LocationModel { id: string; city: string; formatted: string; address: Record<string, string> | null }

export interface CategoryModel { id: string; slug: string; name: string }

export interface CourseModel {
  course: Course;
  category: CategoryModel | null;
  card: CourseCard;
  /** Listed occurrences (public, not ended, offers on sale), soonest first. */
  occurrences: OccurrenceView[];
  /** Course-level offers and add-ons (occurrence_id null). */
  offers: OfferView[];
  faqs: FaqModel[];
  sections: SectionModel[];
  /** Student travel locations (spec 3 "Course.student_travel_settings.locations"). */
  studentLocations: LocationModel[];
  aggregate: Aggregate | null;
  /** The first reviews of the course, newest first. */
  reviews: Review[];
  reviewCount: number;
}

export interface EducatorModel {
  educator: Educator;
  aggregate: Aggregate | null;
  city: string | null;
  collections: CollectionModel[];
  /** Published courses as cards, in carousel order. */
  cards: CourseCard[];
  courses: CourseModel[];
  /** First page of the educator's reviews, newest first. */
  reviews: Review[];
  reviewCount: number;
  /** Listed membership plans, in the educator's order (empty: the memberships page says there are none). */
  plans: MembershipPlanView[];
  /** The spec's `vouchers_app_installed`: the educator sells gift vouchers. */
  vouchersAppInstalled: boolean;
}

/** A membership plan as the public pages show it. */
export interface MembershipPlanView extends Omit<PlanTerms, 'courseIds'> {
  id: string;
  name: string;
  description: string;
  courseIds: string[] | null;
}

export interface PublicCatalogue {
  now: number;
  educators: EducatorModel[];
  educatorBySlug: Map<string, EducatorModel>;
  categories: CategoryModel[];
  /** Published course cards per category slug, in carousel order. */
  cardsByCategory: Map<string, CourseCard[]>;
}

const cache = new WeakMap<Db, Promise<PublicCatalogue>>();

/** The whole public catalogue, read once per database handle (a build reads it once). */
export function loadPublicCatalogue(db: Db, now: number = Math.floor(Date.now() / 1000)): Promise<PublicCatalogue> {
  let pending = cache.get(db);
  if (!pending) {
    pending = readCatalogue(db, now);
    cache.set(db, pending);
  }
  return pending;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

function toAggregate(row: { count: number; rating: number; material: number | null; facilitator: number | null; organiser: number | null; resources: number | null; delivery: number | null; communication: number | null } | undefined): Aggregate | null {
  if (!row) return null;
  const breakdown: ReviewBreakdown = {
    material: row.material, facilitator: row.facilitator, organiser: row.organiser,
    resources: row.resources, delivery: row.delivery, communication: row.communication,
  };
  const hasBreakdown = Object.values(breakdown).some((v) => typeof v === 'number');
  return { count: Number(row.count), rating: Number(row.rating), breakdown: hasBreakdown ? breakdown : null };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The catalogue of some educators only (the publisher re-renders a few educators' pages): the same models as
 * {@link loadPublicCatalogue} builds for them, from queries restricted to them. `cardsByCategory` then holds
 * only their cards; pages that list a whole category read {@link topCategoryCards} instead.
 */
export function loadEducatorCatalogue(
  db: Db, educatorIds: ReadonlyArray<string>, now: number = Math.floor(Date.now() / 1000), options: CatalogueOptions = {},
): Promise<PublicCatalogue> {
  return readCatalogue(db, now, [...new Set(educatorIds)], options);
}

export interface CatalogueOptions {
  /** Unpublished courses read as if published: the admin's preview of a draft (api/admin/courses-preview.ts). */
  draftCourseIds?: ReadonlyArray<string>;
}

/**
 * The catalogue's queries restricted to some educators (the publisher's `only`), or not at all (a full build).
 * Generic over kysely's select builders: their typed `where` cannot be named generically, hence `any`.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
function catalogueScope(only?: string[]) {
  // With `only`, every query is restricted to those educators (an empty list reads nothing).
  const ids = only && only.length > 0 ? only : ['\u0000'];
  return {
    only,
    ids,
    ofCourses: <Q extends { where: (...args: any[]) => Q }>(q: Q): Q =>
      only ? q.where('course_id', 'in', (eb: any) => eb.selectFrom('courses').select('id').where('educator_id', 'in', ids)) : q,
    ofEducators: <Q extends { where: (...args: any[]) => Q }>(q: Q, column = 'educator_id'): Q =>
      only ? q.where(column, 'in', ids) : q,
    // Restricted to the educators' own reviews (a course's reviews are its educator's).
    ofReviews: <Q extends { where: (...args: any[]) => Q }>(q: Q): Q => (only ? q.where('educator_id', 'in', ids) : q),
  };
}

type CatalogueScope = ReturnType<typeof catalogueScope>;

/** The catalogue's rows, in a handful of bulk queries (every list has a total order: ids break ties). */
async function readCatalogueRows(db: Db, now: number, scope: CatalogueScope, options: CatalogueOptions) {
  const { only, ids, ofCourses, ofEducators } = scope;
  const [
    educators, categories, aggregates, courses, allCourseNames, collections, collectionCourses,
    occurrences, offers, addOns, faqs, lessons, locations,
  ] = await Promise.all([
    ofEducators(db.selectFrom('educators').selectAll(), 'id').orderBy('name').orderBy('id').execute(),
    db.selectFrom('categories').selectAll().orderBy('name').orderBy('id').execute(),
    (only
      ? db.selectFrom('review_aggregates').selectAll().where((eb) => eb.or([
        eb.and([eb('subject_type', '=', 'educator'), eb('subject_id', 'in', ids)]),
        eb.and([eb('subject_type', '=', 'course'), eb('subject_id', 'in', eb.selectFrom('courses').select('id').where('educator_id', 'in', ids))]),
      ]))
      : db.selectFrom('review_aggregates').selectAll()).execute(),
    ofEducators(db.selectFrom('courses').selectAll().where((eb) => options.draftCourseIds?.length
      ? eb.or([eb('published', '=', true), eb('id', 'in', [...options.draftCourseIds])])
      : eb('published', '=', true))).orderBy('created_at').orderBy('id').execute(),
    (only
      ? db.selectFrom('courses').select(['id', 'slug', 'name', 'published'])
        .where('id', 'in', (eb) => eb.selectFrom('reviews').select('course_id').where('educator_id', 'in', ids).where('course_id', 'is not', null) as any)
      : db.selectFrom('courses').select(['id', 'slug', 'name', 'published'])).execute(),
    ofEducators(db.selectFrom('collections').selectAll().where('published', '=', true)).orderBy('position').orderBy('name').orderBy('id').execute(),
    (only
      ? db.selectFrom('collection_courses').selectAll().where('collection_id', 'in', (eb) => eb.selectFrom('collections').select('id').where('educator_id', 'in', ids))
      : db.selectFrom('collection_courses').selectAll()).orderBy('position').orderBy('collection_id').orderBy('course_id').execute(),
    ofCourses(db.selectFrom('occurrences').selectAll().where('visibility', '=', 'public').where('end_datetime', '>', now)).orderBy('start_datetime').orderBy('id').execute(),
    ofCourses(db.selectFrom('offers').selectAll()).orderBy('position').orderBy('id').execute(),
    ofCourses(db.selectFrom('add_ons').selectAll()).orderBy('position').orderBy('id').execute(),
    ofEducators(db.selectFrom('faqs').selectAll()).execute(),
    ofEducators(db.selectFrom('lessons').selectAll()).execute(),
    ofEducators(db.selectFrom('locations').selectAll()).execute(),
  ]);
  // URLs written before the database refused unsafe ones never reach a page (src/domain/urls.ts).
  for (const e of educators) Object.assign(e, withSafeEducatorUrls(e));
  for (const c of courses) Object.assign(c, withSafeCourseUrls(c));
  for (const k of collections) k.image_url = safeImageUrl(k.image_url, null);
  const plans = await ofEducators(db.selectFrom('membership_plans').selectAll().where('listed', '=', true)).orderBy('educator_id').orderBy('position').orderBy('id').execute();
  return {
    educators, categories, aggregates, courses, allCourseNames, collections, collectionCourses,
    occurrences, offers, addOns, faqs, lessons, locations, plans,
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

type CatalogueRows = Awaited<ReturnType<typeof readCatalogueRows>>;

const REVIEW_COLUMNS = [
  'id', 'educator_id', 'course_id', 'entity', 'rating', 'verified', 'source_key', 'source_label', 'external_url',
  'reviewer_id', 'reviewer_name', 'public_message', 'response_message', 'response_created_at', 'created_at',
] as const;

/**
 * The first page of reviews per educator and per course, and how many each has (window functions work on SQLite
 * and PostgreSQL). PostgreSQL returns tied rows in whatever order its plan gives, which differs between reading
 * the whole catalogue and a few educators' rows: every order here ends on the id.
 */
async function readReviewRows(db: Db, { ofReviews }: CatalogueScope) {
  const [educatorRows, courseRows, educatorCounts, courseCounts] = await Promise.all([
    db
      .selectFrom((eb) =>
        ofReviews(eb.selectFrom('reviews').select(REVIEW_COLUMNS)
          .select(sql<number>`row_number() over (partition by educator_id order by created_at desc, id desc)`.as('rn'))
          .where('archived_at', 'is', null))
          .as('r'))
      .selectAll()
      .where('rn', '<=', EDUCATOR_REVIEWS_FIRST_PAGE)
      .orderBy('educator_id').orderBy('rn')
      .execute(),
    db
      .selectFrom((eb) =>
        ofReviews(eb.selectFrom('reviews').select(REVIEW_COLUMNS)
          .select(sql<number>`row_number() over (partition by course_id order by created_at desc, id desc)`.as('rn'))
          .where('archived_at', 'is', null)
          .where('course_id', 'is not', null))
          .as('r'))
      .selectAll()
      .where('rn', '<=', COURSE_REVIEWS_INLINE)
      .orderBy('course_id').orderBy('rn')
      .execute(),
    ofReviews(db.selectFrom('reviews').select(['educator_id', (eb) => eb.fn.countAll<number>().as('n')]).where('archived_at', 'is', null)).groupBy('educator_id').execute(),
    ofReviews(db.selectFrom('reviews').select(['course_id', (eb) => eb.fn.countAll<number>().as('n')]).where('archived_at', 'is', null).where('course_id', 'is not', null)).groupBy('course_id').execute(),
  ]);
  return { educatorRows, courseRows, educatorCounts, courseCounts };
}

/** The reviews as the pages show them, per educator and per course, with their counts. */
function reviewIndex(rows: Awaited<ReturnType<typeof readReviewRows>>, allCourseNames: CatalogueRows['allCourseNames']) {
  const courseNames = new Map(allCourseNames.map((c) => [c.id, c]));
  const toReview = (r: (typeof rows.educatorRows)[number]): Review => {
    const course = r.course_id ? courseNames.get(r.course_id) : undefined;
    return {
      id: r.id,
      createdAt: Number(r.created_at),
      rating: Number(r.rating),
      verified: !!r.verified,
      sourceKey: r.source_key,
      sourceLabel: r.source_label,
      externalUrl: r.external_url,
      entity: r.entity,
      course: course ? { name: course.name, slug: course.slug, published: !!course.published } : null,
      reviewer: { id: r.reviewer_id, name: r.reviewer_name },
      publicMessage: r.public_message,
      educatorResponse: r.response_message ? { message: r.response_message, createdAt: Number(r.response_created_at ?? r.created_at) } : null,
    };
  };
  const byEducator = new Map<string, Review[]>();
  for (const r of rows.educatorRows) push(byEducator, r.educator_id, toReview(r));
  const byCourse = new Map<string, Review[]>();
  for (const r of rows.courseRows) push(byCourse, r.course_id as string, toReview(r));
  return {
    byEducator,
    byCourse,
    countByEducator: new Map(rows.educatorCounts.map((r) => [r.educator_id, Number(r.n)])),
    countByCourse: new Map(rows.courseCounts.map((r) => [r.course_id as string, Number(r.n)])),
  };
}

/** Offers and occurrences as the dates list shows them: course-wide offers, and each course's public occurrences. */
function occurrenceIndex({ occurrences, offers, addOns }: Pick<CatalogueRows, 'occurrences' | 'offers' | 'addOns'>) {
  const toOffer = (o: (typeof offers)[number]): OfferView => ({
    _id: o.id, name: o.name, price: o.price, spaces: o.spaces, start_at: o.start_at, end_at: o.end_at,
  });
  const courseOffers = new Map<string, OfferView[]>();
  const occurrenceOffers = new Map<string, OfferView[]>();
  for (const o of offers) {
    if (o.occurrence_id) push(occurrenceOffers, o.occurrence_id, toOffer(o));
    else push(courseOffers, o.course_id, toOffer(o));
  }
  const occurrenceAddOns = new Map<string, { _id: string; name: string; price: number | null }[]>();
  for (const a of addOns) if (a.occurrence_id) push(occurrenceAddOns, a.occurrence_id, { _id: a.id, name: a.name, price: a.price });

  const occurrencesByCourse = new Map<string, OccurrenceView[]>();
  for (const o of occurrences) {
    const own = occurrenceOffers.get(o.id) ?? [];
    push(occurrencesByCourse, o.course_id, {
      _id: o.id,
      start_datetime: Number(o.start_datetime),
      end_datetime: Number(o.end_datetime),
      delivery: o.delivery,
      address: o.address,
      spaces: o.spaces,
      available_spaces: o.available_spaces,
      parent_ref: o.parent_ref,
      individually_bookable: !!o.individually_bookable,
      // As the API answers: the occurrence's own offers, else the course-wide ones.
      offers: own.length > 0 ? own : courseOffers.get(o.course_id) ?? [],
      add_ons: occurrenceAddOns.get(o.id) ?? [],
      visibility: o.visibility,
      timezone: o.timezone,
    });
  }
  // Every offer price of a course (course-wide and per occurrence; missing = 0), for the card's price range.
  const offerPrices = new Map<string, number[]>();
  for (const o of offers) push(offerPrices, o.course_id, o.price ?? 0);
  return { courseOffers, occurrencesByCourse, offerPrices };
}

/** Published collections per educator, and the collections each course is in. */
function collectionIndex({ collections, collectionCourses }: Pick<CatalogueRows, 'collections' | 'collectionCourses'>) {
  const collectionCourseIds = new Map<string, string[]>();
  for (const cc of collectionCourses) push(collectionCourseIds, cc.collection_id, cc.course_id);
  const byEducator = new Map<string, CollectionModel[]>();
  for (const c of collections) {
    push(byEducator, c.educator_id, { id: c.id, name: c.name, image_url: c.image_url, courseIds: collectionCourseIds.get(c.id) ?? [] });
  }
  const ofCourse = new Map<string, string[]>();
  for (const [collectionId, ids] of collectionCourseIds) for (const id of ids) push(ofCourse, id, collectionId);
  return { byEducator, ofCourse };
}

/** Listed membership plans per educator, in the educator's order. */
function plansByEducator(plans: CatalogueRows['plans']): Map<string, MembershipPlanView[]> {
  const out = new Map<string, MembershipPlanView[]>();
  for (const p of plans) {
    push(out, p.educator_id, {
      id: p.id, name: p.name, description: p.description, interval: p.interval, passMonths: p.pass_months, price: Number(p.price),
      currency: p.currency, discountPercent: Number(p.discount_percent), creditsPerPeriod: Number(p.credits_per_period), courseIds: p.course_ids,
    });
  }
  return out;
}

/** What a course's model is assembled from, looked up by id. */
interface CourseLookups {
  now: number;
  categoryById: Map<string, CategoryModel>;
  courseAgg: Map<string, Aggregate | null>;
  faqById: Map<string, CatalogueRows['faqs'][number]>;
  lessonById: Map<string, CatalogueRows['lessons'][number]>;
  locationById: Map<string, CatalogueRows['locations'][number]>;
  occurrences: ReturnType<typeof occurrenceIndex>;
  collectionsOfCourse: Map<string, string[]>;
  reviews: ReturnType<typeof reviewIndex>;
}

/** A published course's page model and card. */
function courseModelOf(course: Course, educator: Educator, x: CourseLookups): CourseModel {
  const { now, locationById } = x;
  const fallbackOffers = x.occurrences.courseOffers.get(course.id) ?? [];
  const listed = listedOccurrences(
    (x.occurrences.occurrencesByCourse.get(course.id) ?? []) as unknown as DomainOccurrence[],
    now,
    fallbackOffers,
  ) as unknown as OccurrenceView[];
  const travel = course.student_travel_settings as StudentTravelSettings | null;
  const studentLocations = (travel?.enabled ? (travel.locations ?? []) : [])
    .map((id) => locationById.get(id))
    .filter((l): l is NonNullable<typeof l> => !!l)
    .map((l) => ({ id: l.id, city: l.city, formatted: l.formatted, address: l.address }));
  const category = course.category_id ? x.categoryById.get(course.category_id) ?? null : null;
  const aggregate = x.courseAgg.get(course.id) ?? null;
  const prices = x.occurrences.offerPrices.get(course.id) ?? [];
  const firstLocationId = travel?.locations?.[0];
  const card: CourseCard = {
    ...toCourseCard(
      {
        id: course.id, slug: course.slug, name: course.name, educator_id: educator.id, educator_name: educator.name,
        educator_slug: educator.slug, img_urls: course.img_urls, autoimg: course.autoimg, type: course.type,
        delivery_modes: course.delivery_modes, keyword: course.keyword, level: course.level, pricing_type: course.pricing_type,
        minimum_price: course.minimum_price, maximum_price: course.maximum_price, currency: course.currency,
        address: course.address, student_travel_settings: course.student_travel_settings, feature_flags: educator.feature_flags,
        review_count: aggregate?.count ?? null, review_rating: aggregate?.rating ?? null,
        offers_min_price: prices.length ? Math.min(...prices) : null,
        offers_max_price: prices.length ? Math.max(...prices) : null,
      } satisfies CourseCardRow,
      {
        nextOccurrence: nextBookableOccurrence(listed, now, course.spaces)?.start_datetime ?? null,
        locationCity: firstLocationId ? locationById.get(firstLocationId)?.city ?? null : null,
        travelCities: studentTravelLocationIds(travel).flatMap((id) => locationById.get(id)?.city ?? []),
      },
    ),
    collections: x.collectionsOfCourse.get(course.id) ?? [],
  };
  return {
    course,
    category,
    card,
    occurrences: listed,
    offers: fallbackOffers,
    faqs: (course.faq_ids ?? []).map((id) => x.faqById.get(id)).filter((f): f is NonNullable<typeof f> => !!f)
      .map((f) => ({ id: f.id, question: f.question, answer: f.answer })),
    sections: ((course.sections ?? []) as CourseSection[]).map((s) => ({
      name: s.name,
      lessons: (s.contents ?? []).filter((c) => c.type === 'lesson').map((c) => x.lessonById.get(c.ref))
        .filter((l): l is NonNullable<typeof l> => !!l).map((l) => ({ id: l.id, name: l.name })),
    })),
    studentLocations,
    aggregate,
    reviews: x.reviews.byCourse.get(course.id) ?? [],
    reviewCount: x.reviews.countByCourse.get(course.id) ?? 0,
  };
}

async function readCatalogue(db: Db, now: number, only?: string[], options: CatalogueOptions = {}): Promise<PublicCatalogue> {
  const scope = catalogueScope(only);
  const rows = await readCatalogueRows(db, now, scope, options);
  const reviews = reviewIndex(await readReviewRows(db, scope), rows.allCourseNames);
  const educatorAgg = new Map<string, Aggregate | null>();
  const courseAgg = new Map<string, Aggregate | null>();
  for (const a of rows.aggregates) (a.subject_type === 'educator' ? educatorAgg : courseAgg).set(a.subject_id, toAggregate(a));
  const collections = collectionIndex(rows);
  const lookups: CourseLookups = {
    now,
    categoryById: new Map(rows.categories.map((c) => [c.id, { id: c.id, slug: c.slug, name: c.name }])),
    courseAgg,
    faqById: new Map(rows.faqs.map((f) => [f.id, f])),
    lessonById: new Map(rows.lessons.map((l) => [l.id, l])),
    locationById: new Map(rows.locations.map((l) => [l.id, l])),
    occurrences: occurrenceIndex(rows),
    collectionsOfCourse: collections.ofCourse,
    reviews,
  };

  const educatorById = new Map(rows.educators.map((e) => [e.id, e]));
  const createdAt = new Map<string, number>();
  const byRelevance = relevanceOrder(createdAt);
  const coursesByEducator = new Map<string, CourseModel[]>();
  const cardsByCategory = new Map<string, CourseCard[]>();
  for (const course of rows.courses) {
    const educator = educatorById.get(course.educator_id);
    if (!educator) continue;
    const model = courseModelOf(course, educator, lookups);
    createdAt.set(course.id, Number(course.created_at));
    push(coursesByEducator, educator.id, model);
    if (model.category) push(cardsByCategory, model.category.slug, model.card);
  }
  for (const list of cardsByCategory.values()) list.sort(byRelevance);

  // The Gift Vouchers tab: switched on and payable (a gift voucher is paid by card or wallet, never by invoice).
  const giftsOn = await educatorsSellingGifts(db, only ? scope.ids : null);
  const plans = plansByEducator(rows.plans);
  const models: EducatorModel[] = rows.educators.map((educator) => {
    const courseModels = (coursesByEducator.get(educator.id) ?? []).slice();
    return {
      educator,
      aggregate: educatorAgg.get(educator.id) ?? null,
      city: str(educator.address?.city),
      collections: (collections.byEducator.get(educator.id) ?? []).map((c) => ({
        ...c,
        courseIds: c.courseIds.filter((id) => courseModels.some((m) => m.course.id === id)),
      })),
      cards: courseModels.map((m) => m.card).sort(byRelevance),
      courses: courseModels,
      reviews: reviews.byEducator.get(educator.id) ?? [],
      reviewCount: reviews.countByEducator.get(educator.id) ?? 0,
      plans: plans.get(educator.id) ?? [],
      vouchersAppInstalled: giftsOn.has(educator.id),
    };
  });

  return {
    now,
    educators: models,
    educatorBySlug: new Map(models.map((m) => [m.educator.slug, m])),
    categories: rows.categories.map((c) => ({ id: c.id, slug: c.slug, name: c.name })),
    cardsByCategory,
  };
}

/**
 * Carousel order at build time, as the search API orders an empty query by relevance
 * (db/queries/search.ts): rating × review count, then newest, then id.
 */
function relevanceOrder(createdAt: Map<string, number>) {
  return (a: CourseCard, b: CourseCard): number =>
    b.reviews.rating * b.reviews.count - a.reviews.rating * a.reviews.count ||
    (createdAt.get(b._id) ?? 0) - (createdAt.get(a._id) ?? 0) ||
    (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
}

export type { Course, Educator, DurationPricing, EducatorTravelSettings, StudentTravelSettings };

/** Candidates read per list: more than any list shows, so ties at its end are settled by the same order as the build's. */
const TOP_CANDIDATES = 60;

/**
 * The best published course cards by relevance (rating × review count, newest, id) — of one category, or of
 * the whole catalogue — without reading the catalogue: the search read model (course_search) names the
 * candidates, and only their educators are read.
 */
export async function topCards(
  db: Db,
  options: { categoryId?: string | null; limit: number; now?: number },
): Promise<CourseCard[]> {
  let query = db.selectFrom('course_search').innerJoin('educators', 'educators.id', 'course_search.educator_id')
    .select(['course_search.course_id', 'course_search.educator_id'])
    .where('course_search.published', '=', true);
  if (options.categoryId !== undefined) query = query.where('course_search.category_id', '=', options.categoryId);
  const candidates = await query
    .orderBy('course_search.popularity', 'desc').orderBy('course_search.created_at', 'desc').orderBy('course_search.course_id')
    .limit(Math.max(TOP_CANDIDATES, options.limit * 2))
    .execute();
  if (candidates.length === 0) return [];
  const data = await loadEducatorCatalogue(db, candidates.map((c) => c.educator_id), options.now);
  const wanted = new Set(candidates.map((c) => c.course_id));
  const createdAt = new Map<string, number>();
  const cards: CourseCard[] = [];
  for (const m of data.educators) {
    for (const c of m.courses) {
      if (!wanted.has(c.course.id)) continue;
      createdAt.set(c.course.id, Number(c.course.created_at));
      cards.push(c.card);
    }
  }
  return cards.sort(relevanceOrder(createdAt)).slice(0, options.limit);
}

/** A category's listing page: how many published courses it has and its first cards. */
export async function categoryListing(db: Db, categoryId: string, limit: number, now?: number): Promise<{ total: number; cards: CourseCard[] }> {
  const [count, cards] = await Promise.all([
    db.selectFrom('courses').innerJoin('educators', 'educators.id', 'courses.educator_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('courses.published', '=', true).where('courses.category_id', '=', categoryId)
      .executeTakeFirstOrThrow(),
    topCards(db, { categoryId, limit, now }),
  ]);
  return { total: Number(count.n), cards };
}

export interface HomeModel {
  educators: Awaited<ReturnType<typeof listHomeEducators>>;
  categories: Awaited<ReturnType<typeof listCategoriesWithCounts>>;
  /** Popular courses: the carousel's cards in relevance order. */
  popular: CourseCard[];
}

export async function loadHomeModel(db: Db, now?: number): Promise<HomeModel> {
  const [educators, categories, popular] = await Promise.all([
    listHomeEducators(db, 60), listCategoriesWithCounts(db), topCards(db, { limit: COURSE_CAROUSEL_SIZE, now }),
  ]);
  return { educators, categories, popular };
}

export interface CategoryPageModel {
  category: CategoryModel;
  categories: CategoryModel[];
  total: number;
  cards: CourseCard[];
}

/** Cards a category page shows before the search island takes over. */
export const CATEGORY_FIRST_PAGE = 24;

/** Every category, by name (the category and search pages' lists). */
export async function listCategories(db: Db): Promise<CategoryModel[]> {
  return db.selectFrom('categories').select(['id', 'slug', 'name']).orderBy('name').execute();
}

export async function loadCategoryPageModel(db: Db, categoryId: string, now?: number): Promise<CategoryPageModel | null> {
  const categories = await listCategories(db);
  const category = categories.find((c) => c.id === categoryId);
  if (!category) return null;
  const { total, cards } = await categoryListing(db, categoryId, CATEGORY_FIRST_PAGE, now);
  return { category, categories, total, cards };
}

/** Cards of a category carousel: its first cards in relevance order (carouselCards leaves out the page's own). */
export const CATEGORY_CAROUSEL_SOURCE = COURSE_CAROUSEL_SIZE + 1;

/** A digest of what a category's carousel shows, to tell whether its course pages must be written again. */
export function carouselDigest(cards: ReadonlyArray<CourseCard>): string {
  return createHash('sha256').update(JSON.stringify(cards.slice(0, CATEGORY_CAROUSEL_SOURCE))).digest('base64url');
}

/** Records the carousel as written; returns the digest it replaced (null when none was recorded). */
export async function recordCarousel(db: Db, categoryId: string, digest: string): Promise<string | null> {
  const before = await db.selectFrom('published_carousels').select('digest').where('category_id', '=', categoryId).executeTakeFirst();
  if (before?.digest === digest) return digest;
  await db.insertInto('published_carousels').values({ category_id: categoryId, digest })
    .onConflict((oc) => oc.column('category_id').doUpdateSet({ digest }))
    .execute();
  return before?.digest ?? null;
}
