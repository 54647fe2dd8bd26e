/** The course editor's rules (src/domain/admin/course.ts, course-form.ts): money, dates, slugs, fields, safe edits. */
import { describe, expect, it } from 'vitest';
import {
  courseFieldLabel, courseInputSchema, courseRuleProblems, courseSlugMessage, epochToLocalInput, firstFreeSlug, formatPounds,
  heldByText, issuesToProperties, localInputToEpoch, parsePounds, publishProblems, spacesBelowTakenMessage, suggestCourseSlug,
} from '../../src/domain/admin/course.ts';
import { draftFromView, draftToBody, emptyOffer, newCourseDraft, type CourseViewLike } from '../../src/domain/admin/course-form.ts';

const valid = (overrides: Record<string, unknown> = {}) => courseInputSchema.parse({ name: 'Wheel', slug: 'wheel', type: 'class', delivery_modes: ['in-person'], ...overrides });

describe('money as the editor types it', () => {
  it.each([
    ['12', 1200], ['12.5', 1250], ['12.50', 1250], ['£1,234.05', 123405], [' 0 ', 0], ['0.01', 1],
  ])('%s is %i pence', (text, pence) => expect(parsePounds(text)).toBe(pence));
  it.each(['', 'abc', '12.345', '-5', '1.2.3', '£'])('%j is no amount', (text) => expect(parsePounds(text)).toBeNull());
  it('shows pence as pounds with two decimals', () => {
    expect([formatPounds(0), formatPounds(5), formatPounds(1250), formatPounds(123405)]).toEqual(['0.00', '0.05', '12.50', '1234.05']);
  });
});

describe('sale windows in UK time', () => {
  it('reads a wall-clock time in Europe/London, in summer and in winter', () => {
    expect(localInputToEpoch('2026-07-01T10:00')).toBe(Date.UTC(2026, 6, 1, 9, 0) / 1000);
    expect(localInputToEpoch('2026-01-15T10:00')).toBe(Date.UTC(2026, 0, 15, 10, 0) / 1000);
    expect(epochToLocalInput(Date.UTC(2026, 6, 1, 9, 0) / 1000)).toBe('2026-07-01T10:00');
  });
  it('reads the clock-change Sundays as the zone library does (skipped time after the jump, repeated time first)', () => {
    expect(localInputToEpoch('2026-03-29T01:30')).toBe(Date.UTC(2026, 2, 29, 1, 30) / 1000);
    expect(localInputToEpoch('2026-10-25T01:30')).toBe(Date.UTC(2026, 9, 25, 0, 30) / 1000);
  });
  it.each(['', '2026-02-30T10:00', '2026-13-01T10:00', 'tomorrow', '2026-01-01T25:00'])('%j is no date', (text) => expect(localInputToEpoch(text)).toBeNull());
});

describe('course slugs', () => {
  it('suggests one from a name', () => {
    expect(suggestCourseSlug('Raku & Pit Firing!')).toBe('raku-and-pit-firing');
    expect(suggestCourseSlug('Crème brûlée')).toBe('creme-brulee');
    expect(suggestCourseSlug('!!!')).toBe('course');
    expect(suggestCourseSlug('Reviews')).toBe('reviews-course');
  });
  it('refuses what is not lower-case words with single hyphens, and the addresses of the site\u2019s own pages', () => {
    expect(courseSlugMessage('wheel-throwing-2')).toBeNull();
    for (const bad of ['Wheel', 'wheel_throwing', '-wheel', 'wheel-', 'wheel--throwing', 'wheel throwing', '../x']) {
      expect(courseSlugMessage(bad), bad).toMatch(/^must be lower-case letters/);
    }
    for (const reserved of ['reviews', 'about', 'enquiry', 'courses', 'sitemap.xml', 'robots.txt', 'checkout', 'api', 'dates', 'details']) {
      expect(courseSlugMessage(reserved), reserved).toMatch(/is the address of another page|must be lower-case/);
    }
    expect(courseSlugMessage('')).toBe('is required');
    expect(courseSlugMessage('a'.repeat(101))).toBe('must be at most 100 characters');
  });
  it('finds a free slug for a copy', () => {
    expect(firstFreeSlug('wheel-copy', new Set())).toBe('wheel-copy');
    expect(firstFreeSlug('wheel-copy', new Set(['wheel-copy', 'wheel-copy-2']))).toBe('wheel-copy-3');
  });
});

