/**
 * Ratings and review display rules (spec 2.11, 2.13, 3 "Review", 5, 9 "Reviews").
 */

/** Spec 9: the rating scale. */
export const RATING_MAX = 5;
/** Spec 9: reviews shown inline before 'Show All'. */
export const REVIEWS_INLINE = 5;
/** Spec 9: 'Show All' appears from this many reviews. */
export const SHOW_ALL_MIN_COUNT = 2;

/** Spec 5: star ratings are clamped to 0 through the maximum; non-numbers count as 0. */
export function clampRating(rating: number | null | undefined, max: number = RATING_MAX): number {
  if (typeof rating !== 'number' || Number.isNaN(rating)) return 0;
  return Math.min(max, Math.max(0, rating));
}

/** Rounds to 1 decimal place (half away from zero for positive values). */
export function roundToOneDecimal(value: number): number {
  return Math.round((value + Number.EPSILON) * 10) / 10;
}

/** Spec 2.13: the average as text with exactly 1 decimal ('4.0', '4.5'). */
export function formatRating(rating: number): string {
  return roundToOneDecimal(clampRating(rating)).toFixed(1);
}

/** Spec 9: meters show rating / 5 as a percentage (clamped to 0–100). */
export function ratingPercent(rating: number | null | undefined, max: number = RATING_MAX): number {
  return (clampRating(rating, max) / max) * 100;
}

/** Spec 3 "Review aggregate": breakdown keys and their labels, in display order. */
export const REVIEW_BREAKDOWN_LABELS = {
  material: 'Material Covered',
  facilitator: 'Facilitator',
  organiser: 'Organiser',
  resources: 'Resources Provided',
  delivery: 'Location/Delivery',
  communication: 'Communication',
} as const;

export type BreakdownKey = keyof typeof REVIEW_BREAKDOWN_LABELS;
export type ReviewBreakdown = Partial<Record<BreakdownKey, number | null>>;

export interface BreakdownRow {
  key: BreakdownKey;
  label: string;
  rating: number;
  percent: number;
}

/** Spec 2.13: rating breakdown rows, skipping null or missing values. */
export function breakdownRows(breakdown: ReviewBreakdown | null | undefined): BreakdownRow[] {
  if (!breakdown) return [];
  return (Object.keys(REVIEW_BREAKDOWN_LABELS) as BreakdownKey[])
    .filter((key) => typeof breakdown[key] === 'number')
    .map((key) => {
      const rating = clampRating(breakdown[key]);
      return { key, label: REVIEW_BREAKDOWN_LABELS[key], rating, percent: ratingPercent(rating) };
    });
}

/** The review fields the display rules read (spec 3 "Review"). */
export interface ReviewLike {
  entity?: string | null;
  sourceKey?: string | null;
  course?: { name?: string; slug?: string; published?: boolean | null } | null;
  reviewer?: { id?: string | null; name?: string } | null;
}

/** Spec 2.11 / 9: the verified badge is hidden for the facebook and googlemaps sources. */
export function showVerifiedBadge(sourceKey: string | null | undefined): boolean {
  return sourceKey !== 'facebook' && sourceKey !== 'googlemaps';
}

/**
 * Spec 2.11 / 9: 'Reviewed on {sourceLabel}' shows except for course reviews
 * (entity 'course', or a 'course' source) and the marketplace source.
 */
export function showReviewedOn(review: ReviewLike): boolean {
  if (review.entity === 'course') return false;
  return review.sourceKey !== 'marketplace' && review.sourceKey !== 'course';
}

/** Spec 2.11 / 9: 'Reviewed {course}' shows only for published courses. */
export function showReviewedCourse(review: ReviewLike): boolean {
  return review.course?.published === true;
}

/** Spec 2.13 / 9: 'Show All' only when the count is 2 or more. */
export function showAllReviewsButton(count: number): boolean {
  return count >= SHOW_ALL_MIN_COUNT;
}

/** Spec 2.6 / 2.13: ratings with counts show only when the count is above 0. */
export function showRatingSummary(count: number | null | undefined): boolean {
  return typeof count === 'number' && count > 0;
}

/** Spec 6: the delete control shows only when the student is the review's author. */
export function canDeleteReview(studentId: string | null | undefined, review: ReviewLike): boolean {
  return !!studentId && review.reviewer?.id === studentId;
}
