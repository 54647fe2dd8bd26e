/**
 * Shapes the public pages and their islands exchange: the API's JSON (spec 3, 7) and the small
 * view models the pages build at build time. Client-safe: types only.
 */
import type { AppContext } from '../domain/links.ts';
// Type-only imports of the API's response shapes: erased from the browser bundle.
import type { CourseCard as ApiCourseCard } from '../../db/queries/course-cards.ts';

export type { AppContext };

/** GET /api/courses/search result item (spec 2.12 course card): the API's own shape. */
export interface CourseCard extends ApiCourseCard {
  /** Build-time only: collections the course belongs to (courses page ?list= filter). */
  collections?: string[];
}

export interface CourseSearchResponse {
  results: CourseCard[];
  /** Counted up to a cap past the page: a lower bound when total_capped is true. */
  total: number;
  total_capped?: boolean;
  page: number;
  size: number;
}

/** Spec 3 "Review" and a page of them, as GET /api/reviews/… returns them. */
export type { ReviewJson as Review, ReviewsPage } from '../../db/queries/reviews.ts';

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
