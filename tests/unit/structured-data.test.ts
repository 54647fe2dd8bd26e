/**
 * Course structured data per course type (src/lib/structured-data.ts): every type meets Google's
 * course-info properties, and the marked-up price is the one the page shows (none when the
 * educator hides pricing or the price is on enquiry).
 */
import { describe, expect, it } from 'vitest';
import { courseStructuredData, isoDuration, type CourseStructuredDataInput, type StructuredCourse } from '../../src/lib/structured-data.ts';
import type { OccurrenceView, OfferView } from '../../src/lib/types.ts';
import { courseRichResultProblems } from '../helpers/course-rich-results.ts';

const URL_ = 'https://example.co.uk/clay/taster';
const H = 3600;
const START = Date.UTC(2026, 5, 6, 17, 30) / 1000;

function offer(id: string, price: number | null): OfferView {
  return { _id: id, name: id, price, spaces: 1, start_at: null, end_at: null };
}

function occurrence(id: string, start: number, hours: number, extra: Partial<OccurrenceView> = {}): OccurrenceView {
  return {
    _id: id, start_datetime: start, end_datetime: start + hours * H, delivery: 'in-person',
    address: { line1: '1 Kiln Lane', city: 'London', postcode: 'E8 1AA' }, spaces: 10, available_spaces: 10,
    parent_ref: null, individually_bookable: false, offers: [], ...extra,
  };
}

function input(course: Partial<StructuredCourse>, extra: Partial<CourseStructuredDataInput> = {}): CourseStructuredDataInput {
  return {
    course: { name: 'Wheel Taster', type: 'class', pricing_type: 'price-offers', delivery_modes: ['in-person'], course_duration: 180, currency: 'GBP', address: { city: 'London' }, ...course },
    educator: { name: 'Clay & Kiln', address: { city: 'London' } },
    hidePricing: false,
    url: URL_,
    educatorUrl: 'https://example.co.uk/clay',
    description: 'Throw your first pots.',
    images: ['https://example.co.uk/images/courses/pottery-1.svg'],
    occurrences: [],
    courseOffers: [offer('o1', 4500)],
    rating: null,
    ...extra,
  };
}

function valid(data: unknown) {
  expect(courseRichResultProblems(data)).toEqual([]);
}

describe('isoDuration', () => {
  it.each([[0, 'PT0M'], [45, 'PT45M'], [60, 'PT1H'], [90, 'PT1H30M'], [1440, 'P1D'], [2880, 'P2D'], [1530, 'P1DT1H30M']])('%i minutes → %s', (minutes, iso) => {
    expect(isoDuration(minutes)).toBe(iso);
  });
});

