/**
 * Shapes the public pages and their islands exchange: the API's JSON (spec 3, 7) and the small
 * view models the pages build at build time. Client-safe: types only.
 */
import type { AppContext } from '../domain/app-context.ts';
// Type-only imports of the API's and the read models' shapes: erased from the browser bundle.
import type { CourseCard } from '../../db/queries/course-cards.ts';

/** GET /api/courses/search result item (spec 2.12 course card): the API's own shape. */
export type { CourseCard };

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

/** Offers and occurrences as the dates list shows them (db/queries/occurrences.ts). */
export type { OccurrenceView, OfferView } from '../../db/queries/occurrences.ts';

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
