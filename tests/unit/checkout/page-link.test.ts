import { describe, expect, it } from 'vitest';
import { checkoutPageHref } from '../../../src/domain/checkout/page-link.ts';
import { membershipCheckoutHref } from '../../../src/domain/memberships.ts';

describe('the link that opens the checkout page', () => {
  it('is /checkout on the marketplace, with the given parameters only', () => {
    expect(checkoutPageHref('marketplace', 'booking', { course: 'c1', occurrence: 'o1', credit: null })).toBe('/checkout?flow=booking&course=c1&occurrence=o1');
    expect(checkoutPageHref('marketplace', 'order', { course: 'c2', occurrence: undefined, credit: '1' }, 'https://parent.example/page')).toBe('/checkout?flow=order&course=c2&credit=1');
  });
  it('carries the landing_page origin on a minisite, and the embed origin and parent page in the embed', () => {
    expect(checkoutPageHref('minisite', 'request', { course: 'c3' }, 'https://parent.example/page')).toBe('/checkout?flow=request&course=c3&origin=landing_page');
    expect(checkoutPageHref('embed', 'booking', { course: 'c1', occurrence: 'o1' }, 'https://parent.example/page'))
      .toBe('/embed/checkout?flow=booking&course=c1&occurrence=o1&origin=embed&parent_window_url=https%3A%2F%2Fparent.example%2Fpage');
    expect(checkoutPageHref('embed', 'booking', { course: 'c1' })).toBe('/embed/checkout?flow=booking&course=c1&origin=embed');
  });
  it('is the Join link of a membership plan', () => {
    expect(membershipCheckoutHref('marketplace', 'clay-studio', 'plan_1')).toBe('/checkout?flow=membership&educator=clay-studio&plan=plan_1');
    expect(membershipCheckoutHref('minisite', 'clay-studio', 'plan_1')).toBe('/checkout?flow=membership&educator=clay-studio&plan=plan_1&origin=landing_page');
    expect(membershipCheckoutHref('embed', 'clay-studio', 'plan_1', 'https://p.example/')).toBe('/embed/checkout?flow=membership&educator=clay-studio&plan=plan_1&origin=embed&parent_window_url=https%3A%2F%2Fp.example%2F');
  });
});