describe('courseStructuredData per course type', () => {
  it('class with dates: one instance per date, workload = the session, Onsite at the date address, online dates virtual', () => {
    const data = courseStructuredData(input({}, {
      occurrences: [occurrence('a', START, 3), occurrence('b', START + 7 * 86400, 3, { delivery: 'online', address: null })],
    }));
    valid(data);
    expect(data.hasCourseInstance).toEqual([
      expect.objectContaining({
        courseMode: 'Onsite', courseWorkload: 'PT3H', startDate: '2026-06-06T17:30:00Z', endDate: '2026-06-06T20:30:00Z',
        location: { '@type': 'Place', name: 'London', address: { '@type': 'PostalAddress', streetAddress: '1 Kiln Lane', addressLocality: 'London', postalCode: 'E8 1AA', addressCountry: 'GB' } },
      }),
      expect.objectContaining({ courseMode: 'Online', courseWorkload: 'PT3H', location: { '@type': 'VirtualLocation', url: URL_ } }),
    ]);
    expect(data.offers).toEqual({ '@type': 'Offer', url: URL_, price: '45.00', priceCurrency: 'GBP', category: 'Paid' });
    expect(data.provider).toMatchObject({ '@type': 'Organization', name: 'Clay & Kiln' });
  });

  it('class without dates still has an instance (its mode and stated duration)', () => {
    const data = courseStructuredData(input({}));
    valid(data);
    expect(data.hasCourseInstance).toEqual([expect.objectContaining({ courseMode: 'Onsite', courseWorkload: 'PT3H' })]);
  });

  it('blended multi-day cohort: Blended, workload from the stated duration, not the calendar span', () => {
    const data = courseStructuredData(input({ type: 'blended', delivery_modes: ['hybrid'], course_duration: 720 }, {
      occurrences: [occurrence('c', START, 31, { delivery: 'hybrid' })],
    }));
    valid(data);
    expect(data.hasCourseInstance![0]).toMatchObject({ courseMode: 'Blended', courseWorkload: 'PT12H' });
  });

  it('a multi-day date without a stated duration counts whole days', () => {
    const data = courseStructuredData(input({ course_duration: null }, { occurrences: [occurrence('d', START, 30)] }));
    valid(data);
    expect(data.hasCourseInstance![0]).toMatchObject({ courseWorkload: 'P2D' });
  });

  it('on-demand: one Online instance with a virtual location and workload', () => {
    const data = courseStructuredData(input({ type: 'on-demand', delivery_modes: ['on-demand'], course_duration: 600 }));
    valid(data);
    expect(data.hasCourseInstance).toEqual([{ '@type': 'CourseInstance', courseMode: 'Online', courseWorkload: 'PT10H', location: { '@type': 'VirtualLocation', url: URL_ } }]);
  });

  it('on-request: online, at your location, and one instance per place learners travel to', () => {
    const data = courseStructuredData(input({
      type: 'on-request', delivery_modes: ['online', 'in-person'], course_duration: null, duration_pricing: [{ duration: 90 }, { duration: 180 }],
      available_for_online_delivery: true, available_for_in_person_delivery: true,
      educator_travel_settings: { enabled: true }, student_travel_settings: { enabled: true },
    }, {
      studentLocations: [
        { city: 'Edinburgh', address: { line1: '12 Queen Street', city: 'Edinburgh', postcode: 'EH2 1JE' } },
        { city: 'Glasgow', address: { line1: '88 West George Street', city: 'Glasgow' } },
        { city: 'Aberdeen' },
      ],
    }));
    valid(data);
    expect(data.hasCourseInstance!.map((i) => [(i as { courseMode: string }).courseMode, (i as { location: { name?: string; '@type': string } }).location.name ?? 'virtual']))
      .toEqual([['Online', 'virtual'], ['Onsite', 'At your location'], ['Onsite', 'Edinburgh'], ['Onsite', 'Glasgow'], ['Onsite', 'Aberdeen']]);
    expect(data.hasCourseInstance!.every((i) => (i as { courseWorkload?: string }).courseWorkload === 'PT1H30M')).toBe(true);
  });

  it('on-request with its duration "To be confirmed": no instance, rather than one without a workload', () => {
    const data = courseStructuredData(input({
      type: 'on-request', delivery_modes: ['online', 'in-person'], course_duration: null, duration_pricing: [],
      available_for_online_delivery: true, available_for_in_person_delivery: true,
    }));
    expect(data).not.toHaveProperty('hasCourseInstance');
    expect(courseRichResultProblems(data)).toEqual(['hasCourseInstance missing']);
  });

  it('on-request in person only, without travel: Onsite at the course address', () => {
    const data = courseStructuredData(input({ type: 'on-request', delivery_modes: ['in-person'], available_for_in_person_delivery: true, duration_pricing: [] }));
    valid(data);
    expect(data.hasCourseInstance).toEqual([expect.objectContaining({ courseMode: 'Onsite', courseWorkload: 'PT3H' })]);
  });
});

