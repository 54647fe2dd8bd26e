/**
 * Course structured data (spec 2.13, 1: a Course with instances and offers, country GB), emitted on
 * marketplace course pages only. schema.org Course / CourseInstance / Offer as search engines read
 * them, meeting Google's course-info properties for every course type:
 * - Course: name, description, provider (Organization), offers (category, and price with currency
 *   whenever the page shows one), hasCourseInstance (at least one), image, inLanguage, aggregateRating;
 * - CourseInstance: courseMode, courseWorkload (ISO 8601 duration), location, start and end dates
 *   for dated instances.
 *
 * The marked-up price is exactly the headline price the page shows (src/domain/pricing.ts
 * headlinePrice): an educator who hides pricing, or a price-on-enquiry course, publishes no price.
 * Pure: the page passes what it already loaded.
 */
import { headlinePrice } from '../domain/pricing.ts';
import { occurrenceLengthSeconds } from '../domain/highlights.ts';
import type { OccurrenceView, OfferView } from './types.ts';
import { isoDateTime } from './format.ts';

const COUNTRY = 'GB';
const CURRENCY = 'GBP';
/** Dated instances marked up per course page: enough for search engines, not the whole calendar. */
export const MAX_COURSE_INSTANCES = 20;

type Address = Record<string, string> | null | undefined;

export interface StructuredCourse {
  name: string;
  type: string;
  level?: string | null;
  delivery_modes?: string[] | null;
  /** Minutes. */
  course_duration?: number | null;
  duration_pricing?: ReadonlyArray<{ duration: number }> | null;
  pricing_type: string;
  minimum_price?: number | null;
  maximum_price?: number | null;
  currency?: string | null;
  address?: Address;
  available_for_online_delivery?: boolean | null;
  available_for_in_person_delivery?: boolean | null;
  educator_travel_settings?: { enabled?: boolean | null } | null;
  student_travel_settings?: { enabled?: boolean | null } | null;
}

export interface CourseStructuredDataInput {
  course: StructuredCourse;
  educator: { name: string; address?: Address };
  /** The educator's `hide_pricing` flag: the page shows no price, so neither does the markup. */
  hidePricing: boolean;
  url: string;
  educatorUrl: string;
  description: string;
  images: string[];
  /** Listed occurrences, soonest first. */
  occurrences: ReadonlyArray<OccurrenceView>;
  courseOffers: ReadonlyArray<OfferView>;
  /** Where learners travel to (on-request student travel), with their addresses. */
  studentLocations?: ReadonlyArray<{ city: string; address?: Address }>;
  rating: { rating: number; count: number } | null;
}

type CourseMode = 'Online' | 'Onsite' | 'Blended';

/** Minutes as an ISO 8601 duration: 90 → 'PT1H30M', 2880 → 'P2D'. */
export function isoDuration(minutes: number): string {
  const total = Math.max(0, Math.round(minutes));
  const days = Math.floor(total / 1440);
  const hours = Math.floor((total % 1440) / 60);
  const mins = total % 60;
  const time = `${hours ? `${hours}H` : ''}${mins ? `${mins}M` : ''}`;
  if (!days && !time) return 'PT0M';
  return `P${days ? `${days}D` : ''}${time ? `T${time}` : ''}`;
}

function postalAddress(address: Address) {
  if (!address) return null;
  const { city, postcode, country: _country, ...rest } = address;
  const street = Object.values(rest).filter(Boolean).join(', ');
  if (!street && !city && !postcode) return null;
  return {
    '@type': 'PostalAddress',
    ...(street ? { streetAddress: street } : {}),
    ...(city ? { addressLocality: city } : {}),
    ...(postcode ? { postalCode: postcode } : {}),
    addressCountry: COUNTRY,
  };
}

function place(address: Address, fallbackName: string) {
  const postal = postalAddress(address);
  return {
    '@type': 'Place',
    name: postal?.addressLocality ?? fallbackName,
    address: postal ?? { '@type': 'PostalAddress', addressCountry: COUNTRY },
  };
}

