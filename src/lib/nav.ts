/**
 * Profile tabs per context (spec 2.1 links, 2.6 "Tab navigation": key, href, label; active tab
 * highlighted): every link of the spec's table that the context has, in one place for the profile
 * header, the minisite header and the embed enquiry page. The embed's enquiry page is one static
 * shell that learns its educator from ?educator={slug}.
 */
import { educatorLinks } from '../domain/links.ts';
import type { AppContext } from '../domain/app-context.ts';
import { hasEnquiryPage } from '../domain/routes.ts';

export type TabKey = 'courses' | 'about' | 'reviews' | 'enquiry' | 'memberships' | 'vouchers';

/**
 * Spec 2.1 links whose pages are not built yet, so no tab links to them. When a page lands, remove
 * its key here and its tab appears in every context that has the link.
 */
export const PENDING_TABS: ReadonlySet<TabKey> = new Set<TabKey>();

export interface Tab {
  key: TabKey;
  href: string;
  label: string;
}

export function embedEnquiryHref(educatorSlug: string, query: Record<string, string | null | undefined> = {}): string {
  const params = new URLSearchParams({ educator: educatorSlug });
  for (const [k, v] of Object.entries(query)) if (v) params.set(k, v);
  return `${educatorLinks('embed', educatorSlug).enquiry}?${params.toString()}`;
}

/** The enquiry page link in a context, with optional query (course_ref, course_name). */
export function enquiryHref(context: AppContext, educatorSlug: string, query: Record<string, string | null | undefined> = {}): string {
  if (context === 'embed') return embedEnquiryHref(educatorSlug, query);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v) params.set(k, v);
  const qs = params.toString();
  return `${educatorLinks(context, educatorSlug).enquiry}${qs ? `?${qs}` : ''}`;
}

/**
 * The waitlist page (the spec leaves its route open): marketplace /{educatorSlug}/waitlist,
 * minisite /waitlist, embed /embed/{educatorSlug}/waitlist; it reads course_ref, educator_slug and occurrence.
 */
export function waitlistHref(context: AppContext, educatorSlug: string, query: Record<string, string | null | undefined> = {}): string {
  const base = context === 'marketplace' ? `/${educatorSlug}/waitlist` : context === 'minisite' ? '/waitlist' : `/embed/${educatorSlug}/waitlist`;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v) params.set(k, v);
  const qs = params.toString();
  return `${base}${qs ? `?${qs}` : ''}`;
}

const LABELS: Record<TabKey, string> = {
  courses: 'Courses', about: 'About', reviews: 'Reviews', enquiry: 'Contact', memberships: 'Memberships', vouchers: 'Gift Vouchers',
};

/** Tab order per context: the marketplace opens on About, the minisite and embed on Courses. */
const ORDER: Record<AppContext, readonly TabKey[]> = {
  marketplace: ['about', 'courses', 'reviews', 'memberships', 'vouchers', 'enquiry'],
  minisite: ['courses', 'about', 'reviews', 'memberships', 'vouchers', 'enquiry'],
  embed: ['courses', 'about', 'reviews', 'memberships', 'vouchers', 'enquiry'],
};

/**
 * The educator's tabs in a context: each link of spec 2.1 the context has (not "none"), except pages
 * not built yet ({@link PENDING_TABS}); Contact only when the educator can be contacted (spec 2.6); Memberships and
 * Gift Vouchers only when the educator has plans listed and sells gift vouchers.
 */
export function profileTabs(
  context: AppContext,
  educator: { slug: string; can_be_contacted: boolean; vouchers_app_installed?: boolean; has_membership_plans?: boolean },
  pending: ReadonlySet<TabKey> = PENDING_TABS,
): Tab[] {
  const links = educatorLinks(context, educator.slug);
  const hrefs: Record<TabKey, string | null> = {
    courses: links.courses,
    about: links.about,
    reviews: links.reviews,
    enquiry: hasEnquiryPage(educator) ? enquiryHref(context, educator.slug) : null,
    // Memberships only for an educator with plans to join (when the page knows): an empty page is no place to send anyone.
    memberships: educator.has_membership_plans === false ? null : links.memberships,
    // Gift Vouchers only for an educator who sells them (when the page knows; a page that does not shows it and the
    // gift checkout says so).
    vouchers: educator.vouchers_app_installed === false ? null : links.vouchers,
  };
  return ORDER[context]
    .filter((key) => !pending.has(key) && hrefs[key] !== null)
    .map((key) => ({ key, href: hrefs[key] as string, label: LABELS[key] }));
}
