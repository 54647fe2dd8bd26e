import { describe, expect, it } from 'vitest';
import {
  PROFILE_LINKS,
  withQuery,
  accountSectionLabel,
  adminLinks,
  categoryLink,
  claimProfileLink,
  collectionLink,
  courseAddReviewLink,
  courseLink,
  coursePageUrl,
  educatorAddReviewLink,
  educatorLinks,
  educatorPageUrl,
  listingContext,
  loginUrl,
  logoutUrl,
  minisiteOrigin,
  occurrenceLinkFromBooking,
  orderDetailsLink,
  payInvoiceLink,
} from '../../src/domain/links.ts';

const host = 'localhost:4321';
const protocol = 'http';
const same = { educatorSlug: 'acme', currentEducatorSlug: 'acme', host, protocol };
const other = { educatorSlug: 'acme', currentEducatorSlug: 'zeta', host, protocol };

describe('educatorLinks (spec 2.1)', () => {
  it('marketplace', () => {
    expect(educatorLinks('marketplace', 'acme')).toEqual({
      courses: '/acme/courses',
      about: '/acme',
      reviews: '/acme/reviews',
      enquiry: '/acme/enquiry',
      memberships: '/acme/memberships',
      vouchers: null,
    });
  });
  it('minisite', () => {
    expect(educatorLinks('minisite', 'acme')).toEqual({
      courses: '/',
      about: '/about',
      reviews: '/reviews',
      enquiry: '/enquiry',
      memberships: '/memberships',
      vouchers: '/gift-checkout',
    });
  });
  it('embed', () => {
    expect(educatorLinks('embed', 'acme')).toEqual({
      courses: '/embed/acme',
      about: null,
      reviews: '/embed/acme/reviews',
      enquiry: '/embed/enquiry',
      memberships: '/embed/acme/memberships',
      vouchers: '/embed/acme/gift-checkout',
    });
  });
  it('collection link = courses link + ?list=', () => {
    expect(collectionLink('marketplace', 'acme', 'c1')).toBe('/acme/courses?list=c1');
    expect(collectionLink('minisite', 'acme', 'c1')).toBe('/?list=c1');
    expect(collectionLink('embed', 'acme', 'c1')).toBe('/embed/acme?list=c1');
  });
});

describe('courseLink (spec 2.2)', () => {
  it('marketplace, with and without a date', () => {
    expect(courseLink('marketplace', { ...same, courseSlug: 'pottery' })).toEqual({ href: '/acme/pottery', newTab: false });
    expect(courseLink('marketplace', { ...same, courseSlug: 'pottery', occurrenceId: 'o1' })).toEqual({
      href: '/acme/pottery?occurrence=o1',
      newTab: false,
    });
  });
  it('minisite, same educator', () => {
    expect(courseLink('minisite', { ...same, courseSlug: 'pottery', occurrenceId: 'o1' })).toEqual({ href: '/pottery?occurrence=o1', newTab: false });
    expect(courseLink('minisite', { ...same, courseSlug: 'pottery' })).toEqual({ href: '/pottery', newTab: false });
  });
  it('minisite, another educator: absolute subdomain URL in a new tab', () => {
    expect(courseLink('minisite', { ...other, courseSlug: 'pottery', occurrenceId: 'o1' })).toEqual({
      href: 'http://acme.localhost:4321/pottery',
      newTab: true,
    });
    expect(courseLink('minisite', { educatorSlug: 'acme', host: 'example.com', courseSlug: 'pottery' }).href).toBe(
      'https://acme.example.com/pottery',
    );
  });
  it('embed', () => {
    expect(courseLink('embed', { ...same, courseSlug: 'pottery', occurrenceId: 'o1' })).toEqual({
      href: '/embed/acme/pottery?occurrence=o1',
      newTab: false,
    });
  });
});

