/**
 * The educator's tabs per context (spec 2.1 table, 2.6): every link the context has, Contact only for
 * educators who can be contacted, and memberships / gift vouchers waiting for their pages — showing
 * them is removing their key from PENDING_TABS.
 */
import { describe, expect, it } from 'vitest';
import { PENDING_TABS, profileTabs } from '../../src/lib/nav.ts';

const clay = { slug: 'clay', can_be_contacted: true, vouchers_app_installed: false };
const clayGifts = { ...clay, vouchers_app_installed: true };
const pairs = (tabs: { key: string; href: string }[]) => tabs.map((t) => [t.key, t.href]);

describe('profileTabs', () => {
  it('has every built link of spec 2.1 in each context', () => {
    expect(pairs(profileTabs('marketplace', clay))).toEqual([['about', '/clay'], ['courses', '/clay/courses'], ['reviews', '/clay/reviews'], ['memberships', '/clay/memberships'], ['enquiry', '/clay/enquiry']]);
    expect(pairs(profileTabs('minisite', clay))).toEqual([['courses', '/'], ['about', '/about'], ['reviews', '/reviews'], ['memberships', '/memberships'], ['enquiry', '/enquiry']]);
    expect(pairs(profileTabs('embed', clay))).toEqual([['courses', '/embed/clay'], ['reviews', '/embed/clay/reviews'], ['memberships', '/embed/clay/memberships'], ['enquiry', '/embed/enquiry?educator=clay']]);
    expect(profileTabs('minisite', clay).map((t) => t.label)).toEqual(['Courses', 'About', 'Reviews', 'Memberships', 'Contact']);
  });

  it('leaves Contact out for an educator who cannot be contacted', () => {
    for (const context of ['marketplace', 'minisite', 'embed'] as const) {
      expect(profileTabs(context, { slug: 'harmony', can_be_contacted: false }).some((t) => t.key === 'enquiry')).toBe(false);
    }
  });

  it('every tab of the spec table has its page (none pending): tabs follow the spec table', () => {
    expect([...PENDING_TABS]).toEqual([]);
    const none = new Set<never>();
    expect(pairs(profileTabs('marketplace', clay, none))).toContainEqual(['memberships', '/clay/memberships']);
    expect(profileTabs('marketplace', clay, none).some((t) => t.key === 'vouchers')).toBe(false); // "none" in the table
    expect(pairs(profileTabs('minisite', clayGifts, none))).toEqual(expect.arrayContaining([['memberships', '/memberships'], ['vouchers', '/gift-checkout']]));
    expect(pairs(profileTabs('embed', clayGifts, none))).toEqual(expect.arrayContaining([['memberships', '/embed/clay/memberships'], ['vouchers', '/embed/clay/gift-checkout']]));
  });

  it('leaves Memberships out for an educator with no plans listed, in every context (shown when the page does not know)', () => {
    for (const context of ['marketplace', 'minisite', 'embed'] as const) {
      expect(profileTabs(context, { ...clay, has_membership_plans: false }).some((t) => t.key === 'memberships'), context).toBe(false);
      expect(profileTabs(context, { ...clay, has_membership_plans: true }).some((t) => t.key === 'memberships'), context).toBe(true);
    }
  });

  it('shows Gift Vouchers on the minisite and in the embed of an educator who sells them (vouchers_app_installed), never on the marketplace', () => {
    expect(pairs(profileTabs('minisite', clayGifts))).toEqual([['courses', '/'], ['about', '/about'], ['reviews', '/reviews'], ['memberships', '/memberships'], ['vouchers', '/gift-checkout'], ['enquiry', '/enquiry']]);
    expect(pairs(profileTabs('embed', clayGifts))).toContainEqual(['vouchers', '/embed/clay/gift-checkout']);
    expect(profileTabs('marketplace', clayGifts).some((t) => t.key === 'vouchers')).toBe(false);
    expect(profileTabs('minisite', clay).some((t) => t.key === 'vouchers')).toBe(false);
  });
});