function modeOf(delivery: string | null | undefined): CourseMode {
  if (delivery === 'online' || delivery === 'on-demand') return 'Online';
  if (delivery === 'hybrid') return 'Blended';
  return 'Onsite';
}

/** The course's own mode when it has no dates: one mode, or Blended for several. */
function courseModeOf(modes: ReadonlyArray<string>): CourseMode {
  const kinds = new Set(modes.filter((m) => m !== 'on-request').map(modeOf));
  if (kinds.size === 0) return 'Onsite';
  return kinds.size === 1 ? [...kinds][0] : 'Blended';
}

/**
 * The workload of one dated instance: its own length when it fits in a day (a 3-hour class is
 * 'PT3H'); a multi-day occurrence counts the course's stated duration, else whole days.
 */
function occurrenceWorkload(occurrence: OccurrenceView, courseMinutes: number | null): string | null {
  const seconds = occurrenceLengthSeconds(occurrence);
  if (seconds === null) return courseMinutes ? isoDuration(courseMinutes) : null;
  if (seconds <= 86400) return isoDuration(seconds / 60);
  return courseMinutes ? isoDuration(courseMinutes) : isoDuration(Math.ceil(seconds / 86400) * 1440);
}

function workloadOf(minutes: number | null | undefined) {
  return typeof minutes === 'number' && minutes > 0 ? { courseWorkload: isoDuration(minutes) } : {};
}

function price(pence: number): string {
  return (pence / 100).toFixed(2);
}

/**
 * The Course's offer, matching the page's headline price: price on enquiry publishes a category only; free
 * publishes 0; an amount publishes the amount the page shows (the lowest, for 'From £x' and ranges). Hidden
 * pricing publishes no offer at all: even its category ("Free", "Paid") says what the page does not.
 */
export function courseOffer(input: Pick<CourseStructuredDataInput, 'course' | 'hidePricing' | 'occurrences' | 'courseOffers' | 'url'>) {
  const { course, hidePricing, occurrences, courseOffers, url } = input;
  if (hidePricing) return null;
  const offers = courseOffers.length ? courseOffers : occurrences.flatMap((o) => o.offers);
  const headline = headlinePrice({ type: course.pricing_type, offers: [...offers], minimumPrice: course.minimum_price, maximumPrice: course.maximum_price });
  const currency = course.currency || CURRENCY;
  const base = { '@type': 'Offer', url };
  if (headline?.kind === 'free') return { ...base, price: '0.00', priceCurrency: currency, category: 'Free' };
  if (!headline || headline.kind === 'enquiry') return { ...base, category: 'Paid' };
  const category = headline.pence > 0 ? 'Paid' : 'Partially Free';
  return { ...base, price: price(headline.pence), priceCurrency: currency, category };
}

function virtualLocation(url: string) {
  return { '@type': 'VirtualLocation', url };
}

/**
 * Google's course-info levels. Another level (the catalogue's "All", for everyone) is not one of them, so it
 * is left out rather than published as something Google does not read.
 */
const EDUCATIONAL_LEVELS = ['Beginner', 'Intermediate', 'Advanced'] as const;

export function educationalLevel(level: string | null | undefined): (typeof EDUCATIONAL_LEVELS)[number] | null {
  const wanted = level?.trim().toLowerCase();
  return EDUCATIONAL_LEVELS.find((l) => l.toLowerCase() === wanted) ?? null;
}

/**
 * The course's instances that say how long they take: an instance needs a courseWorkload (or a schedule) to mean
 * anything, and a duration "To be confirmed" (an on-request course with none) is not invented — those are left out.
 */
function courseInstances(input: CourseStructuredDataInput): object[] {
  return allCourseInstances(input).filter((instance) => 'courseWorkload' in instance);
}