describe('labels and messages (spec 8)', () => {
  it('names nested fields by position', () => {
    expect(courseFieldLabel('offers.0.price')).toBe('Offer 1 price');
    expect(courseFieldLabel('add_ons.2.name')).toBe('Add-on 3 name');
    expect(courseFieldLabel('sections.1.lessons.0.name')).toBe('Lesson 1 of section 2 name');
    expect(courseFieldLabel('address.postcode')).toBe('Postcode');
    expect(courseFieldLabel('slug')).toBe('Web address');
  });
  it('turns zod issues into one property a field', () => {
    const parsed = courseInputSchema.safeParse({ name: '', slug: 'Bad Slug', type: 'class', delivery_modes: ['in-person'], offers: [{ name: 'x', price: 1.5 }] });
    expect(parsed.success).toBe(false);
    const properties = issuesToProperties(parsed.error!.issues);
    expect(properties).toEqual(expect.arrayContaining([
      { key: 'name', name: 'Name', message: 'is required' },
      { key: 'offers.0.price', name: 'Offer 1 price', message: 'must be a whole number of pence' },
    ]));
    expect(properties.find((p) => p.key === 'slug')?.message).toMatch(/^must be lower-case/);
  });
});

describe('what a course\u2019s fields must agree on', () => {
  it('accepts a plain scheduled course', () => expect(courseRuleProblems(valid({ offers: [{ name: 'Standard', price: 4500 }] }))).toEqual([]));
  it('a price range names both ends, the upper at least the lower', () => {
    expect(courseRuleProblems(valid({ pricing_type: 'price-range' })).map((p) => p.key)).toEqual(['minimum_price', 'maximum_price']);
    expect(courseRuleProblems(valid({ pricing_type: 'price-range', minimum_price: 500, maximum_price: 499 }))[0]!.message).toBe('must be at least the minimum price');
    expect(courseRuleProblems(valid({ pricing_type: 'price-range', minimum_price: 500, maximum_price: 500 }))).toEqual([]);
  });
  it('a free course charges for no offer and no add-on', () => {
    const problems = courseRuleProblems(valid({ pricing_type: 'free', offers: [{ name: 'Free', price: 0 }, { name: 'Paid', price: 1 }], add_ons: [{ name: 'Mug', price: 300 }] }));
    expect(problems.map((p) => p.key)).toEqual(['offers.1.price', 'add_ons.0.price']);
  });
  it('an on-request course offers a delivery the checkout can default to (spec 4)', () => {
    const base = { type: 'on-request', delivery_modes: ['on-request'] };
    expect(courseRuleProblems(valid(base)).map((p) => p.key)).toEqual(['available_for_online_delivery']);
    expect(courseRuleProblems(valid({ ...base, available_for_online_delivery: true }))).toEqual([]);
    const inPerson = { ...base, available_for_in_person_delivery: true };
    expect(courseRuleProblems(valid({ ...inPerson, educator_travel_settings: { enabled: true, type: 'UK Wide' } }))).toEqual([]);
    expect(courseRuleProblems(valid({ ...inPerson, student_travel_settings: { enabled: true, locations: ['loc_a'] } }))).toEqual([]);
    // In person switched off vetoes the travel options, as the checkout reads it: the message says which box.
    expect(courseRuleProblems(valid({ ...base, available_for_in_person_delivery: false, educator_travel_settings: { enabled: true } })).map((p) => p.key))
      .toEqual(['available_for_in_person_delivery']);
  });
  it('calendar requests are for on-request courses with a duration of at most a day', () => {
    expect(courseRuleProblems(valid({ date_requests: 'calendar_based' }))[0]!.message).toBe('are only for on-request courses');
    const req = { type: 'on-request', delivery_modes: ['on-request'], available_for_online_delivery: true, date_requests: 'calendar_based' };
    expect(courseRuleProblems(valid({ ...req, course_duration: 1440 }))).toEqual([]);
    expect(courseRuleProblems(valid({ ...req, course_duration: 1441 }))[0]!.key).toBe('date_requests');
    expect(courseRuleProblems(valid({ ...req, course_duration: 2880, duration_pricing: [{ duration: 60 }] }))).toEqual([]);
  });
  it('checks the allowed e-mail addresses with the spec\u2019s rules', () => {
    expect(courseRuleProblems(valid({ restricted: true, restricted_emails: ['ok@example.com', 'bad@', 'x'] })).map((p) => `${p.key}: ${p.message}`))
      .toEqual(['restricted_emails.1: Invalid email domain', 'restricted_emails.2: Email address must be at least 3 characters long']);
  });
  it('an on-demand course sold by offers needs one before it is published', () => {
    expect(publishProblems({ type: 'on-demand', pricing_type: 'price-offers', name: 'x' }, [])[0]!.key).toBe('offers');
    expect(publishProblems({ type: 'on-demand', pricing_type: 'free', name: 'x' }, [])).toEqual([]);
    expect(publishProblems({ type: 'class', pricing_type: 'price-offers', name: 'x' }, [])).toEqual([]);
  });
});

