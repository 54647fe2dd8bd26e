/**
 * Course structured data (spec 2.13, 1: a Course with instances and offers, country GB), emitted on
 * marketplace course pages only. schema.org Course / CourseInstance / Offer as search engines read them.
 * Server side only.
 */
import type { Course, Educator } from '../../db/queries/pages.ts';
import type { OccurrenceView, OfferView } from './types.ts';
import { offerPrice, isOfferOnSale } from '../domain/pricing.ts';
import { isoDateTime } from './format.ts';

const COUNTRY = 'GB';
const CURRENCY = 'GBP';

function price(pence: number): string {
  return (pence / 100).toFixed(2);
}

function postalAddress(address: Record<string, string> | null | undefined) {
  if (!address) return null;
  const { city, postcode, country: _country, ...rest } = address;
  const street = Object.values(rest).filter(Boolean).join(', ');
  return {
    '@type': 'PostalAddress',
    ...(street ? { streetAddress: street } : {}),
    ...(city ? { addressLocality: city } : {}),
    ...(postcode ? { postalCode: postcode } : {}),
    addressCountry: COUNTRY,
  };
}

function courseMode(delivery: string): 'Online' | 'Onsite' | 'Blended' {
  if (delivery === 'online') return 'Online';
  if (delivery === 'hybrid') return 'Blended';
  return 'Onsite';
}

function offerData(offers: ReadonlyArray<OfferView>, now: number, url: string, soldOut = false) {
  const onSale = offers.filter((o) => isOfferOnSale(o, now));
  const list = onSale.length ? onSale : offers;
  if (list.length === 0) return null;
  const lowest = Math.min(...list.map((o) => offerPrice(o)));
  const first = list.find((o) => offerPrice(o) === lowest);
  return {
    '@type': 'Offer',
    price: price(lowest),
    priceCurrency: CURRENCY,
    category: lowest > 0 ? 'Paid' : 'Free',
    availability: soldOut ? 'https://schema.org/SoldOut' : 'https://schema.org/InStock',
    url,
    ...(first?.start_at ? { validFrom: isoDateTime(first.start_at) } : {}),
  };
}

export interface CourseStructuredDataInput {
  course: Course;
  educator: Educator;
  url: string;
  educatorUrl: string;
  description: string;
  images: string[];
  occurrences: ReadonlyArray<OccurrenceView>;
  courseOffers: ReadonlyArray<OfferView>;
  rating: { rating: number; count: number } | null;
  now: number;
}

export function courseStructuredData(input: CourseStructuredDataInput) {
  const { course, educator, url, educatorUrl, description, images, occurrences, courseOffers, rating, now } = input;
  const instances = occurrences.map((o) => {
    const spaces = o.available_spaces ?? o.spaces ?? course.spaces;
    const offers = offerData(o.offers.length ? o.offers : courseOffers, now, `${url}?occurrence=${encodeURIComponent(o._id)}`, spaces === 0);
    const address = postalAddress(o.address ?? course.address);
    return {
      '@type': 'CourseInstance',
      courseMode: courseMode(o.delivery),
      startDate: isoDateTime(o.start_datetime),
      endDate: isoDateTime(o.end_datetime),
      location: o.delivery === 'online' || !address
        ? { '@type': 'VirtualLocation', url }
        : { '@type': 'Place', name: address.addressLocality ?? educator.name, address },
      ...(offers ? { offers } : {}),
    };
  });
  if (instances.length === 0 && (course.type === 'on-demand' || (course.delivery_modes ?? []).includes('on-demand'))) {
    instances.push({
      '@type': 'CourseInstance',
      courseMode: 'Online',
      ...(course.course_duration ? { courseWorkload: `PT${course.course_duration}M` } : {}),
    } as never);
  }
  const allOffers = courseOffers.length ? courseOffers : occurrences.flatMap((o) => o.offers);
  const offers = offerData(allOffers, now, url)
    ?? (course.pricing_type === 'free'
      ? { '@type': 'Offer', price: '0.00', priceCurrency: CURRENCY, category: 'Free', url }
      : typeof course.minimum_price === 'number'
        ? { '@type': 'Offer', price: price(course.minimum_price), priceCurrency: CURRENCY, category: course.minimum_price > 0 ? 'Paid' : 'Free', url }
        : null);
  return {
    '@context': 'https://schema.org',
    '@type': 'Course',
    name: course.name,
    description,
    url,
    ...(images.length ? { image: images } : {}),
    ...(course.level ? { educationalLevel: course.level } : {}),
    inLanguage: 'en-GB',
    provider: {
      '@type': 'Organization',
      name: educator.name,
      sameAs: educatorUrl,
      ...(educator.address?.city ? { address: { '@type': 'PostalAddress', addressLocality: educator.address.city, addressCountry: COUNTRY } } : {}),
    },
    ...(instances.length ? { hasCourseInstance: instances } : {}),
    ...(offers ? { offers } : {}),
    ...(rating && rating.count > 0
      ? { aggregateRating: { '@type': 'AggregateRating', ratingValue: rating.rating.toFixed(1), reviewCount: rating.count, bestRating: 5, worstRating: 1 } }
      : {}),
  };
}