function allCourseInstances(input: CourseStructuredDataInput): object[] {
  const { course, educator, url, occurrences } = input;
  const courseMinutes = typeof course.course_duration === 'number' && course.course_duration > 0 ? course.course_duration : null;
  const modes = course.delivery_modes ?? [];

  if (course.type === 'on-request') {
    const minutes = course.duration_pricing?.find((d) => d.duration > 0)?.duration ?? courseMinutes;
    const workload = workloadOf(minutes);
    const instances: object[] = [];
    if (course.available_for_online_delivery || modes.includes('online')) {
      instances.push({ '@type': 'CourseInstance', courseMode: 'Online', ...workload, location: virtualLocation(url) });
    }
    if (course.educator_travel_settings?.enabled) {
      instances.push({
        '@type': 'CourseInstance', courseMode: 'Onsite', ...workload,
        location: { '@type': 'Place', name: 'At your location', address: { '@type': 'PostalAddress', addressCountry: COUNTRY } },
      });
    }
    if (course.student_travel_settings?.enabled) {
      for (const location of input.studentLocations ?? []) {
        instances.push({ '@type': 'CourseInstance', courseMode: 'Onsite', ...workload, location: place(location.address ?? { city: location.city }, location.city) });
      }
    }
    if (instances.length === 0 || (instances.every((i) => (i as { courseMode: string }).courseMode === 'Online') && (course.available_for_in_person_delivery || modes.includes('in-person')))) {
      instances.push({ '@type': 'CourseInstance', courseMode: 'Onsite', ...workload, location: place(course.address ?? educator.address, educator.name) });
    }
    return instances;
  }

  if (course.type === 'on-demand' || (occurrences.length === 0 && modes.includes('on-demand'))) {
    return [{ '@type': 'CourseInstance', courseMode: 'Online', ...workloadOf(courseMinutes), location: virtualLocation(url) }];
  }

  if (occurrences.length === 0) {
    // A scheduled course between dates: what it is, without a date.
    const mode = courseModeOf(modes);
    return [{
      '@type': 'CourseInstance', courseMode: mode, ...workloadOf(courseMinutes),
      location: mode === 'Online' ? virtualLocation(url) : place(course.address ?? educator.address, educator.name),
    }];
  }

  return occurrences.slice(0, MAX_COURSE_INSTANCES).map((o) => {
    const mode = modeOf(o.delivery);
    const workload = occurrenceWorkload(o, courseMinutes);
    return {
      '@type': 'CourseInstance',
      courseMode: mode,
      ...(workload ? { courseWorkload: workload } : {}),
      startDate: isoDateTime(o.start_datetime),
      endDate: isoDateTime(o.end_datetime),
      location: mode === 'Online' ? virtualLocation(url) : place(o.address ?? course.address ?? educator.address, educator.name),
    };
  });
}

export function courseStructuredData(input: CourseStructuredDataInput) {
  const { course, educator, url, educatorUrl, description, images, rating } = input;
  const city = educator.address?.city;
  const level = educationalLevel(course.level);
  const offers = courseOffer(input);
  const instances = courseInstances(input);
  return {
    '@context': 'https://schema.org',
    '@type': 'Course',
    name: course.name,
    description,
    url,
    ...(images.length ? { image: images } : {}),
    ...(level ? { educationalLevel: level } : {}),
    inLanguage: 'en-GB',
    provider: {
      '@type': 'Organization',
      name: educator.name,
      url: educatorUrl,
      sameAs: educatorUrl,
      ...(city ? { address: { '@type': 'PostalAddress', addressLocality: city, addressCountry: COUNTRY } } : {}),
    },
    ...(offers ? { offers } : {}),
    ...(instances.length ? { hasCourseInstance: instances } : {}),
    ...(rating && rating.count > 0
      ? { aggregateRating: { '@type': 'AggregateRating', ratingValue: rating.rating.toFixed(1), reviewCount: rating.count, bestRating: 5, worstRating: 1 } }
      : {}),
  };
}
