/**
 * Shapes the public pages and their islands exchange: the API's JSON (spec 3, 7) and the small
 * view models the pages build at build time. Client-safe: types only.
 */
import type { AppContext } from '../domain/links.ts';

export type { AppContext };

/** GET /api/courses/search result item (spec 2.12 course card). */
export interface CourseCard {
  _id: string;
  slug: string;
  name: string;
  educator_ref: string;
  educator: { name: string; slug: string };
  educator_slug: string;
  img_url: string | null;
  type: string;
  delivery: string[];
  keyword: string | null;
  level: string | null;
  pricing_option: { type: string; minimumPrice: number | null; maximumPrice: number | null };
  currency: string;
  reviews: { rating: number; count: number };
  /** Location text (a city, or a few cities). */
  location: string | null;
  /** Start of the next listed occurrence, epoch seconds (or null). */
  next_occurrence: number | null;
  hide_pricing: boolean;
  /** Build-time only: collections the course belongs to (courses page ?list= filter). */
  collections?: string[];
}

export interface CourseSearchResponse {
  results: CourseCard[];
  total: number;
  page: number;
  size: number;
}

/** Spec 3 "Review", as GET /api/reviews/… returns it. */
export interface Review {
  id: string;
  createdAt: number;
  rating: number;
  verified: boolean;
  sourceKey: string;
  sourceLabel: string;
  externalUrl: string | null;
  entity: string;
  course: { name: string; slug: string; published: boolean } | null;
  reviewer: { id: string | null; name: string };
  publicMessage: string;
  educatorResponse: { message: string; createdAt: number } | null;
}

export interface ReviewsPage {
  reviews: Review[];
  nextPageToken: string | null;
}

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
export interface OccurrenceView {
  _id: string;
  start_datetime: number;
  end_datetime: number;
  times?: { start?: { zoned_datetime?: string }; end?: { zoned_datetime?: string } } | null;
  delivery: string;
  address: Record<string, string> | null;
  spaces: number | null;
  available_spaces: number | null;
  parent_ref: string | null;
  individually_bookable: boolean;
  offers: OfferView[];
  add_ons?: { _id: string; name: string; price: number | null }[];
  /** Present in build-time data. */
  visibility?: string;
  timezone?: string;
}

/** What the educator-facing parts of a page need to know about the educator (serialisable). */
export interface EducatorSummary {
  id: string;
  slug: string;
  name: string;
  logoUrl: string;
}

/** Where links are built from (passed to islands that build links with src/domain/links.ts). */
export interface LinkContext {
  context: AppContext;
  /** The minisite's own educator (minisite pages). */
  currentEducatorSlug: string | null;
  host: string;
  protocol: string;
}
