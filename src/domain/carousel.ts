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

/**
 * Spec 9 items visible by viewport width (px): default 1; 560–889 → 2;
 * 890–1019 → 3; 1020 and up → 4. On the success screens: 2 from 560, else 1.
 */
export function carouselItemsVisible(widthPx: number, options: { successScreen?: boolean } = {}): number {
  if (options.successScreen) return widthPx >= 560 ? 2 : 1;
  if (widthPx >= 1020) return 4;
  if (widthPx >= 890) return 3;
  if (widthPx >= 560) return 2;
  return 1;
}
