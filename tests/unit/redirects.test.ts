import { describe, expect, it } from 'vitest';
import {
  AUTH_REDIRECT_KEY,
  COST_SUMMARY_KEY,
  isAllowedRedirect,
  isCostSummaryCacheValid,
  postLoginDestination,
} from '../../src/domain/redirects.ts';

describe('isAllowedRedirect (spec 5)', () => {
  it.each([
    ['https://example.com/acme/pottery', true],
    ['https://acme.example.com/checkout?x=1', true],
    ['http://EXAMPLE.com/profile', true],
    ['https://example.com/?checkout=1', true],
    ['https://example.com/', false], // site root
    ['https://acme.example.com', false], // site root
    ['https://evilexample.com/steal', false],
    ['https://example.com.evil.net/steal', false],
    ['https://other.org/page', false],
    ['javascript:alert(1)', false],
    ['/relative/path', false],
    ['', false],
  ])('%s → %s', (url, allowed) => {
    expect(isAllowedRedirect(url, 'example.com')).toBe(allowed);
  });
  it('ignores a port on the allowed domain', () => {
    expect(isAllowedRedirect('http://acme.localhost:4321/x', 'localhost:4321')).toBe(true);
    expect(isAllowedRedirect('http://localhost:4321/', 'localhost:4321')).toBe(false);
  });
});

describe('postLoginDestination (spec 4 "After login")', () => {
  const adminHost = 'https://admin.example.com';
  it('stored redirect first', () => {
    expect(postLoginDestination({ storedRedirect: 'https://example.com/x', identity: { authenticated: true }, adminHost })).toBe(
      'https://example.com/x',
    );
  });
  it('educator → admin host; other user → /profile; not authenticated → home', () => {
    expect(postLoginDestination({ identity: { authenticated: true, educators: [{ id: 'e1' }] }, adminHost })).toBe(adminHost);
    expect(postLoginDestination({ identity: { authenticated: true, educators: [] }, adminHost })).toBe('/profile');
    expect(postLoginDestination({ identity: { authenticated: false }, adminHost })).toBe('/');
    expect(postLoginDestination({ storedRedirect: null, identity: null, adminHost })).toBe('/');
  });
  it('storage keys', () => {
    expect(AUTH_REDIRECT_KEY).toBe('authRedirect');
    expect(COST_SUMMARY_KEY).toBe('checkout_cost_summary');
  });
});

describe('isCostSummaryCacheValid (spec 5: 1 hour, same checkout)', () => {
  const now = 1_700_000_000;
  it('valid up to exactly one hour', () => {
    expect(isCostSummaryCacheValid({ checkoutId: 'c1', timestamp: now }, 'c1', now)).toBe(true);
    expect(isCostSummaryCacheValid({ checkoutId: 'c1', timestamp: now - 3600 }, 'c1', now)).toBe(true);
    expect(isCostSummaryCacheValid({ checkoutId: 'c1', timestamp: now - 3601 }, 'c1', now)).toBe(false);
  });
  it('another checkout, a missing entry or a future stamp is ignored', () => {
    expect(isCostSummaryCacheValid({ checkoutId: 'c2', timestamp: now }, 'c1', now)).toBe(false);
    expect(isCostSummaryCacheValid(null, 'c1', now)).toBe(false);
    expect(isCostSummaryCacheValid({ checkoutId: 'c1', timestamp: now + 5 }, 'c1', now)).toBe(false);
  });
});
