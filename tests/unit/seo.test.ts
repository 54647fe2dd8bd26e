/**
 * Crawler hygiene rules: titles within 65 characters, meaningful reviews-page descriptions, one
 * canonical copy per course, and which URLs the sitemaps list (src/lib/seo.ts, src/domain/crawl.ts).
 */
import { describe, expect, it } from 'vitest';
import { MAX_TITLE_LENGTH, pageTitle, reviewsPageDescription, courseCanonicalUrl, metaDescription } from '../../src/lib/seo.ts';
import { courseCanonicalContext, marketplaceSitemapPaths, minisiteSitemapPaths, robotsDisallow } from '../../src/domain/crawl.ts';
import { hasEnquiryPage } from '../../src/domain/routes.ts';

describe('pageTitle', () => {
  it('adds the suffix while the title fits in 65 characters', () => {
    expect(pageTitle('marketplace', 'Search courses')).toBe('Search courses | Course Marketplace');
    expect(pageTitle('minisite', 'Courses', 'Clay & Kiln')).toBe('Courses | Clay & Kiln');
  });

  it('drops the suffix, then the educator, then cuts on a word: never over 65', () => {
    const course = 'Beginners Wheel Throwing Taster';
    const educator = 'Clay & Kiln Pottery Studio';
    const title = pageTitle('marketplace', [`${course} – ${educator}`, course], educator);
    expect(title).toBe(`${course} – ${educator}`);
    const long = 'Level 3 Award in Emergency First Aid at Work for Schools and Nurseries (RQF)';
    expect(pageTitle('marketplace', [`${long} – Lifeline First Aid Training`, long], 'Lifeline')).toBe('Level 3 Award in Emergency First Aid at Work for Schools and…');
    for (let n = 55; n <= 80; n += 1) {
      expect(pageTitle('marketplace', 'x'.repeat(n)).length).toBeLessThanOrEqual(MAX_TITLE_LENGTH);
    }
    expect(pageTitle('marketplace', 'y'.repeat(65))).toBe('y'.repeat(65));
  });
});

describe('reviewsPageDescription', () => {
  it('says who, where, how rated — or invites the first review — in 70 to 160 characters', () => {
    const rated = reviewsPageDescription({ name: 'Clay & Kiln Pottery Studio', city: 'London' }, { rating: 4.66, count: 26 });
    expect(rated).toBe('Clay & Kiln Pottery Studio in London is rated 4.7 out of 5 from 26 reviews. Read what learners say about its courses, teaching and venues before you book.');
    const none = reviewsPageDescription({ name: 'Harmony Music Academy', city: 'Cardiff' }, null);
    expect(none).toContain('Harmony Music Academy in Cardiff has no reviews yet');
    for (const text of [rated, none, reviewsPageDescription({ name: 'A', city: null }, { rating: 5, count: 1 })]) {
      expect(text.length).toBeGreaterThanOrEqual(70);
      expect(text.length).toBeLessThanOrEqual(160);
    }
    expect(metaDescription('x'.repeat(300)).length).toBeLessThanOrEqual(160);
  });
});

describe('one canonical per course', () => {
  it('is the marketplace copy from both contexts, the minisite copy when the marketplace has none', () => {
    expect(courseCanonicalContext('clay', 'taster')).toBe('marketplace');
    expect(courseCanonicalUrl('marketplace', 'clay', 'taster')).toMatch(/^https?:\/\/[^/]+\/clay\/taster$/);
    expect(courseCanonicalUrl('minisite', 'clay', 'taster')).toBe(courseCanonicalUrl('marketplace', 'clay', 'taster'));
    expect(courseCanonicalUrl('embed', 'clay', 'taster')).toBeUndefined();
    // An educator called "search" has no marketplace pages; a course called "reviews" no marketplace course page.
    expect(courseCanonicalContext('search', 'taster')).toBe('minisite');
    expect(courseCanonicalUrl('minisite', 'search', 'taster')).toMatch(/^https?:\/\/search\.[^/]+\/taster$/);
  });
});