describe('educationalLevel', () => {
  it("publishes Google's levels only (Beginner, Intermediate, Advanced): the catalogue's 'All' is left out", () => {
    expect(courseStructuredData(input({ level: 'All' }))).not.toHaveProperty('educationalLevel');
    expect(courseStructuredData(input({ level: 'intermediate' })).educationalLevel).toBe('Intermediate');
    expect(courseStructuredData(input({ level: 'Beginner' })).educationalLevel).toBe('Beginner');
    expect(courseStructuredData(input({ level: null }))).not.toHaveProperty('educationalLevel');
  });
});

describe('courseStructuredData offers match the page', () => {
  it('free: price 0, category Free', () => {
    const data = courseStructuredData(input({ pricing_type: 'free' }, { courseOffers: [] }));
    valid(data);
    expect(data.offers).toMatchObject({ price: '0.00', priceCurrency: 'GBP', category: 'Free' });
  });

  it('price on enquiry: an offer with a category and no price', () => {
    const data = courseStructuredData(input({ pricing_type: 'price-on-enquiry' }, { courseOffers: [] }));
    valid(data);
    expect(data.offers).toEqual({ '@type': 'Offer', url: URL_, category: 'Paid' });
  });

  it('hidden pricing publishes no offer, whatever the offers cost: not even a category ("Free" says what the page does not)', () => {
    for (const pricing_type of ['price-offers', 'price-range', 'free']) {
      const data = courseStructuredData(input({ pricing_type, minimum_price: 1000, maximum_price: 2000 }, { hidePricing: true, courseOffers: [offer('o', 1000)] }));
      expect(data).not.toHaveProperty('offers');
      expect(courseRichResultProblems(data)).toEqual(['offers missing']);
      expect(JSON.stringify(data)).not.toContain('10.00');
      expect(JSON.stringify(data)).not.toContain('Free');
    }
  });

  it("several offers: the lowest, as the page's 'From £x'; a free lowest is Partially Free", () => {
    expect(courseStructuredData(input({}, { courseOffers: [offer('a', 6000), offer('b', 4500)] })).offers).toMatchObject({ price: '45.00', category: 'Paid' });
    const partly = courseStructuredData(input({}, { courseOffers: [offer('a', 6000), offer('b', 0)] }));
    valid(partly);
    expect(partly.offers).toMatchObject({ price: '0.00', category: 'Partially Free' });
  });

  it('price range: the minimum; dated offers are used when the course has none of its own', () => {
    expect(courseStructuredData(input({ pricing_type: 'price-range', minimum_price: 450000, maximum_price: 650000 }, { courseOffers: [] })).offers)
      .toMatchObject({ price: '4500.00', category: 'Paid' });
    const dated = courseStructuredData(input({}, { courseOffers: [], occurrences: [occurrence('e', START, 2, { offers: [offer('x', 2500)] })] }));
    expect(dated.offers).toMatchObject({ price: '25.00' });
  });

  it('aggregateRating only when rated', () => {
    expect(courseStructuredData(input({}, { rating: { rating: 4.56, count: 3 } })).aggregateRating).toMatchObject({ ratingValue: '4.6', reviewCount: 3 });
    expect(courseStructuredData(input({}, { rating: { rating: 0, count: 0 } }))).not.toHaveProperty('aggregateRating');
  });
});

describe('courseRichResultProblems (the checker itself)', () => {
  it('finds what is missing', () => {
    expect(courseRichResultProblems({ '@type': 'Course', name: 'x', description: 'y', image: ['i'], provider: { '@type': 'Organization', name: 'p' }, offers: { category: 'Paid' }, hasCourseInstance: [{ '@type': 'CourseInstance', courseMode: 'Onsite' }] }))
      .toEqual(['hasCourseInstance[0] has neither courseSchedule nor courseWorkload', 'hasCourseInstance[0].location missing']);
    expect(courseRichResultProblems({ '@type': 'Course', name: 'x', description: 'y', image: ['i'], provider: { '@type': 'Organization', name: 'p' } }))
      .toEqual(['offers missing', 'hasCourseInstance missing']);
  });
});