describe('add-review links (spec 2.3): always nofollow', () => {
  it('course review in each context', () => {
    expect(courseAddReviewLink('marketplace', { ...same, courseSlug: 'pottery' })).toEqual({
      href: '/acme/pottery/add-review',
      newTab: false,
      rel: 'nofollow',
    });
    expect(courseAddReviewLink('minisite', { ...same, courseSlug: 'pottery' })).toEqual({ href: '/pottery/add-review', newTab: false, rel: 'nofollow' });
    expect(courseAddReviewLink('minisite', { ...other, courseSlug: 'pottery' })).toEqual({
      href: 'http://acme.localhost:4321/pottery/add-review',
      newTab: true,
      rel: 'nofollow',
    });
    expect(courseAddReviewLink('embed', { ...same, courseSlug: 'pottery' })).toEqual({
      href: 'http://acme.localhost:4321/pottery/add-review',
      newTab: true,
      rel: 'nofollow',
    });
  });
  it('educator review in each context', () => {
    expect(educatorAddReviewLink('marketplace', same)).toEqual({ href: '/acme/reviews/add-review', newTab: false, rel: 'nofollow' });
    expect(educatorAddReviewLink('minisite', same)).toEqual({ href: '/reviews/add-review', newTab: false, rel: 'nofollow' });
    expect(educatorAddReviewLink('minisite', other)).toEqual({
      href: 'http://acme.localhost:4321/reviews/add-review',
      newTab: true,
      rel: 'nofollow',
    });
    expect(educatorAddReviewLink('embed', same).href).toBe('http://acme.localhost:4321/reviews/add-review');
  });
});

describe('occurrence and order links (spec 2.4)', () => {
  const t = { courseSlug: 'pottery', occurrenceId: 'o1', bookingId: 'b1' };
  it('marketplace prefixes the educator slug', () => {
    expect(occurrenceLinkFromBooking('marketplace', { ...same, ...t })).toEqual({ href: '/acme/pottery/details/o1?booking=b1', newTab: false });
    expect(occurrenceLinkFromBooking('marketplace', { ...same, ...t, occurrenceId: null })).toEqual({
      href: '/acme/pottery/dates?booking=b1',
      newTab: false,
    });
    expect(occurrenceLinkFromBooking('marketplace', { ...same, ...t, bookingId: undefined }).href).toBe('/acme/pottery/details/o1');
  });
  it('minisite same educator is relative', () => {
    expect(occurrenceLinkFromBooking('minisite', { ...same, ...t })).toEqual({ href: '/pottery/details/o1?booking=b1', newTab: false });
    expect(occurrenceLinkFromBooking('minisite', { ...same, ...t, occurrenceId: undefined }).href).toBe('/pottery/dates?booking=b1');
  });
  it('another minisite or embed opens the minisite in a new tab', () => {
    expect(occurrenceLinkFromBooking('minisite', { ...other, ...t })).toEqual({
      href: 'http://acme.localhost:4321/pottery/details/o1?booking=b1',
      newTab: true,
    });
    expect(occurrenceLinkFromBooking('embed', { ...same, ...t })).toEqual({
      href: 'http://acme.localhost:4321/pottery/details/o1?booking=b1',
      newTab: true,
    });
  });
  it('order details: /{courseSlug}/details?orderId=', () => {
    expect(orderDetailsLink('marketplace', { ...same, courseSlug: 'pottery', orderId: 'r1' })).toEqual({
      href: '/acme/pottery/details?orderId=r1',
      newTab: false,
    });
    expect(orderDetailsLink('minisite', { ...same, courseSlug: 'pottery', orderId: 'r1' }).href).toBe('/pottery/details?orderId=r1');
    expect(orderDetailsLink('minisite', { ...other, courseSlug: 'pottery', orderId: 'r1' })).toEqual({
      href: 'http://acme.localhost:4321/pottery/details?orderId=r1',
      newTab: true,
    });
    expect(orderDetailsLink('embed', { ...same, courseSlug: 'pottery', orderId: 'r1' }).newTab).toBe(true);
  });
});

