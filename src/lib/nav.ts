/**
 * Profile tabs per context (spec 2.1 links, 2.6 "Tab navigation": key, href, label; active tab
 * highlighted). Memberships and gift vouchers are hidden for now. The embed's enquiry page is one
 * static shell that learns its educator from ?educator={slug}.
 */
import { educatorLinks, type AppContext } from '../domain/links.ts';

export type TabKey = 'courses' | 'about' | 'reviews' | 'enquiry';

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

export function profileTabs(context: AppContext, educator: { slug: string; can_be_contacted: boolean }): Tab[] {
  const links = educatorLinks(context, educator.slug);
  const tabs: Tab[] = [];
  const courses: Tab = { key: 'courses', href: links.courses, label: 'Courses' };
  const about: Tab | null = links.about ? { key: 'about', href: links.about, label: 'About' } : null;
  if (context === 'marketplace') {
    if (about) tabs.push(about);
    tabs.push(courses);
  } else {
    tabs.push(courses);
    if (about) tabs.push(about);
  }
  tabs.push({ key: 'reviews', href: links.reviews, label: 'Reviews' });
  if (educator.can_be_contacted) tabs.push({ key: 'enquiry', href: enquiryHref(context, educator.slug), label: 'Contact' });
  return tabs;
}
