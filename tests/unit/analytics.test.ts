import { describe, expect, it } from 'vitest';
import {
  COURSE_PAGE_VIEW,
  EDUCATOR_PROFILE_VIEW,
  ENQUIRY_SUBMITTED,
  EXTERNAL_REDIRECT,
  SOCIAL_LINK_TYPES,
  enquiryEventProperties,
  isSocialLinkType,
  normaliseWebsiteUrl,
  profileSocialLinks,
} from '../../src/domain/analytics.ts';

describe('analytics events (spec 1)', () => {
  it('exact names', () => {
    expect(EXTERNAL_REDIRECT).toBe('External Redirect');
    expect(ENQUIRY_SUBMITTED).toBe('Enquriy Sumbitted');
    expect(EDUCATOR_PROFILE_VIEW).toBeTruthy();
    expect(COURSE_PAGE_VIEW).toBeTruthy();
    expect(enquiryEventProperties({ _id: 'e1', name: 'Acme' })).toEqual({ educator_ref: 'e1', educator_name: 'Acme' });
  });
  it('social link types', () => {
    expect([...SOCIAL_LINK_TYPES]).toEqual(['facebook', 'instagram', 'linkedin', 'pinterest', 'twitter', 'web', 'youtube', 'tel']);
    expect(isSocialLinkType('tel')).toBe(true);
    expect(isSocialLinkType('tiktok')).toBe(false);
  });
});

describe('normaliseWebsiteUrl (spec 5)', () => {
  it.each([
    ['example.com', 'https://example.com'],
    ['www.example.com/path', 'https://www.example.com/path'],
    ['http://example.com', 'http://example.com'],
    ['https://example.com', 'https://example.com'],
    ['HTTPS://EXAMPLE.COM', 'HTTPS://EXAMPLE.COM'],
    ['  example.com ', 'https://example.com'],
    ['', ''],
  ])('%j → %j', (input, output) => {
    expect(normaliseWebsiteUrl(input)).toBe(output);
  });
});

describe('profileSocialLinks (spec 2.8)', () => {
  it('lists set profiles in order, hidden when none', () => {
    expect(profileSocialLinks({ youtube: 'youtube.com/acme', web: 'acme.com', facebook: 'https://facebook.com/acme', twitter: '' })).toEqual([
      { type: 'facebook', href: 'https://facebook.com/acme' },
      { type: 'youtube', href: 'https://youtube.com/acme' },
    ]);
    expect(profileSocialLinks({ web: 'acme.com' })).toEqual([]);
    expect(profileSocialLinks(undefined)).toEqual([]);
  });
});
