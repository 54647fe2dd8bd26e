/**
 * Carousel sizes (spec 2.12, 9 "Public pages").
 */

/** Spec 2.12 / 9: course carousels fetch up to 11 results. */
export const COURSE_CAROUSEL_SIZE = 11;
/** Spec 9: share of an item that must be visible to count as seen. */
export const CAROUSEL_VISIBILITY_THRESHOLD = 0.6;
/** Spec 9: dates list on the course page, per page. */
export const COURSE_DATES_PAGE_SIZE = 5;
/** Spec 9: map height on the course page, px. */
export const LOCATION_MAP_HEIGHT_PX = 250;

/** Up to 11 cards (spec 2.12), leaving out one course (the page's own). */
export function carouselCards<Card extends { _id: string }>(cards: ReadonlyArray<Card>, excludeCourseId?: string): Card[] {
  return cards.filter((c) => c._id !== excludeCourseId).slice(0, COURSE_CAROUSEL_SIZE);
}
