import { describe, expect, it } from 'vitest';
import {
  addChoiceLabel,
  backToWebsiteUrl,
  embeddingOrigin,
  restrictedCourseScreen,
  availabilityErrorText,
  byEducatorText,
  deliveryOptionLabel,
  invoiceDueText,
  loggedInAsText,
  messageFieldLabel,
  voucherErrorText,
} from '../../../src/domain/checkout/messages.ts';
import {
  DATE_STEP_PAGE_SIZE,
  MAX_PREFERRED_DATES,
  PLATFORM_TERMS,
  PREFERRED_DATE_LABELS,
  VOUCHER_APPLYING_TEXT,
  VOUCHER_SUCCESS_TEXT,
} from '../../../src/domain/checkout/constants.ts';

describe('checkout constants (spec 1 / 9)', () => {
  it('figures', () => {
    expect(DATE_STEP_PAGE_SIZE).toBe(10);
    expect(MAX_PREFERRED_DATES).toBe(3);
    expect(PREFERRED_DATE_LABELS).toEqual(['First choice', 'Second choice', 'Third choice']);
    expect(PLATFORM_TERMS).toEqual({ minimumAge: 18, disputeWindowDays: 30, changeNoticeDays: 30, supportReplyHours: 24, uptimePercent: 99.99 });
    expect(VOUCHER_SUCCESS_TEXT).toBe('Voucher applied successfully!');
    expect(VOUCHER_APPLYING_TEXT).toBe('Applying...');
  });
});

describe('checkout texts (spec 2.14 / 8)', () => {
  it('voucher error "{title} {detail}"', () => {
    expect(voucherErrorText({ title: 'Invalid voucher', detail: 'This code has expired.' })).toBe('Invalid voucher This code has expired.');
    expect(voucherErrorText({ title: 'Invalid voucher' })).toBe('Invalid voucher');
  });
  it('availability error: detail or title, then the explanation', () => {
    const suffix =
      "It looks like we're having problems checking the availability on this course, you can try refreshing the page, trying again later or let us know which dates work for you and we'll get back to you to book you in.";
    expect(availabilityErrorText({ title: 'Oops', detail: 'Timeout.' })).toBe(`Timeout. ${suffix}`);
    expect(availabilityErrorText({ title: 'Oops' })).toBe(`Oops ${suffix}`);
  });
  it('other texts', () => {
    expect(loggedInAsText('ada@example.com')).toBe('You are logged in as ada@example.com');
    expect(byEducatorText('Acme')).toBe('By Acme');
    expect(messageFieldLabel('Acme')).toBe('Write a message for Acme');
    expect(invoiceDueText(1_700_000_000)).toBe('This invoice will be due by 14 November 2023.');
    expect(deliveryOptionLabel('Online', 'Acme')).toBe('Online');
    expect(deliveryOptionLabel('Educator travels', 'Acme')).toBe('In-person • I will host Acme');
    expect(deliveryOptionLabel('Student travels', 'Acme')).toBe('In-person • I will travel to Acme');
    expect(addChoiceLabel(1)).toBe('Add Second Choice');
    expect(addChoiceLabel(2)).toBe('Add Third Choice');
    expect(addChoiceLabel(3)).toBeNull();
  });
});

describe('banners and restricted course (spec 2.14 / 2.16)', () => {
  it('Back to Website only in embed with parent_window_url, and only to the embedding page\'s own origin', () => {
    const acme = 'https://acme.example';
    expect(backToWebsiteUrl('embed', 'https://acme.example/book', acme)).toBe('https://acme.example/book');
    expect(backToWebsiteUrl('embed', null, acme)).toBeNull();
    expect(backToWebsiteUrl('marketplace', 'https://acme.example/book', acme)).toBeNull();
    // Any other site, a look-alike host, another port or scheme, or no known embedding page: no link.
    expect(backToWebsiteUrl('embed', 'https://evil.example/phish', acme)).toBeNull();
    expect(backToWebsiteUrl('embed', 'https://acme.example.evil.example/', acme)).toBeNull();
    expect(backToWebsiteUrl('embed', 'https://acme.example:8443/book', acme)).toBeNull();
    expect(backToWebsiteUrl('embed', 'http://acme.example/book', acme)).toBeNull();
    expect(backToWebsiteUrl('embed', 'javascript:alert(1)', acme)).toBeNull();
    expect(backToWebsiteUrl('embed', 'https://acme.example/book', null)).toBeNull();
    expect(backToWebsiteUrl('embed', '/relative', acme)).toBeNull();
  });
  it('the embedding page\'s origin: what the browser says, never what the address says', () => {
    const self = 'https://marketplace.example';
    const base = { framed: true, ancestorOrigins: null, referrer: '', selfOrigin: self, remembered: null };
    expect(embeddingOrigin({ ...base, framed: false, ancestorOrigins: ['https://acme.example'] })).toBeNull();
    expect(embeddingOrigin({ ...base, ancestorOrigins: ['https://acme.example', 'https://top.example'] })).toBe('https://acme.example');
    expect(embeddingOrigin({ ...base, ancestorOrigins: ['null'] })).toBeNull();
    // Browsers without ancestorOrigins: the page that loaded the frame (a cross-origin referrer), else the
    // origin this frame verified earlier; our own pages as referrer prove nothing.
    expect(embeddingOrigin({ ...base, referrer: 'https://acme.example/courses' })).toBe('https://acme.example');
    expect(embeddingOrigin({ ...base, referrer: `${self}/embed/acme/course` })).toBeNull();
    expect(embeddingOrigin({ ...base, referrer: `${self}/embed/acme/course`, remembered: 'https://acme.example' })).toBe('https://acme.example');
    expect(embeddingOrigin({ ...base, referrer: 'not a url' })).toBeNull();
    expect(embeddingOrigin({ ...base, ancestorOrigins: [], referrer: 'https://acme.example/' })).toBe('https://acme.example');
  });
  it('restricted course screen states', () => {
    expect(restrictedCourseScreen({ ready: false })).toEqual({ view: 'loading' });
    expect(restrictedCourseScreen({ ready: true, authenticated: true })).toEqual({
      view: 'no-access',
      title: 'Restricted Course',
      text: 'You do not have access to this course.',
    });
    expect(restrictedCourseScreen({ ready: true, authenticated: false })).toEqual({
      view: 'login',
      text: 'You may need to log in to access this course',
      linkText: 'Login',
    });
  });
});