describe('sitemaps', () => {
  const educators = [
    { slug: 'clay', courseSlugs: ['taster', 'raku'] },
    { slug: 'search', courseSlugs: ['odd'] },
  ];

  it('the marketplace lists home, categories, about, courses, reviews and canonical course pages — not /search nor enquiry forms', () => {
    const paths = marketplaceSitemapPaths({ categorySlugs: ['pottery'], educators });
    expect(paths).toEqual(['/', '/courses/pottery', '/clay', '/clay/courses', '/clay/reviews', '/clay/taster', '/clay/raku']);
    expect(paths.some((p) => p === '/search' || p.endsWith('/enquiry') || p.endsWith('/waitlist'))).toBe(false);
  });

  it('a minisite lists its own pages, and course pages only where it holds the canonical copy', () => {
    expect(minisiteSitemapPaths(educators[0])).toEqual(['/', '/about', '/reviews']);
    expect(minisiteSitemapPaths(educators[1])).toEqual(['/', '/about', '/reviews', '/odd']);
    expect(minisiteSitemapPaths({ slug: 'search', courseSlugs: ['robots.txt'] })).toEqual(['/', '/about', '/reviews']);
  });

  /** Whether a robots.txt Disallow rule covers a path, as Google reads it: a prefix, with `*` for any characters. */
  const disallowed = (rules: string[], path: string) =>
    rules.some((rule) => new RegExp(`^${rule.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}`).test(path));

  it('lists an educator’s memberships page only when it has plans (an empty one is noindex)', () => {
    expect(marketplaceSitemapPaths({ categorySlugs: [], educators: [{ slug: 'clay', courseSlugs: [], hasMembershipPlans: true }] })).toContain('/clay/memberships');
    expect(marketplaceSitemapPaths({ categorySlugs: [], educators: [{ slug: 'clay', courseSlugs: [], hasMembershipPlans: false }] })).not.toContain('/clay/memberships');
    expect(minisiteSitemapPaths({ slug: 'clay', courseSlugs: [], hasMembershipPlans: true })).toContain('/memberships');
    expect(minisiteSitemapPaths({ slug: 'clay', courseSlugs: [] })).not.toContain('/memberships');
  });

  it('robots.txt keeps crawlers out of the API and per-visitor pages only', () => {
    const marketplace = robotsDisallow('marketplace');
    const minisite = robotsDisallow('minisite');
    for (const path of ['/api/courses', '/checkout?flow=booking', '/profile', '/login', '/logout', '/minisite/clay/']) expect(disallowed(marketplace, path), path).toBe(true);
    for (const path of ['/', '/clay', '/clay/courses', '/clay/memberships', '/search', '/embed/clay', '/embed/clay/reviews', '/embed/clay/memberships', '/courses/pottery']) {
      expect(disallowed(marketplace, path), path).toBe(false);
    }
    for (const path of ['/', '/about', '/reviews', '/memberships', '/search', '/enquiry']) expect(disallowed(minisite, path), path).toBe(false);
  });

  it('robots.txt keeps crawlers out of the gift voucher checkout, a checkout written for each visitor', () => {
    expect(disallowed(robotsDisallow('minisite'), '/gift-checkout')).toBe(true);
    expect(disallowed(robotsDisallow('marketplace'), '/embed/clay/gift-checkout?parent_origin=https%3A%2F%2Fexample.com')).toBe(true);
    expect(disallowed(robotsDisallow('marketplace'), '/embed/checkout?flow=booking')).toBe(true);
  });

  it('only educators who can be contacted have enquiry pages', () => {
    expect(hasEnquiryPage({ can_be_contacted: false })).toBe(false);
    expect(hasEnquiryPage({ can_be_contacted: true })).toBe(true);
  });
});
