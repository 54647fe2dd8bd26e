/** Fallback artwork (public/images): spec 2.6 cover and logo fallbacks, course image when none is set. */
export const COVER_FALLBACK = '/images/covers/default.svg';
export const LOGO_FALLBACK = '/images/logos/default.svg';
export const COURSE_IMAGE_FALLBACK = '/images/courses/default.svg';