describe('other routes (spec 2.5)', () => {
  it('category and profile routes', () => {
    expect(categoryLink('arts')).toBe('/courses/arts');
    expect(PROFILE_LINKS).toEqual([
      { href: '/profile', label: 'My Courses & Bookings' },
      { href: '/profile/saved-courses', label: 'Saved' },
      { href: '/profile/settings', label: 'User Settings' },
    ]);
    expect(accountSectionLabel(1)).toBe('Student Profile');
    expect(accountSectionLabel(0)).toBe('User Profile');
  });
  it('logout', () => {
    expect(logoutUrl()).toBe('/logout');
    expect(logoutUrl('http://localhost:4321/checkout?id=1')).toBe('/logout?redirect=http%3A%2F%2Flocalhost%3A4321%2Fcheckout%3Fid%3D1');
  });
  it('claim profile: marketplace only, unclaimed only', () => {
    expect(claimProfileLink('marketplace', { slug: 'acme', claimed: false })).toEqual({ href: '/acme/claim-profile', text: 'Own this business?' });
    expect(claimProfileLink('marketplace', { slug: 'acme', claimed: true })).toBeNull();
    expect(claimProfileLink('minisite', { slug: 'acme', claimed: false })).toBeNull();
    expect(claimProfileLink('embed', { slug: 'acme' })).toBeNull();
  });
  it('login keeps redirect and adds educator unless the origin is the marketplace', () => {
    const currentUrl = 'http://acme.localhost:4321/checkout/x';
    const url = new URL(loginUrl({ host, protocol, currentUrl, educatorId: 'e1', origin: 'embed' }));
    expect(url.origin + url.pathname).toBe('http://localhost:4321/login');
    expect(url.searchParams.get('redirect')).toBe(currentUrl);
    expect(url.searchParams.get('educator')).toBe('e1');
    expect(loginUrl({ host, protocol, currentUrl, educatorId: 'e1', origin: 'landing_page' })).toContain('&educator=e1');
    const market = new URL(loginUrl({ host, protocol, currentUrl, educatorId: 'e1', origin: 'marketplace' }));
    expect(market.searchParams.has('educator')).toBe(false);
    expect(market.searchParams.get('redirect')).toBe(currentUrl);
  });
  it('admin links', () => {
    const links = adminLinks('https://admin.example.com/', 'e1');
    expect(links.dashboard).toBe('https://admin.example.com/?educator-context=e1');
    expect(links.profile).toBe('https://admin.example.com/profile?educator-context=e1');
    expect(links.course('c9')).toEqual({ href: 'https://admin.example.com/courses/c9?educator-context=e1', newTab: true });
  });
  it('educator and course page by checkout origin', () => {
    expect(educatorPageUrl('marketplace', host, 'acme', 'http')).toBe('http://localhost:4321/acme');
    expect(educatorPageUrl('embed', host, 'acme', 'http')).toBe('http://acme.localhost:4321');
    expect(educatorPageUrl('landing_page', 'example.com', 'acme')).toBe('https://acme.example.com');
    expect(coursePageUrl('marketplace', host, 'acme', 'pottery', 'http:')).toBe('http://localhost:4321/acme/pottery');
    expect(coursePageUrl('embed', host, 'acme', 'pottery', 'http:')).toBe('http://acme.localhost:4321/pottery');
    expect(minisiteOrigin('acme', host, 'http:')).toBe('http://acme.localhost:4321');
  });
  it('pay invoice links (spec 2.15) and listing context (spec 4)', () => {
    expect(payInvoiceLink('booking', 'b1')).toBe('/complete-booking/b1');
    expect(payInvoiceLink('order', 'r1')).toBe('/complete-order/r1');
    expect(listingContext('embed')).toBe('minisite');
    expect(listingContext('minisite')).toBe('minisite');
    expect(listingContext('marketplace')).toBe('marketplace');
  });
});

describe('withQuery', () => {
  it('sets parameters on a link, keeping its other parameters and fragment', () => {
    expect(withQuery('/clay/waitlist?course_ref=c1&educator_slug=clay', { occurrence: 'o 1' })).toBe('/clay/waitlist?course_ref=c1&educator_slug=clay&occurrence=o+1');
    expect(withQuery('/waitlist', { occurrence: 'o1' })).toBe('/waitlist?occurrence=o1');
    expect(withQuery('/x?occurrence=a#dates', { occurrence: 'b' })).toBe('/x?occurrence=b#dates');
  });
});