describe('what learners hold', () => {
  const fmt = () => 'Sat 5 Dec';
  it('refuses spaces below the busiest date\u2019s booked and held spaces', () => {
    const dates = [{ occurrenceId: 'a', start: 1, taken: 2 }, { occurrenceId: 'b', start: 2, taken: 5 }];
    expect(spacesBelowTakenMessage(4, dates, fmt)).toBe('must be at least 5: 5 spaces are booked or held on Sat 5 Dec');
    expect(spacesBelowTakenMessage(null, dates, fmt)).toBe('must be at least 5: 5 spaces are booked or held on Sat 5 Dec');
    expect(spacesBelowTakenMessage(5, dates, fmt)).toBeNull();
    expect(spacesBelowTakenMessage(0, [{ occurrenceId: 'a', start: 1, taken: 1 }], fmt)).toBe('must be at least 1: 1 space is booked or held on Sat 5 Dec');
    expect(spacesBelowTakenMessage(0, [], fmt)).toBeNull();
  });
  it('says what holds a course', () => {
    expect(heldByText({ bookings: 1, checkouts: 0 })).toBe('1 booking on a date still to come');
    expect(heldByText({ bookings: 2, checkouts: 1, orders: 3 })).toBe('2 bookings on dates still to come, 3 orders whose learners keep access and 1 learner paying for it right now');
  });
});

describe('the editor\u2019s form', () => {
  it('converts pounds, UK times and lists to the API\u2019s body, which passes the server\u2019s schema', () => {
    const draft = { ...newCourseDraft(), name: 'Wheel', slug: 'wheel', spaces: '8', restricted: true, restricted_emails: 'a@example.com\nb@example.com' };
    draft.offers = [{ ...emptyOffer(), name: 'Standard', price: '45', spaces: '1', start: '2026-07-01T10:00' }];
    const { body, problems } = draftToBody(draft);
    expect(problems).toEqual([]);
    expect(body).toMatchObject({ spaces: 8, restricted_emails: ['a@example.com', 'b@example.com'], offers: [{ name: 'Standard', price: 4500, spaces: 1, start_at: Date.UTC(2026, 6, 1, 9) / 1000, end_at: null }] });
    expect(courseInputSchema.safeParse(body).success).toBe(true);
  });
  it('names each field it cannot convert, before anything is sent', () => {
    const draft = { ...newCourseDraft(), name: 'Wheel', slug: 'wheel', spaces: 'ten' };
    draft.offers = [{ ...emptyOffer(), name: 'Standard', price: '12.345', end: 'soon' }];
    expect(draftToBody(draft).problems.map((p) => `${p.name} ${p.message}`)).toEqual([
      'Spaces must be a whole number', 'Offer 1 price must be an amount of money, like 12.50', 'Offer 1 sale end must be a date and time',
    ]);
  });
  it('reads a saved course back into the same body', () => {
    const view: CourseViewLike = {
      ...valid({ offers: [], add_ons: [] }), id: 'crs_1', revision: 3, published: true,
      offers: [{ id: 'off_1', name: 'Standard', description: null, price: 4550, spaces: 1, start_at: null, end_at: 1_800_000_000, heldBy: 0 }],
      add_ons: [], faqs: [{ id: 'faq_1', question: 'Q?', answer: '<p>A</p>' }], sections: [{ name: 'One', lessons: [{ id: 'les_1', name: 'Intro' }] }],
    };
    const { body, problems } = draftToBody(draftFromView(view));
    expect(problems).toEqual([]);
    expect(body).toMatchObject({
      offers: [{ id: 'off_1', price: 4550, end_at: 1_800_000_000 }], faqs: [{ id: 'faq_1', question: 'Q?' }], sections: [{ name: 'One', lessons: [{ id: 'les_1', name: 'Intro' }] }],
    });
  });
});
